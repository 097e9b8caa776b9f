// Table operations through the AWS SDK for JavaScript v3 against the real ddbd.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CreateTableCommand, DeleteTableCommand, DescribeEndpointsCommand, DescribeTableCommand,
  DynamoDBClient, ListTablesCommand,
  UpdateTableCommand, paginateListTables, waitUntilTableExists, waitUntilTableNotExists,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { clientFor, expectError, hashTable, startDdbd, uniqueName } from './harness.mjs';

describe('table operations with the JS SDK v3', () => {
  let server;
  let ddb;
  before(async () => {
    server = await startDdbd();
    ddb = clientFor(server.endpoint);
  });
  after(async () => {
    ddb.destroy();
    await server.stop();
  });

  test('the endpoint from AWS_ENDPOINT_URL_DYNAMODB alone (no code change)', async () => {
    const before = process.env.AWS_ENDPOINT_URL_DYNAMODB;
    process.env.AWS_ENDPOINT_URL_DYNAMODB = server.endpoint;
    try {
      const client = new DynamoDBClient({ region: 'us-east-1',
        credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' } });
      assert.ok(Array.isArray((await client.send(new ListTablesCommand({}))).TableNames));
      client.destroy();
    } finally {
      if (before === undefined) delete process.env.AWS_ENDPOINT_URL_DYNAMODB;
      else process.env.AWS_ENDPOINT_URL_DYNAMODB = before;
    }
  });

  test('DescribeEndpoints names the address the client used', async () => {
    const { Endpoints } = await ddb.send(new DescribeEndpointsCommand({}));
    assert.deepEqual(Endpoints, [{ Address: new URL(server.endpoint).host, CachePeriodInMinutes: 1440 }]);
  });

  test('create, describe, list, update, delete', async () => {
    const name = uniqueName();
    const created = await ddb.send(new CreateTableCommand(hashTable(name)));
    assert.equal(created.TableDescription.TableStatus, 'ACTIVE');
    assert.ok(created.TableDescription.CreationDateTime instanceof Date);
    await waitUntilTableExists({ client: ddb, maxWaitTime: 10, minDelay: 1 }, { TableName: name });
    const { Table } = await ddb.send(new DescribeTableCommand({ TableName: name }));
    assert.equal(Table.TableId, created.TableDescription.TableId);
    assert.equal(Table.BillingModeSummary.BillingMode, 'PAY_PER_REQUEST');
    assert.ok((await ddb.send(new ListTablesCommand({}))).TableNames.includes(name));
    const updated = await ddb.send(new UpdateTableCommand({
      TableName: name, BillingMode: 'PROVISIONED',
      ProvisionedThroughput: { ReadCapacityUnits: 7, WriteCapacityUnits: 8 },
    }));
    assert.deepEqual(updated.TableDescription.ProvisionedThroughput,
      { NumberOfDecreasesToday: 0, ReadCapacityUnits: 7, WriteCapacityUnits: 8 });
    const deleted = await ddb.send(new DeleteTableCommand({ TableName: name }));
    assert.equal(deleted.TableDescription.TableStatus, 'DELETING');
    await waitUntilTableNotExists({ client: ddb, maxWaitTime: 10, minDelay: 1 }, { TableName: name });
  });

  test('deletion protection refuses DeleteTable until it is disabled', async () => {
    const name = uniqueName();
    await ddb.send(new CreateTableCommand(hashTable(name, { DeletionProtectionEnabled: true })));
    const { Table } = await ddb.send(new DescribeTableCommand({ TableName: name }));
    assert.equal(Table.DeletionProtectionEnabled, true);
    await expectError(assert, ddb.send(new DeleteTableCommand({ TableName: name })), 'ValidationException',
      'Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.');
    await expectError(assert,
      ddb.send(new UpdateTableCommand({ TableName: name, DeletionProtectionEnabled: false, TableClass: 'STANDARD' })),
      'ValidationException',
      'One or more parameter values were invalid: TableClass modification must be the only operation in the request');
    await ddb.send(new UpdateTableCommand({ TableName: name, DeletionProtectionEnabled: false }));
    await ddb.send(new DeleteTableCommand({ TableName: name }));
  });

  test('paginateListTables visits every table once, in order', async () => {
    const names = Array.from({ length: 5 }, () => uniqueName('page')).sort();
    for (const name of names) await ddb.send(new CreateTableCommand(hashTable(name)));
    const seen = [];
    for await (const page of paginateListTables({ client: ddb, pageSize: 2 }, {})) {
      assert.ok(page.TableNames.length <= 2);
      seen.push(...page.TableNames);
    }
    assert.deepEqual(seen, [...seen].sort());
    assert.deepEqual(seen.filter((n) => names.includes(n)), names);
  });

  test('errors carry DynamoDB names and messages', async () => {
    await expectError(assert, ddb.send(new DescribeTableCommand({ TableName: 'no-such-table' })),
      'ResourceNotFoundException', 'Requested resource not found: Table: no-such-table not found');
    const name = uniqueName();
    await ddb.send(new CreateTableCommand(hashTable(name)));
    await expectError(assert, ddb.send(new CreateTableCommand(hashTable(name))),
      'ResourceInUseException', `Table already exists: ${name}`);
    await expectError(assert, ddb.send(new CreateTableCommand(hashTable('ab'))), 'ValidationException',
      "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: " +
      'Member must have length greater than or equal to 3');
    await expectError(assert, ddb.send(new ListTablesCommand({ Limit: 0 })), 'ValidationException',
      "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: " +
      'Member must have value greater than or equal to 1');
  });

  test('the DocumentClient wraps a client pointed at ddbd', async () => {
    const documents = DynamoDBDocumentClient.from(ddb);
    const { TableNames } = await documents.send(new ListTablesCommand({}));
    assert.ok(Array.isArray(TableNames));
  });
});
