// Items through the JS SDK v3 and lib-dynamodb's DocumentClient against the real ddbd.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CreateTableCommand, GetItemCommand, PutItemCommand, paginateQuery, paginateScan,
} from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand, BatchWriteCommand, DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { clientFor, expectError, hashTable, startDdbd, uniqueName } from './harness.mjs';

describe('items with the JS SDK v3', () => {
  let server;
  let ddb;
  let documents;
  const table = uniqueName('items');
  before(async () => {
    server = await startDdbd();
    ddb = clientFor(server.endpoint);
    documents = DynamoDBDocumentClient.from(ddb, { marshallOptions: { removeUndefinedValues: true } });
    await ddb.send(new CreateTableCommand(hashTable(table)));
  });
  after(async () => {
    ddb.destroy();
    await server.stop();
  });

  test('DocumentClient round-trips native values', async () => {
    const item = {
      pk: 'doc', text: 'héllo', count: 42, ratio: -0.125, yes: true, nothing: null,
      bytes: new Uint8Array([0, 1, 255]), list: ['a', 1, [true]], map: { nested: { deep: 'x' } },
      tags: new Set(['red', 'blue']), scores: new Set([1, 2.5]),
    };
    await documents.send(new PutCommand({ TableName: table, Item: item }));
    const { Item } = await documents.send(new GetCommand({ TableName: table, Key: { pk: 'doc' } }));
    assert.deepEqual(Item, item);
  });

  test('numbers keep their exact digits through the low-level client', async () => {
    const n = '12345678901234567890123456789012345678';
    await ddb.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'big' }, n: { N: n }, f: { N: '1.50' } } }));
    const { Item } = await ddb.send(new GetItemCommand({ TableName: table, Key: { pk: { S: 'big' } } }));
    assert.deepEqual(Item, { pk: { S: 'big' }, n: { N: n }, f: { N: '1.5' } });
  });

  test('DocumentClient batches and deletes', async () => {
    const keys = Array.from({ length: 10 }, (_, i) => ({ pk: `batch-${i}` }));
    await documents.send(new BatchWriteCommand({
      RequestItems: { [table]: keys.map((key, i) => ({ PutRequest: { Item: { ...key, i } } })) },
    }));
    const got = await documents.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: keys } } }));
    assert.deepEqual(got.Responses[table].map((item) => item.i).sort((a, b) => a - b), [...Array(10).keys()]);
    const deleted = await documents.send(new DeleteCommand({ TableName: table, Key: keys[0], ReturnValues: 'ALL_OLD' }));
    assert.deepEqual(deleted.Attributes, { pk: 'batch-0', i: 0 });
  });

  test('conditional writes fail with ConditionalCheckFailedException and the old item', async () => {
    await documents.send(new PutCommand({ TableName: table, Item: { pk: 'cond', v: 1 } }));
    await assert.rejects(
      documents.send(new PutCommand({
        TableName: table, Item: { pk: 'cond', v: 2 }, ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      })),
      (error) => {
        assert.equal(error.name, 'ConditionalCheckFailedException');
        assert.equal(error.message, 'The conditional request failed');
        assert.deepEqual(error.Item, { pk: { S: 'cond' }, v: { N: '1' } });
        return true;
      });
    await documents.send(new PutCommand({
      TableName: table, Item: { pk: 'cond', v: 2 }, ConditionExpression: 'v = :one',
      ExpressionAttributeValues: { ':one': 1 },
    }));
    const { Item } = await documents.send(new GetCommand({ TableName: table, Key: { pk: 'cond' } }));
    assert.equal(Item.v, 2);
  });

  test('UpdateCommand: every action and ReturnValues mode', async () => {
    const update = (expression, values, returnValues, names) => documents.send(new UpdateCommand({
      TableName: table, Key: { pk: 'upd' }, UpdateExpression: expression,
      ExpressionAttributeValues: values, ExpressionAttributeNames: names, ReturnValues: returnValues,
    }));
    let result = await update('SET n = :one, l = :l, tags = :tags', {
      ':one': 1, ':l': ['a'], ':tags': new Set(['x', 'y']),
    }, 'ALL_NEW');
    assert.deepEqual(result.Attributes, { pk: 'upd', n: 1, l: ['a'], tags: new Set(['x', 'y']) });
    result = await update('SET n = n + :two, l = list_append(l, :more), #c = if_not_exists(#c, :zero) ' +
      'ADD visits :one DELETE tags :x', { ':two': 2, ':more': ['b'], ':zero': 0, ':one': 1, ':x': new Set(['x']) },
    'UPDATED_NEW', { '#c': 'created' });
    assert.deepEqual(result.Attributes, { n: 3, l: ['a', 'b'], created: 0, visits: 1, tags: new Set(['y']) });
    result = await update('REMOVE l[0], created', undefined, 'UPDATED_OLD');
    assert.deepEqual(result.Attributes, { l: ['a'], created: 0 });
    result = await update('SET n = n - :one', { ':one': 1 }, 'ALL_OLD');
    assert.equal(result.Attributes.n, 3);
    result = await update('SET n = :zero', { ':zero': 0 }, 'NONE');
    assert.equal(result.Attributes, undefined);
    await expectError(assert, update('SET pk = :v', { ':v': 'x' }), 'ValidationException',
      'One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key');
  });

  test('paginateQuery and paginateScan walk every item once, in sort-key order', async () => {
    const sorted = uniqueName('sorted');
    await ddb.send(new CreateTableCommand({
      TableName: sorted, BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'N' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
    }));
    const numbers = [5, -3, 0.25, 100, -0.5, 42, 7];
    for (const n of numbers) {
      await documents.send(new PutCommand({ TableName: sorted, Item: { pk: 'p', sk: n } }));
    }
    const queried = [];
    for await (const page of paginateQuery({ client: ddb, pageSize: 3 }, {
      TableName: sorted, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: 'p' } },
    })) {
      queried.push(...page.Items.map((item) => Number(item.sk.N)));
    }
    assert.deepEqual(queried, [...numbers].sort((a, b) => a - b));
    let scanned = 0;
    for await (const page of paginateScan({ client: ddb, pageSize: 2 }, { TableName: sorted })) {
      scanned += page.Items.length;
    }
    assert.equal(scanned, numbers.length);
  });

  test('validation errors reach the SDK with DynamoDB names and messages', async () => {
    await expectError(assert, documents.send(new PutCommand({ TableName: table, Item: { pk: 1 } })),
      'ValidationException',
      'One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N');
    await expectError(assert, documents.send(new GetCommand({ TableName: 'no-such-table', Key: { pk: 'x' } })),
      'ResourceNotFoundException', 'Requested resource not found');
    await expectError(assert, ddb.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'x' }, s: { SS: [] } } })),
      'ValidationException', 'One or more parameter values were invalid: An string set  may not be empty');
  });
});
