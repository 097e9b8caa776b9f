// DynamoDB Streams and Time to Live through the JS SDK v3 (@aws-sdk/client-dynamodb-streams): a
// consumer reads a table's changes across shard rollovers, unmarshalls the images, sees TTL
// deletes with the service identity, and meets the errors it must handle.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CreateTableCommand, DeleteItemCommand, GetItemCommand, PutItemCommand, UpdateTimeToLiveCommand,
  DescribeTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand,
  ListStreamsCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
  clientConfig, clientFor, expectError, hashTable, startDdbd, uniqueName,
} from './harness.mjs';

describe('streams and TTL with the JS SDK v3', () => {
  let server;
  let ddb;
  let streams;
  before(async () => {
    server = await startDdbd('--stream-shard-rollover-ms', '600', '--ttl-interval-ms', '100');
    ddb = clientFor(server.endpoint);
    streams = new DynamoDBStreamsClient(clientConfig(server.endpoint));
  });
  after(async () => {
    ddb.destroy();
    streams.destroy();
    await server.stop();
  });

  // Every record from the first shard on, following each shard to its child.
  async function readLineage(arn) {
    const { StreamDescription: stream } = await streams.send(new DescribeStreamCommand({ StreamArn: arn }));
    const ids = new Set(stream.Shards.map((shard) => shard.ShardId));
    let shard = stream.Shards.find((s) => !ids.has(s.ParentShardId));
    const records = [];
    while (shard) {
      let { ShardIterator: iterator } = await streams.send(new GetShardIteratorCommand({
        StreamArn: arn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON',
      }));
      while (iterator) {
        const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
        records.push(...page.Records);
        if (page.Records.length === 0) break;
        iterator = page.NextShardIterator;
      }
      const { StreamDescription: children } = await streams.send(new DescribeStreamCommand({
        StreamArn: arn, ShardFilter: { Type: 'CHILD_SHARDS', ShardId: shard.ShardId },
      }));
      [shard] = children.Shards;
    }
    return records;
  }

  test('a consumer reads every change across rollovers, TTL deletes included', async () => {
    const table = uniqueName('stream');
    const created = await ddb.send(new CreateTableCommand(hashTable(table, {
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    })));
    const arn = created.TableDescription.LatestStreamArn;
    await ddb.send(new UpdateTimeToLiveCommand({
      TableName: table, TimeToLiveSpecification: { AttributeName: 'expires', Enabled: true },
    }));
    const ttl = await ddb.send(new DescribeTimeToLiveCommand({ TableName: table }));
    assert.deepEqual(ttl.TimeToLiveDescription, { TimeToLiveStatus: 'ENABLED', AttributeName: 'expires' });
    await ddb.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'a' }, n: { N: '1' } } }));
    await sleep(700);  // past a rollover
    await ddb.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'a' }, n: { N: '2' } } }));
    await ddb.send(new DeleteItemCommand({ TableName: table, Key: { pk: { S: 'a' } } }));
    const expires = String(Math.floor(Date.now() / 1000) - 1);
    await ddb.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'ttl' }, expires: { N: expires } } }));
    for (let i = 0; i < 100; ++i) {
      const got = await ddb.send(new GetItemCommand({ TableName: table, Key: { pk: { S: 'ttl' } } }));
      if (!got.Item) break;
      await sleep(30);
    }
    const records = await readLineage(arn);
    assert.deepEqual(records.map((r) => [r.eventName, unmarshall(r.dynamodb.Keys).pk]),
      [['INSERT', 'a'], ['MODIFY', 'a'], ['REMOVE', 'a'], ['INSERT', 'ttl'], ['REMOVE', 'ttl']]);
    assert.deepEqual(unmarshall(records[1].dynamodb.OldImage), { pk: 'a', n: 1 });
    assert.deepEqual(unmarshall(records[1].dynamodb.NewImage), { pk: 'a', n: 2 });
    assert.equal(records[2].userIdentity, undefined);
    assert.deepEqual(records[4].userIdentity, { Type: 'Service', PrincipalId: 'dynamodb.amazonaws.com' });
    assert.ok(records[0].dynamodb.ApproximateCreationDateTime instanceof Date);
    const listed = await streams.send(new ListStreamsCommand({ TableName: table }));
    assert.deepEqual(listed.Streams.map((s) => s.StreamArn), [arn]);
  });

  test('errors a consumer must handle', async () => {
    const table = uniqueName('stream');
    const created = await ddb.send(new CreateTableCommand(hashTable(table, {
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' },
    })));
    const arn = created.TableDescription.LatestStreamArn;
    await assert.rejects(streams.send(new DescribeStreamCommand({ StreamArn: arn.replace(table, 'missing') })),
      (error) => error.name === 'ResourceNotFoundException');
    await assert.rejects(streams.send(new GetRecordsCommand({ ShardIterator: `${arn}|1|zz` })),
      (error) => error.name === 'ValidationException');
    await expectError(assert, ddb.send(new UpdateTimeToLiveCommand({
      TableName: table, TimeToLiveSpecification: { AttributeName: 'x', Enabled: false },
    })), 'ValidationException', 'TimeToLive is already disabled');
  });
});
