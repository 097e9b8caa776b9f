"""Global secondary indexes that lag behind their table (issue 45, --gsi-lag-ms), with the real
binary and boto3: a Query of a GSI right after a write may miss it, as on DynamoDB, and sees it
once the delay has passed; the table itself (GetItem, strongly or eventually consistent) and a
local secondary index never lag; the admin API's pause holds every change deterministically and
/metrics counts those pending; a deletion and a change of the indexed value lag the same way;
without the option nothing lags; a restart rebuilds the indexes whole."""
import json
import os
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.request

from ddbd_harness import DdbdServer, client, eventually

LAG_MS = 400


def table_with_indexes(name):
    return dict(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"}
                              for a in ("pk", "sk", "colour", "fit")],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[{"IndexName": "byColour",
                                 "KeySchema": [{"AttributeName": "colour", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}],
        LocalSecondaryIndexes=[{"IndexName": "bySize",
                                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                              {"AttributeName": "fit", "KeyType": "RANGE"}],
                                "Projection": {"ProjectionType": "ALL"}}])


class GsiLag(unittest.TestCase):
    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        self.server = None

    def tearDown(self):
        if self.server:
            self.server.stop()

    def start(self, *args):
        self.server = DdbdServer(*args).start()
        self.db = client(self.server.endpoint)
        self.db.create_table(**table_with_indexes("Shirts"))

    def admin(self, method, path):
        request = urllib.request.Request(self.server.endpoint + path, method=method,
                                         data=b"{}" if method == "POST" else None)
        try:
            with urllib.request.urlopen(request) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read())

    def put(self, key, colour, size="M"):
        self.db.put_item(TableName="Shirts", Item={"pk": {"S": key}, "sk": {"S": "s"},
                                                   "colour": {"S": colour}, "fit": {"S": size}})

    def by_colour(self, colour):
        return sorted(i["pk"]["S"] for i in self.db.query(
            TableName="Shirts", IndexName="byColour", KeyConditionExpression="colour = :c",
            ExpressionAttributeValues={":c": {"S": colour}})["Items"])

    def by_size(self, key, size):
        return self.db.query(TableName="Shirts", IndexName="bySize",
                             KeyConditionExpression="pk = :k AND fit = :s",
                             ExpressionAttributeValues={":k": {"S": key}, ":s": {"S": size}})["Count"]

    def pending(self):
        with urllib.request.urlopen(self.server.endpoint + "/metrics") as answer:
            for line in answer.read().decode().splitlines():
                if line.startswith("ddbd_gsi_pending_changes{") and 'index="byColour"' in line:
                    return float(line.rsplit(" ", 1)[1])
        return None

    def test_a_query_of_a_gsi_right_after_a_write_misses_it_then_sees_it(self):
        self.start("--gsi-lag-ms", str(LAG_MS))
        misses = 0
        for n in range(5):  # bounded tries: the delay is far longer than a request
            key = "k%d" % n
            self.put(key, "red%d" % n)
            if self.by_colour("red%d" % n) == []:
                misses += 1
            # The table and the local index never lag.
            got = self.db.get_item(TableName="Shirts", Key={"pk": {"S": key}, "sk": {"S": "s"}})
            self.assertEqual(got["Item"]["colour"]["S"], "red%d" % n)
            self.assertEqual(self.by_size(key, "M"), 1)
        self.assertGreater(misses, 0)
        eventually(lambda: self.assertEqual(self.by_colour("red4"), ["k4"]))
        # A change of the indexed value: the old value's entry stays until the change arrives.
        self.put("k4", "blue")
        self.assertEqual(self.by_colour("blue"), [])
        eventually(lambda: self.assertEqual(self.by_colour("blue"), ["k4"]))
        self.assertEqual(self.by_colour("red4"), [])

    def test_the_admin_pause_holds_every_change_until_resumed(self):
        self.start("--gsi-lag-ms", "1-5", "--admin-api")
        self.assertEqual(self.admin("GET", "/_ddbd/gsi-propagation"), (200, {"paused": False}))
        self.put("a", "green")
        eventually(lambda: self.assertEqual(self.by_colour("green"), ["a"]))
        self.assertEqual(self.admin("POST", "/_ddbd/gsi-propagation/pause"),
                         (200, {"paused": True}))
        self.put("b", "green")
        self.db.delete_item(TableName="Shirts", Key={"pk": {"S": "a"}, "sk": {"S": "s"}})
        time.sleep(0.3)  # far past the delay
        self.assertEqual(self.by_colour("green"), ["a"])  # deleted, still in the index
        self.assertEqual(self.pending(), 2)
        self.assertEqual(self.by_size("b", "M"), 1)
        self.assertEqual(self.admin("POST", "/_ddbd/gsi-propagation/resume"),
                         (200, {"paused": False}))
        self.assertEqual(self.by_colour("green"), ["b"])
        self.assertEqual(self.pending(), 0)

    def test_a_restored_table_has_its_indexes_whole_at_once(self):
        # A restore fills a new table before it is ACTIVE, indexes with it, paused or not.
        self.start("--gsi-lag-ms", "1", "--admin-api")
        self.put("a", "teal")
        eventually(lambda: self.assertEqual(self.by_colour("teal"), ["a"]))
        self.admin("POST", "/_ddbd/gsi-propagation/pause")
        backup = self.db.create_backup(TableName="Shirts", BackupName="shirts")
        self.db.restore_table_from_backup(TargetTableName="Restored",
                                          BackupArn=backup["BackupDetails"]["BackupArn"])
        found = self.db.query(TableName="Restored", IndexName="byColour",
                              KeyConditionExpression="colour = :c",
                              ExpressionAttributeValues={":c": {"S": "teal"}})["Items"]
        self.assertEqual([i["pk"]["S"] for i in found], ["a"])
        # A write to it afterwards waits for the resume as anywhere.
        self.db.put_item(TableName="Restored", Item={"pk": {"S": "b"}, "sk": {"S": "s"},
                                                     "colour": {"S": "teal"}, "fit": {"S": "M"}})
        self.assertEqual(self.db.query(TableName="Restored", IndexName="byColour",
                                       KeyConditionExpression="colour = :c",
                                       ExpressionAttributeValues={":c": {"S": "teal"}})["Count"], 1)

    def test_without_the_option_nothing_lags_and_the_pause_says_how(self):
        self.start("--admin-api")
        for n in range(20):
            self.put("k%d" % n, "red")
            self.assertEqual(len(self.by_colour("red")), n + 1)
        status, answer = self.admin("POST", "/_ddbd/gsi-propagation/pause")
        self.assertEqual(status, 404)
        self.assertIn("--gsi-lag-ms", answer["message"])

    def test_a_restart_rebuilds_the_index_whole_and_lifts_the_pause(self):
        with tempfile.TemporaryDirectory() as directory:
            self.start("--gsi-lag-ms", "1", "--admin-api", "--db-path", directory)
            self.put("a", "grey")
            eventually(lambda: self.assertEqual(self.by_colour("grey"), ["a"]))
            self.admin("POST", "/_ddbd/gsi-propagation/pause")
            self.put("b", "grey")
            self.assertEqual(self.by_colour("grey"), ["a"])
            self.server.stop()
            # The change held on its way is not lost: the index is rebuilt from the items.
            self.server = DdbdServer("--gsi-lag-ms", "1", "--admin-api", "--db-path",
                                     directory).start()
            self.db = client(self.server.endpoint)
            self.assertEqual(self.by_colour("grey"), ["a", "b"])
            self.assertEqual(self.admin("GET", "/_ddbd/gsi-propagation"), (200, {"paused": False}))
            self.put("c", "grey")
            eventually(lambda: self.assertEqual(self.by_colour("grey"), ["a", "b", "c"]))

    def test_a_bad_range_stops_the_start(self):
        binary = os.environ.get("DDBD_BIN", "ddbd")
        done = subprocess.run([binary, "--gsi-lag-ms", "500-100", "--port", "0"],
                              capture_output=True, text=True, timeout=30)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("--gsi-lag-ms", done.stderr)


if __name__ == "__main__":
    unittest.main()
