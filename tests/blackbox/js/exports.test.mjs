// Exports and imports through the AWS SDK for JavaScript v3: ExportTableToPointInTimeCommand into
// an --s3-dir bucket, DescribeExportCommand until COMPLETED, the data file's lines read back (gzip,
// DynamoDB JSON), ListExportsCommand, the SDK's view of a refusal; then ImportTableCommand from
// that export's data folder, DescribeImportCommand and ListImportsCommand.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import {
  CreateTableCommand, DescribeExportCommand, DescribeImportCommand, DescribeTableCommand,
  ExportTableToPointInTimeCommand, ImportTableCommand, ListExportsCommand, ListImportsCommand,
  PutItemCommand, ScanCommand, UpdateContinuousBackupsCommand,
} from '@aws-sdk/client-dynamodb';
import { clientFor, expectError, startDdbd, uniqueName } from './harness.mjs';

describe('exports with the JS SDK v3', () => {
  let server;
  let ddb;
  let s3;
  before(async () => {
    s3 = mkdtempSync(join(tmpdir(), 'ddbd-s3-'));
    mkdirSync(join(s3, 'bucket'));
    server = await startDdbd('--s3-dir', s3);
    ddb = clientFor(server.endpoint);
  });
  after(async () => {
    await server.stop();
    rmSync(s3, { recursive: true, force: true });
  });

  test('an export writes the table in DynamoDB JSON and is listed', async (t) => {
    if (process.env.DDBD_ENDPOINT) return t.skip('needs its own --s3-dir');
    const table = uniqueName('js-export');
    await ddb.send(new CreateTableCommand({
      TableName: table, BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }));
    for (let i = 0; i < 10; i++) {
      await ddb.send(new PutItemCommand({ TableName: table,
        Item: { pk: { S: `k${i}` }, n: { N: String(i) }, tags: { SS: ['x'] } } }));
    }
    const arn = (await ddb.send(new DescribeTableCommand({ TableName: table }))).Table.TableArn;
    await expectError(assert, ddb.send(new ExportTableToPointInTimeCommand({ TableArn: arn, S3Bucket: 'bucket' })),
      'PointInTimeRecoveryUnavailableException', `Point in time recovery is not enabled for table '${table}'`);
    await ddb.send(new UpdateContinuousBackupsCommand({ TableName: table,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }));
    const started = await ddb.send(new ExportTableToPointInTimeCommand({ TableArn: arn, S3Bucket: 'bucket' }));
    const exportArn = started.ExportDescription.ExportArn;
    let described;
    for (let tries = 0; tries < 500; tries++) {
      described = (await ddb.send(new DescribeExportCommand({ ExportArn: exportArn }))).ExportDescription;
      if (described.ExportStatus !== 'IN_PROGRESS') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(described.ExportStatus, 'COMPLETED');
    assert.equal(described.ItemCount, 10);
    assert.ok(described.EndTime instanceof Date);
    const folder = join(s3, 'bucket', dirname(described.ExportManifest));
    const summary = JSON.parse(readFileSync(join(s3, 'bucket', described.ExportManifest), 'utf8'));
    assert.equal(summary.itemCount, 10);
    const lines = readdirSync(join(folder, 'data')).flatMap((name) =>
      gunzipSync(readFileSync(join(folder, 'data', name))).toString().split('\n').filter(Boolean));
    const items = lines.map((line) => JSON.parse(line).Item).sort((a, b) => Number(a.n.N) - Number(b.n.N));
    assert.deepEqual(items[3], { pk: { S: 'k3' }, n: { N: '3' }, tags: { SS: ['x'] } });
    assert.equal(items.length, 10);
    const listed = await ddb.send(new ListExportsCommand({ TableArn: arn }));
    assert.deepEqual(listed.ExportSummaries, [{ ExportArn: exportArn, ExportStatus: 'COMPLETED',
      ExportType: 'FULL_EXPORT' }]);

    // The export's data folder imports into a new table, item for item (as in DynamoDB, its root
    // would not: the manifests are no items).
    const target = uniqueName('js-import');
    const prefix = `${dirname(described.ExportManifest)}/data/`;
    const imported = await ddb.send(new ImportTableCommand({
      S3BucketSource: { S3Bucket: 'bucket', S3KeyPrefix: prefix },
      InputFormat: 'DYNAMODB_JSON', InputCompressionType: 'GZIP',
      TableCreationParameters: { TableName: target, BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }] },
    }));
    const importArn = imported.ImportTableDescription.ImportArn;
    let done;
    for (let tries = 0; tries < 500; tries++) {
      done = (await ddb.send(new DescribeImportCommand({ ImportArn: importArn }))).ImportTableDescription;
      if (done.ImportStatus !== 'IN_PROGRESS') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(done.ImportStatus, 'COMPLETED');
    assert.equal(done.ImportedItemCount, 10);
    assert.equal(done.ErrorCount, 0);
    const scanned = (await ddb.send(new ScanCommand({ TableName: target }))).Items;
    assert.deepEqual(scanned.sort((a, b) => Number(a.n.N) - Number(b.n.N)), items);
    const imports = await ddb.send(new ListImportsCommand({ TableArn: done.TableArn }));
    assert.deepEqual(imports.ImportSummaryList.map((s) => s.ImportArn), [importArn]);
  });
});
