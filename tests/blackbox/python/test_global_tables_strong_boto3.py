"""Multi-region strong consistency (MRSC, issue 44), with the real binary and boto3 clients of the
regions: UpdateTable with MultiRegionConsistency STRONG makes a global table of three regions (three
replicas, or two and a witness); a write is in the other replicas when it is answered, even with a
long --replication-delay-ms; a region cut off by paused replication refuses writes and strongly
consistent reads; an item whose change is held on its way gets ReplicatedWriteConflictException; what
MRSC does not support is refused; the mode is kept across a restart."""
import json
import os
import tempfile
import time
import unittest
import urllib.request

from ddbd_harness import DdbdServer, eventually, hash_table, region_client

DELAY_MS = 3000  # a read right after a write comes long before an eventual copy would
EAST1, EAST2, WEST2, EU = "us-east-1", "us-east-2", "us-west-2", "eu-west-1"


class StrongGlobalTables(unittest.TestCase):
    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        self.server = None
        self.start()

    def tearDown(self):
        self.server.stop()

    def start(self, *extra):
        self.server = DdbdServer("--namespaces", "region", "--admin-api", "--replication-delay-ms",
                                 str(DELAY_MS), *extra).start()
        self.clients = {r: region_client(self.server.endpoint, r) for r in (EAST1, EAST2, WEST2, EU)}

    def admin(self, path, body):
        request = urllib.request.Request(self.server.endpoint + path, method="POST",
                                         data=json.dumps(body).encode())
        with urllib.request.urlopen(request) as answer:
            return json.loads(answer.read())

    def refused(self, call, **kwargs):
        with self.assertRaises(Exception) as caught:
            call(**kwargs)
        error = caught.exception.response["Error"]
        return error["Code"], error["Message"]

    def make_strong(self, replicas, witness=None, name="Orders"):
        extra = {"GlobalTableWitnessUpdates": [{"Create": {"RegionName": witness}}]} if witness else {}
        return self.clients[EAST1].update_table(
            TableName=name, MultiRegionConsistency="STRONG",
            ReplicaUpdates=[{"Create": {"RegionName": region}} for region in replicas], **extra)

    def put(self, region, key, value):
        self.clients[region].put_item(TableName="Orders",
                                      Item={"pk": {"S": key}, "v": {"S": value}})

    def get(self, region, key, consistent=True):
        item = self.clients[region].get_item(TableName="Orders", Key={"pk": {"S": key}},
                                             ConsistentRead=consistent).get("Item")
        return item and item["v"]["S"]

    def test_three_replicas_see_every_write_at_once(self):
        self.clients[EAST1].create_table(**hash_table("Orders"))
        described = self.make_strong([EAST2, WEST2])["TableDescription"]
        self.assertEqual(described["MultiRegionConsistency"], "STRONG")
        self.assertEqual({r["RegionName"] for r in described["Replicas"]}, {EAST1, EAST2, WEST2})
        self.assertNotIn("GlobalTableWitnesses", described)
        for region in (EAST1, EAST2, WEST2):
            table = self.clients[region].describe_table(TableName="Orders")["Table"]
            self.assertEqual(table["MultiRegionConsistency"], "STRONG")
            self.assertEqual(table["GlobalTableVersion"], "2019.11.21")
        # Answered only once it is everywhere: read at once, strongly, in the others.
        for n, region in enumerate((EAST1, EAST2, WEST2)):
            self.put(region, "k", "from " + region)
            for other in (EAST1, EAST2, WEST2):
                self.assertEqual(self.get(other, "k"), "from " + region)
        self.clients[EAST2].delete_item(TableName="Orders", Key={"pk": {"S": "k"}})
        self.assertIsNone(self.get(WEST2, "k"))
        # An eventually consistent table beside it still waits for the delay.
        self.clients[EAST1].create_table(**hash_table("Eventual"))
        self.clients[EAST1].update_table(TableName="Eventual",
                                         ReplicaUpdates=[{"Create": {"RegionName": EAST2}}])
        table = self.clients[EAST1].describe_table(TableName="Eventual")["Table"]
        self.assertEqual(table["MultiRegionConsistency"], "EVENTUAL")

    def test_a_witness_and_a_region_cut_off(self):
        self.clients[EAST1].create_table(**hash_table("Orders"))
        described = self.make_strong([EAST2], witness=WEST2)["TableDescription"]
        self.assertEqual(described["GlobalTableWitnesses"],
                         [{"RegionName": WEST2, "WitnessStatus": "ACTIVE"}])
        self.assertEqual({r["RegionName"] for r in described["Replicas"]}, {EAST1, EAST2})
        # A witness keeps no table.
        self.assertEqual(self.refused(self.clients[WEST2].describe_table, TableName="Orders")[0],
                         "ResourceNotFoundException")
        self.put(EAST1, "a", "1")
        self.assertEqual(self.get(EAST2, "a"), "1")

        # us-east-1 to us-east-2 paused: us-east-1 still has its quorum with the witness, but
        # us-east-2 lacks the change: its strong reads and its writes of the item are refused.
        self.admin("/_ddbd/replication/pause", {"source": EAST1, "target": EAST2})
        self.put(EAST1, "a", "2")
        self.assertEqual(self.get(EAST1, "a"), "2")
        self.assertEqual(self.get(EAST2, "a", consistent=False), "1")  # stale, as allowed
        code, _ = self.refused(self.clients[EAST2].get_item, TableName="Orders",
                               Key={"pk": {"S": "a"}}, ConsistentRead=True)
        self.assertEqual(code, "InternalServerError")
        self.assertEqual(
            self.refused(self.clients[EAST2].put_item, TableName="Orders",
                         Item={"pk": {"S": "a"}, "v": {"S": "3"}}),
            ("ReplicatedWriteConflictException",
             "The request was rejected because one or more items in the request are being "
             "modified by a request in another Region."))
        self.admin("/_ddbd/replication/resume", {})
        deadline = time.monotonic() + 20
        while self.get(EAST2, "a", consistent=False) != "2":
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.1)
        self.put(EAST2, "a", "3")
        self.assertEqual(self.get(EAST1, "a"), "3")

        # us-east-1 cut off from both: no quorum, writes and strong reads refused.
        self.admin("/_ddbd/replication/pause", {"source": EAST1})
        self.assertEqual(self.refused(self.clients[EAST1].put_item, TableName="Orders",
                                      Item={"pk": {"S": "b"}, "v": {"S": "x"}})[0],
                         "InternalServerError")
        self.assertEqual(self.get(EAST1, "a", consistent=False), "3")
        self.admin("/_ddbd/replication/resume", {})
        self.put(EAST1, "b", "x")

    def test_refusals(self):
        east = self.clients[EAST1]
        east.create_table(**hash_table("Orders"))
        for replicas, witness in (([EAST2], None), ([EAST2, EU], None), ([EAST2], EAST2)):
            code, _ = self.refused(self.make_strong, replicas=replicas, witness=witness)
            self.assertEqual(code, "ValidationException", (replicas, witness))
        code, message = self.refused(east.update_table, TableName="Orders",
                                     MultiRegionConsistency="STRONG")
        self.assertEqual(code, "ValidationException")
        self.assertIn("MultiRegionConsistency", message)
        self.put(EAST1, "early", "x")
        self.assertIn("must be empty", self.refused(self.make_strong, replicas=[EAST2, WEST2])[1])
        east.delete_item(TableName="Orders", Key={"pk": {"S": "early"}})
        self.make_strong([EAST2, WEST2])
        # The new replicas are CREATING until their (empty) copy arrives, after the delay: the
        # table is UPDATING (ResourceInUseException) until then.
        eventually(lambda: self.assertEqual(
            east.describe_table(TableName="Orders")["Table"]["TableStatus"], "ACTIVE"), seconds=20)
        for call, kwargs in (
                (east.transact_write_items, {"TransactItems": [{"Put": {
                    "TableName": "Orders", "Item": {"pk": {"S": "t"}}}}]}),
                (east.transact_get_items, {"TransactItems": [{"Get": {
                    "TableName": "Orders", "Key": {"pk": {"S": "t"}}}}]}),
                (east.update_time_to_live, {"TableName": "Orders", "TimeToLiveSpecification": {
                    "Enabled": True, "AttributeName": "expires"}}),
                (east.update_table, {"TableName": "Orders",
                                     "ReplicaUpdates": [{"Create": {"RegionName": EU}}]}),
                (east.update_table, {"TableName": "Orders",
                                     "ReplicaUpdates": [{"Delete": {"RegionName": EAST2}}]})):
            self.assertEqual(self.refused(call, **kwargs)[0], "ValidationException", call)
        # Two replicas leave together: a table of one region again.
        east.update_table(TableName="Orders", ReplicaUpdates=[
            {"Delete": {"RegionName": EAST2}}, {"Delete": {"RegionName": WEST2}}])
        table = east.describe_table(TableName="Orders")["Table"]
        self.assertNotIn("Replicas", table)
        self.assertNotIn("MultiRegionConsistency", table)
        east.transact_write_items(TransactItems=[{"Put": {"TableName": "Orders",
                                                          "Item": {"pk": {"S": "t"}}}}])

    def test_kept_across_a_restart(self):
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        self.server.stop()
        self.start("--db-path", directory.name)
        self.clients[EAST1].create_table(**hash_table("Orders"))
        self.make_strong([EAST2], witness=WEST2)
        self.put(EAST1, "a", "1")
        self.server.stop()
        self.start("--db-path", directory.name)
        table = self.clients[EAST2].describe_table(TableName="Orders")["Table"]
        self.assertEqual(table["MultiRegionConsistency"], "STRONG")
        self.assertEqual(table["GlobalTableWitnesses"][0]["RegionName"], WEST2)
        self.assertEqual(self.get(EAST2, "a"), "1")
        self.put(EAST2, "b", "2")
        self.assertEqual(self.get(EAST1, "b"), "2")


if __name__ == "__main__":
    unittest.main()
