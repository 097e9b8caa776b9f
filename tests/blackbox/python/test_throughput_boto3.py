"""Throughput through boto3: OnDemandThroughput on tables and global indexes (stored, merged,
cleared, refused under PROVISIONED, as measured against DynamoDB), DescribeEndpoints,
DescribeLimits, and throttling
under --enforce-throughput (provisioned capacity, global indexes, on-demand ceilings, batches,
UpdateTable, boto3's standard retries recovering)."""
import time
import unittest

import boto3
from botocore.config import Config

from ddbd_harness import CREDENTIALS, ServerTestCase, hash_table, unique_name

INVALID = "One or more parameter values were invalid: "


class OnDemandThroughput(ServerTestCase):
    def describe(self, table):
        return self.ddb.describe_table(TableName=table)["Table"]

    def test_absent_unless_set(self):
        table = unique_name("odt")
        self.ddb.create_table(**hash_table(table))
        self.assertNotIn("OnDemandThroughput", self.describe(table))

    def test_stored_at_create_one_member_or_both(self):
        table = unique_name("odt")
        answer = self.ddb.create_table(**hash_table(table, OnDemandThroughput={"MaxReadRequestUnits": 100}))
        self.assertEqual(answer["TableDescription"]["OnDemandThroughput"], {"MaxReadRequestUnits": 100})
        self.assertEqual(self.describe(table)["OnDemandThroughput"], {"MaxReadRequestUnits": 100})
        table = unique_name("odt")
        self.ddb.create_table(**hash_table(table, OnDemandThroughput={}))
        self.assertNotIn("OnDemandThroughput", self.describe(table))

    def test_update_merges_member_by_member_and_minus_one_clears(self):
        table = unique_name("odt")
        self.ddb.create_table(**hash_table(table))
        update = lambda **odt: self.ddb.update_table(TableName=table, OnDemandThroughput=odt)["TableDescription"]
        self.assertEqual(update(MaxReadRequestUnits=1000, MaxWriteRequestUnits=500)["OnDemandThroughput"],
                         {"MaxReadRequestUnits": 1000, "MaxWriteRequestUnits": 500})
        update(MaxReadRequestUnits=2000)
        self.assertEqual(self.describe(table)["OnDemandThroughput"],
                         {"MaxReadRequestUnits": 2000, "MaxWriteRequestUnits": 500})
        # The answer shows the removed ceiling as -1; DescribeTable leaves it out.
        self.assertEqual(update(MaxReadRequestUnits=-1)["OnDemandThroughput"],
                         {"MaxReadRequestUnits": -1, "MaxWriteRequestUnits": 500})
        self.assertEqual(self.describe(table)["OnDemandThroughput"], {"MaxWriteRequestUnits": 500})
        self.assertEqual(update(MaxWriteRequestUnits=-1)["OnDemandThroughput"], {"MaxWriteRequestUnits": -1})
        self.assertNotIn("OnDemandThroughput", self.describe(table))

    def test_out_of_range_values(self):
        for odt, member in [({"MaxReadRequestUnits": 0, "MaxWriteRequestUnits": 0}, "MaxReadRequestUnits"),
                            ({"MaxReadRequestUnits": -1}, "MaxReadRequestUnits"),
                            ({"MaxWriteRequestUnits": -2}, "MaxWriteRequestUnits")]:
            self.assertError(self.ddb.create_table, "ValidationException",
                             INVALID + "Requested %s for OnDemandThroughput for table is outside of valid range" % member,
                             **hash_table(unique_name("odt"), OnDemandThroughput=odt))
        table = unique_name("odt")
        self.ddb.create_table(**hash_table(table))
        for odt, member in [({"MaxWriteRequestUnits": 0}, "MaxWriteRequestUnits"),
                            ({"MaxReadRequestUnits": -2}, "MaxReadRequestUnits")]:
            self.assertError(self.ddb.update_table, "ValidationException",
                             INVALID + "Requested %s for OnDemandThroughput for table is outside of valid range" % member,
                             TableName=table, OnDemandThroughput=odt)

    def test_refused_under_provisioned_billing(self):
        self.assertError(self.ddb.create_table, "ValidationException",
                         INVALID + "MaxReadRequestUnits for OnDemandThroughput cannot be specified when table "
                                   "BillingMode is PROVISIONED.",
                         **hash_table(unique_name("odt"), billing="PROVISIONED",
                                      OnDemandThroughput={"MaxReadRequestUnits": 10}))
        table = unique_name("odt")
        self.ddb.create_table(**hash_table(table, billing="PROVISIONED"))
        self.assertError(self.ddb.update_table, "ValidationException",
                         INVALID + "MaxReadRequestUnits for OnDemandThroughput cannot be specified when the table "
                                   "BillingMode is PROVISIONED",
                         TableName=table, OnDemandThroughput={"MaxReadRequestUnits": 10, "MaxWriteRequestUnits": 10})
        # Switching to on-demand may set ceilings in the same call; switching back clears them.
        self.ddb.update_table(TableName=table, BillingMode="PAY_PER_REQUEST",
                              OnDemandThroughput={"MaxWriteRequestUnits": 10})
        self.assertEqual(self.describe(table)["OnDemandThroughput"], {"MaxWriteRequestUnits": 10})
        self.ddb.update_table(TableName=table, BillingMode="PROVISIONED",
                              ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
        self.assertNotIn("OnDemandThroughput", self.describe(table))

    def test_global_indexes_keep_their_own(self):
        table = unique_name("odt")
        self.ddb.create_table(
            TableName=table, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "g", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            GlobalSecondaryIndexes=[{"IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"},
                                     "OnDemandThroughput": {"MaxReadRequestUnits": 50}}])
        index = self.describe(table)["GlobalSecondaryIndexes"][0]
        self.assertEqual(index["OnDemandThroughput"], {"MaxReadRequestUnits": 50})
        self.ddb.update_table(TableName=table, GlobalSecondaryIndexUpdates=[
            {"Update": {"IndexName": "by-g", "OnDemandThroughput": {"MaxWriteRequestUnits": 20}}}])
        index = self.describe(table)["GlobalSecondaryIndexes"][0]
        self.assertEqual(index["OnDemandThroughput"], {"MaxReadRequestUnits": 50, "MaxWriteRequestUnits": 20})


