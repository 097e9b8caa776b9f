// Contributor Insights settings (issue 46, part) through the JS SDK v3: enable a table with a
// sort key, describe its four rules, list it, disable it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CreateTableCommand, DescribeContributorInsightsCommand, ListContributorInsightsCommand,
  UpdateContributorInsightsCommand,
} from '@aws-sdk/client-dynamodb';
import { clientFor, startDdbd } from './harness.mjs';

test('Contributor Insights enabled, described, listed and disabled', async () => {
  const server = process.env.DDBD_ENDPOINT ? null : await startDdbd();
  try {
    const ddb = clientFor(process.env.DDBD_ENDPOINT ?? server.endpoint);
    const TableName = `ci-js-${process.pid}`;
    await ddb.send(new CreateTableCommand({
      TableName, BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
    }));
    const enabled = await ddb.send(new UpdateContributorInsightsCommand({
      TableName, ContributorInsightsAction: 'ENABLE' }));
    assert.equal(enabled.ContributorInsightsStatus, 'ENABLING');
    const described = await ddb.send(new DescribeContributorInsightsCommand({ TableName }));
    assert.equal(described.ContributorInsightsStatus, 'ENABLED');
    assert.ok(described.LastUpdateDateTime instanceof Date);
    assert.deepEqual(described.ContributorInsightsRuleList.map((rule) => rule.split('-')[1]),
      ['PKC', 'SKC', 'PKT', 'SKT']);
    assert.ok(described.ContributorInsightsRuleList.every((rule) =>
      rule.startsWith(`DynamoDBContributorInsights-${rule.split('-')[1]}-${TableName}-`)));
    const listed = await ddb.send(new ListContributorInsightsCommand({ TableName }));
    assert.deepEqual(listed.ContributorInsightsSummaries, [{ TableName,
      ContributorInsightsStatus: 'ENABLED', ContributorInsightsMode: 'ACCESSED_AND_THROTTLED_KEYS' }]);
    const disabled = await ddb.send(new UpdateContributorInsightsCommand({
      TableName, ContributorInsightsAction: 'DISABLE' }));
    assert.equal(disabled.ContributorInsightsStatus, 'DISABLING');
    await assert.rejects(ddb.send(new DescribeContributorInsightsCommand({
      TableName, IndexName: 'none' })), (error) => error.name === 'ResourceNotFoundException' &&
      error.message === 'Requested resource not found: Index: none not found');
  } finally {
    await server?.stop();
  }
});
