// --transaction-hold-ms through the JS SDK v3: a write to an item a transaction holds fails with
// TransactionConflictException; the transaction commits when its hold is over.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { clientFor, hashTable, startDdbd, uniqueName } from './harness.mjs';

describe('transactions in flight with the JS SDK v3', () => {
  let server;
  let ddb;
  let documents;
  const table = uniqueName('held');
  before(async () => {
    server = await startDdbd('--transaction-hold-ms', '500');
    ddb = clientFor(server.endpoint);
    documents = DynamoDBDocumentClient.from(ddb);
    await ddb.send(new CreateTableCommand(hashTable(table)));
  });
  after(async () => {
    ddb.destroy();
    await server.stop();
  });

  test('a held item refuses other writes until the transaction commits', async () => {
    const held = documents.send(new TransactWriteCommand({
      TransactItems: [{ Put: { TableName: table, Item: { pk: 'seat-1', by: 'first' } } }],
    }));
    await sleep(150);
    await assert.rejects(documents.send(new PutCommand({ TableName: table, Item: { pk: 'seat-1', by: 'second' } })),
      (error) => {
        assert.equal(error.name, 'TransactionConflictException');
        assert.equal(error.message, 'Transaction is ongoing for the item');
        return true;
      });
    await held;
    const { Item } = await documents.send(new GetCommand({ TableName: table, Key: { pk: 'seat-1' } }));
    assert.deepEqual(Item, { pk: 'seat-1', by: 'first' });
  });
});
