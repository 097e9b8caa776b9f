"""`ddbd dump` and `ddbd load` (issue 24), through the API of an endpoint, signing with the AWS_*
variables: a dump loaded into a fresh server (by `load`, and by `--seed`) and dumped again gives
the same files byte for byte (every item, every type and number), with indexes, TTL, stream
settings and tags; loading works against a DynamoDB Local-style endpoint (a database per access
key) and against one that verifies signatures."""
import gzip
import json
import os
import subprocess
import tempfile
import unittest

import boto3

from ddbd_harness import CREDENTIALS, DdbdServer
from test_seed import seed_directory


def ddbd(*args, key="AKIDTEST", secret="secret", region="us-east-1"):
    env = dict(os.environ, AWS_ACCESS_KEY_ID=key, AWS_SECRET_ACCESS_KEY=secret, AWS_REGION=region)
    return subprocess.run([os.environ["DDBD_BIN"], *args], capture_output=True, text=True,
                          timeout=300, env=env)


def items_of(directory, table):
    with open(os.path.join(directory, table + ".items.jsonl")) as f:
        return sorted(f.read().splitlines())


def definition_of(directory, table):
    """The table file without what differs between two servers (ARNs, times, ids, counts)."""
    with open(os.path.join(directory, table + ".table.json")) as f:
        definition = json.load(f)
    drop = {"TableArn", "TableId", "CreationDateTime", "LatestStreamArn", "LatestStreamLabel",
            "IndexArn", "ItemCount", "TableSizeBytes", "IndexSizeBytes", "LastIncreaseDateTime",
            "LastDecreaseDateTime", "NumberOfDecreasesToday", "WarmThroughput"}

    def clean(value):
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()
                    if k not in drop and not k.endswith("DateTime")}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value
    return clean(definition)


