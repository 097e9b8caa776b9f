// On-demand backups through the AWS SDK for JavaScript v3: a backup of a table, listed, restored
// into a new table that holds the same items, then deleted; the SDK's error classes for a backup
// that is gone and a target that exists.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CreateBackupCommand, CreateTableCommand, DeleteBackupCommand, DescribeBackupCommand,
  ListBackupsCommand, RestoreTableFromBackupCommand,
} from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { clientFor, expectError, hashTable, startDdbd, uniqueName } from './harness.mjs';

describe('backups with the JS SDK v3', () => {
  let server;
  let ddb;
  let doc;
  const table = uniqueName('js-bk');
  before(async () => {
    server = await startDdbd();
    ddb = clientFor(server.endpoint);
    doc = DynamoDBDocumentClient.from(ddb);
    await ddb.send(new CreateTableCommand(hashTable(table)));
    const items = [];
    for (let i = 0; i < 12; i++) {
      items.push({ PutRequest: { Item: { pk: `p${i}`, n: i, tags: new Set(['a', `t${i}`]) } } });
    }
    await doc.send(new BatchWriteCommand({ RequestItems: { [table]: items } }));
  });
  after(async () => {
    ddb.destroy();
    await server.stop();
  });

  test('back up, list, restore, delete', async () => {
    const { BackupDetails } = await ddb.send(new CreateBackupCommand({
      TableName: table, BackupName: 'before-migration',
    }));
    assert.equal(BackupDetails.BackupStatus, 'CREATING');
    assert.ok(BackupDetails.BackupCreationDateTime instanceof Date);
    const listed = await ddb.send(new ListBackupsCommand({ TableName: table }));
    assert.deepEqual(listed.BackupSummaries.map((b) => b.BackupArn), [BackupDetails.BackupArn]);
    const target = uniqueName('js-restored');
    const restored = await ddb.send(new RestoreTableFromBackupCommand({
      TargetTableName: target, BackupArn: BackupDetails.BackupArn,
    }));
    assert.equal(restored.TableDescription.RestoreSummary.SourceBackupArn, BackupDetails.BackupArn);
    const scanned = await doc.send(new ScanCommand({ TableName: target }));
    assert.equal(scanned.Count, 12);
    const p3 = scanned.Items.find((item) => item.pk === 'p3');
    assert.deepEqual([p3.n, [...p3.tags].sort()], [3, ['a', 't3']]);
    await expectError(assert, ddb.send(new RestoreTableFromBackupCommand({
      TargetTableName: target, BackupArn: BackupDetails.BackupArn,
    })), 'TableAlreadyExistsException', `Table already exists: ${target}`);
    const deleted = await ddb.send(new DeleteBackupCommand({ BackupArn: BackupDetails.BackupArn }));
    assert.equal(deleted.BackupDescription.BackupDetails.BackupStatus, 'DELETED');
    await expectError(assert, ddb.send(new DescribeBackupCommand({
      BackupArn: BackupDetails.BackupArn,
    })), 'BackupNotFoundException', `Backup not found: ${BackupDetails.BackupArn}`);
  });
});