class DescribeEndpoints(ServerTestCase):
    def test_the_endpoint_is_the_one_the_client_addressed(self):
        answer = self.ddb.describe_endpoints()
        host = self.endpoint.split("://", 1)[1]
        self.assertEqual(answer["Endpoints"], [{"Address": host, "CachePeriodInMinutes": 1440}])


class DescribeLimits(ServerTestCase):
    def test_default_account_and_table_limits(self):
        answer = self.ddb.describe_limits()
        answer.pop("ResponseMetadata")
        self.assertEqual(answer, {"AccountMaxReadCapacityUnits": 80000, "AccountMaxWriteCapacityUnits": 80000,
                                  "TableMaxReadCapacityUnits": 40000, "TableMaxWriteCapacityUnits": 40000})

    def test_the_cli_reads_them(self):
        import json
        import os
        import subprocess
        env = dict(os.environ, AWS_ACCESS_KEY_ID="x", AWS_SECRET_ACCESS_KEY="x", AWS_DEFAULT_REGION="us-east-1")
        out = subprocess.run(["aws", "dynamodb", "describe-limits", "--endpoint-url", self.endpoint],
                             capture_output=True, text=True, env=env, check=True).stdout
        self.assertEqual(json.loads(out)["TableMaxWriteCapacityUnits"], 40000)


TABLE_EXCEEDED = ("The level of configured provisioned throughput for the table was exceeded. Consider increasing "
                  "your provisioning level with the UpdateTable API.")


