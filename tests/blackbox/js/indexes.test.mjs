// Secondary indexes through the AWS SDK for JavaScript v3 and its document client: a status +
// date GSI, an inverted index, a sparse index, an LSI, paging by index, an index added to a
// populated table and then deleted, and the errors with DynamoDB's texts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CreateTableCommand, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand, DynamoDBDocumentClient, PutCommand, QueryCommand, ScanCommand, paginateQuery,
} from '@aws-sdk/lib-dynamodb';
import { clientFor, expectError, hashTable, startDdbd, uniqueName } from './harness.mjs';

const attribute = (AttributeName, AttributeType = 'S') => ({ AttributeName, AttributeType });
const key = (hash, range) => [
  { AttributeName: hash, KeyType: 'HASH' },
  ...(range ? [{ AttributeName: range, KeyType: 'RANGE' }] : []),
];

describe('secondary indexes with the JS SDK v3', () => {
  let server;
  let ddb;
  let doc;
  const table = uniqueName('js-idx');
  before(async () => {
    server = await startDdbd();
    ddb = clientFor(server.endpoint);
    doc = DynamoDBDocumentClient.from(ddb);
    await ddb.send(new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [attribute('pk'), attribute('sk'), attribute('status'),
        attribute('created', 'N'), attribute('amount', 'N')],
      KeySchema: key('pk', 'sk'),
      GlobalSecondaryIndexes: [
        { IndexName: 'by-status', KeySchema: key('status', 'created'),
          Projection: { ProjectionType: 'KEYS_ONLY' } },
        { IndexName: 'inverted', KeySchema: key('sk', 'pk'), Projection: { ProjectionType: 'ALL' } },
      ],
      LocalSecondaryIndexes: [
        { IndexName: 'by-amount', KeySchema: key('pk', 'amount'),
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['note'] } },
      ],
    }));
    const items = [];
    for (const customer of ['c1', 'c2', 'c3']) {
      for (let i = 0; i < 8; i++) {
        const item = { pk: customer, sk: `order#${i}`, created: 1000 + i, amount: 80 - i * 10,
          note: `n${i}`, secret: 'kept in the table only' };
        if (i % 4 !== 3) item.status = i % 2 ? 'open' : 'closed';  // #3 and #7: sparse
        items.push({ PutRequest: { Item: item } });
      }
    }
    for (let i = 0; i < items.length; i += 25) {
      await doc.send(new BatchWriteCommand({ RequestItems: { [table]: items.slice(i, i + 25) } }));
    }
  });
  after(async () => {
    ddb.destroy();
    await server.stop();
  });

  test('a status + date GSI answers a range, newest first, keys only', async () => {
    const query = (ScanIndexForward) => doc.send(new QueryCommand({
      TableName: table, IndexName: 'by-status', ScanIndexForward,
      KeyConditionExpression: '#s = :s AND created BETWEEN :a AND :b',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':s': 'open', ':a': 1001, ':b': 1005 },
    }));
    const backward = (await query(false)).Items;
    // Open orders are #1 and #5 of each customer.
    assert.deepEqual(backward.map((i) => i.created), [1005, 1005, 1005, 1001, 1001, 1001]);
    assert.deepEqual(Object.keys(backward[0]).sort(), ['created', 'pk', 'sk', 'status']);
    // Equal index keys keep one order (by table key), mirrored exactly when reading backward.
    const forward = (await query(true)).Items;
    assert.deepEqual(forward.map((i) => `${i.created}/${i.pk}`),
      backward.map((i) => `${i.created}/${i.pk}`).reverse());
    assert.equal(new Set(forward.slice(0, 3).map((i) => i.pk)).size, 3);
  });

  test('the inverted index finds every customer of one order number', async () => {
    const result = await doc.send(new QueryCommand({
      TableName: table, IndexName: 'inverted', KeyConditionExpression: 'sk = :o',
      ExpressionAttributeValues: { ':o': 'order#2' },
    }));
    assert.deepEqual(result.Items.map((i) => i.pk), ['c1', 'c2', 'c3']);
    assert.equal(result.Items[0].secret, 'kept in the table only');
  });

  test('a sparse index holds only items with its key; a Scan of it says so', async () => {
    const scanned = await doc.send(new ScanCommand({ TableName: table, IndexName: 'by-status',
      Select: 'COUNT' }));
    assert.equal(scanned.Count, 18);
  });

  test('an LSI orders by the second sort key and fetches unprojected attributes', async () => {
    const result = await doc.send(new QueryCommand({
      TableName: table, IndexName: 'by-amount', KeyConditionExpression: 'pk = :p AND amount < :a',
      ExpressionAttributeValues: { ':p': 'c2', ':a': 35 }, ProjectionExpression: 'amount, note, secret',
    }));
    assert.deepEqual(result.Items, [
      { amount: 10, note: 'n7', secret: 'kept in the table only' },
      { amount: 20, note: 'n6', secret: 'kept in the table only' },
      { amount: 30, note: 'n5', secret: 'kept in the table only' },
    ]);
  });

  test('paginateQuery walks an index page by page without repeats', async () => {
    const seen = [];
    let pages = 0;
    for await (const page of paginateQuery({ client: doc, pageSize: 4 }, {
      TableName: table, IndexName: 'by-status', KeyConditionExpression: '#s = :s',
      ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':s': 'closed' },
    })) {
      pages += 1;
      if (page.LastEvaluatedKey) {
        assert.deepEqual(Object.keys(page.LastEvaluatedKey).sort(), ['created', 'pk', 'sk', 'status']);
      }
      seen.push(...page.Items.map((i) => `${i.pk}/${i.sk}`));
    }
    assert.equal(seen.length, 12);
    assert.equal(new Set(seen).size, 12);
    assert.ok(pages >= 3);
  });

  test('index errors carry DynamoDB\'s texts', async () => {
    const open = { KeyConditionExpression: '#s = :s', ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':s': 'open' } };
    await expectError(assert, doc.send(new QueryCommand({ TableName: table, IndexName: 'by-status',
      ConsistentRead: true, ...open })), 'ValidationException',
    'Consistent reads are not supported on global secondary indexes');
    await expectError(assert, doc.send(new QueryCommand({ TableName: table, IndexName: 'by-status',
      Select: 'ALL_ATTRIBUTES', ...open })), 'ValidationException',
    'One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for '
      + 'global secondary index by-status because its projection type is not ALL');
    await expectError(assert, doc.send(new PutCommand({ TableName: table,
      Item: { pk: 'c9', sk: 'x', status: 5 } })), 'ValidationException',
    'One or more parameter values were invalid: Type mismatch for Index Key status Expected: S '
      + 'Actual: N IndexName: by-status');
  });

  test('an index added to a populated table is backfilled, then deleted', async () => {
    const name = uniqueName('js-backfill');
    await ddb.send(new CreateTableCommand(hashTable(name)));
    for (let i = 0; i < 50; i++) {
      await doc.send(new PutCommand({ TableName: name,
        Item: { pk: `p${i}`, ...(i % 5 ? { colour: i % 2 ? 'red' : 'blue' } : {}) } }));
    }
    const added = await ddb.send(new UpdateTableCommand({
      TableName: name, AttributeDefinitions: [attribute('colour')],
      GlobalSecondaryIndexUpdates: [{ Create: { IndexName: 'by-colour', KeySchema: key('colour'),
        Projection: { ProjectionType: 'ALL' } } }],
    }));
    const index = added.TableDescription.GlobalSecondaryIndexes[0];
    assert.equal(index.IndexStatus, 'ACTIVE');
    assert.equal(index.ItemCount, 40);
    const red = await doc.send(new QueryCommand({ TableName: name, IndexName: 'by-colour',
      KeyConditionExpression: 'colour = :c', ExpressionAttributeValues: { ':c': 'red' } }));
    assert.equal(red.Count, 20);

    await expectError(assert, ddb.send(new UpdateTableCommand({
      TableName: name, AttributeDefinitions: [attribute('size')],
      GlobalSecondaryIndexUpdates: [
        { Create: { IndexName: 'by-size', KeySchema: key('size'), Projection: { ProjectionType: 'ALL' } } },
        { Delete: { IndexName: 'by-colour' } }],
    })), 'LimitExceededException',
    'Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table');

    const removed = await ddb.send(new UpdateTableCommand({ TableName: name,
      GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: 'by-colour' } }] }));
    assert.equal(removed.TableDescription.GlobalSecondaryIndexes, undefined);
    await expectError(assert, doc.send(new QueryCommand({ TableName: name, IndexName: 'by-colour',
      KeyConditionExpression: 'colour = :c', ExpressionAttributeValues: { ':c': 'red' } })),
    'ValidationException', 'The table does not have the specified index: by-colour');
  });
});
