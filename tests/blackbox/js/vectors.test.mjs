// Vector search through the AWS SDK for JavaScript v3 (3.1169, the first with SearchVectorsCommand)
// and its document client: a table with a vector index, items written by the document client,
// SearchVectors with a HASH condition, an index added by UpdateTable, and the SDK's errors.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CreateTableCommand, DescribeTableCommand, SearchVectorsCommand, UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { clientFor, expectError, startDdbd, uniqueName } from './harness.mjs';

// The reference COSINE distance: f32 elements, f64 sums, a zero vector scoring 1.
const f32 = (x) => Math.fround(x);
function cosine(a, b) {
  let dot = 0; let aa = 0; let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += f32(a[i]) * f32(b[i]); aa += f32(a[i]) ** 2; bb += f32(b[i]) ** 2;
  }
  return aa === 0 || bb === 0 ? 1 : 1 - dot / Math.sqrt(aa * bb);
}

describe('vector search with the JS SDK v3', () => {
  let server;
  let ddb;
  let doc;
  const table = uniqueName('js-vec');
  const rows = [];
  before(async () => {
    server = await startDdbd();
    ddb = clientFor(server.endpoint);
    doc = DynamoDBDocumentClient.from(ddb);
    await ddb.send(new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'tenant', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      VectorIndexes: [{
        IndexName: 'embedding', VectorAttribute: { AttributeName: 'embedding' }, Dimensions: 4,
        DistanceFunction: 'COSINE', Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['title'] },
        SearchSchema: [{ AttributeName: 'tenant', SearchSchemaElementType: 'HASH' }],
      }],
    }));
    for (let i = 0; i < 40; i++) {
      rows.push({ pk: `doc-${i}`, tenant: `t${i % 4}`, title: `title ${i}`, body: 'x'.repeat(i),
        embedding: [Math.sin(i), Math.cos(i), i / 40, (i % 7) - 3] });
    }
    // The document client writes the vector as a list of numbers, as DynamoDB keeps it.
    await doc.send(new BatchWriteCommand({ RequestItems: {
      [table]: rows.slice(0, 25).map((Item) => ({ PutRequest: { Item } })) } }));
    for (const Item of rows.slice(25)) await doc.send(new PutCommand({ TableName: table, Item }));
  });
  after(async () => server && server.stop());

  test('DescribeTable shows the index with its live counts', async () => {
    const { Table } = await ddb.send(new DescribeTableCommand({ TableName: table }));
    const [index] = Table.VectorIndexes;
    assert.equal(index.IndexName, 'embedding');
    assert.equal(index.IndexStatus, 'ACTIVE');
    assert.equal(index.Dimensions, 4);
    assert.equal(index.ItemCount, 40);
    assert.equal(index.IndexSizeBytes, 40 * 4 * 4);
  });

  test('SearchVectorsCommand answers the nearest items of one tenant, best first', async () => {
    const query = [0.3, 0.9, 0.5, -1];
    const answer = await ddb.send(new SearchVectorsCommand({
      TableName: table, IndexName: 'embedding', TopK: 5,
      SearchVector: query.map((x) => ({ N: String(x) })),
      SearchConditionExpression: '#t = :t',
      ExpressionAttributeNames: { '#t': 'tenant' },
      ExpressionAttributeValues: { ':t': { S: 't2' } },
      ReturnConsumedCapacity: 'TOTAL',
    }));
    const expected = rows.filter((r) => r.tenant === 't2')
      .map((r) => ({ pk: r.pk, score: cosine(query, r.embedding.map(f32)) }))
      .sort((a, b) => a.score - b.score).slice(0, 5);
    assert.deepEqual(answer.SearchResults.map((r) => r.Item.pk.S), expected.map((e) => e.pk));
    answer.SearchResults.forEach((r, i) => assert.ok(Math.abs(r.Score - expected[i].score) < 1e-9));
    // INCLUDE: the keys, the schema attribute and `title`; not the body nor the vector.
    assert.deepEqual(Object.keys(answer.SearchResults[0].Item).sort(), ['pk', 'tenant', 'title']);
    assert.ok(answer.ConsumedCapacity.VectorSearchRequestBytes > 0);
    assert.equal(answer.ConsumedCapacity.TableName, undefined);
  });

  test('an index added by UpdateTable is filled from the items', async () => {
    const { TableDescription } = await ddb.send(new UpdateTableCommand({
      TableName: table,
      VectorIndexUpdates: [{ Create: {
        IndexName: 'plain', VectorAttribute: { AttributeName: 'embedding' }, Dimensions: 4,
        DistanceFunction: 'EUCLIDEAN', Projection: { ProjectionType: 'KEYS_ONLY' } } }],
    }));
    const added = TableDescription.VectorIndexes.find((v) => v.IndexName === 'plain');
    assert.equal(added.ItemCount, 40);
    const answer = await ddb.send(new SearchVectorsCommand({
      TableName: table, IndexName: 'plain', TopK: 1,
      SearchVector: rows[17].embedding.map((x) => ({ N: String(x) })),
    }));
    assert.deepEqual(answer.SearchResults, [{ Item: { pk: { S: 'doc-17' } }, Score: 0 }]);
  });

  test('errors have DynamoDB types and texts', async () => {
    await expectError(assert, ddb.send(new SearchVectorsCommand({
      TableName: table, IndexName: 'embedding', TopK: 1,
      SearchVector: [{ N: '1' }, { N: '1e39' }, { N: '0' }, { N: '0' }],
      SearchConditionExpression: 'tenant = :t', ExpressionAttributeValues: { ':t': { S: 't0' } },
    })), 'ValidationException', 'Search vector contains invalid values. All values in the search '
      + 'vector must be a 32-bit floating-point number attribute');
    await expectError(assert, ddb.send(new SearchVectorsCommand({
      TableName: table, IndexName: 'embedding', TopK: 1,
      SearchVector: [{ N: '1' }, { N: '1' }, { N: '0' }, { N: '0' }],
      SearchConditionExpression: 'tenant <> :t', ExpressionAttributeValues: { ':t': { S: 't0' } },
    })), 'ValidationException',
    'Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression');
    await expectError(assert, ddb.send(new SearchVectorsCommand({
      TableName: 'no-such-table', IndexName: 'embedding', TopK: 1, SearchVector: [{ N: '1' }],
    })), 'ResourceNotFoundException', 'Requested resource not found: Table: no-such-table not found');
  });
});
