// Signature Version 4 verification with the JS SDK v3 (issue 22): with --auth-keys, the right
// secret is served, a wrong one is InvalidSignatureException and an unknown key
// UnrecognizedClientException, with DynamoDB's texts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { clientConfig, expectError, startDdbd } from './harness.mjs';

describe('signature verification with the JS SDK v3', { skip: Boolean(process.env.DDBD_ENDPOINT) }, () => {
  let server;
  before(async () => {
    server = await startDdbd('--auth-keys', 'AKIDTEST:secret,JSKEY:js-secret');
  });
  after(async () => {
    await server.stop();
  });

  const client = (accessKeyId, secretAccessKey) => new DynamoDBClient({
    ...clientConfig(server.endpoint), credentials: { accessKeyId, secretAccessKey },
  });

  test('each configured key is served', async () => {
    for (const [key, secret] of [['AKIDTEST', 'secret'], ['JSKEY', 'js-secret']]) {
      const ddb = client(key, secret);
      const answer = await ddb.send(new ListTablesCommand({}));
      assert.ok(Array.isArray(answer.TableNames));
      ddb.destroy();
    }
  });

  test('a wrong secret and an unknown key are refused', async () => {
    const wrong = client('JSKEY', 'not-it');
    await expectError(assert, wrong.send(new ListTablesCommand({})), 'InvalidSignatureException',
      'The request signature we calculated does not match the signature you provided. Check your AWS '
      + 'Secret Access Key and signing method. Consult the service documentation for details.');
    wrong.destroy();
    const unknown = client('NOBODY', 'js-secret');
    await expectError(assert, unknown.send(new ListTablesCommand({})), 'UnrecognizedClientException',
      'The security token included in the request is invalid.');
    unknown.destroy();
  });
});
