// Multi-attribute keys of global secondary indexes through the AWS SDK for JavaScript v3 and its
// document client: a (customer, status) partition ordered by (year, amount), queried left to
// right, paged, added by UpdateTable to a populated table, and the refusals with DynamoDB's texts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CreateTableCommand, DescribeTableCommand, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand, DynamoDBDocumentClient, QueryCommand, UpdateCommand, paginateQuery,
} from '@aws-sdk/lib-dynamodb';
import { clientFor, expectError, startDdbd, uniqueName } from './harness.mjs';

const attribute = (AttributeName, AttributeType = 'S') => ({ AttributeName, AttributeType });
const keySchema = (hashes, ranges) => [
  ...hashes.map((AttributeName) => ({ AttributeName, KeyType: 'HASH' })),
  ...ranges.map((AttributeName) => ({ AttributeName, KeyType: 'RANGE' })),
];
const INDEX = 'by-customer-status';
const indexKey = keySchema(['customer', 'status'], ['year', 'amount']);

describe('multi-attribute GSI keys with the JS SDK v3', () => {
  let server;
  let ddb;
  let doc;
  const table = uniqueName('js-multi');
  // `status` and `year` are reserved words: named by #s and #y where the condition uses them.
  const query = (KeyConditionExpression, values, extra = {}) => {
    const names = Object.fromEntries([['#s', 'status'], ['#y', 'year']]
      .filter(([name]) => KeyConditionExpression.includes(name)));
    return doc.send(new QueryCommand({
      TableName: table, IndexName: INDEX, KeyConditionExpression,
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values, ...extra,
    }));
  };
  before(async () => {
    server = await startDdbd();
    ddb = clientFor(server.endpoint);
    doc = DynamoDBDocumentClient.from(ddb);
    await ddb.send(new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [attribute('pk'), attribute('customer'), attribute('status'),
        attribute('year', 'N'), attribute('amount', 'N')],
      KeySchema: keySchema(['pk'], []),
      GlobalSecondaryIndexes: [{ IndexName: INDEX, KeySchema: indexKey,
        Projection: { ProjectionType: 'ALL' } }],
    }));
    const items = [];
    for (let i = 0; i < 40; i++) {
      items.push({ PutRequest: { Item: {
        pk: `order-${i}`, customer: `c${i % 2}`, status: i % 4 < 2 ? 'open' : 'shipped',
        year: 2020 + (i % 3), amount: 100 - i,
      } } });
    }
    for (let i = 0; i < items.length; i += 25) {
      await doc.send(new BatchWriteCommand({ RequestItems: { [table]: items.slice(i, i + 25) } }));
    }
  });
  after(async () => {
    ddb.destroy();
    await server.stop();
  });

  test('DescribeTable echoes the key schema in order', async () => {
    const described = await ddb.send(new DescribeTableCommand({ TableName: table }));
    assert.deepEqual(described.Table.GlobalSecondaryIndexes[0].KeySchema, indexKey);
  });

  test('a partition orders by year, then amount, and pages', async () => {
    const values = { ':c': 'c0', ':s': 'open' };
    const pages = paginateQuery({ client: doc, pageSize: 3 }, {
      TableName: table, IndexName: INDEX, KeyConditionExpression: 'customer = :c AND #s = :s',
      ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: values,
    });
    const seen = [];
    for await (const page of pages) seen.push(...page.Items.map((i) => [i.year, i.amount]));
    // Orders 0, 4, 8, ..., 36 of customer c0 are open.
    const expected = [];
    for (let i = 0; i < 40; i += 4) expected.push([2020 + (i % 3), 100 - i]);
    expected.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    assert.deepEqual(seen, expected);
    const newest = await query('customer = :c AND #s = :s AND #y = :y AND amount >= :a',
      { ...values, ':y': 2021, ':a': 80 }, { ScanIndexForward: false });
    assert.deepEqual(newest.Items.map((i) => i.amount), [96, 84]);
  });

  test('an update moves an item between partitions', async () => {
    await doc.send(new UpdateCommand({ TableName: table, Key: { pk: 'order-0' },
      UpdateExpression: 'SET #s = :s', ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':s': 'lost' } }));
    const lost = await query('customer = :c AND #s = :s', { ':c': 'c0', ':s': 'lost' });
    assert.deepEqual(lost.Items.map((i) => i.pk), ['order-0']);
  });

  test('conditions go left to right', async () => {
    await expectError(assert, query('customer = :c AND amount = :a', { ':c': 'c0', ':a': 1 }),
      'ValidationException',
      'HASH key attributes status must have equality conditions specified in the query');
    await expectError(assert,
      query('customer = :c AND #s = :s AND amount = :a', { ':c': 'c0', ':s': 'open', ':a': 1 }),
      'ValidationException',
      'RANGE key attributes year must have equality conditions specified in the query because a '
      + 'condition is present on key attribute amount');
  });

  test('an index added to a populated table is backfilled', async () => {
    const other = uniqueName('js-multi');
    await ddb.send(new CreateTableCommand({
      TableName: other, BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions: [attribute('pk')],
      KeySchema: keySchema(['pk'], []),
    }));
    const items = [];
    for (let i = 0; i < 10; i++) {
      items.push({ PutRequest: { Item: { pk: `p${i}`, a: 'x', b: i % 2, c: `c${9 - i}` } } });
    }
    await doc.send(new BatchWriteCommand({ RequestItems: { [other]: items } }));
    await ddb.send(new UpdateTableCommand({
      TableName: other,
      AttributeDefinitions: [attribute('a'), attribute('b', 'N'), attribute('c')],
      GlobalSecondaryIndexUpdates: [{ Create: { IndexName: 'ab-c',
        KeySchema: keySchema(['a', 'b'], ['c']), Projection: { ProjectionType: 'KEYS_ONLY' } } }],
    }));
    const result = await doc.send(new QueryCommand({
      TableName: other, IndexName: 'ab-c', KeyConditionExpression: 'a = :a AND b = :b',
      ExpressionAttributeValues: { ':a': 'x', ':b': 1 },
    }));
    assert.deepEqual(result.Items.map((i) => i.c), ['c0', 'c2', 'c4', 'c6', 'c8']);
  });
});
