// Global tables (issue 43) through the JavaScript SDK v3 and its document client: with
// --namespaces region each region is a database; UpdateTable ReplicaUpdates makes a replica in
// another region and writes in either reach the other after --replication-delay-ms; a provisioned
// table needs write auto scaling first (UpdateTableReplicaAutoScaling), kept in every member; and
// version 2017.11.29's CreateGlobalTable joins tables made in each region, and its
// UpdateGlobalTableSettings changes every member's capacity settings; a table made STRONG
// (multi-region strong consistency) with a witness answers a write once it is in the other
// replica, and refuses a write of an item whose change is held on its way; and with --namespaces
// credentials, where a 12-digit access key id is its own account, CreateTable with
// GlobalTableSourceArn makes a replica of another account's table (multi-account global tables).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CreateGlobalTableCommand, CreateTableCommand, DescribeGlobalTableCommand,
  DescribeGlobalTableSettingsCommand, DescribeTableCommand, DescribeTableReplicaAutoScalingCommand,
  DynamoDBClient, ListGlobalTablesCommand, TransactWriteItemsCommand, UpdateGlobalTableCommand,
  UpdateGlobalTableSettingsCommand, UpdateTableCommand, UpdateTableReplicaAutoScalingCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { clientConfig, hashTable, startDdbd } from './harness.mjs';

const inRegion = (endpoint, region) => new DynamoDBClient({ ...clientConfig(endpoint), region });

async function eventually(check, seconds = 10) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

test('a replica in another region, and writes replicated both ways', async () => {
  if (process.env.DDBD_ENDPOINT) return; // needs its own ddbd
  const server = await startDdbd('--namespaces', 'region', '--replication-delay-ms', '1000');
  try {
    const east = inRegion(server.endpoint, 'us-east-1');
    const west = inRegion(server.endpoint, 'us-west-2');
    await east.send(new CreateTableCommand(hashTable('Orders')));
    const updated = await east.send(new UpdateTableCommand({
      TableName: 'Orders', ReplicaUpdates: [{ Create: { RegionName: 'us-west-2' } }],
    }));
    assert.equal(updated.TableDescription.GlobalTableVersion, '2019.11.21');
    await eventually(async () => {
      const { Table } = await west.send(new DescribeTableCommand({ TableName: 'Orders' }));
      assert.deepEqual(Table.Replicas.map((r) => [r.RegionName, r.ReplicaStatus]),
        [['us-east-1', 'ACTIVE'], ['us-west-2', 'ACTIVE']]);
    });
    const eastDocs = DynamoDBDocumentClient.from(east);
    const westDocs = DynamoDBDocumentClient.from(west);
    await eastDocs.send(new PutCommand({ TableName: 'Orders', Item: { pk: 'a', n: 1 } }));
    assert.equal((await westDocs.send(new GetCommand({ TableName: 'Orders', Key: { pk: 'a' } }))).Item,
      undefined);
    await eventually(async () => assert.deepEqual(
      (await westDocs.send(new GetCommand({ TableName: 'Orders', Key: { pk: 'a' } }))).Item,
      { pk: 'a', n: 1 }));
    await westDocs.send(new PutCommand({ TableName: 'Orders', Item: { pk: 'b', from: 'west' } }));
    await eventually(async () => assert.deepEqual(
      (await eastDocs.send(new GetCommand({ TableName: 'Orders', Key: { pk: 'b' } }))).Item,
      { pk: 'b', from: 'west' }));
    await assert.rejects(
      east.send(new UpdateTableCommand({
        TableName: 'Orders', ReplicaUpdates: [{ Create: { RegionName: 'us-east-1' } }],
      })),
      { name: 'ValidationException',
        message: 'Cannot add or delete the local region through ReplicaUpdates. Use CreateTable, '
          + 'DeleteTable, or UpdateTable as required.' });
  } finally {
    await server.stop();
  }
});

