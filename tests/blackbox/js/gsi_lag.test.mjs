// Global secondary indexes that lag behind their table (issue 45, --gsi-lag-ms) through the JS SDK
// v3's document client: paused on the admin API, a Query of the GSI misses a write that GetItem
// already sees; resumed, the Query finds it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { clientFor, startDdbd } from './harness.mjs';

test('a GSI held behind by the admin API pause, then caught up', async () => {
  if (process.env.DDBD_ENDPOINT) return; // needs its own ddbd
  const server = await startDdbd('--gsi-lag-ms', '1', '--admin-api');
  const admin = (action) => fetch(`${server.endpoint}/_ddbd/gsi-propagation/${action}`,
    { method: 'POST', body: '{}' }).then((answer) => answer.json());
  try {
    const ddb = clientFor(server.endpoint);
    const doc = DynamoDBDocumentClient.from(ddb);
    await ddb.send(new CreateTableCommand({
      TableName: 'Orders', BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'status', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [{ IndexName: 'byStatus',
        KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }],
        Projection: { ProjectionType: 'ALL' } }],
    }));
    const byStatus = async () => (await doc.send(new QueryCommand({
      TableName: 'Orders', IndexName: 'byStatus', KeyConditionExpression: '#s = :s',
      ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':s': 'open' },
    }))).Items.map((item) => item.pk);
    assert.deepEqual(await admin('pause'), { paused: true });
    await doc.send(new PutCommand({ TableName: 'Orders', Item: { pk: 'o1', status: 'open' } }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(await byStatus(), []);
    assert.deepEqual((await doc.send(new GetCommand({ TableName: 'Orders', Key: { pk: 'o1' } })))
      .Item, { pk: 'o1', status: 'open' });
    assert.deepEqual(await admin('resume'), { paused: false });
    assert.deepEqual(await byStatus(), ['o1']);
  } finally {
    await server.stop();
  }
});
