// --enforce-throughput through the JS SDK v3: a provisioned table over its capacity answers
// ProvisionedThroughputExceededException with its ThrottlingReasons, and the SDK's own retries
// (standard mode) recover once the bucket refills.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CreateTableCommand, DescribeTableCommand, DynamoDBClient, PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { clientFor, startDdbd, uniqueName } from './harness.mjs';

describe('throttling with the JS SDK v3', () => {
  let server;
  let ddb;
  const table = uniqueName('thr');
  before(async () => {
    server = await startDdbd('--enforce-throughput');
    ddb = clientFor(server.endpoint);
    await ddb.send(new CreateTableCommand({
      TableName: table,
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
    }));
  });
  after(async () => {
    ddb.destroy();
    await server.stop();
  });

  test('over capacity: ProvisionedThroughputExceededException, then the SDK retries through', async () => {
    let refused;
    for (let i = 0; i < 50 && !refused; i += 1) {
      try {
        await ddb.send(new PutItemCommand({ TableName: table, Item: { pk: { S: `p${i}` } } }));
      } catch (error) {
        refused = error;
      }
    }
    assert.ok(refused, 'never throttled');
    assert.equal(refused.name, 'ProvisionedThroughputExceededException');
    const { Table } = await ddb.send(new DescribeTableCommand({ TableName: table }));
    assert.deepEqual(refused.ThrottlingReasons,
      [{ reason: 'TableWriteProvisionedThroughputExceeded', resource: Table.TableArn }]);
    const retrying = new DynamoDBClient({
      endpoint: server.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
      maxAttempts: 10,
    });
    const answer = await retrying.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'last' } } }));
    assert.ok(answer.$metadata.attempts >= 2);
    retrying.destroy();
  });
});
