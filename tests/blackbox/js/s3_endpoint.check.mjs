// --s3-endpoint (issue 42): exports and imports on a real S3-compatible server, s3rver 3.7.1
// (pinned in package-lock.json), started here on a free port: an export written there (keys with
// spaces and a prefix) and imported back from its data/ folder, through PutObject, ListObjectsV2
// and GetObject; a missing bucket and an access key the server does not know give DynamoDB's
// failure codes. (s3rver checks the access key, not a Signature Version 4's value: test_s3_endpoint.py
// checks each signature against botocore's.)
// Run by the dev pass only (tests/blackbox/CMakeLists.txt), not again under the sanitizers.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import S3rver from 's3rver';
import {
  CreateTableCommand, DescribeExportCommand, DescribeImportCommand, DescribeTableCommand,
  ExportTableToPointInTimeCommand, ImportTableCommand, PutItemCommand, ScanCommand,
  UpdateContinuousBackupsCommand,
} from '@aws-sdk/client-dynamodb';
import { clientFor, startDdbd, uniqueName } from './harness.mjs';

async function until(read, done) {
  for (let tries = 0; tries < 1000; tries++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('timed out');
}

// ddbd with --s3-endpoint and these credentials in its environment.
async function ddbdWith(endpoint, accessKey) {
  const saved = { ...process.env };
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: accessKey, AWS_SECRET_ACCESS_KEY: 'S3RVER' });
  delete process.env.AWS_SESSION_TOKEN;
  try {
    return await startDdbd('--s3-endpoint', endpoint, '--pitr-lag-ms', '0');
  } finally {
    process.env = saved;
  }
}

async function tableWithItems(ddb, count) {
  const table = uniqueName('s3');
  await ddb.send(new CreateTableCommand({
    TableName: table, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  }));
  for (let i = 0; i < count; i++) {
    await ddb.send(new PutItemCommand({ TableName: table,
      Item: { pk: { S: `k${i} é/+ key` }, n: { N: String(i) }, b: { B: Uint8Array.of(0, 255) } } }));
  }
  await ddb.send(new UpdateContinuousBackupsCommand({ TableName: table,
    PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }));
  const arn = (await ddb.send(new DescribeTableCommand({ TableName: table }))).Table.TableArn;
  return { table, arn };
}

async function exported(ddb, input) {
  const started = await ddb.send(new ExportTableToPointInTimeCommand(input));
  return until(async () => (await ddb.send(new DescribeExportCommand(
    { ExportArn: started.ExportDescription.ExportArn }))).ExportDescription,
  (d) => d.ExportStatus !== 'IN_PROGRESS');
}

describe('--s3-endpoint against s3rver', () => {
  let s3rver;
  let directory;
  let endpoint;
  before(async () => {
    directory = mkdtempSync(join(tmpdir(), 'ddbd-s3rver-'));
    s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory,
      configureBuckets: [{ name: 'bucket' }] });
    const { port } = await s3rver.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  after(async () => {
    await s3rver.close();
    rmSync(directory, { recursive: true, force: true });
  });

  test('an export goes to the server and imports back from its data folder', async (t) => {
    if (process.env.DDBD_ENDPOINT) return t.skip('starts its own ddbd');
    const server = await ddbdWith(endpoint, 'S3RVER');
    try {
      const ddb = clientFor(server.endpoint);
      const { table, arn } = await tableWithItems(ddb, 30);
      const done = await exported(ddb, { TableArn: arn, S3Bucket: 'bucket', S3Prefix: 'exports/x y' });
      assert.equal(done.ExportStatus, 'COMPLETED', JSON.stringify(done));
      assert.equal(done.ItemCount, 30);
      assert.match(done.ExportManifest, /^exports\/x y\/AWSDynamoDB\/\d{14}-[0-9a-f]{8}\/manifest-summary\.json$/);
      const prefix = done.ExportManifest.replace('manifest-summary.json', 'data/');
      const target = uniqueName('s3-imported');
      const started = await ddb.send(new ImportTableCommand({
        S3BucketSource: { S3Bucket: 'bucket', S3KeyPrefix: prefix }, InputFormat: 'DYNAMODB_JSON',
        InputCompressionType: 'GZIP', TableCreationParameters: {
          TableName: target, BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }] } }));
      const imported = await until(async () => (await ddb.send(new DescribeImportCommand(
        { ImportArn: started.ImportTableDescription.ImportArn }))).ImportTableDescription,
      (d) => d.ImportStatus !== 'IN_PROGRESS');
      assert.equal(imported.ImportStatus, 'COMPLETED', JSON.stringify(imported));
      assert.equal(imported.ImportedItemCount, 30);
      const sorted = async (name) => (await ddb.send(new ScanCommand({ TableName: name }))).Items
        .map((item) => JSON.stringify(item)).sort();
      assert.deepEqual(await sorted(target), await sorted(table));

      const missing = await exported(ddb, { TableArn: arn, S3Bucket: 'no-such-bucket' });
      assert.equal(missing.ExportStatus, 'FAILED');
      assert.equal(missing.FailureCode, 'S3NoSuchBucket');
      assert.match(missing.FailureMessage, /^The specified bucket does not exist \(Service: Amazon S3; Status Code: 404; Error Code: NoSuchBucket\)$/);
    } finally {
      await server.stop();
    }
  });

  test('an access key the server does not know is S3AccessDenied', async (t) => {
    if (process.env.DDBD_ENDPOINT) return t.skip('starts its own ddbd');
    const server = await ddbdWith(endpoint, 'UNKNOWN');
    try {
      const ddb = clientFor(server.endpoint);
      const { arn } = await tableWithItems(ddb, 1);
      const done = await exported(ddb, { TableArn: arn, S3Bucket: 'bucket' });
      assert.equal(done.ExportStatus, 'FAILED');
      assert.equal(done.FailureCode, 'S3AccessDenied', JSON.stringify(done));
      assert.match(done.FailureMessage, /^The AWS Access Key Id you provided does not exist in our records\. \(Service: Amazon S3; Status Code: 403; Error Code: InvalidAccessKeyId\)$/);
    } finally {
      await server.stop();
    }
  });
});
