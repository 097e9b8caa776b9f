"""UpdateTable's GlobalSecondaryIndexUpdates through boto3: an index added to a populated table is
backfilled, an index deleted stops answering, throughput updates, statuses while the change runs
(with --table-delay-ms), and the refusals with DynamoDB's texts."""
import time
import unittest

from ddbd_harness import ServerTestCase, hash_table, unique_name

S = lambda v: {"S": v}
N = lambda v: {"N": str(v)}


def create_action(name, hash_name="status", throughput=None, projection=None):
    action = {"IndexName": name, "KeySchema": [{"AttributeName": hash_name, "KeyType": "HASH"}],
              "Projection": projection or {"ProjectionType": "ALL"}}
    if throughput:
        action["ProvisionedThroughput"] = {"ReadCapacityUnits": throughput[0], "WriteCapacityUnits": throughput[1]}
    return {"Create": action}


def definitions(*names):
    return [{"AttributeName": name, "AttributeType": "S"} for name in names]


class IndexUpdates(ServerTestCase):
    def populated(self, count=300, **extra):
        name = unique_name("gsi-upd")
        self.ddb.create_table(**hash_table(name, **extra))
        for i in range(count):
            item = {"pk": S("p%d" % i), "n": N(i)}
            if i % 3:  # every third item has no status: sparse
                item["status"] = S("even" if i % 2 == 0 else "odd")
            self.ddb.put_item(TableName=name, Item=item)
        return name

    def query_count(self, table, index, status):
        paginator = self.ddb.get_paginator("query")
        return sum(page["Count"] for page in paginator.paginate(
            TableName=table, IndexName=index, KeyConditionExpression="#s = :s",
            ExpressionAttributeNames={"#s": "status"}, ExpressionAttributeValues={":s": S(status)}))

    def test_created_index_is_backfilled_and_maintained(self):
        table = self.populated()
        result = self.ddb.update_table(TableName=table, AttributeDefinitions=definitions("status"),
                                       GlobalSecondaryIndexUpdates=[create_action("by-status")])
        description = result["TableDescription"]
        self.assertEqual([d["AttributeName"] for d in description["AttributeDefinitions"]], ["pk", "status"])
        index = description["GlobalSecondaryIndexes"][0]
        self.assertEqual((index["IndexName"], index["IndexStatus"], index["ItemCount"]), ("by-status", "ACTIVE", 200))
        self.assertEqual(index["IndexArn"], description["TableArn"] + "/index/by-status")
        self.assertEqual(self.query_count(table, "by-status", "even"), 100)
        self.assertEqual(self.query_count(table, "by-status", "odd"), 100)
        # Later writes move entries: one item changes partition, one leaves the index.
        self.ddb.put_item(TableName=table, Item={"pk": S("p1"), "status": S("even")})
        self.ddb.update_item(TableName=table, Key={"pk": S("p2")}, UpdateExpression="REMOVE #s",
                             ExpressionAttributeNames={"#s": "status"})
        self.assertEqual(self.query_count(table, "by-status", "even"), 100)
        self.assertEqual(self.query_count(table, "by-status", "odd"), 99)

    def test_deleted_index_stops_answering(self):
        table = self.populated(30)
        self.ddb.update_table(TableName=table, AttributeDefinitions=definitions("status"),
                              GlobalSecondaryIndexUpdates=[create_action("by-status")])
        result = self.ddb.update_table(TableName=table,
                                       GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "by-status"}}])
        self.assertNotIn("GlobalSecondaryIndexes", result["TableDescription"])
        self.assertEqual([d["AttributeName"] for d in result["TableDescription"]["AttributeDefinitions"]], ["pk"])
        self.assertError(self.ddb.query, "ValidationException",
                         "The table does not have the specified index: by-status",
                         TableName=table, IndexName="by-status", KeyConditionExpression="#s = :s",
                         ExpressionAttributeNames={"#s": "status"}, ExpressionAttributeValues={":s": S("odd")})
        # The items themselves are untouched, and a new index of the same name starts afresh.
        self.assertEqual(self.ddb.scan(TableName=table, Select="COUNT")["Count"], 30)
        self.ddb.update_table(TableName=table, AttributeDefinitions=definitions("status"),
                              GlobalSecondaryIndexUpdates=[create_action("by-status", projection={"ProjectionType": "KEYS_ONLY"})])
        self.assertEqual(self.query_count(table, "by-status", "odd"), 10)

    def test_throughput_update_on_a_provisioned_table(self):
        table = self.populated(3, billing="PROVISIONED")
        self.ddb.update_table(TableName=table, AttributeDefinitions=definitions("status"),
                              GlobalSecondaryIndexUpdates=[create_action("by-status", throughput=(2, 3))])
        update = {"Update": {"IndexName": "by-status",
                             "ProvisionedThroughput": {"ReadCapacityUnits": 7, "WriteCapacityUnits": 8}}}
        result = self.ddb.update_table(TableName=table, GlobalSecondaryIndexUpdates=[update])
        throughput = result["TableDescription"]["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]
        self.assertEqual((throughput["ReadCapacityUnits"], throughput["WriteCapacityUnits"]), (7, 8))
        self.assertError(
            self.ddb.update_table, "ValidationException",
            "The provisioned throughput for the index by-status will not change. The requested value equals the "
            "current value. Current ReadCapacityUnits provisioned for the index by-status: 7. Requested "
            "ReadCapacityUnits: 7. Current WriteCapacityUnits provisioned for the index by-status: 8. Requested "
            "WriteCapacityUnits: 8. Refer to the Amazon DynamoDB Developer Guide for current limits and how to "
            "request higher limits.",
            TableName=table, GlobalSecondaryIndexUpdates=[update])

    def test_refusals(self):
        table = self.populated(3)
        self.ddb.update_table(TableName=table, AttributeDefinitions=definitions("status"),
                              GlobalSecondaryIndexUpdates=[create_action("by-status")])
        invalid = "One or more parameter values were invalid: "
        cases = [
            ("LimitExceededException",
             "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table",
             dict(AttributeDefinitions=definitions("other"),
                  GlobalSecondaryIndexUpdates=[create_action("x-idx", "other"), {"Delete": {"IndexName": "by-status"}}])),
            ("ValidationException", "Attempting to create an index which already exists",
             dict(AttributeDefinitions=definitions("status"), GlobalSecondaryIndexUpdates=[create_action("by-status")])),
            # Measured against AWS: an unknown index is not a ValidationException.
            ("ResourceNotFoundException", "Requested resource not found",
             dict(GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "nope"}}])),
            ("ValidationException", invalid + "AttributeDefinitions is not specified for index: other-idx",
             dict(GlobalSecondaryIndexUpdates=[create_action("other-idx", "other")])),
            ("ValidationException", invalid + "Some index key attributes are not defined in AttributeDefinitions. "
             "Keys: [other], AttributeDefinitions: [status]",
             dict(AttributeDefinitions=definitions("status"), GlobalSecondaryIndexUpdates=[create_action("o-idx", "other")])),
            ("ValidationException", invalid + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for "
             "index: o-idx when BillingMode is PAY_PER_REQUEST",
             dict(AttributeDefinitions=definitions("other"),
                  GlobalSecondaryIndexUpdates=[create_action("o-idx", "other", throughput=(1, 1))])),
            ("ValidationException", invalid + "ProjectionType is INCLUDE, but NonKeyAttributes is not specified",
             dict(AttributeDefinitions=definitions("other"),
                  GlobalSecondaryIndexUpdates=[create_action("o-idx", "other", projection={"ProjectionType": "INCLUDE"})])),
            ("ValidationException", "The table does not have the specified index: nope",
             dict(GlobalSecondaryIndexUpdates=[{"Update": {"IndexName": "nope", "ProvisionedThroughput": {
                 "ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}}])),
            ("ValidationException", invalid + "The only Updates for index: by-status when TableThroughputMode is "
             "PAY_PER_REQUEST can be to OnDemandThroughput, WarmThroughput",
             dict(GlobalSecondaryIndexUpdates=[{"Update": {"IndexName": "by-status", "ProvisionedThroughput": {
                 "ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}}])),
        ]
        for code, message, kwargs in cases:
            with self.subTest(message=message):
                self.assertError(self.ddb.update_table, code, message, TableName=table, **kwargs)
        # None of them changed anything.
        description = self.ddb.describe_table(TableName=table)["Table"]
        self.assertEqual([g["IndexName"] for g in description["GlobalSecondaryIndexes"]], ["by-status"])
        self.assertEqual([d["AttributeName"] for d in description["AttributeDefinitions"]], ["pk", "status"])

    def test_provisioned_table_needs_index_throughput(self):
        table = self.populated(1, billing="PROVISIONED")
        self.assertError(self.ddb.update_table, "ValidationException",
                         "One or more parameter values were invalid: ProvisionedThroughput must be specified for "
                         "index: by-status",
                         TableName=table, AttributeDefinitions=definitions("status"),
                         GlobalSecondaryIndexUpdates=[create_action("by-status")])

    def test_global_index_limit(self):
        name = unique_name("gsi-limit")
        attributes = ["a%d" % i for i in range(21)]
        self.assertError(
            self.ddb.create_table, "ValidationException", "GlobalSecondaryIndex count exceeds the per-table limit of 20",
            **hash_table(name, AttributeDefinitions=definitions("pk", *attributes),
                         GlobalSecondaryIndexes=[create_action("i-" + a, a)["Create"] for a in attributes]))
        self.ddb.create_table(**hash_table(name, AttributeDefinitions=definitions("pk", *attributes[:20]),
                                           GlobalSecondaryIndexes=[create_action("i-" + a, a)["Create"]
                                                                   for a in attributes[:20]]))
        self.assertError(self.ddb.update_table, "ValidationException",
                         "GlobalSecondaryIndex count exceeds the per-table limit of 20",
                         TableName=name, AttributeDefinitions=definitions(attributes[20]),
                         GlobalSecondaryIndexUpdates=[create_action("i-a20", attributes[20])])

    def test_aws_cli_adds_an_index(self):
        import json
        import os
        import subprocess
        table = self.populated(6)
        env = dict(os.environ, AWS_ACCESS_KEY_ID="x", AWS_SECRET_ACCESS_KEY="x", AWS_DEFAULT_REGION="us-east-1")
        out = subprocess.run(
            ["aws", "dynamodb", "update-table", "--endpoint-url", self.endpoint, "--table-name", table,
             "--attribute-definitions", "AttributeName=status,AttributeType=S",
             "--global-secondary-index-updates", json.dumps([create_action("by-status")])],
            env=env, check=True, capture_output=True, text=True).stdout
        index = json.loads(out)["TableDescription"]["GlobalSecondaryIndexes"][0]
        self.assertEqual((index["IndexName"], index["ItemCount"]), ("by-status", 4))


class IndexUpdatesWithDelay(ServerTestCase):
    server_args = ("--table-delay-ms", "400")

    def wait_active(self, table):
        waiter = self.ddb.get_waiter("table_exists")
        waiter.wait(TableName=table, WaiterConfig={"Delay": 0.1, "MaxAttempts": 50})

    def test_index_statuses_while_the_update_runs(self):
        table = unique_name("gsi-delay")
        self.ddb.create_table(**hash_table(table))
        self.wait_active(table)
        self.ddb.put_item(TableName=table, Item={"pk": S("a"), "status": S("open")})
        result = self.ddb.update_table(TableName=table, AttributeDefinitions=definitions("status"),
                                       GlobalSecondaryIndexUpdates=[create_action("by-status")])
        description = result["TableDescription"]
        index = description["GlobalSecondaryIndexes"][0]
        self.assertEqual((description["TableStatus"], index["IndexStatus"], index["Backfilling"]),
                         ("UPDATING", "CREATING", True))
        self.assertError(self.ddb.query, "ValidationException",
                         "Cannot read from backfilling global secondary index: by-status",
                         TableName=table, IndexName="by-status", KeyConditionExpression="#s = :s",
                         ExpressionAttributeNames={"#s": "status"}, ExpressionAttributeValues={":s": S("open")})
        self.assertError(self.ddb.update_table, "ResourceInUseException",
                         "Attempt to change a resource which is still in use: Table is being updated: " + table,
                         TableName=table, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "by-status"}}])
        time.sleep(0.5)
        index = self.ddb.describe_table(TableName=table)["Table"]["GlobalSecondaryIndexes"][0]
        self.assertEqual(index["IndexStatus"], "ACTIVE")
        self.assertNotIn("Backfilling", index)
        self.assertEqual(self.ddb.scan(TableName=table, IndexName="by-status")["Count"], 1)

        result = self.ddb.update_table(TableName=table,
                                       GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "by-status"}}])
        self.assertEqual(result["TableDescription"]["GlobalSecondaryIndexes"][0]["IndexStatus"], "DELETING")
        time.sleep(0.5)
        self.assertNotIn("GlobalSecondaryIndexes", self.ddb.describe_table(TableName=table)["Table"])


if __name__ == "__main__":
    unittest.main()
