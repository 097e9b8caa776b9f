"""Global tables, version 2019.11.21 (issue 43), with the real binary and boto3 clients of two and
three regions: --namespaces region gives each region a database; UpdateTable ReplicaUpdates makes a
replica in another region (its items copied), writes in any region reach the others after
--replication-delay-ms, conflicting writes settle on the last writer everywhere, the admin API
pauses and resumes replication, and a stop or a crash (SIGKILL) with changes pending applies them
after the restart, the later write still winning.
Refusals carry DynamoDB's types and texts (AWS-recorded, docs/global-tables.md)."""
import json
import os
import signal
import tempfile
import time
import unittest
import urllib.request

import boto3
from botocore.config import Config

from ddbd_harness import DdbdServer, eventually, hash_table, region_client

CONFIG = Config(retries={"max_attempts": 1})
DELAY_MS = 1000  # long enough that a read right after a write, even under ASan, comes first
EAST, WEST, EU = "us-east-1", "us-west-2", "eu-west-1"


class GlobalTables(unittest.TestCase):
    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        self.servers = []
        self.start()

    def tearDown(self):
        for server in self.servers:
            server.stop()

    def start(self, *extra):
        # No TTL sweeper of its own: only the admin call deletes expired items.
        server = DdbdServer("--namespaces", "region", "--admin-api", "--replication-delay-ms",
                            str(DELAY_MS), "--ttl-interval-ms", "0", *extra).start()
        self.servers.append(server)
        self.endpoint = server.endpoint
        self.east, self.west, self.eu = (region_client(server.endpoint, r) for r in (EAST, WEST, EU))
        return server

    def admin(self, path, body=None):
        request = urllib.request.Request(self.endpoint + path, method="GET" if body is None else "POST",
                                         data=None if body is None else json.dumps(body).encode())
        with urllib.request.urlopen(request) as answer:
            return json.loads(answer.read())

    def global_table(self, name="Orders", **extra):
        self.east.create_table(**hash_table(name, **extra))
        self.east.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": WEST}}])
        self.wait_active(name)

    def wait_active(self, name):
        def active():
            for client in (self.east, self.west):
                replicas = client.describe_table(TableName=name)["Table"]["Replicas"]
                self.assertEqual({r["ReplicaStatus"] for r in replicas}, {"ACTIVE"})
        eventually(active)

    def item(self, client, name, key):
        return client.get_item(TableName=name, Key={"pk": {"S": key}}).get("Item")

    def assertRefused(self, call, code, message, **kwargs):
        with self.assertRaises(Exception) as caught:
            call(**kwargs)
        error = caught.exception.response["Error"]
        self.assertEqual((error["Code"], error["Message"]), (code, message))

    def test_a_replica_is_made_with_the_items_and_described_in_both_regions(self):
        self.east.create_table(
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "n", "AttributeType": "N"}],
            GlobalSecondaryIndexes=[{"IndexName": "by-n",
                                     "KeySchema": [{"AttributeName": "n", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"}}],
            **{k: v for k, v in hash_table("Orders").items() if k != "AttributeDefinitions"})
        for n in range(50):
            self.east.put_item(TableName="Orders", Item={"pk": {"S": "k%d" % n}, "n": {"N": str(n)}})
        answer = self.east.update_table(TableName="Orders",
                                        ReplicaUpdates=[{"Create": {"RegionName": WEST}}])
        table = answer["TableDescription"]
        self.assertEqual(table["GlobalTableVersion"], "2019.11.21")
        self.assertEqual([(r["RegionName"], r["ReplicaStatus"]) for r in table["Replicas"]],
                         [(EAST, "ACTIVE"), (WEST, "CREATING")])
        # Replication reads the stream: DynamoDB enables one with both images.
        self.assertEqual(table["StreamSpecification"],
                         {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
        self.wait_active("Orders")
        west = self.west.describe_table(TableName="Orders")["Table"]
        self.assertEqual(west["GlobalTableVersion"], "2019.11.21")
        self.assertEqual(west["KeySchema"], table["KeySchema"])
        self.assertTrue(west["TableArn"].startswith("arn:aws:dynamodb:us-west-2:"))
        self.assertEqual(self.west.scan(TableName="Orders", Select="COUNT")["Count"], 50)
        self.assertEqual(self.item(self.west, "Orders", "k7"), {"pk": {"S": "k7"}, "n": {"N": "7"}})
        # The replica has the table's indexes, filled.
        self.assertEqual(self.west.query(TableName="Orders", IndexName="by-n",
                                         KeyConditionExpression="n = :n",
                                         ExpressionAttributeValues={":n": {"N": "7"}})["Items"],
                         [{"pk": {"S": "k7"}, "n": {"N": "7"}}])
        # A table of one region describes no replicas at all.
        self.east.create_table(**hash_table("Alone"))
        self.assertNotIn("Replicas", self.east.describe_table(TableName="Alone")["Table"])
        self.assertNotIn("GlobalTableVersion", self.east.describe_table(TableName="Alone")["Table"])

    def test_writes_reach_the_other_region_after_the_delay_both_ways(self):
        self.global_table()
        self.east.put_item(TableName="Orders", Item={"pk": {"S": "a"}, "v": {"N": "1"}})
        # Eventually consistent: not there at once...
        self.assertIsNone(self.item(self.west, "Orders", "a"))
        # ...and there after the delay.
        eventually(lambda: self.assertEqual(self.item(self.west, "Orders", "a"),
                                            {"pk": {"S": "a"}, "v": {"N": "1"}}))
        self.west.update_item(TableName="Orders", Key={"pk": {"S": "a"}},
                              UpdateExpression="SET v = v + :one",
                              ExpressionAttributeValues={":one": {"N": "1"}})
        eventually(lambda: self.assertEqual(self.item(self.east, "Orders", "a")["v"], {"N": "2"}))
        # Transactions are atomic in their region and replicate as separate writes.
        self.west.transact_write_items(TransactItems=[
            {"Put": {"TableName": "Orders", "Item": {"pk": {"S": "t1"}}}},
            {"Delete": {"TableName": "Orders", "Key": {"pk": {"S": "a"}}}}])
        eventually(lambda: self.assertIsNone(self.item(self.east, "Orders", "a")))
        self.assertIsNotNone(self.item(self.east, "Orders", "t1"))
        # A Time to Live deletion is a write too: it reaches the other region.
        self.east.update_time_to_live(TableName="Orders", TimeToLiveSpecification={
            "Enabled": True, "AttributeName": "expires"})
        self.east.put_item(TableName="Orders", Item={"pk": {"S": "old"},
                                                         "expires": {"N": str(int(time.time()) - 60)}})
        eventually(lambda: self.assertIsNotNone(self.item(self.west, "Orders", "old")))
        # Time to Live is enabled in every member: each region's sweep deletes its copy.
        self.assertEqual(self.admin("/_ddbd/ttl/sweep", {})["deleted"], 2)
        eventually(lambda: self.assertIsNone(self.item(self.west, "Orders", "old")))
        # Each replica's stream carries the changes replicated into it.
        stream = self.west.describe_table(TableName="Orders")["Table"]["LatestStreamArn"]
        streams = region_client(self.endpoint, WEST, service="dynamodbstreams")
        shard = streams.describe_stream(StreamArn=stream)["StreamDescription"]["Shards"][0]
        iterator = streams.get_shard_iterator(StreamArn=stream, ShardId=shard["ShardId"],
                                              ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        records = streams.get_records(ShardIterator=iterator)["Records"]
        self.assertEqual(records[0]["eventName"], "INSERT")
        self.assertEqual(records[0]["dynamodb"]["NewImage"], {"pk": {"S": "a"}, "v": {"N": "1"}})

    def test_conflicting_writes_settle_on_the_last_writer_everywhere(self):
        self.global_table()
        # Divergence: each region writes the item while replication between them is held.
        self.admin("/_ddbd/replication/pause", {})
        self.east.put_item(TableName="Orders", Item={"pk": {"S": "x"}, "by": {"S": "east"}})
        time.sleep(0.01)
        self.west.put_item(TableName="Orders", Item={"pk": {"S": "x"}, "by": {"S": "west"}})
        queues = {(q["source"], q["target"]): q for q in self.admin("/_ddbd/replication")["queues"]}
        self.assertEqual(queues[(EAST, WEST)]["pending"], 1)
        self.assertTrue(queues[(EAST, WEST)]["paused"])
        with urllib.request.urlopen(self.endpoint + "/metrics") as answer:
            metrics = answer.read().decode()
        self.assertIn('ddbd_replication_pending{source="us-east-1",target="us-west-2"} 1', metrics)
        time.sleep(DELAY_MS / 1000 + 0.2)
        self.assertEqual(self.item(self.east, "Orders", "x")["by"], {"S": "east"})  # stale
        self.admin("/_ddbd/replication/resume", {})
        # The west's write came last: both regions settle on it.
        for client in (self.east, self.west):
            eventually(lambda c=client: self.assertEqual(self.item(c, "Orders", "x")["by"],
                                                         {"S": "west"}))
        # A delete that comes last wins too, in both.
        self.admin("/_ddbd/replication/pause", {"source": WEST})
        self.west.put_item(TableName="Orders", Item={"pk": {"S": "y"}, "by": {"S": "west"}})
        time.sleep(0.01)
        self.east.put_item(TableName="Orders", Item={"pk": {"S": "y"}, "by": {"S": "east"}})
        time.sleep(0.01)
        self.east.delete_item(TableName="Orders", Key={"pk": {"S": "y"}})
        eventually(lambda: self.assertEqual(
            self.admin("/_ddbd/replication")["queues"][0]["pending"], 0))
        self.admin("/_ddbd/replication/resume", {"source": WEST})
        time.sleep(DELAY_MS / 1000 + 0.3)
        self.assertIsNone(self.item(self.east, "Orders", "y"))
        self.assertIsNone(self.item(self.west, "Orders", "y"))

    def test_a_third_region_and_a_replica_leaving(self):
        self.global_table()
        self.east.put_item(TableName="Orders", Item={"pk": {"S": "a"}})
        # One replica change at a time, from any member's endpoint.
        self.west.update_table(TableName="Orders", ReplicaUpdates=[{"Create": {"RegionName": EU}}])
        eventually(lambda: self.assertEqual(
            {r["ReplicaStatus"] for r in self.east.describe_table(TableName="Orders")["Table"]["Replicas"]},
            {"ACTIVE"}))
        self.assertEqual(sorted(r["RegionName"] for r in
                                self.eu.describe_table(TableName="Orders")["Table"]["Replicas"]),
                         sorted([EAST, EU, WEST]))
        eventually(lambda: self.assertIsNotNone(self.item(self.eu, "Orders", "a")))
        self.eu.put_item(TableName="Orders", Item={"pk": {"S": "from-eu"}})
        eventually(lambda: self.assertIsNotNone(self.item(self.east, "Orders", "from-eu")))
        eventually(lambda: self.assertIsNotNone(self.item(self.west, "Orders", "from-eu")))
        # West sourced the EU replica within 24 hours: it cannot leave while that replica is there.
        source_rule = ("Replica cannot be deleted because it has acted as a source region for new "
                       "replica(s) being added to the table in the last 24 hours.")
        self.assertRefused(self.east.update_table, "ValidationException", source_rule,
                           TableName="Orders", ReplicaUpdates=[{"Delete": {"RegionName": WEST}}])
        self.assertRefused(self.west.delete_table, "ValidationException", source_rule,
                           TableName="Orders")
        # Leaf first: the EU replica goes (its table with it), then the west one.
        self.east.update_table(TableName="Orders", ReplicaUpdates=[{"Delete": {"RegionName": EU}}])
        with self.assertRaises(self.eu.exceptions.ResourceNotFoundException):
            self.eu.describe_table(TableName="Orders")
        self.assertEqual(sorted(r["RegionName"] for r in
                                self.west.describe_table(TableName="Orders")["Table"]["Replicas"]),
                         [EAST, WEST])
        # East sourced west within 24 hours: east stays, west may go now that EU has.
        self.assertRefused(self.west.update_table, "ValidationException", source_rule,
                           TableName="Orders", ReplicaUpdates=[{"Delete": {"RegionName": EAST}}])
        self.east.update_table(TableName="Orders", ReplicaUpdates=[{"Delete": {"RegionName": WEST}}])
        with self.assertRaises(self.west.exceptions.ResourceNotFoundException):
            self.west.describe_table(TableName="Orders")
        # Alone again: no replicas described, the stream stays, and may now be disabled.
        east = self.east.describe_table(TableName="Orders")["Table"]
        self.assertNotIn("Replicas", east)
        self.assertNotIn("GlobalTableVersion", east)
        self.assertEqual(east["StreamSpecification"]["StreamViewType"], "NEW_AND_OLD_IMAGES")
        self.east.update_table(TableName="Orders", StreamSpecification={"StreamEnabled": False})

    def test_under_table_delay_a_replica_is_updating_and_deleting_a_while(self):
        self.start("--table-delay-ms", "600")
        replicas = lambda table: [(r["RegionName"], r["ReplicaStatus"]) for r in table["Replicas"]]
        status = lambda client: client.describe_table(TableName="Orders")["Table"]["TableStatus"]
        self.east.create_table(**hash_table("Orders"))
        eventually(lambda: self.assertEqual(status(self.east), "ACTIVE"))
        # Made: the table UPDATING, the new replica (and its own table) CREATING.
        made = self.east.update_table(TableName="Orders",
                                      ReplicaUpdates=[{"Create": {"RegionName": WEST}}])
        self.assertEqual(made["TableDescription"]["TableStatus"], "UPDATING")
        self.assertEqual(replicas(made["TableDescription"]), [(EAST, "ACTIVE"), (WEST, "CREATING")])
        self.assertEqual(status(self.west), "CREATING")
        eventually(lambda: self.assertEqual((status(self.east), status(self.west)),
                                            ("ACTIVE", "ACTIVE")))
        self.wait_active("Orders")
        # Changed: UPDATING in every member for the delay; another change waits.
        changed = self.east.update_table(TableName="Orders", ReplicaUpdates=[
            {"Update": {"RegionName": WEST, "TableClassOverride": "STANDARD_INFREQUENT_ACCESS"}}])
        self.assertEqual(changed["TableDescription"]["TableStatus"], "UPDATING")
        self.assertEqual(replicas(changed["TableDescription"]), [(EAST, "ACTIVE"), (WEST, "UPDATING")])
        self.assertEqual(replicas(self.west.describe_table(TableName="Orders")["Table"]),
                         [(EAST, "ACTIVE"), (WEST, "UPDATING")])
        self.assertRefused(self.west.update_table, "ResourceInUseException",
                           "The resource which you are attempting to change is in use.",
                           TableName="Orders", ReplicaUpdates=[{"Delete": {"RegionName": EAST}}])
        self.wait_active("Orders")
        eventually(lambda: self.assertEqual(status(self.east), "ACTIVE"))
        # Removed: DELETING in the other member, its own table DELETING, then gone.
        removed = self.east.update_table(TableName="Orders",
                                         ReplicaUpdates=[{"Delete": {"RegionName": WEST}}])
        self.assertEqual(replicas(removed["TableDescription"]), [(EAST, "ACTIVE"), (WEST, "DELETING")])
        self.assertEqual(status(self.west), "DELETING")
        self.assertNotIn("Replicas", self.west.describe_table(TableName="Orders")["Table"])
        self.east.put_item(TableName="Orders", Item={"pk": {"S": "after"}})
        # Sent nothing more: the west queue holds no change (the replication delay is 1 s).
        queues = self.admin("/_ddbd/replication")["queues"]
        self.assertEqual(sum(q["pending"] for q in queues if q["target"] == WEST), 0)

        def alone():
            table = self.east.describe_table(TableName="Orders")["Table"]
            self.assertEqual(table["TableStatus"], "ACTIVE")
            self.assertNotIn("Replicas", table)
            self.assertNotIn("GlobalTableVersion", table)
        eventually(alone)
        with self.assertRaises(self.west.exceptions.ResourceNotFoundException):
            self.west.describe_table(TableName="Orders")

    def test_a_provisioned_table_takes_replicas_only_with_write_auto_scaling(self):
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        server = self.start("--db-path", directory.name)
        throughput = {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}
        self.east.create_table(
            TableName="Orders", ProvisionedThroughput=throughput,
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "n", "AttributeType": "N"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            GlobalSecondaryIndexes=[{"IndexName": "by-n", "ProvisionedThroughput": throughput,
                                     "KeySchema": [{"AttributeName": "n", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"}}])
        # A table of one region: itself, its index, no settings yet.
        described = self.east.describe_table_replica_auto_scaling(TableName="Orders")
        self.assertEqual(described["TableAutoScalingDescription"], {
            "TableName": "Orders", "TableStatus": "ACTIVE",
            "Replicas": [{"RegionName": EAST, "ReplicaStatus": "ACTIVE", "GlobalSecondaryIndexes": [
                {"IndexName": "by-n", "IndexStatus": "ACTIVE"}]}]})
        create_west = dict(TableName="Orders", ReplicaUpdates=[{"Create": {"RegionName": WEST}}])
        self.assertRefused(self.east.update_table, "ValidationException",
                           "Table write capacity should either be Pay-Per-Request or AutoScaled.",
                           **create_west)
        # ddbd's own words where DynamoDB's are not recorded.
        invalid = "One or more parameter values were invalid: "
        self.assertRefused(
            self.east.update_table_replica_auto_scaling, "ValidationException",
            invalid + "MinimumUnits and MaximumUnits must both be given when auto scaling is first set",
            TableName="Orders", ProvisionedWriteCapacityAutoScalingUpdate={"MinimumUnits": 5})
        self.assertRefused(
            self.east.update_table_replica_auto_scaling, "ValidationException",
            invalid + "MinimumUnits (9) must not be greater than MaximumUnits (4)",
            TableName="Orders",
            ProvisionedWriteCapacityAutoScalingUpdate={"MinimumUnits": 9, "MaximumUnits": 4})
        self.assertRefused(
            self.east.update_table_replica_auto_scaling, "ValidationException",
            invalid + "the table has no global secondary index named nope", TableName="Orders",
            GlobalSecondaryIndexUpdates=[{"IndexName": "nope", "ProvisionedWriteCapacityAutoScalingUpdate":
                                          {"MinimumUnits": 1, "MaximumUnits": 2}}])
        self.assertRefused(
            self.east.update_table_replica_auto_scaling, "ValidationException",
            "Update global table operation failed because one or more replicas were not part of the "
            "global table. Please retry the request without these replicas: [eu-west-1].",
            TableName="Orders", ReplicaUpdates=[{"RegionName": EU}])
        self.assertRefused(self.east.describe_table_replica_auto_scaling,
                           "ResourceNotFoundException",
                           "Requested resource not found: Table: Missing not found",
                           TableName="Missing")
        write = {"MinimumUnits": 5, "MaximumUnits": 50,
                 "ScalingPolicyUpdate": {"TargetTrackingScalingPolicyConfiguration": {"TargetValue": 70}}}
        answer = self.east.update_table_replica_auto_scaling(
            TableName="Orders", ProvisionedWriteCapacityAutoScalingUpdate=write,
            GlobalSecondaryIndexUpdates=[{"IndexName": "by-n", "ProvisionedWriteCapacityAutoScalingUpdate": {
                "MinimumUnits": 2, "MaximumUnits": 20, "AutoScalingDisabled": True}}])
        expected_write = {"MinimumUnits": 5, "MaximumUnits": 50, "AutoScalingDisabled": False,
                          "ScalingPolicies": [{
                              "PolicyName": "DynamoDBWriteCapacityUtilization:table/Orders",
                              "TargetTrackingScalingPolicyConfiguration": {"TargetValue": 70.0}}]}
        replica = answer["TableAutoScalingDescription"]["Replicas"][0]
        self.assertEqual(replica["ReplicaProvisionedWriteCapacityAutoScalingSettings"], expected_write)
        self.assertEqual(replica["GlobalSecondaryIndexes"][0]["ProvisionedWriteCapacityAutoScalingSettings"],
                         {"MinimumUnits": 2, "MaximumUnits": 20, "AutoScalingDisabled": True,
                          "ScalingPolicies": []})
        # Auto scaled: the replica is made, with the same settings; each region's reads its own.
        self.east.update_table(**create_west)
        self.wait_active("Orders")
        self.west.update_table_replica_auto_scaling(TableName="Orders", ReplicaUpdates=[{
            "RegionName": WEST, "ReplicaProvisionedReadCapacityAutoScalingUpdate": {
                "MinimumUnits": 3, "MaximumUnits": 30, "ScalingPolicyUpdate": {
                    "PolicyName": "reads", "TargetTrackingScalingPolicyConfiguration": {
                        "TargetValue": 55.5, "ScaleInCooldown": 60, "DisableScaleIn": False}}}}])

        def check(client):
            table = client.describe_table_replica_auto_scaling(TableName="Orders")["TableAutoScalingDescription"]
            replicas = {r["RegionName"]: r for r in table["Replicas"]}
            self.assertEqual(sorted(replicas), [EAST, WEST])
            for region in (EAST, WEST):
                self.assertEqual(replicas[region]["ReplicaProvisionedWriteCapacityAutoScalingSettings"],
                                 expected_write)
            self.assertNotIn("ReplicaProvisionedReadCapacityAutoScalingSettings", replicas[EAST])
            self.assertEqual(replicas[WEST]["ReplicaProvisionedReadCapacityAutoScalingSettings"], {
                "MinimumUnits": 3, "MaximumUnits": 30, "AutoScalingDisabled": False,
                "ScalingPolicies": [{"PolicyName": "reads", "TargetTrackingScalingPolicyConfiguration": {
                    "DisableScaleIn": False, "ScaleInCooldown": 60, "TargetValue": 55.5}}]})
        check(self.east)
        check(self.west)
        # Kept across a restart.
        server.stop()
        self.servers.remove(server)
        self.start("--db-path", directory.name)
        check(self.east)
        check(self.west)
        # An on-demand table has no capacity to scale.
        self.east.create_table(**hash_table("OnDemand"))
        self.assertRefused(
            self.east.update_table_replica_auto_scaling, "ValidationException",
            invalid + "auto scaling settings cannot be given for a table whose BillingMode is "
            "PAY_PER_REQUEST", TableName="OnDemand", ProvisionedWriteCapacityAutoScalingUpdate=write)

    def test_the_settings_dynamodb_keeps_alike_reach_every_member(self):
        self.global_table()
        # Time to Live, changed in either region.
        self.east.update_time_to_live(TableName="Orders", TimeToLiveSpecification={
            "Enabled": True, "AttributeName": "expires"})
        self.assertEqual(self.west.describe_time_to_live(TableName="Orders")["TimeToLiveDescription"],
                         {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires"})
        # A global index made in the west is made, filled, and queried in the east.
        self.east.put_item(TableName="Orders", Item={"pk": {"S": "a"}, "status": {"S": "open"}})
        eventually(lambda: self.assertIsNotNone(self.item(self.west, "Orders", "a")))
        self.west.update_table(
            TableName="Orders",
            AttributeDefinitions=[{"AttributeName": "status", "AttributeType": "S"}],
            GlobalSecondaryIndexUpdates=[{"Create": {
                "IndexName": "by-status", "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"}}}])
        def indexed():
            for client in (self.east, self.west):
                indexes = client.describe_table(TableName="Orders")["Table"].get("GlobalSecondaryIndexes", [])
                self.assertEqual([(i["IndexName"], i["IndexStatus"]) for i in indexes],
                                 [("by-status", "ACTIVE")])
        eventually(indexed)
        found = self.east.query(TableName="Orders", IndexName="by-status",
                                KeyConditionExpression="#s = :s",
                                ExpressionAttributeNames={"#s": "status"},
                                ExpressionAttributeValues={":s": {"S": "open"}})["Items"]
        self.assertEqual(found, [{"pk": {"S": "a"}, "status": {"S": "open"}}])
        # The table's on-demand write ceiling.
        self.east.update_table(TableName="Orders", OnDemandThroughput={"MaxWriteRequestUnits": 50})
        self.assertEqual(self.west.describe_table(TableName="Orders")["Table"]["OnDemandThroughput"]
                         ["MaxWriteRequestUnits"], 50)
        # What stays regional: deletion protection.
        self.east.update_table(TableName="Orders", DeletionProtectionEnabled=True)
        self.assertFalse(self.west.describe_table(TableName="Orders")["Table"]["DeletionProtectionEnabled"])
        self.east.update_table(TableName="Orders", DeletionProtectionEnabled=False)
        # Disabled in the west: disabled everywhere (an hour later: DynamoDB allows one change an
        # hour, in every member); a replica made while it is enabled has it from the start.
        self.admin("/_ddbd/clock", {"advanceSeconds": 3601})
        self.west.update_time_to_live(TableName="Orders", TimeToLiveSpecification={
            "Enabled": False, "AttributeName": "expires"})
        self.assertEqual(self.east.describe_time_to_live(TableName="Orders")["TimeToLiveDescription"],
                         {"TimeToLiveStatus": "DISABLED"})
        self.admin("/_ddbd/clock", {"advanceSeconds": 3601})
        self.east.update_time_to_live(TableName="Orders", TimeToLiveSpecification={
            "Enabled": True, "AttributeName": "ttl"})
        self.east.update_table(TableName="Orders", ReplicaUpdates=[{"Create": {"RegionName": EU}}])
        self.assertEqual(self.eu.describe_time_to_live(TableName="Orders")["TimeToLiveDescription"],
                         {"TimeToLiveStatus": "ENABLED", "AttributeName": "ttl"})

    def test_refusals_carry_dynamodbs_texts(self):
        self.global_table()
        self.east.create_table(**hash_table("Taken"))
        self.west.create_table(**hash_table("Taken"))
        invalid = "ValidationException"
        cases = [
            ([{"Create": {"RegionName": EAST}}], "Orders",
             "Cannot add or delete the local region through ReplicaUpdates. Use CreateTable, "
             "DeleteTable, or UpdateTable as required."),
            ([{"Create": {"RegionName": WEST}}], "Orders",
             "Failed to create a the new replica of table with name: \u2018Orders\u2019 because one "
             "or more replicas already existed as tables."),
            ([{"Create": {"RegionName": WEST}}], "Taken",
             "Failed to create a the new replica of table with name: \u2018Taken\u2019 because one "
             "or more replicas already existed as tables."),
            ([{"Delete": {"RegionName": EU}}], "Orders",
             "Update global table operation failed because one or more replicas were not part of "
             "the global table. Please retry the request without these replicas: [eu-west-1]."),
            ([{"Create": {"RegionName": EU}}, {"Create": {"RegionName": "eu-west-2"}}], "Orders",
             "Update table operation with more than one create or delete replica actions not "
             "allowed"),
            ([{"Create": {"RegionName": EU}, "Delete": {"RegionName": EU}}], "Orders",
             "Update table operation with more than one type of replica actions not allowed."),
            ([{"Update": {"RegionName": WEST}}], "Orders",
             "There are no actions specified in the Replica Update Action of the request."),
            ([{}], "Orders",
             "There are no actions specified in the Replica Update Action of the request."),
        ]
        for updates, table, message in cases:
            with self.subTest(updates=updates):
                self.assertRefused(self.east.update_table, invalid, message, TableName=table,
                                   ReplicaUpdates=updates)
        self.assertRefused(self.east.update_table, invalid,
                           "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when "
                           "BillingMode is PAY_PER_REQUEST", TableName="Orders",
                           ReplicaUpdates=[{"Update": {"RegionName": WEST,
                                                       "ProvisionedThroughputOverride": {
                                                           "ReadCapacityUnits": 5}}}])
        # DynamoDB takes ReplicaUpdates alone, checked first; its text is not recorded: ddbd's.
        self.assertRefused(self.east.update_table, invalid,
                           "One or more parameter values were invalid: ReplicaUpdates cannot be "
                           "combined with other updates of the table", TableName="Orders",
                           DeletionProtectionEnabled=True,
                           ReplicaUpdates=[{"Create": {"RegionName": EU}}])
        self.assertRefused(self.east.update_table, invalid,
                           "Disabling Stream is not allowed for a Global Table replica.",
                           TableName="Orders", StreamSpecification={"StreamEnabled": False})
        self.assertRefused(self.east.delete_table, invalid,
                           "Replica cannot be deleted because it has acted as a source region "
                           "for new replica(s) being added to the table in the last 24 hours.",
                           TableName="Orders")
        # While a replica is being made, the table takes no other change.
        self.admin("/_ddbd/replication/pause", {"target": EU})
        self.east.update_table(TableName="Orders", ReplicaUpdates=[{"Create": {"RegionName": EU}}])
        self.assertRefused(self.west.update_table, "ResourceInUseException",
                           "The resource which you are attempting to change is in use.",
                           TableName="Orders", ReplicaUpdates=[{"Delete": {"RegionName": EU}}])
        # A replica's own deletion protection keeps it.
        self.admin("/_ddbd/replication/resume", {})
        eventually(lambda: self.assertEqual(
            {r["ReplicaStatus"] for r in self.west.describe_table(TableName="Orders")["Table"]["Replicas"]},
            {"ACTIVE"}))
        self.eu.update_table(TableName="Orders", DeletionProtectionEnabled=True)
        self.assertRefused(self.east.update_table, invalid,
                           "Resource cannot be deleted as it is currently protected against "
                           "deletion. Disable deletion protection first.",
                           TableName="Orders", ReplicaUpdates=[{"Delete": {"RegionName": EU}}])

    def test_a_replicas_overrides_are_kept_and_described_everywhere(self):
        self.global_table()
        self.east.update_table(TableName="Orders", ReplicaUpdates=[{"Update": {
            "RegionName": WEST, "TableClassOverride": "STANDARD_INFREQUENT_ACCESS",
            "OnDemandThroughputOverride": {"MaxReadRequestUnits": 100},
            "GlobalSecondaryIndexes": [{"IndexName": "by-v", "OnDemandThroughputOverride": {
                "MaxReadRequestUnits": 50}}]}}])
        for client in (self.east, self.west):
            west = next(r for r in client.describe_table(TableName="Orders")["Table"]["Replicas"]
                        if r["RegionName"] == WEST)
            self.assertEqual(west["ReplicaTableClassSummary"]["TableClass"],
                             "STANDARD_INFREQUENT_ACCESS")
            self.assertEqual(west["OnDemandThroughputOverride"], {"MaxReadRequestUnits": 100})
            self.assertEqual(west["GlobalSecondaryIndexes"],
                             [{"IndexName": "by-v",
                               "OnDemandThroughputOverride": {"MaxReadRequestUnits": 50}}])

    def test_credentials_namespaces_replicate_within_one_access_key(self):
        server = DdbdServer("--namespaces", "credentials", "--replication-delay-ms", "0").start()
        self.servers.append(server)
        def as_key(key, region):
            return boto3.client("dynamodb", endpoint_url=server.endpoint, config=CONFIG,
                                region_name=region, aws_access_key_id=key,
                                aws_secret_access_key="secret")
        alice_east, alice_west = as_key("alice", EAST), as_key("alice", WEST)
        alice_east.create_table(**hash_table("Orders"))
        alice_east.update_table(TableName="Orders",
                                ReplicaUpdates=[{"Create": {"RegionName": WEST}}])
        alice_east.put_item(TableName="Orders", Item={"pk": {"S": "a"}})
        eventually(lambda: self.assertIn("Item", alice_west.get_item(
            TableName="Orders", Key={"pk": {"S": "a"}})))
        # Another key's database in that region is another world.
        self.assertEqual(as_key("bob", WEST).list_tables()["TableNames"], [])

    def test_one_database_for_every_region_refuses_replicas(self):
        shared = DdbdServer("--namespaces", "shared").start()
        self.servers.append(shared)
        client = region_client(shared.endpoint, EAST)
        client.create_table(**hash_table("Orders"))
        self.assertRefused(client.update_table, "ValidationException",
                           "Replicas need a database per region: start ddbd with --namespaces "
                           "region (or credentials); it keeps one database for every region "
                           "(--namespaces shared)",
                           TableName="Orders", ReplicaUpdates=[{"Create": {"RegionName": WEST}}])

    def test_a_restart_applies_what_a_stop_left_pending(self):
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        server = self.start("--db-path", directory.name)
        self.global_table()
        self.admin("/_ddbd/replication/pause", {"target": WEST})
        self.east.put_item(TableName="Orders", Item={"pk": {"S": "pending"}})
        time.sleep(DELAY_MS / 1000 + 0.1)
        self.assertIsNone(self.item(self.west, "Orders", "pending"))
        server.stop()
        self.servers.remove(server)
        self.start("--db-path", directory.name)  # not paused any more
        self.assertEqual(self.west.describe_table(TableName="Orders")["Table"]["GlobalTableVersion"],
                         "2019.11.21")
        eventually(lambda: self.assertIsNotNone(self.item(self.west, "Orders", "pending")))
        # Replication goes on after the restart, both ways.
        self.west.put_item(TableName="Orders", Item={"pk": {"S": "after"}})
        eventually(lambda: self.assertIsNotNone(self.item(self.east, "Orders", "after")))

    def test_a_crash_loses_no_pending_change_and_the_later_write_still_wins(self):
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        server = self.start("--db-path", directory.name)
        self.global_table()
        for key in ("stale", "gone"):
            self.east.put_item(TableName="Orders", Item={"pk": {"S": key}, "v": {"S": "first"}})
        eventually(lambda: self.assertIsNotNone(self.item(self.west, "Orders", "gone")))
        self.admin("/_ddbd/replication/pause", {"target": WEST})
        # Acknowledged in the east, never sent west before the crash: a put, an update, a delete.
        self.east.put_item(TableName="Orders", Item={"pk": {"S": "pending"}, "v": {"S": "east"}})
        self.east.update_item(TableName="Orders", Key={"pk": {"S": "stale"}},
                              UpdateExpression="SET v = :v",
                              ExpressionAttributeValues={":v": {"S": "east"}})
        self.east.delete_item(TableName="Orders", Key={"pk": {"S": "gone"}})
        # A write in the west after the east's: it wins everywhere, before and after the crash.
        time.sleep(0.01)
        self.west.put_item(TableName="Orders", Item={"pk": {"S": "stale"}, "v": {"S": "west"}})
        eventually(lambda: self.assertEqual(self.item(self.east, "Orders", "stale")["v"]["S"], "west"))
        self.assertIsNone(self.item(self.west, "Orders", "pending"))
        self.assertEqual(self.admin("/_ddbd/replication")["queues"][0]["pending"] > 0, True)
        server.process.send_signal(signal.SIGKILL)
        server.process.wait()
        self.start("--db-path", directory.name)

        def level():
            for client in (self.east, self.west):
                self.assertEqual(self.item(client, "Orders", "pending"),
                                 {"pk": {"S": "pending"}, "v": {"S": "east"}})
                self.assertIsNone(self.item(client, "Orders", "gone"))
                self.assertEqual(self.item(client, "Orders", "stale")["v"]["S"], "west")
        eventually(level)
        # After it, the older east write stays beaten: nothing queued again undoes the west's.
        time.sleep(DELAY_MS / 1000 + 0.2)
        self.assertEqual(self.item(self.west, "Orders", "stale")["v"]["S"], "west")


if __name__ == "__main__":
    unittest.main()
