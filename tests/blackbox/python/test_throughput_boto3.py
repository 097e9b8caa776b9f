"""Throughput settings through boto3: OnDemandThroughput on tables and global indexes (stored,
merged, cleared, refused under PROVISIONED, as measured against DynamoDB) and DescribeLimits."""
import unittest

from ddbd_harness import ServerTestCase, hash_table, unique_name

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


if __name__ == "__main__":
    unittest.main()
