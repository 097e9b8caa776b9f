// PartiQL through the JS SDK v3 (issue 21): the client's ExecuteStatementCommand with typed
// parameters, the DocumentClient's ExecuteStatement, BatchExecuteStatement and
// ExecuteTransaction commands with plain JavaScript values, paging, and exact errors.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CreateTableCommand, ExecuteStatementCommand } from '@aws-sdk/client-dynamodb';
import {
  BatchExecuteStatementCommand, DynamoDBDocumentClient, ExecuteStatementCommand as DocumentStatement,
  ExecuteTransactionCommand, GetCommand,
} from '@aws-sdk/lib-dynamodb';
import { clientFor, expectError, startDdbd, uniqueName } from './harness.mjs';

describe('PartiQL with the JS SDK v3', () => {
  let server;
  let ddb;
  let documents;
  const table = uniqueName('ql');
  before(async () => {
    server = await startDdbd();
    ddb = clientFor(server.endpoint);
    documents = DynamoDBDocumentClient.from(ddb);
    await ddb.send(new CreateTableCommand({
      TableName: table,
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'N' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
      BillingMode: 'PAY_PER_REQUEST',
    }));
  });
  after(async () => {
    ddb.destroy();
    await server.stop();
  });

  test('DocumentClient INSERT and SELECT with plain values as parameters', async () => {
    for (let sk = 1; sk <= 4; sk += 1) {
      await documents.send(new DocumentStatement({
        Statement: `INSERT INTO "${table}" VALUE {'pk': ?, 'sk': ?, 'doc': ?}`,
        Parameters: ['album', sk, { title: `t${sk}`, tags: ['x', sk] }],
      }));
    }
    const { Items } = await documents.send(new DocumentStatement({
      Statement: `SELECT sk, doc.title FROM "${table}" WHERE pk = ? AND sk >= ? ORDER BY sk DESC`,
      Parameters: ['album', 3],
    }));
    // A nested path comes back named by its last name, as DynamoDB answers it.
    assert.deepEqual(Items, [{ sk: 4, title: 't4' }, { sk: 3, title: 't3' }]);
  });

  test('ExecuteStatementCommand pages with Limit and NextToken', async () => {
    const seen = [];
    let NextToken;
    do {
      const page = await ddb.send(new ExecuteStatementCommand({
        Statement: `SELECT sk FROM "${table}" WHERE pk = 'album'`, Limit: 3, NextToken,
      }));
      seen.push(...page.Items.map((item) => item.sk.N));
      ({ NextToken } = page);
    } while (NextToken);
    assert.deepEqual(seen, ['1', '2', '3', '4']);
  });

  test('UPDATE with RETURNING and an UPDATE of nothing', async () => {
    const { Items } = await documents.send(new DocumentStatement({
      Statement: `UPDATE "${table}" SET plays = 1 WHERE pk = 'album' AND sk = 1 RETURNING ALL NEW *`,
    }));
    assert.equal(Items[0].plays, 1);
    assert.equal(Items[0].doc.title, 't1');
    await expectError(assert, documents.send(new DocumentStatement({
      Statement: `UPDATE "${table}" SET plays = 1 WHERE pk = 'album' AND sk = 99`,
    })), 'ConditionalCheckFailedException', 'The conditional request failed');
    await expectError(assert, documents.send(new DocumentStatement({
      Statement: `INSERT INTO "${table}" VALUE {'pk': 'album', 'sk': 1}`,
    })), 'DuplicateItemException', 'Duplicate primary key exists in table');
    await expectError(assert, ddb.send(new ExecuteStatementCommand({
      Statement: `SELECT * FROM "${table}" WHERE pk = 'album' AND`,
    })), 'ValidationException',
    "Statement wasn't well formed, can't be processed: Missing right-hand side expression of infix operator");
  });

  test('BatchExecuteStatement answers each statement, errors included', async () => {
    const { Responses } = await documents.send(new BatchExecuteStatementCommand({
      Statements: [
        { Statement: `SELECT sk FROM "${table}" WHERE pk = ? AND sk = ?`, Parameters: ['album', 2] },
        { Statement: `SELECT sk FROM "${table}" WHERE pk = 'album'` },
      ],
    }));
    assert.deepEqual(Responses[0], { TableName: table, Item: { sk: 2 } });
    assert.deepEqual(Responses[1].Error, {
      Code: 'ValidationError',
      Message: 'Select statements within BatchExecuteStatement must specify the primary key in the where clause.',
    });
  });

  test('ExecuteTransaction applies all or nothing', async () => {
    await assert.rejects(documents.send(new ExecuteTransactionCommand({
      TransactStatements: [
        { Statement: `INSERT INTO "${table}" VALUE {'pk': 'tx', 'sk': 1}` },
        { Statement: `DELETE FROM "${table}" WHERE pk = 'album' AND sk = 1 AND plays = 5` },
      ],
    })), (error) => {
      assert.equal(error.name, 'TransactionCanceledException');
      assert.deepEqual(error.CancellationReasons.map((reason) => reason.Code), ['None', 'ConditionalCheckFailed']);
      return true;
    });
    const { Item } = await documents.send(new GetCommand({ TableName: table, Key: { pk: 'tx', sk: 1 } }));
    assert.equal(Item, undefined);
    const { Responses } = await documents.send(new ExecuteTransactionCommand({
      TransactStatements: [{ Statement: `SELECT plays FROM "${table}" WHERE pk = ? AND sk = ?`, Parameters: ['album', 1] }],
    }));
    assert.deepEqual(Responses, [{ Item: { plays: 1 } }]);
  });

  test('an unknown table', async () => {
    await expectError(assert, ddb.send(new ExecuteStatementCommand({
      Statement: `SELECT * FROM "${uniqueName('none')}"`,
    })), 'ResourceNotFoundException', 'Requested resource not found');
  });
});
