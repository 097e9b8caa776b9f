"""--seed (issue 24): tables and items from files, loaded before the server accepts connections.
Both table shapes (CreateTable's request and describe-table's output), TTL and tags, items as
DynamoDB JSON and as S3 export lines, gzipped; a bad line stops the start with FILE:LINE and
leaves no table behind; a restart over --db-path skips what exists."""
import gzip
import json
import os
import subprocess
import tempfile
import time
import unittest

import boto3

from ddbd_harness import CREDENTIALS, DdbdServer, client

ORDERS = {
    "TableName": "Orders", "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                             {"AttributeName": "sk", "AttributeType": "N"},
                             {"AttributeName": "status", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                  {"AttributeName": "sk", "KeyType": "RANGE"}],
    "GlobalSecondaryIndexes": [{"IndexName": "by-status",
                                "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
                                "Projection": {"ProjectionType": "ALL"}}],
    "TimeToLiveSpecification": {"Enabled": True, "AttributeName": "expires"},
    "Tags": [{"Key": "team", "Value": "shop"}],
}

# describe-table's output for a provisioned table with a local index, as `aws dynamodb
# describe-table` prints it (members CreateTable does not take included).
USERS_DESCRIBED = {"Table": {
    "TableName": "Users", "TableStatus": "ACTIVE", "ItemCount": 0, "TableSizeBytes": 0,
    "TableArn": "arn:aws:dynamodb:us-east-1:123456789012:table/Users",
    "CreationDateTime": 1764110400.0,
    "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"},
                             {"AttributeName": "at", "AttributeType": "S"},
                             {"AttributeName": "email", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"},
                  {"AttributeName": "at", "KeyType": "RANGE"}],
    "ProvisionedThroughput": {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 7,
                              "WriteCapacityUnits": 3},
    "LocalSecondaryIndexes": [{"IndexName": "by-email",
                               "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"},
                                             {"AttributeName": "email", "KeyType": "RANGE"}],
                               "Projection": {"ProjectionType": "KEYS_ONLY"},
                               "IndexSizeBytes": 0, "ItemCount": 0,
                               "IndexArn": "arn:aws:dynamodb:us-east-1:123456789012:table/Users/index/by-email"}],
    "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
}}

EVERY_TYPE = {"pk": {"S": "c1"}, "sk": {"N": "1"}, "status": {"S": "open"},
              "n": {"N": "-12345678901234567890.123456789012345678"}, "b": {"B": "AAEC/w=="},
              "bool": {"BOOL": False}, "null": {"NULL": True}, "ss": {"SS": ["a", "b"]},
              "ns": {"NS": ["1", "1E+2"]}, "bs": {"BS": ["AA==", "AQ=="]},
              "l": {"L": [{"S": "x"}, {"M": {"deep": {"L": []}}}]},
              "m": {"M": {"k": {"N": "0.5"}, "e": {"M": {}}}}, "unicode": {"S": "żółw 🐢"},
              # Control bytes a dump must write escaped (U+001A-U+001F included).
              "control": {"S": "a\u0001\u001a\u001b\u001f\t\"\\b"}}


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def seed_directory(root):
    os.makedirs(root, exist_ok=True)
    write(os.path.join(root, "Orders.table.json"), json.dumps(ORDERS, indent=2))
    lines = [json.dumps(EVERY_TYPE), ""]  # a blank line is skipped
    for i in range(2, 200):
        lines.append(json.dumps({"pk": {"S": "c%d" % (i % 7)}, "sk": {"N": str(i)},
                                 "status": {"S": "open" if i % 3 else "shipped"}}))
    write(os.path.join(root, "Orders.items.jsonl"), "\n".join(lines) + "\n")
    write(os.path.join(root, "Users.table.json"), json.dumps(USERS_DESCRIBED))
    export = [json.dumps({"Item": {"id": {"S": "u%d" % i}, "at": {"S": "2026"},
                                   "email": {"S": "u%d@example.com" % i}}}) for i in range(50)]
    with gzip.open(os.path.join(root, "Users.items.jsonl.gz"), "wt") as f:
        f.write("\n".join(export) + "\n")