test('a provisioned table takes a replica once its writes are auto scaled', async () => {
  if (process.env.DDBD_ENDPOINT) return; // needs its own ddbd
  const server = await startDdbd('--namespaces', 'region', '--replication-delay-ms', '0');
  try {
    const east = inRegion(server.endpoint, 'us-east-1');
    const west = inRegion(server.endpoint, 'us-west-2');
    await east.send(new CreateTableCommand(hashTable('Orders', {
      BillingMode: 'PROVISIONED',
      ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
    })));
    const createWest = { TableName: 'Orders', ReplicaUpdates: [{ Create: { RegionName: 'us-west-2' } }] };
    await assert.rejects(east.send(new UpdateTableCommand(createWest)), {
      name: 'ValidationException',
      message: 'Table write capacity should either be Pay-Per-Request or AutoScaled.',
    });
    const answer = await east.send(new UpdateTableReplicaAutoScalingCommand({
      TableName: 'Orders',
      ProvisionedWriteCapacityAutoScalingUpdate: {
        MinimumUnits: 5, MaximumUnits: 40,
        ScalingPolicyUpdate: {
          PolicyName: 'writes', TargetTrackingScalingPolicyConfiguration: { TargetValue: 65 },
        },
      },
    }));
    const write = {
      MinimumUnits: 5, MaximumUnits: 40, AutoScalingDisabled: false,
      ScalingPolicies: [{
        PolicyName: 'writes', TargetTrackingScalingPolicyConfiguration: { TargetValue: 65 },
      }],
    };
    assert.deepEqual(answer.TableAutoScalingDescription.Replicas[0]
      .ReplicaProvisionedWriteCapacityAutoScalingSettings, write);
    await east.send(new UpdateTableCommand(createWest));
    await eventually(async () => {
      const { TableAutoScalingDescription: table } = await west.send(
        new DescribeTableReplicaAutoScalingCommand({ TableName: 'Orders' }));
      assert.deepEqual(table.Replicas.map((r) => [r.RegionName, r.ReplicaStatus]),
        [['us-east-1', 'ACTIVE'], ['us-west-2', 'ACTIVE']]);
      for (const replica of table.Replicas) {
        assert.deepEqual(replica.ReplicaProvisionedWriteCapacityAutoScalingSettings, write);
      }
    });
  } finally {
    await server.stop();
  }
});

