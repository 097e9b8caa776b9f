// Transactions through the JS SDK v3 DocumentClient: TransactWriteCommand applies all or
// nothing and reports every action's cancellation reason; TransactGetCommand reads a set.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient, GetCommand, PutCommand, TransactGetCommand, TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { clientFor, hashTable, startDdbd, uniqueName } from './harness.mjs';

describe('transactions with the JS SDK v3', () => {
  let server;
  let ddb;
  let documents;
  const table = uniqueName('tx');
  before(async () => {
    server = await startDdbd();
    ddb = clientFor(server.endpoint);
    documents = DynamoDBDocumentClient.from(ddb);
    await ddb.send(new CreateTableCommand(hashTable(table)));
    await documents.send(new PutCommand({ TableName: table, Item: { pk: 'stock', count: 1 } }));
  });
  after(async () => {
    ddb.destroy();
    await server.stop();
  });

  const order = (id) => new TransactWriteCommand({
    TransactItems: [
      {
        Update: {
          TableName: table, Key: { pk: 'stock' }, UpdateExpression: 'SET #c = #c - :one',
          ConditionExpression: '#c >= :one', ExpressionAttributeNames: { '#c': 'count' },
          ExpressionAttributeValues: { ':one': 1 }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      { Put: { TableName: table, Item: { pk: id, placed: true }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ],
  });

  test('the first order takes the last item; the second is cancelled with its reasons', async () => {
    await documents.send(order('order-1'));
    await assert.rejects(documents.send(order('order-2')), (error) => {
      assert.equal(error.name, 'TransactionCanceledException');
      assert.equal(error.message,
        'Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None]');
      assert.equal(error.CancellationReasons[0].Code, 'ConditionalCheckFailed');
      assert.equal(error.CancellationReasons[1].Code, 'None');
      return true;
    });
    const { Item } = await documents.send(new GetCommand({ TableName: table, Key: { pk: 'order-2' } }));
    assert.equal(Item, undefined);
  });

  test('TransactGetCommand returns each item or an empty entry', async () => {
    const { Responses } = await documents.send(new TransactGetCommand({
      TransactItems: [{ Get: { TableName: table, Key: { pk: 'stock' } } }, { Get: { TableName: table, Key: { pk: 'none' } } }],
    }));
    assert.deepEqual(Responses, [{ Item: { pk: 'stock', count: 0 } }, {}]);
  });
});