class Seed(unittest.TestCase):
    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            self.skipTest("starts its own ddbd")
        self.directory = tempfile.TemporaryDirectory()
        self.root = os.path.join(self.directory.name, "seed")
        seed_directory(self.root)

    def tearDown(self):
        self.directory.cleanup()

    def start_failing(self, *args, env=None):
        """Runs ddbd expecting it to refuse to start: (status, stderr, port file written)."""
        port_file = os.path.join(self.directory.name, "port")
        result = subprocess.run([os.environ["DDBD_BIN"], "--port", "0", "--port-file", port_file,
                                 "--log-level", "warn", *args], capture_output=True, text=True,
                                timeout=60, env=env)
        return result.returncode, result.stderr, os.path.exists(port_file)

    def test_tables_and_items_are_there_before_the_first_request(self):
        server = DdbdServer("--seed", self.root).start()
        try:
            ddb = client(server.endpoint)
            self.assertEqual(sorted(ddb.list_tables()["TableNames"]), ["Orders", "Users"])
            item = ddb.get_item(TableName="Orders", Key={"pk": {"S": "c1"}, "sk": {"N": "1"}},
                                ConsistentRead=True)["Item"]
            # As boto3 reads it: binary decoded, numbers in DynamoDB's canonical form.
            expected = dict(EVERY_TYPE, ns={"NS": ["1", "100"]}, b={"B": b"\x00\x01\x02\xff"},
                            bs={"BS": [b"\x00", b"\x01"]})
            self.assertEqual({k: (sorted(v["NS"]) if "NS" in v else v) for k, v in item.items()},
                             {k: (sorted(v["NS"]) if "NS" in v else v) for k, v in expected.items()})
            shipped = ddb.query(TableName="Orders", IndexName="by-status",
                                KeyConditionExpression="#s = :s",
                                ExpressionAttributeNames={"#s": "status"},
                                ExpressionAttributeValues={":s": {"S": "shipped"}})
            self.assertEqual(shipped["Count"], len([i for i in range(2, 200) if i % 3 == 0]))
            self.assertEqual(ddb.describe_time_to_live(TableName="Orders")["TimeToLiveDescription"],
                             {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires"})
            arn = ddb.describe_table(TableName="Orders")["Table"]["TableArn"]
            self.assertEqual(ddb.list_tags_of_resource(ResourceArn=arn)["Tags"],
                             [{"Key": "team", "Value": "shop"}])
            users = ddb.describe_table(TableName="Users")["Table"]
            self.assertEqual(users["ItemCount"], 50)
            self.assertEqual((users["ProvisionedThroughput"]["ReadCapacityUnits"],
                              users["ProvisionedThroughput"]["WriteCapacityUnits"]), (7, 3))
            self.assertEqual(users["LocalSecondaryIndexes"][0]["IndexName"], "by-email")
            self.assertEqual(users["StreamSpecification"],
                             {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
            self.assertEqual(ddb.get_item(TableName="Users", Key={"id": {"S": "u7"},
                                                                  "at": {"S": "2026"}})["Item"],
                             {"id": {"S": "u7"}, "at": {"S": "2026"},
                              "email": {"S": "u7@example.com"}})
        finally:
            server.stop()

    def test_a_malformed_line_stops_the_start_with_its_file_and_line(self):
        path = os.path.join(self.root, "Orders.items.jsonl")
        with open(path) as f:
            lines = f.read().split("\n")
        lines[4] = '{"pk": {"S": "x"}, "sk": {"N": "5"'
        write(path, "\n".join(lines))
        status, stderr, listened = self.start_failing("--seed", self.root)
        self.assertEqual((status, listened), (1, False))
        self.assertEqual(stderr.strip(), "ddbd: %s:5: not JSON: Missing a comma or '}' after an "
                                         "object member." % path)

    def test_an_item_the_table_refuses_names_its_line_and_dynamodbs_error(self):
        path = os.path.join(self.root, "Orders.items.jsonl")
        with open(path, "a") as f:
            f.write(json.dumps({"pk": {"S": "no sort key"}}) + "\n")
        status, stderr, _ = self.start_failing("--seed", self.root)
        self.assertEqual(status, 1)
        # Line 1 is every type, line 2 blank, lines 3-200 the rest: the appended one is 201.
        self.assertEqual(stderr.strip(), "ddbd: %s:201: ValidationException: One or more "
                                         "parameter values were invalid: Missing the key sk in "
                                         "the item" % path)

    def test_a_bad_table_file_names_itself(self):
        write(os.path.join(self.root, "Users.table.json"), '{"TableName": "Users",\n "KeySchema": [}')
        status, stderr, _ = self.start_failing("--seed", self.root)
        self.assertEqual(status, 1)
        self.assertTrue(stderr.startswith("ddbd: %s:2: not JSON: " %
                                          os.path.join(self.root, "Users.table.json")), stderr)
        write(os.path.join(self.root, "Users.table.json"), json.dumps({"TableName": "Users"}))
        status, stderr, _ = self.start_failing("--seed", self.root)
        self.assertEqual(status, 1)
        self.assertIn("Users.table.json: ValidationException", stderr)
        status, stderr, _ = self.start_failing("--seed", os.path.join(self.root, "missing"))
        self.assertEqual((status, stderr.strip()),
                         (1, "ddbd: %s/missing: no such file or directory" % self.root))

    def test_a_failed_seed_leaves_no_table_in_the_database(self):
        data = os.path.join(self.directory.name, "data")
        with open(os.path.join(self.root, "Users.items.jsonl.gz"), "wb") as f:
            f.write(b"not gzip")
        status, stderr, _ = self.start_failing("--db-path", data, "--seed", self.root)
        self.assertEqual(status, 1)
        self.assertIn("Users.items.jsonl.gz: not a gzip file", stderr)
        server = DdbdServer("--db-path", data).start()
        try:
            self.assertEqual(client(server.endpoint).list_tables()["TableNames"], [])
        finally:
            server.stop()

    def test_a_restart_over_db_path_skips_the_tables_it_has(self):
        data = os.path.join(self.directory.name, "data")
        server = DdbdServer("--db-path", data, "--seed", self.root).start()
        try:
            client(server.endpoint).put_item(TableName="Orders", Item={
                "pk": {"S": "c1"}, "sk": {"N": "1"}, "status": {"S": "changed"}})
        finally:
            server.stop()
        server = DdbdServer("--db-path", data, "--seed", self.root, "--log-level", "info").start()
        try:
            ddb = client(server.endpoint)
            item = ddb.get_item(TableName="Orders", Key={"pk": {"S": "c1"}, "sk": {"N": "1"}})
            self.assertEqual(item["Item"]["status"], {"S": "changed"})  # not seeded again
            self.assertEqual(ddb.describe_table(TableName="Users")["Table"]["ItemCount"], 50)
            self.assertIn("seed: table Orders exists already", server.output())
        finally:
            server.stop()

    def test_ddbd_seed_takes_paths_separated_by_colons(self):
        other = os.path.join(self.directory.name, "other")
        os.makedirs(other)
        extra = {k: v for k, v in ORDERS.items() if k != "GlobalSecondaryIndexes"}
        extra["TableName"] = "Extra"
        extra["AttributeDefinitions"] = ORDERS["AttributeDefinitions"][:2]
        write(os.path.join(other, "Extra.table.json"), json.dumps(extra))
        env = dict(os.environ, DDBD_SEED=self.root + ":" + other)
        server = subprocess.Popen([os.environ["DDBD_BIN"], "--port", "0", "--port-file",
                                   os.path.join(self.directory.name, "port"), "--log-level",
                                   "warn"], env=env)
        try:
            port_file = os.path.join(self.directory.name, "port")
            for _ in range(600):
                if os.path.exists(port_file):
                    break
                self.assertIsNone(server.poll(), "ddbd exited")
                time.sleep(0.02)
            with open(port_file) as f:
                endpoint = "http://127.0.0.1:%s" % f.read().strip()
            ddb = boto3.client("dynamodb", endpoint_url=endpoint, **CREDENTIALS)
            self.assertEqual(sorted(ddb.list_tables()["TableNames"]), ["Extra", "Orders", "Users"])
        finally:
            server.terminate()
            server.wait(timeout=15)

    def test_namespaces_refuse_a_seed(self):
        status, stderr, _ = self.start_failing("-inMemory", "--seed", self.root)
        self.assertEqual((status, stderr.strip()),
                         (1, "ddbd: --seed loads one shared database: add -sharedDb or "
                             "--namespaces shared"))


if __name__ == "__main__":
    unittest.main()
