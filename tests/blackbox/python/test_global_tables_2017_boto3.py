"""Global tables, version 2017.11.29 (legacy; issue 44), with the real binary and boto3 clients of
three regions (--namespaces region): CreateGlobalTable joins identical empty tables made in each
region, UpdateGlobalTable adds and removes regions, DescribeGlobalTable and ListGlobalTables
describe them, and the members replicate both ways; DescribeGlobalTableSettings and
UpdateGlobalTableSettings describe and change every member's capacity settings. Refusals: DynamoDB's texts where recorded
(the regions the version is served in, a table missing in a region), ddbd's own elsewhere
(docs/behaviour.md)."""
import os
import tempfile
import time
import unittest

from ddbd_harness import DdbdServer, eventually, hash_table, region_client

EAST, WEST, EU, SYDNEY = "us-east-1", "us-west-2", "eu-west-1", "ap-southeast-2"
INVALID = "One or more parameter values were invalid: "
STREAM = {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}


class LegacyGlobalTables(unittest.TestCase):
    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        self.servers = []
        self.start()

    def tearDown(self):
        for server in self.servers:
            server.stop()

    def start(self, *extra):
        server = DdbdServer("--namespaces", "region", "--replication-delay-ms", "200", *extra).start()
        self.servers.append(server)
        self.clients = {r: region_client(server.endpoint, r) for r in (EAST, WEST, EU, SYDNEY)}
        return server

    def table(self, region, name="Music", **extra):
        self.clients[region].create_table(**hash_table(name, StreamSpecification=STREAM, **extra))

    def item(self, region, key, name="Music"):
        return self.clients[region].get_item(TableName=name, Key={"pk": {"S": key}}).get("Item")

    def assertRefused(self, call, code, message, **kwargs):
        with self.assertRaises(Exception) as caught:
            call(**kwargs)
        error = caught.exception.response["Error"]
        self.assertEqual((error["Code"], error["Message"]), (code, message))

    def group(self, description):
        return [r["RegionName"] for r in description["ReplicationGroup"]]

    def test_a_global_table_is_made_of_tables_in_each_region_and_replicates(self):
        self.table(EAST)
        self.table(WEST)
        east, west = self.clients[EAST], self.clients[WEST]
        account = east.describe_table(TableName="Music")["Table"]["TableArn"].split(":")[4]
        made = east.create_global_table(GlobalTableName="Music", ReplicationGroup=[
            {"RegionName": EAST}, {"RegionName": WEST}])["GlobalTableDescription"]
        self.assertEqual(self.group(made), [EAST, WEST])
        self.assertEqual(made["GlobalTableArn"], "arn:aws:dynamodb::%s:global-table/Music" % account)
        self.assertEqual((made["GlobalTableName"], made["GlobalTableStatus"]), ("Music", "ACTIVE"))
        described = west.describe_global_table(GlobalTableName="Music")["GlobalTableDescription"]
        self.assertEqual(self.group(described), [EAST, WEST])
        self.assertEqual(described["CreationDateTime"], made["CreationDateTime"])
        # DescribeTable names the version; the group is DescribeGlobalTable's.
        table = east.describe_table(TableName="Music")["Table"]
        self.assertEqual(table["GlobalTableVersion"], "2017.11.29")
        self.assertNotIn("Replicas", table)
        east.put_item(TableName="Music", Item={"pk": {"S": "from-east"}})
        west.put_item(TableName="Music", Item={"pk": {"S": "from-west"}})
        eventually(lambda: self.assertIsNotNone(self.item(WEST, "from-east")))
        eventually(lambda: self.assertIsNotNone(self.item(EAST, "from-west")))
        self.assertEqual(east.list_global_tables()["GlobalTables"],
                         [{"GlobalTableName": "Music",
                           "ReplicationGroup": [{"RegionName": EAST}, {"RegionName": WEST}]}])
        self.assertEqual(east.list_global_tables(RegionName=EU)["GlobalTables"], [])
        # The current version's calls are not for it.
        self.assertRefused(east.update_table, "ValidationException",
                           INVALID + "the table is a replica of a global table of version "
                           "2017.11.29: UpdateGlobalTable changes its replicas",
                           TableName="Music", ReplicaUpdates=[{"Create": {"RegionName": EU}}])

    def test_every_write_carries_the_versions_item_attributes(self):
        self.table(EAST)
        self.table(WEST)
        east, west = self.clients[EAST], self.clients[WEST]
        east.create_global_table(GlobalTableName="Music", ReplicationGroup=[
            {"RegionName": EAST}, {"RegionName": WEST}])
        before = time.time()
        east.put_item(TableName="Music", Item={"pk": {"S": "a"}, "n": {"N": "1"}})
        written = self.item(EAST, "a")
        self.assertEqual(written["aws:rep:deleting"], {"BOOL": False})
        self.assertEqual(written["aws:rep:updateregion"], {"S": EAST})
        self.assertLessEqual(abs(float(written["aws:rep:updatetime"]["N"]) - before), 5)
        eventually(lambda: self.assertEqual(self.item(WEST, "a"), written))  # the copy, as written
        # An update in the other region stamps it there; a caller's own aws:rep:* is replaced.
        west.update_item(TableName="Music", Key={"pk": {"S": "a"}}, UpdateExpression="SET n = :n",
                         ExpressionAttributeValues={":n": {"N": "2"}})
        west.put_item(TableName="Music", Item={"pk": {"S": "b"},
                                               "aws:rep:updateregion": {"S": "mine"}})
        eventually(lambda: self.assertEqual(self.item(EAST, "a")["aws:rep:updateregion"], {"S": WEST}))
        eventually(lambda: self.assertEqual(self.item(EAST, "b")["aws:rep:updateregion"], {"S": WEST}))
        self.assertEqual(self.item(EAST, "a")["n"], {"N": "2"})
        # A table that leaves the group writes plain items again.
        east.update_global_table(GlobalTableName="Music", ReplicaUpdates=[
            {"Delete": {"RegionName": WEST}}])
        west.put_item(TableName="Music", Item={"pk": {"S": "c"}})
        self.assertEqual(self.item(WEST, "c"), {"pk": {"S": "c"}})

    def test_refusals(self):
        east = self.clients[EAST]
        enum = ("failed to satisfy constraint: Member must satisfy enum value set: [us-west-1, "
                "us-west-2, ap-northeast-1, ap-northeast-2, us-east-1, eu-west-1, ap-southeast-1, "
                "us-east-2, eu-west-2, ap-southeast-2, eu-central-1]")
        # AWS-recorded: the regions version 2017.11.29 is served in.
        self.assertRefused(
            east.create_global_table, "ValidationException",
            INVALID + "2 validation errors detected: Value 'us-gov-west-1' at "
            "'replicationGroup.1.member.regionName' " + enum + "; Value 'eu-north-1' at "
            "'replicationGroup.3.member.regionName' " + enum,
            GlobalTableName="Music", ReplicationGroup=[
                {"RegionName": "us-gov-west-1"}, {"RegionName": EAST}, {"RegionName": "eu-north-1"}])
        # AWS-recorded: a region without the table.
        self.table(EAST)
        self.assertRefused(east.create_global_table, "TableNotFoundException",
                           "Table not found: Table: 'Music' not found in region: 'us-west-2'.",
                           GlobalTableName="Music",
                           ReplicationGroup=[{"RegionName": EAST}, {"RegionName": WEST}])
        # ddbd's own words for the rest.
        self.clients[WEST].create_table(**hash_table("Music"))
        self.assertRefused(east.create_global_table, "ValidationException",
                           INVALID + "the table Music in us-west-2 must have DynamoDB Streams "
                           "enabled with NEW_AND_OLD_IMAGES", GlobalTableName="Music",
                           ReplicationGroup=[{"RegionName": EAST}, {"RegionName": WEST}])
        self.clients[WEST].update_table(TableName="Music", StreamSpecification=STREAM)
        self.clients[WEST].put_item(TableName="Music", Item={"pk": {"S": "data"}})
        self.assertRefused(east.create_global_table, "ValidationException",
                           INVALID + "the table Music in us-west-2 is not empty: every replica of a "
                           "global table of version 2017.11.29 must be empty when one is added",
                           GlobalTableName="Music",
                           ReplicationGroup=[{"RegionName": EAST}, {"RegionName": WEST}])
        self.clients[EU].create_table(**hash_table("Music", StreamSpecification=STREAM, AttributeDefinitions=[
            {"AttributeName": "other", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "other", "KeyType": "HASH"}]))
        self.assertRefused(east.create_global_table, "ValidationException",
                           INVALID + "the table Music in eu-west-1 does not have the key schema of "
                           "the other replicas", GlobalTableName="Music",
                           ReplicationGroup=[{"RegionName": EAST}, {"RegionName": EU}])
        self.assertRefused(east.create_global_table, "ValidationException",
                           INVALID + "the ReplicationGroup must include the region of the "
                           "request, us-east-1", GlobalTableName="Music",
                           ReplicationGroup=[{"RegionName": WEST}])
        self.assertRefused(east.describe_global_table, "GlobalTableNotFoundException",
                           "Global table not found: Music", GlobalTableName="Music")
        east.create_global_table(GlobalTableName="Music", ReplicationGroup=[{"RegionName": EAST}])
        self.assertRefused(east.create_global_table, "GlobalTableAlreadyExistsException",
                           "Global table already exists: Music", GlobalTableName="Music",
                           ReplicationGroup=[{"RegionName": EAST}])
        self.assertRefused(east.update_global_table, "ReplicaAlreadyExistsException",
                           "Replica already exists: the global table Music has a replica in "
                           "us-east-1", GlobalTableName="Music",
                           ReplicaUpdates=[{"Create": {"RegionName": EAST}}])
        self.assertRefused(east.update_global_table, "ReplicaNotFoundException",
                           "Replica not found: the global table Music has no replica in "
                           "eu-west-1", GlobalTableName="Music",
                           ReplicaUpdates=[{"Delete": {"RegionName": EU}}])
        self.assertRefused(east.update_global_table, "GlobalTableNotFoundException",
                           "Global table not found: Nope", GlobalTableName="Nope",
                           ReplicaUpdates=[{"Delete": {"RegionName": EU}}])

    def test_regions_are_added_while_empty_and_removed_keeping_their_table(self):
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        server = self.start("--db-path", directory.name)
        for region in (EAST, WEST, EU, SYDNEY):
            self.table(region)
        east = self.clients[EAST]
        east.create_global_table(GlobalTableName="Music", ReplicationGroup=[{"RegionName": EAST},
                                                                            {"RegionName": WEST}])
        added = self.clients[WEST].update_global_table(
            GlobalTableName="Music", ReplicaUpdates=[{"Create": {"RegionName": EU}}])
        self.assertEqual(self.group(added["GlobalTableDescription"]), [EAST, WEST, EU])
        self.clients[EU].put_item(TableName="Music", Item={"pk": {"S": "from-eu"}})
        for region in (EAST, WEST):
            eventually(lambda: self.assertIsNotNone(self.item(region, "from-eu")))
        # Adding a region asks every replica to be empty.
        self.assertRefused(east.update_global_table, "ValidationException",
                           INVALID + "the table Music in us-east-1 is not empty: every replica of a "
                           "global table of version 2017.11.29 must be empty when one is added",
                           GlobalTableName="Music",
                           ReplicaUpdates=[{"Create": {"RegionName": SYDNEY}}])
        # Kept across a restart, and replicating after it.
        server.stop()
        self.servers.remove(server)
        self.start("--db-path", directory.name)
        east = self.clients[EAST]
        self.assertEqual(self.group(self.clients[EU].describe_global_table(
            GlobalTableName="Music")["GlobalTableDescription"]), [EAST, WEST, EU])
        # A region removed keeps its table, a table of its region alone.
        removed = east.update_global_table(GlobalTableName="Music",
                                           ReplicaUpdates=[{"Delete": {"RegionName": EU}}])
        self.assertEqual(self.group(removed["GlobalTableDescription"]), [EAST, WEST])
        eu_table = self.clients[EU].describe_table(TableName="Music")["Table"]
        self.assertNotIn("GlobalTableVersion", eu_table)
        self.assertRefused(self.clients[EU].describe_global_table, "GlobalTableNotFoundException",
                           "Global table not found: Music", GlobalTableName="Music")
        east.put_item(TableName="Music", Item={"pk": {"S": "after"}})
        eventually(lambda: self.assertIsNotNone(self.item(WEST, "after")))
        time.sleep(0.4)
        self.assertIsNone(self.item(EU, "after"))
        self.assertEqual(self.group(self.clients[WEST].describe_global_table(
            GlobalTableName="Music")["GlobalTableDescription"]), [EAST, WEST])

    def provisioned_table(self, region):
        self.clients[region].create_table(
            TableName="Music", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "g", "AttributeType": "S"}],
            ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
            GlobalSecondaryIndexes=[{
                "IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
                "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}],
            StreamSpecification=STREAM)

    def settings(self, region):
        answer = self.clients[region].describe_global_table_settings(GlobalTableName="Music")
        self.assertEqual(answer["GlobalTableName"], "Music")
        return {r["RegionName"]: r for r in answer["ReplicaSettings"]}

    def test_settings_are_described_and_changed_in_every_member(self):
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        server = self.start("--db-path", directory.name)
        for region in (EAST, WEST):
            self.provisioned_table(region)
        east, west = self.clients[EAST], self.clients[WEST]
        east.create_global_table(GlobalTableName="Music", ReplicationGroup=[
            {"RegionName": EAST}, {"RegionName": WEST}])
        described = self.settings(WEST)
        self.assertEqual(sorted(described), [EAST, WEST])
        self.assertEqual(described[EAST], {
            "RegionName": EAST, "ReplicaStatus": "ACTIVE",
            "ReplicaBillingModeSummary": {"BillingMode": "PROVISIONED"},
            "ReplicaProvisionedReadCapacityUnits": 5, "ReplicaProvisionedWriteCapacityUnits": 5,
            "ReplicaGlobalSecondaryIndexSettings": [{
                "IndexName": "byG", "IndexStatus": "ACTIVE", "ProvisionedReadCapacityUnits": 5,
                "ProvisionedWriteCapacityUnits": 5}]})
        # Write settings in every member; read settings and the table class in the one named.
        answer = east.update_global_table_settings(
            GlobalTableName="Music", GlobalTableProvisionedWriteCapacityUnits=7,
            GlobalTableGlobalSecondaryIndexSettingsUpdate=[
                {"IndexName": "byG", "ProvisionedWriteCapacityUnits": 8}],
            GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate={
                "MinimumUnits": 5, "MaximumUnits": 50, "ScalingPolicyUpdate": {
                    "TargetTrackingScalingPolicyConfiguration": {"TargetValue": 70}}},
            ReplicaSettingsUpdate=[{
                "RegionName": WEST, "ReplicaProvisionedReadCapacityUnits": 9,
                "ReplicaGlobalSecondaryIndexSettingsUpdate": [
                    {"IndexName": "byG", "ProvisionedReadCapacityUnits": 11}],
                "ReplicaTableClass": "STANDARD_INFREQUENT_ACCESS"}])
        changed = {r["RegionName"]: r for r in answer["ReplicaSettings"]}
        self.assertEqual(changed, self.settings(EAST))
        scaling = {"MinimumUnits": 5, "MaximumUnits": 50, "AutoScalingDisabled": False,
                   "ScalingPolicies": [{
                       "PolicyName": "DynamoDBWriteCapacityUtilization:table/Music",
                       "TargetTrackingScalingPolicyConfiguration": {"TargetValue": 70.0}}]}
        for region, reads, index_reads in ((EAST, 5, 5), (WEST, 9, 11)):
            replica = changed[region]
            self.assertEqual((replica["ReplicaProvisionedReadCapacityUnits"],
                              replica["ReplicaProvisionedWriteCapacityUnits"]), (reads, 7))
            self.assertEqual(replica["ReplicaProvisionedWriteCapacityAutoScalingSettings"], scaling)
            index = replica["ReplicaGlobalSecondaryIndexSettings"][0]
            self.assertEqual((index["ProvisionedReadCapacityUnits"],
                              index["ProvisionedWriteCapacityUnits"]), (index_reads, 8))
        self.assertNotIn("ReplicaTableClassSummary", changed[EAST])
        self.assertEqual(changed[WEST]["ReplicaTableClassSummary"]["TableClass"],
                         "STANDARD_INFREQUENT_ACCESS")
        # The members' own descriptions agree, across a restart.
        server.stop()
        self.servers.remove(server)
        self.start("--db-path", directory.name)
        table = self.clients[WEST].describe_table(TableName="Music")["Table"]
        self.assertEqual((table["ProvisionedThroughput"]["ReadCapacityUnits"],
                          table["ProvisionedThroughput"]["WriteCapacityUnits"]), (9, 7))
        self.assertEqual(table["TableClassSummary"]["TableClass"], "STANDARD_INFREQUENT_ACCESS")
        self.assertEqual(self.settings(EAST), changed)
        # Refusals: ddbd's own words for the names (DynamoDB's are not recorded), UpdateTable's
        # for the capacity; none changes anything.
        east, west = self.clients[EAST], self.clients[WEST]
        self.assertRefused(east.update_global_table_settings, "ReplicaNotFoundException",
                           "Replica not found: the global table Music has no replica in eu-west-1",
                           GlobalTableName="Music", GlobalTableProvisionedWriteCapacityUnits=3,
                           ReplicaSettingsUpdate=[
                               {"RegionName": EU, "ReplicaProvisionedReadCapacityUnits": 3}])
        self.assertRefused(east.update_global_table_settings, "IndexNotFoundException",
                           "Index not found: the global table Music has no global secondary "
                           "index named nope", GlobalTableName="Music",
                           GlobalTableGlobalSecondaryIndexSettingsUpdate=[
                               {"IndexName": "nope", "ProvisionedWriteCapacityUnits": 3}])
        self.assertRefused(east.update_global_table_settings, "ValidationException",
                           INVALID + "Neither ReadCapacityUnits nor WriteCapacityUnits can be "
                           "specified when BillingMode is PAY_PER_REQUEST", GlobalTableName="Music",
                           GlobalTableBillingMode="PAY_PER_REQUEST",
                           GlobalTableProvisionedWriteCapacityUnits=3)
        self.assertRefused(east.update_global_table_settings, "ValidationException",
                           INVALID + "auto scaling settings cannot be given for a table whose "
                           "BillingMode is PAY_PER_REQUEST", GlobalTableName="Music",
                           GlobalTableBillingMode="PAY_PER_REQUEST",
                           GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate={
                               "MinimumUnits": 1, "MaximumUnits": 2})
        self.assertEqual(self.settings(WEST), changed)
        self.assertRefused(east.describe_global_table_settings, "GlobalTableNotFoundException",
                           "Global table not found: Nope", GlobalTableName="Nope")
        # The billing mode, in every member.
        answer = west.update_global_table_settings(GlobalTableName="Music",
                                                   GlobalTableBillingMode="PAY_PER_REQUEST")
        for replica in answer["ReplicaSettings"]:
            self.assertEqual(replica["ReplicaBillingModeSummary"]["BillingMode"], "PAY_PER_REQUEST")
            self.assertEqual((replica["ReplicaProvisionedReadCapacityUnits"],
                              replica["ReplicaProvisionedWriteCapacityUnits"]), (0, 0))
            self.assertEqual(replica["ReplicaGlobalSecondaryIndexSettings"],
                             [{"IndexName": "byG", "IndexStatus": "ACTIVE"}])
            self.assertEqual(self.clients[replica["RegionName"]].describe_table(
                TableName="Music")["Table"]["BillingModeSummary"]["BillingMode"], "PAY_PER_REQUEST")


if __name__ == "__main__":
    unittest.main()
