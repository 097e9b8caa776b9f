// ReturnConsumedCapacity and ReturnItemCollectionMetrics through the JS SDK v3: the shapes and
// figures an application reads (TOTAL, INDEXES, per-table batch entries, LSI collection sizes).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BatchWriteItemCommand, CreateTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { clientFor, hashTable, startDdbd, uniqueName } from './harness.mjs';

describe('consumed capacity with the JS SDK v3', () => {
  let server;
  let ddb;
  let documents;
  const plain = uniqueName('cap');
  const indexed = uniqueName('cap-idx');
  before(async () => {
    server = await startDdbd();
    ddb = clientFor(server.endpoint);
    documents = DynamoDBDocumentClient.from(ddb);
    await ddb.send(new CreateTableCommand(hashTable(plain)));
    await ddb.send(new CreateTableCommand({
      TableName: indexed,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' },
        { AttributeName: 'status', AttributeType: 'S' }, { AttributeName: 'rank', AttributeType: 'N' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
      GlobalSecondaryIndexes: [{
        IndexName: 'by-status', Projection: { ProjectionType: 'ALL' },
        KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }],
      }],
      LocalSecondaryIndexes: [{
        IndexName: 'by-rank', Projection: { ProjectionType: 'KEYS_ONLY' },
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'rank', KeyType: 'RANGE' }],
      }],
    }));
  });
  after(async () => {
    ddb.destroy();
    await server.stop();
  });

  test('TOTAL on single-item writes and reads', async () => {
    const item = { pk: 'a', data: 'x'.repeat(1021) }; // 2 + 1 + 4 + 1021 = 1028 bytes
    const put = await documents.send(new PutCommand({ TableName: plain, Item: item, ReturnConsumedCapacity: 'TOTAL' }));
    assert.deepEqual(put.ConsumedCapacity, { TableName: plain, CapacityUnits: 2 });
    const get = await documents.send(new GetCommand({ TableName: plain, Key: { pk: 'a' }, ReturnConsumedCapacity: 'TOTAL' }));
    assert.deepEqual(get.ConsumedCapacity, { TableName: plain, CapacityUnits: 0.5 });
    const update = await documents.send(new UpdateCommand({
      TableName: plain, Key: { pk: 'a' }, UpdateExpression: 'REMOVE #d', ExpressionAttributeNames: { '#d': 'data' },
      ReturnConsumedCapacity: 'TOTAL',
    }));
    assert.equal(update.ConsumedCapacity.CapacityUnits, 2); // the larger, older image
  });

  test('INDEXES names each index that cost something', async () => {
    const put = await documents.send(new PutCommand({
      TableName: indexed, Item: { pk: 'p', sk: '1', status: 'open', rank: 1 }, ReturnConsumedCapacity: 'INDEXES',
    }));
    assert.deepEqual(put.ConsumedCapacity, {
      TableName: indexed, CapacityUnits: 3, Table: { CapacityUnits: 1 },
      GlobalSecondaryIndexes: { 'by-status': { CapacityUnits: 1 } },
      LocalSecondaryIndexes: { 'by-rank': { CapacityUnits: 1 } },
    });
    const query = await documents.send(new QueryCommand({
      TableName: indexed, IndexName: 'by-status', KeyConditionExpression: '#s = :s',
      ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':s': 'open' },
      ReturnConsumedCapacity: 'INDEXES',
    }));
    assert.deepEqual(query.ConsumedCapacity, {
      TableName: indexed, CapacityUnits: 0.5, Table: { CapacityUnits: 0 },
      GlobalSecondaryIndexes: { 'by-status': { CapacityUnits: 0.5 } },
    });
  });

  test('item collection metrics for tables with a local index; batches per table', async () => {
    const put = await documents.send(new PutCommand({
      TableName: indexed, Item: { pk: 'icm', sk: '1' }, ReturnItemCollectionMetrics: 'SIZE',
    }));
    assert.deepEqual(put.ItemCollectionMetrics, { ItemCollectionKey: { pk: 'icm' }, SizeEstimateRangeGB: [0, 1] });
    const batch = await ddb.send(new BatchWriteItemCommand({
      RequestItems: {
        [indexed]: [{ PutRequest: { Item: { pk: { S: 'icm' }, sk: { S: '2' } } } }],
        [plain]: [{ PutRequest: { Item: { pk: { S: 'b' } } } }, { DeleteRequest: { Key: { pk: { S: 'none' } } } }],
      },
      ReturnConsumedCapacity: 'TOTAL',
      ReturnItemCollectionMetrics: 'SIZE',
    }));
    assert.deepEqual(batch.ConsumedCapacity, [
      { TableName: indexed, CapacityUnits: 1 }, { TableName: plain, CapacityUnits: 2 }]);
    assert.deepEqual(batch.ItemCollectionMetrics, {
      [indexed]: [{ ItemCollectionKey: { pk: { S: 'icm' } }, SizeEstimateRangeGB: [0, 1] }],
    });
  });
});