test('version 2017.11.29: a global table of tables made in each region', async () => {
  if (process.env.DDBD_ENDPOINT) return; // needs its own ddbd
  const server = await startDdbd('--namespaces', 'region', '--replication-delay-ms', '0');
  try {
    const east = inRegion(server.endpoint, 'us-east-1');
    const west = inRegion(server.endpoint, 'us-west-2');
    const stream = { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' };
    for (const client of [east, west]) {
      await client.send(new CreateTableCommand(hashTable('Music', { StreamSpecification: stream })));
    }
    const { GlobalTableDescription: made } = await east.send(new CreateGlobalTableCommand({
      GlobalTableName: 'Music', ReplicationGroup: [{ RegionName: 'us-east-1' }],
    }));
    assert.equal(made.GlobalTableStatus, 'ACTIVE');
    assert.ok(made.CreationDateTime instanceof Date);
    await east.send(new UpdateGlobalTableCommand({
      GlobalTableName: 'Music', ReplicaUpdates: [{ Create: { RegionName: 'us-west-2' } }],
    }));
    const { GlobalTableDescription: described } = await west.send(
      new DescribeGlobalTableCommand({ GlobalTableName: 'Music' }));
    assert.deepEqual(described.ReplicationGroup, [{ RegionName: 'us-east-1' }, { RegionName: 'us-west-2' }]);
    const { Table } = await west.send(new DescribeTableCommand({ TableName: 'Music' }));
    assert.equal(Table.GlobalTableVersion, '2017.11.29');
    const listed = await east.send(new ListGlobalTablesCommand({ RegionName: 'us-west-2' }));
    assert.deepEqual(listed.GlobalTables.map((t) => t.GlobalTableName), ['Music']);
    const eastDocs = DynamoDBDocumentClient.from(east);
    await eastDocs.send(new PutCommand({ TableName: 'Music', Item: { pk: 'a' } }));
    // Copied with the version's own attributes, stamped where it was written.
    await eventually(async () => {
      const { Item } = await DynamoDBDocumentClient.from(west).send(
        new GetCommand({ TableName: 'Music', Key: { pk: 'a' } }));
      const { 'aws:rep:updatetime': time, ...rest } = Item;
      assert.deepEqual(rest,
        { pk: 'a', 'aws:rep:deleting': false, 'aws:rep:updateregion': 'us-east-1' });
      assert.ok(Math.abs(time - Date.now() / 1000) < 60);
    });
    await assert.rejects(west.send(new DescribeGlobalTableCommand({ GlobalTableName: 'Nope' })), {
      name: 'GlobalTableNotFoundException', message: 'Global table not found: Nope',
    });
  } finally {
    await server.stop();
  }
});

test('version 2017.11.29: every member\'s settings described and changed at once', async () => {
  if (process.env.DDBD_ENDPOINT) return; // needs its own ddbd
  const server = await startDdbd('--namespaces', 'region');
  try {
    const east = inRegion(server.endpoint, 'us-east-1');
    const west = inRegion(server.endpoint, 'us-west-2');
    const stream = { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' };
    for (const client of [east, west]) {
      await client.send(new CreateTableCommand(hashTable('Music', {
        BillingMode: 'PROVISIONED', StreamSpecification: stream,
        ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
      })));
    }
    await east.send(new CreateGlobalTableCommand({
      GlobalTableName: 'Music',
      ReplicationGroup: [{ RegionName: 'us-east-1' }, { RegionName: 'us-west-2' }],
    }));
    const updated = await west.send(new UpdateGlobalTableSettingsCommand({
      GlobalTableName: 'Music', GlobalTableProvisionedWriteCapacityUnits: 6,
      ReplicaSettingsUpdate: [{ RegionName: 'us-east-1', ReplicaProvisionedReadCapacityUnits: 8 }],
    }));
    const units = (settings) => Object.fromEntries(settings.ReplicaSettings.map((replica) => [
      replica.RegionName,
      [replica.ReplicaProvisionedReadCapacityUnits, replica.ReplicaProvisionedWriteCapacityUnits],
    ]));
    assert.deepEqual(units(updated), { 'us-east-1': [8, 6], 'us-west-2': [5, 6] });
    const described = await east.send(
      new DescribeGlobalTableSettingsCommand({ GlobalTableName: 'Music' }));
    assert.deepEqual(units(described), units(updated));
    assert.equal(described.ReplicaSettings[0].ReplicaBillingModeSummary.BillingMode, 'PROVISIONED');
    const { Table } = await east.send(new DescribeTableCommand({ TableName: 'Music' }));
    assert.equal(Table.ProvisionedThroughput.ReadCapacityUnits, 8);
    await assert.rejects(east.send(new UpdateGlobalTableSettingsCommand({
      GlobalTableName: 'Music',
      ReplicaSettingsUpdate: [{ RegionName: 'eu-west-1', ReplicaProvisionedReadCapacityUnits: 8 }],
    })), {
      name: 'ReplicaNotFoundException',
      message: 'Replica not found: the global table Music has no replica in eu-west-1',
    });
  } finally {
    await server.stop();
  }
});

test('multi-region strong consistency: a witness, writes seen at once, a conflict', async () => {
  if (process.env.DDBD_ENDPOINT) return; // needs its own ddbd
  const server = await startDdbd('--namespaces', 'region', '--admin-api',
    '--replication-delay-ms', '3000');
  try {
    const east = inRegion(server.endpoint, 'us-east-1');
    const ohio = inRegion(server.endpoint, 'us-east-2');
    await east.send(new CreateTableCommand(hashTable('Orders')));
    const { TableDescription } = await east.send(new UpdateTableCommand({
      TableName: 'Orders', MultiRegionConsistency: 'STRONG',
      ReplicaUpdates: [{ Create: { RegionName: 'us-east-2' } }],
      GlobalTableWitnessUpdates: [{ Create: { RegionName: 'us-west-2' } }],
    }));
    assert.equal(TableDescription.MultiRegionConsistency, 'STRONG');
    assert.deepEqual(TableDescription.GlobalTableWitnesses,
      [{ RegionName: 'us-west-2', WitnessStatus: 'ACTIVE' }]);
    const eastDocs = DynamoDBDocumentClient.from(east);
    const ohioDocs = DynamoDBDocumentClient.from(ohio);
    await eastDocs.send(new PutCommand({ TableName: 'Orders', Item: { pk: 'a', n: 1 } }));
    assert.deepEqual((await ohioDocs.send(new GetCommand({
      TableName: 'Orders', Key: { pk: 'a' }, ConsistentRead: true }))).Item, { pk: 'a', n: 1 });
    const pause = await fetch(`${server.endpoint}/_ddbd/replication/pause`, {
      method: 'POST', body: JSON.stringify({ source: 'us-east-1', target: 'us-east-2' }) });
    assert.equal(pause.status, 200);
    await eastDocs.send(new PutCommand({ TableName: 'Orders', Item: { pk: 'a', n: 2 } }));
    await assert.rejects(
      ohioDocs.send(new PutCommand({ TableName: 'Orders', Item: { pk: 'a', n: 3 } })),
      { name: 'ReplicatedWriteConflictException',
        message: 'The request was rejected because one or more items in the request are being '
          + 'modified by a request in another Region.' });
    await assert.rejects(
      east.send(new TransactWriteItemsCommand({ TransactItems: [
        { Put: { TableName: 'Orders', Item: { pk: { S: 't' } } } }] })),
      { name: 'ValidationException' });
  } finally {
    await server.stop();
  }
});

test('a replica in another account: CreateTable with GlobalTableSourceArn', async () => {
  if (process.env.DDBD_ENDPOINT) return; // needs its own ddbd
  const server = await startDdbd('--namespaces', 'credentials', '--replication-delay-ms', '100');
  const account = (accessKeyId, region) => new DynamoDBClient({
    ...clientConfig(server.endpoint), region, credentials: { accessKeyId, secretAccessKey: 's' },
  });
  try {
    const source = account('111111111111', 'us-east-2');
    const replica = account('222222222222', 'eu-west-1');
    const made = await source.send(new CreateTableCommand(hashTable('Music')));
    assert.equal(made.TableDescription.TableArn,
      'arn:aws:dynamodb:us-east-2:111111111111:table/Music');
    const joined = await replica.send(new CreateTableCommand({
      TableName: 'Music', GlobalTableSourceArn: made.TableDescription.TableArn,
      GlobalTableSettingsReplicationMode: 'ENABLED',
    }));
    assert.equal(joined.TableDescription.TableArn,
      'arn:aws:dynamodb:eu-west-1:222222222222:table/Music');
    assert.deepEqual(joined.TableDescription.KeySchema, [{ AttributeName: 'pk', KeyType: 'HASH' }]);
    await eventually(async () => {
      const { Table } = await source.send(new DescribeTableCommand({ TableName: 'Music' }));
      assert.equal(Table.GlobalTableSettingsReplicationMode, 'ENABLED');
      assert.deepEqual(Table.Replicas.map((r) => [r.RegionName, r.ReplicaStatus, r.ReplicaArn]), [
        ['us-east-2', 'ACTIVE', 'arn:aws:dynamodb:us-east-2:111111111111:table/Music'],
        ['eu-west-1', 'ACTIVE', 'arn:aws:dynamodb:eu-west-1:222222222222:table/Music'],
      ]);
    });
    const sourceDocs = DynamoDBDocumentClient.from(source);
    const replicaDocs = DynamoDBDocumentClient.from(replica);
    await replicaDocs.send(new PutCommand({ TableName: 'Music', Item: { pk: 'song', by: 'B' } }));
    await eventually(async () => assert.deepEqual(
      (await sourceDocs.send(new GetCommand({ TableName: 'Music', Key: { pk: 'song' } }))).Item,
      { pk: 'song', by: 'B' }));
    await assert.rejects(replica.send(new CreateTableCommand({
      TableName: 'Other', GlobalTableSourceArn: made.TableDescription.TableArn,
      GlobalTableSettingsReplicationMode: 'ENABLED',
    })), { name: 'ValidationException',
      message: "One or more parameter values were invalid: a replica has its global table's name: Music" });
  } finally {
    await server.stop();
  }
});
