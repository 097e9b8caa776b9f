// Kinesis streaming destinations (issue 46, the settings) through the JS SDK v3: enable with a
// precision, describe, disable, and DynamoDB's recorded text for a second disable.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CreateTableCommand, DescribeKinesisStreamingDestinationCommand,
  DisableKinesisStreamingDestinationCommand, EnableKinesisStreamingDestinationCommand,
} from '@aws-sdk/client-dynamodb';
import { clientFor, startDdbd } from './harness.mjs';

const STREAM = 'arn:aws:kinesis:us-east-1:000000000000:stream/orders';

test('a Kinesis streaming destination enabled, described and disabled', async () => {
  const server = process.env.DDBD_ENDPOINT ? null : await startDdbd();
  try {
    const ddb = clientFor(process.env.DDBD_ENDPOINT ?? server.endpoint);
    const TableName = `kds-js-${process.pid}`;
    await ddb.send(new CreateTableCommand({
      TableName, BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }));
    const enabled = await ddb.send(new EnableKinesisStreamingDestinationCommand({
      TableName, StreamArn: STREAM,
      EnableKinesisStreamingConfiguration: { ApproximateCreationDateTimePrecision: 'MILLISECOND' },
    }));
    assert.equal(enabled.DestinationStatus, 'ENABLING');
    assert.deepEqual(enabled.EnableKinesisStreamingConfiguration,
      { ApproximateCreationDateTimePrecision: 'MILLISECOND' });
    const described = await ddb.send(new DescribeKinesisStreamingDestinationCommand({ TableName }));
    assert.equal(described.KinesisDataStreamDestinations[0].DestinationStatus, 'ACTIVE');
    assert.equal(described.KinesisDataStreamDestinations[0].ApproximateCreationDateTimePrecision,
      'MILLISECOND');
    const disabled = await ddb.send(new DisableKinesisStreamingDestinationCommand({
      TableName, StreamArn: STREAM }));
    assert.equal(disabled.DestinationStatus, 'DISABLING');
    await assert.rejects(ddb.send(new DisableKinesisStreamingDestinationCommand({
      TableName, StreamArn: STREAM })), (error) => error.name === 'ValidationException' &&
      error.message === 'Table is not in a valid state to enable Kinesis Streaming Destination: '
        + 'KinesisStreamingDestination must be ACTIVE to perform DISABLE operation.');
  } finally {
    await server?.stop();
  }
});
