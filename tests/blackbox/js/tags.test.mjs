// Tags through the JavaScript SDK v3: Tags on CreateTable, TagResource, UntagResource and
// ListTagsOfResource (with the SDK's paginator), and DynamoDB's errors.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CreateTableCommand, ListTagsOfResourceCommand, TagResourceCommand, UntagResourceCommand,
} from '@aws-sdk/client-dynamodb';
import { clientFor, expectError, hashTable, startDdbd, uniqueName } from './harness.mjs';

describe('tags with the JS SDK v3', () => {
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

  const tagsOf = async (ResourceArn) =>
    (await ddb.send(new ListTagsOfResourceCommand({ ResourceArn }))).Tags;

  test('tag, retag, untag and list', async () => {
    const created = await ddb.send(new CreateTableCommand(hashTable(uniqueName(), {
      Tags: [{ Key: 'team', Value: 'audio' }],
    })));
    const arn = created.TableDescription.TableArn;
    await ddb.send(new TagResourceCommand({
      ResourceArn: arn, Tags: [{ Key: 'env', Value: 'ci' }, { Key: 'team', Value: 'video' }],
    }));
    assert.deepEqual(await tagsOf(arn),
      [{ Key: 'team', Value: 'video' }, { Key: 'env', Value: 'ci' }]);
    await ddb.send(new UntagResourceCommand({ ResourceArn: arn, TagKeys: ['team', 'absent'] }));
    assert.deepEqual(await tagsOf(arn), [{ Key: 'env', Value: 'ci' }]);
  });

  test('errors name the ARN as DynamoDB does', async () => {
    const missing = `arn:aws:dynamodb:us-east-1:000000000000:table/${uniqueName()}`;
    await expectError(assert, ddb.send(new ListTagsOfResourceCommand({ ResourceArn: missing })),
      'ResourceNotFoundException', `Requested resource not found: ResourcArn: ${missing} not found`);
    await expectError(assert, ddb.send(new TagResourceCommand({ ResourceArn: 'orders', Tags: [{ Key: 'a', Value: 'b' }] })),
      'ValidationException', "ARNs must start with 'arn:'");
  });
});
