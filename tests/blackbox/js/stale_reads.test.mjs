// Eventually consistent reads that see the past (issue 45, --stale-reads-ms) through the JS SDK v3's
// document client: a GetCommand without ConsistentRead misses a write made just before, one with
// it sees the write, and so does a read once the delay has passed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { clientFor, startDdbd } from './harness.mjs';

const STALE_MS = 2000;

test('an eventually consistent read misses a write made just before it', async () => {
  if (process.env.DDBD_ENDPOINT) return; // needs its own ddbd
  const server = await startDdbd('--stale-reads-ms', String(STALE_MS));
  try {
    const ddb = clientFor(server.endpoint);
    const doc = DynamoDBDocumentClient.from(ddb);
    await ddb.send(new CreateTableCommand({
      TableName: 'Carts', BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }));
    const wrote = Date.now();
    await doc.send(new PutCommand({ TableName: 'Carts', Item: { pk: 'c1', lines: 3 } }));
    const get = async (ConsistentRead) => (await doc.send(new GetCommand({
      TableName: 'Carts', Key: { pk: 'c1' }, ConsistentRead,
    }))).Item;
    assert.equal(await get(false), undefined);
    assert.equal((await doc.send(new ScanCommand({ TableName: 'Carts' }))).Count, 0);
    assert.deepEqual(await get(true), { pk: 'c1', lines: 3 });
    assert.ok(Date.now() - wrote < STALE_MS * 0.8, 'the reads above ran inside the window');
    await new Promise((resolve) => setTimeout(resolve, STALE_MS + 200));
    assert.deepEqual(await get(false), { pk: 'c1', lines: 3 });
  } finally {
    await server.stop();
  }
});
