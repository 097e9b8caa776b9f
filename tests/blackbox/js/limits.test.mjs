// Issue 15 through the JS SDK v3: control characters come back, deep and misplaced expressions
// get DynamoDB's errors (never a dead server), parenthesized SET operands work.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CreateTableCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand, UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { clientFor, expectError, hashTable, startDdbd, uniqueName } from './harness.mjs';

describe('limits and exactness with the JS SDK v3', () => {
  let server;
  let ddb;
  let documents;
  const table = uniqueName('limits');
  before(async () => {
    server = await startDdbd();
    ddb = clientFor(server.endpoint);
    documents = DynamoDBDocumentClient.from(ddb);
    await ddb.send(new CreateTableCommand(hashTable(table)));
  });
  after(async () => {
    ddb.destroy();
    await server.stop();
  });

  test('every control character comes back', async () => {
    let text = '';
    for (let c = 0; c < 32; c += 1) text += `abcdefghijklm${String.fromCharCode(c)}`;
    const item = { pk: 'control', [`v${text}`]: text };
    await documents.send(new PutCommand({ TableName: table, Item: item }));
    const { Item } = await documents.send(new GetCommand({ TableName: table, Key: { pk: 'control' } }));
    assert.deepEqual(Item, item);
  });

  test('deep nesting and too many operators are ValidationExceptions', async () => {
    const deep = `${'('.repeat(2000)}a < b${')'.repeat(2000)}`;
    await expectError(assert, documents.send(new ScanCommand({ TableName: table, FilterExpression: deep })),
      'ValidationException', 'Invalid FilterExpression: The expression has redundant parentheses;');
    await expectError(assert, documents.send(new ScanCommand({
      TableName: table, FilterExpression: `${'NOT '.repeat(1000)}a < b`,
    })), 'ValidationException',
    'Invalid FilterExpression: The expression contains too many operators; operator count: 301');
    const { TableNames } = await ddb.send(new ListTablesCommand({}));
    assert.ok(TableNames.includes(table));
  });

  test('parenthesized SET operands, as ElectroDB writes them', async () => {
    await documents.send(new PutCommand({ TableName: table, Item: { pk: 'counter', n: 10 } }));
    const { Attributes } = await documents.send(new UpdateCommand({
      TableName: table, Key: { pk: 'counter' }, ReturnValues: 'UPDATED_NEW',
      UpdateExpression: 'SET #n = (if_not_exists(#n, :zero) - :step), #m = (if_not_exists(#m, :zero) + :step)',
      ExpressionAttributeNames: { '#n': 'n', '#m': 'm' },
      ExpressionAttributeValues: { ':zero': 0, ':step': 3 },
    }));
    assert.deepEqual(Attributes, { n: 7, m: 3 });
  });
});
