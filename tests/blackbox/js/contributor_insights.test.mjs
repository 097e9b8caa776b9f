// Contributor Insights (issue 46) through the JS SDK v3: enable a table with a sort key, describe
// its four rules, list it, disable it; and the hot keys ddbd computes from the document client's
// calls (GET /_ddbd/contributor-insights/<table>).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CreateTableCommand, DescribeContributorInsightsCommand, ListContributorInsightsCommand,
  UpdateContributorInsightsCommand,
} from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand,
} from '@aws-sdk/lib-dynamodb';
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

test('the document client\'s calls show in the hot keys ddbd computes', async () => {
  const server = process.env.DDBD_ENDPOINT ? null : await startDdbd();
  try {
    const endpoint = process.env.DDBD_ENDPOINT ?? server.endpoint;
    const ddb = clientFor(endpoint);
    const doc = DynamoDBDocumentClient.from(ddb);
    const TableName = `ci-hot-js-${process.pid}`;
    await ddb.send(new CreateTableCommand({
      TableName, BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'N' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
    }));
    await ddb.send(new UpdateContributorInsightsCommand({
      TableName, ContributorInsightsAction: 'ENABLE' }));
    for (let i = 0; i < 4; i += 1) await doc.send(new PutCommand({ TableName, Item: { pk: 'hot', sk: i } }));
    await doc.send(new PutCommand({ TableName, Item: { pk: 'cold', sk: 1 } }));
    await doc.send(new GetCommand({ TableName, Key: { pk: 'hot', sk: 0 }, ConsistentRead: true }));
    await doc.send(new QueryCommand({ TableName, KeyConditionExpression: 'pk = :p',
      ExpressionAttributeValues: { ':p': 'hot' } }));
    const answer = await fetch(`${endpoint}/_ddbd/contributor-insights/${TableName}?top=5`);
    assert.equal(answer.status, 200);
    const report = await answer.json();
    const [pkc, skc, pkt] = report.Resources[0].Rules;
    // 4 puts x 3 units, a strongly consistent read 1, the Query one event of 0.5.
    assert.deepEqual(pkc.Contributors.map((c) => [c.Keys, c.ApproximateAggregateValue]),
      [[['hot'], 13.5], [['cold'], 3]]);
    assert.deepEqual(skc.Contributors[0], { Keys: ['hot', '0'], ApproximateAggregateValue: 4,
      Maximum: 4 });
    assert.equal(pkt.MetricName, 'ThrottleCount');
    assert.deepEqual(pkt.Contributors, []);
  } finally {
    await server?.stop();
  }
});