class DumpLoad(unittest.TestCase):
    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            self.skipTest("starts its own ddbd")
        self.directory = tempfile.TemporaryDirectory()
        self.seed = os.path.join(self.directory.name, "seed")
        seed_directory(self.seed)
        self.servers = []

    def tearDown(self):
        for server in self.servers:
            server.stop()
        self.directory.cleanup()

    def start(self, *args):
        server = DdbdServer(*args).start()
        self.servers.append(server)
        return server

    def path(self, name):
        return os.path.join(self.directory.name, name)

    def test_a_dump_loads_back_byte_for_byte(self):
        first = self.start("--seed", self.seed)
        dumped = ddbd("dump", "--endpoint", first.endpoint, "--out", self.path("a"))
        self.assertEqual(dumped.returncode, 0, dumped.stderr)
        self.assertIn("ddbd dump: 2 tables, 249 items", dumped.stderr)
        self.assertEqual(sorted(os.listdir(self.path("a"))),
                         ["Orders.items.jsonl", "Orders.table.json", "Users.items.jsonl",
                          "Users.table.json"])
        with open(self.path("a/Orders.table.json")) as f:
            orders = json.load(f)
        self.assertEqual(orders["TimeToLiveSpecification"],
                         {"Enabled": True, "AttributeName": "expires"})
        self.assertEqual(orders["Tags"], [{"Key": "team", "Value": "shop"}])

        # Through the API into a fresh server, then dumped again: the same files.
        second = self.start()
        loaded = ddbd("load", "--endpoint", second.endpoint, self.path("a"))
        self.assertEqual(loaded.returncode, 0, loaded.stderr)
        self.assertIn("ddbd load: 2 tables, 249 items", loaded.stderr)
        again = ddbd("dump", "--endpoint", second.endpoint, "--out", self.path("b"),
                     "--segments", "3")
        self.assertEqual(again.returncode, 0, again.stderr)
        for table in ("Orders", "Users"):
            self.assertEqual(items_of(self.path("a"), table), items_of(self.path("b"), table))
            self.assertEqual(definition_of(self.path("a"), table),
                             definition_of(self.path("b"), table))
        self.assertEqual(len(items_of(self.path("a"), "Orders")), 199)

        # And as a seed at start.
        third = self.start("--seed", self.path("a"))
        thrice = ddbd("dump", "--endpoint", third.endpoint, "--out", self.path("c"),
                      "--tables", "Orders")
        self.assertEqual(thrice.returncode, 0, thrice.stderr)
        self.assertEqual(os.listdir(self.path("c")).count("Users.table.json"), 0)
        self.assertEqual(items_of(self.path("a"), "Orders"), items_of(self.path("c"), "Orders"))
        self.assertEqual(definition_of(self.path("a"), "Orders"),
                         definition_of(self.path("c"), "Orders"))

    def test_load_keeps_the_last_item_of_a_key_and_reads_export_lines(self):
        directory = self.path("fixtures")
        os.makedirs(directory)
        with open(os.path.join(self.seed, "Users.table.json")) as f, \
                open(os.path.join(directory, "Users.table.json"), "w") as out:
            out.write(f.read())
        with gzip.open(os.path.join(directory, "Users.items.jsonl.gz"), "wt") as f:
            for version in range(3):
                for i in range(40):
                    f.write(json.dumps({"Item": {"id": {"S": "u%d" % i}, "at": {"S": "x"},
                                                 "v": {"N": str(version)}}}) + "\n")
        server = self.start()
        loaded = ddbd("load", "--endpoint", server.endpoint, directory)
        self.assertEqual(loaded.returncode, 0, loaded.stderr)
        ddb = boto3.client("dynamodb", endpoint_url=server.endpoint, **CREDENTIALS)
        items = ddb.scan(TableName="Users", ConsistentRead=True)["Items"]
        self.assertEqual(len(items), 40)
        self.assertEqual({item["v"]["N"] for item in items}, {"2"})

    def test_load_into_a_database_per_access_key_as_dynamodb_local_keeps(self):
        server = self.start("-inMemory")  # DynamoDB Local's rule: a database per key and region
        loaded = ddbd("load", "--endpoint", server.endpoint, self.seed, key="AKIDLOCAL",
                      region="eu-west-1")
        self.assertEqual(loaded.returncode, 0, loaded.stderr)
        mine = boto3.client("dynamodb", endpoint_url=server.endpoint, region_name="eu-west-1",
                            aws_access_key_id="AKIDLOCAL", aws_secret_access_key="x")
        self.assertEqual(sorted(mine.list_tables()["TableNames"]), ["Orders", "Users"])
        other = boto3.client("dynamodb", endpoint_url=server.endpoint, region_name="eu-west-1",
                             aws_access_key_id="AKIDOTHER", aws_secret_access_key="x")
        self.assertEqual(other.list_tables()["TableNames"], [])

    def test_requests_are_signed_with_the_environments_keys(self):
        server = self.start("--auth-keys", "AKIDSIGNED:s3cret", "--seed", self.seed)
        good = ddbd("dump", "--endpoint", server.endpoint, "--out", self.path("signed"),
                    key="AKIDSIGNED", secret="s3cret")
        self.assertEqual(good.returncode, 0, good.stderr)
        bad = ddbd("dump", "--endpoint", server.endpoint, "--out", self.path("bad"),
                   key="AKIDSIGNED", secret="wrong")
        self.assertEqual(bad.returncode, 1)
        self.assertTrue(bad.stderr.startswith(
            "ddbd dump: ListTables: InvalidSignatureException: The request signature we "
            "calculated does not match the signature you provided."), bad.stderr)

    def test_load_resends_unprocessed_items_until_the_table_takes_them(self):
        # 25 write units a second, starting with one second's worth: most batches come back
        # partly unprocessed (or throttled) and are sent again with backoff.
        directory = self.path("throttled")
        os.makedirs(directory)
        with open(os.path.join(directory, "Slow.table.json"), "w") as f:
            json.dump({"TableName": "Slow",
                       "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                       "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                       "ProvisionedThroughput": {"ReadCapacityUnits": 5,
                                                 "WriteCapacityUnits": 25}}, f)
        with open(os.path.join(directory, "Slow.items.jsonl"), "w") as f:
            for i in range(100):
                f.write(json.dumps({"pk": {"S": "k%03d" % i}}) + "\n")
        server = self.start("--enforce-throughput")
        loaded = ddbd("load", "--endpoint", server.endpoint, "--segments", "2", directory)
        self.assertEqual(loaded.returncode, 0, loaded.stderr)
        ddb = boto3.client("dynamodb", endpoint_url=server.endpoint, **CREDENTIALS)
        self.assertEqual(ddb.scan(TableName="Slow")["Count"], 100)
        seconds = float(loaded.stderr.split(" items in ")[-1].split(" s")[0])
        self.assertGreater(seconds, 2.0)  # it had to wait for the bucket to refill

    def test_bad_usage(self):
        self.assertEqual(ddbd("dump", "--out", "x").returncode, 2)
        result = ddbd("dump", "--endpoint", "ftp://x", "--out", "x")
        self.assertEqual((result.returncode, result.stderr.strip()),
                         (2, "ddbd dump: --endpoint: expected http://HOST[:PORT] or https://..., "
                             "got 'ftp://x'"))
        self.assertEqual(ddbd("load", "--endpoint", "http://127.0.0.1:1").returncode, 2)


if __name__ == "__main__":
    unittest.main()