class Throttling(ServerTestCase):
    server_args = ("--enforce-throughput",)

    def provisioned(self, read=1, write=1, **extra):
        table = unique_name("thr")
        args = hash_table(table, billing="PROVISIONED", **extra)
        args["ProvisionedThroughput"] = {"ReadCapacityUnits": read, "WriteCapacityUnits": write}
        self.ddb.create_table(**args)
        return table

    def arn(self, table):
        return self.ddb.describe_table(TableName=table)["Table"]["TableArn"]

    def throttled(self, call, **kwargs):
        """Calls until refused (a new bucket holds one second of capacity); returns the error."""
        for _ in range(50):
            try:
                call(**kwargs)
            except self.ddb.exceptions.ClientError as error:
                return error.response
        self.fail("never throttled")

    def test_over_provisioned_writes_are_refused_with_the_reason(self):
        table = self.provisioned(write=1)
        self.ddb.put_item(TableName=table, Item={"pk": {"S": "a"}})
        answer = self.throttled(self.ddb.put_item, TableName=table, Item={"pk": {"S": "b"}})
        self.assertEqual(answer["Error"]["Code"], "ProvisionedThroughputExceededException")
        self.assertEqual(answer["Error"]["Message"], TABLE_EXCEEDED)
        self.assertEqual(answer["ThrottlingReasons"],
                         [{"reason": "TableWriteProvisionedThroughputExceeded", "resource": self.arn(table)}])

    def test_reads_have_their_own_capacity(self):
        table = self.provisioned(read=1, write=100)
        answer = self.throttled(self.ddb.get_item, TableName=table, Key={"pk": {"S": "a"}}, ConsistentRead=True)
        self.assertEqual(answer["ThrottlingReasons"][0]["reason"], "TableReadProvisionedThroughputExceeded")
        self.ddb.put_item(TableName=table, Item={"pk": {"S": "a"}})  # writes still pass
        answer = self.throttled(self.ddb.query, TableName=table, KeyConditionExpression="pk = :p",
                                ExpressionAttributeValues={":p": {"S": "a"}})
        self.assertEqual(answer["Error"]["Code"], "ProvisionedThroughputExceededException")

    def test_a_global_index_without_capacity_throttles_the_table_write(self):
        table = unique_name("thr")
        self.ddb.create_table(
            TableName=table, ProvisionedThroughput={"ReadCapacityUnits": 100, "WriteCapacityUnits": 100},
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "g", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            GlobalSecondaryIndexes=[{"IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"},
                                     "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}])
        answer = self.throttled(lambda i=iter(range(100)): self.ddb.put_item(
            TableName=table, Item={"pk": {"S": "p%d" % next(i)}, "g": {"S": "x"}}))
        self.assertEqual(answer["Error"]["Message"],
                         "The level of configured provisioned throughput for one or more global secondary indexes "
                         "of the table was exceeded. Consider increasing your provisioning level for the "
                         "under-provisioned global secondary indexes with the UpdateTable API")
        self.assertEqual(answer["ThrottlingReasons"], [{"reason": "IndexWriteProvisionedThroughputExceeded",
                                                        "resource": self.arn(table) + "/index/by-g"}])

    def test_update_table_capacity_applies_at_once(self):
        table = self.provisioned(write=1)
        self.throttled(self.ddb.put_item, TableName=table, Item={"pk": {"S": "a"}})
        self.ddb.update_table(TableName=table,
                              ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1000})
        time.sleep(0.05)  # 50 units at the new rate: the debt of one write is gone
        self.ddb.put_item(TableName=table, Item={"pk": {"S": "b"}})

    def test_on_demand_ceilings_throttle_with_throttling_exception(self):
        table = unique_name("thr")
        self.ddb.create_table(**hash_table(table, OnDemandThroughput={"MaxWriteRequestUnits": 1}))
        answer = self.throttled(self.ddb.put_item, TableName=table, Item={"pk": {"S": "a"}})
        self.assertEqual(answer["Error"]["Code"], "ThrottlingException")
        self.assertTrue(answer["Error"]["Message"].startswith("Throughput exceeds the current capacity of your table"))
        self.assertEqual(answer["throttlingReasons"],
                         [{"reason": "TableWriteMaxOnDemandThroughputExceeded", "resource": self.arn(table)}])
        # No ceiling, no throttling.
        free = unique_name("thr")
        self.ddb.create_table(**hash_table(free))
        for i in range(200):
            self.ddb.put_item(TableName=free, Item={"pk": {"S": "p%d" % i}})

    def test_batches_hand_back_what_was_throttled(self):
        tight = self.provisioned(read=1, write=1)
        roomy = self.provisioned(read=1000, write=1000)
        self.throttled(self.ddb.put_item, TableName=tight, Item={"pk": {"S": "x"}})
        answer = self.ddb.batch_write_item(RequestItems={
            tight: [{"PutRequest": {"Item": {"pk": {"S": "a"}}}}, {"DeleteRequest": {"Key": {"pk": {"S": "b"}}}}],
            roomy: [{"PutRequest": {"Item": {"pk": {"S": "a"}}}}]})
        self.assertEqual(answer["UnprocessedItems"], {
            tight: [{"PutRequest": {"Item": {"pk": {"S": "a"}}}}, {"DeleteRequest": {"Key": {"pk": {"S": "b"}}}}]})
        self.assertIn("Item", self.ddb.get_item(TableName=roomy, Key={"pk": {"S": "a"}}))
        # Every write throttled: the call fails.
        self.assertError(self.ddb.batch_write_item, "ProvisionedThroughputExceededException", TABLE_EXCEEDED,
                         RequestItems={tight: [{"PutRequest": {"Item": {"pk": {"S": "c"}}}}]})
        self.throttled(self.ddb.get_item, TableName=tight, Key={"pk": {"S": "x"}}, ConsistentRead=True)
        answer = self.ddb.batch_get_item(RequestItems={
            tight: {"Keys": [{"pk": {"S": "x"}}], "ConsistentRead": True, "ProjectionExpression": "pk"},
            roomy: {"Keys": [{"pk": {"S": "a"}}]}})
        self.assertEqual(answer["UnprocessedKeys"], {
            tight: {"Keys": [{"pk": {"S": "x"}}], "ConsistentRead": True, "ProjectionExpression": "pk"}})
        self.assertEqual(answer["Responses"], {tight: [], roomy: [{"pk": {"S": "a"}}]})

    def test_transactions_over_capacity_are_cancelled_with_throttling_reasons(self):
        tight = self.provisioned(read=1, write=1)
        roomy = self.provisioned(read=1000, write=1000)
        self.throttled(self.ddb.put_item, TableName=tight, Item={"pk": {"S": "x"}})
        with self.assertRaises(self.ddb.exceptions.TransactionCanceledException) as caught:
            self.ddb.transact_write_items(TransactItems=[
                {"Put": {"TableName": roomy, "Item": {"pk": {"S": "t"}}}},
                {"Put": {"TableName": tight, "Item": {"pk": {"S": "t"}}}}])
        answer = caught.exception.response
        self.assertEqual(answer["Error"]["Message"], "Transaction cancelled, please refer cancellation reasons for "
                                                     "specific reasons [None, ProvisionedThroughputExceeded]")
        self.assertEqual(answer["CancellationReasons"][1],
                         {"Code": "ProvisionedThroughputExceeded", "Message": TABLE_EXCEEDED})
        self.assertNotIn("Item", self.ddb.get_item(TableName=roomy, Key={"pk": {"S": "t"}}))
        self.throttled(self.ddb.get_item, TableName=tight, Key={"pk": {"S": "x"}}, ConsistentRead=True)
        with self.assertRaises(self.ddb.exceptions.TransactionCanceledException) as caught:
            self.ddb.transact_get_items(TransactItems=[{"Get": {"TableName": tight, "Key": {"pk": {"S": "x"}}}}])
        self.assertEqual(caught.exception.response["CancellationReasons"][0]["Code"], "ProvisionedThroughputExceeded")

    def test_boto3_standard_retries_recover(self):
        table = self.provisioned(write=1)
        self.throttled(self.ddb.put_item, TableName=table, Item={"pk": {"S": "a"}})
        retrying = boto3.client("dynamodb", endpoint_url=self.endpoint,
                                config=Config(retries={"mode": "standard", "max_attempts": 10}), **CREDENTIALS)
        answer = retrying.put_item(TableName=table, Item={"pk": {"S": "b"}})
        self.assertGreaterEqual(answer["ResponseMetadata"]["RetryAttempts"], 1)
        self.assertIn("Item", retrying.get_item(TableName=table, Key={"pk": {"S": "b"}}))


if __name__ == "__main__":
    unittest.main()
