// Stream triggers (issue 47) with the JS SDK v3: the document client writes, and a node HTTP
// handler started here, standing for a Lambda function, gets Lambda's DynamoDB event, which
// util-dynamodb's unmarshall reads as a Lambda handler would; a partial batch response
// (batchItemFailures) is invoked again from the record it names.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { clientFor, startDdbd } from './harness.mjs';

test('a stream trigger invokes a local handler with Lambda\'s event', async (t) => {
  if (process.env.DDBD_ENDPOINT) return t.skip('starts its own ddbd');
  const events = [];
  let failNext = true;
  const handler = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', () => {
      const event = JSON.parse(body);
      events.push({ path: request.url, event });
      let answer = { batchItemFailures: [] };
      if (failNext && event.Records.length === 3) {
        failNext = false;  // the second record failed: invoked again from it
        answer = { batchItemFailures: [{ itemIdentifier: event.Records[1].dynamodb.SequenceNumber }] };
      }
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise((resolve) => handler.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${handler.address().port}/2015-03-31/functions/function/invocations`;
  const TableName = `trigger-js-${process.pid}`;
  const server = await startDdbd('--stream-trigger',
    `${TableName}=${url},batch-size=3,maximum-batching-window-in-seconds=2,` +
    'function-response-types=ReportBatchItemFailures');
  try {
    const ddb = clientFor(server.endpoint);
    const doc = DynamoDBDocumentClient.from(ddb);
    await ddb.send(new CreateTableCommand({
      TableName, BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }));
    await doc.send(new PutCommand({ TableName, Item: { id: 'a', n: 1, tags: new Set(['x']) } }));
    await doc.send(new PutCommand({ TableName, Item: { id: 'b', n: 2 } }));
    await doc.send(new UpdateCommand({ TableName, Key: { id: 'a' }, UpdateExpression: 'SET n = :n',
      ExpressionAttributeValues: { ':n': 3 } }));
    const deadline = Date.now() + 10000;
    while (events.length < 2 && Date.now() < deadline) await sleep(20);
    assert.equal(events.length, 2);
    const [first, second] = events.map(({ event }) => event.Records);
    assert.deepEqual(first.map((r) => r.dynamodb.Keys.id.S), ['a', 'b', 'a']);
    assert.deepEqual(second.map((r) => r.dynamodb.Keys.id.S), ['b', 'a']);
    assert.equal(events[0].path, '/2015-03-31/functions/function/invocations');
    const [put, , update] = first;
    assert.equal(put.eventName, 'INSERT');
    assert.equal(put.eventSource, 'aws:dynamodb');
    assert.match(put.eventSourceARN, new RegExp(`^arn:aws:dynamodb:us-east-1:000000000000:table/${TableName}/stream/`));
    assert.deepEqual(unmarshall(put.dynamodb.NewImage), { id: 'a', n: 1, tags: new Set(['x']) });
    assert.equal(update.eventName, 'MODIFY');
    assert.deepEqual(unmarshall(update.dynamodb.OldImage), { id: 'a', n: 1, tags: new Set(['x']) });
    assert.deepEqual(unmarshall(update.dynamodb.NewImage), { id: 'a', n: 3, tags: new Set(['x']) });
    assert.equal(typeof update.dynamodb.ApproximateCreationDateTime, 'number');
    await sleep(300);
    assert.equal(events.length, 2);
  } finally {
    await server.stop();
    handler.close();
  }
});
