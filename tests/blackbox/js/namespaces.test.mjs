// DynamoDB Local's namespaces through the JavaScript SDK v3: started with a single-dash flag and
// no -sharedDb, each access key id and region sees only its own tables, with ARNs in its region.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { clientConfig, hashTable, startDdbd } from './harness.mjs';

const signedAs = (endpoint, accessKeyId, region) => new DynamoDBClient({
  ...clientConfig(endpoint), region, credentials: { accessKeyId, secretAccessKey: 'secret' },
});

test('each access key id and region has its own tables', async () => {
  if (process.env.DDBD_ENDPOINT) return; // needs its own ddbd
  const server = await startDdbd('-inMemory');
  try {
    const alice = signedAs(server.endpoint, 'alice', 'eu-central-1');
    const created = await alice.send(new CreateTableCommand(hashTable('Orders')));
    assert.match(created.TableDescription.TableArn, /^arn:aws:dynamodb:eu-central-1:/);
    assert.deepEqual((await alice.send(new ListTablesCommand({}))).TableNames, ['Orders']);
    const bob = signedAs(server.endpoint, 'bob', 'eu-central-1');
    assert.deepEqual((await bob.send(new ListTablesCommand({}))).TableNames, []);
    const aliceElsewhere = signedAs(server.endpoint, 'alice', 'us-west-2');
    assert.deepEqual((await aliceElsewhere.send(new ListTablesCommand({}))).TableNames, []);
  } finally {
    await server.stop();
  }
});
