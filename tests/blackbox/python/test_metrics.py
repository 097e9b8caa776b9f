"""GET /metrics (issue 23): Prometheus text that a strict reading of the format accepts, whose
counters move with traffic: requests, errors and latency per operation, items, bytes and consumed
capacity per table and index, TTL deletions, stream records, connections, and with --db-path the
log, its syncs and checkpoints. And the structured access log (--access-log)."""
import json
import os
import re
import tempfile
import time
import unittest
import urllib.request

import boto3

from ddbd_harness import DdbdServer, ServerTestCase, client, unique_name

NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\["\\n])*"'
SAMPLE = re.compile(r"^(%s)(?:\{((?:%s)(?:,%s)*)?\})? (\S+)$" % (NAME, LABEL, LABEL))
TYPES = {"counter", "gauge", "histogram", "summary", "untyped"}


def parse(text):
    """Reads Prometheus text format 0.0.4 strictly: every sample belongs to a family declared by
    # TYPE before it, each family's samples come together, values are numbers. Returns
    {(name, frozenset(labels)): value} and {family: type}."""
    samples, types, seen_families, current = {}, {}, set(), None
    assert text.endswith("\n"), "the text must end with a newline"
    for line in text.splitlines():
        if line.startswith("# HELP "):
            continue
        if line.startswith("# TYPE "):
            _, _, family, kind = line.split(" ")
            assert kind in TYPES, line
            assert family not in types, "family declared twice: " + family
            types[family] = kind
            seen_families.add(family)
            current = family
            continue
        match = SAMPLE.match(line)
        assert match, "not a sample line: %r" % line
        name, labels, value = match.groups()
        family = re.sub(r"_(bucket|sum|count)$", "", name) if types.get(
            re.sub(r"_(bucket|sum|count)$", "", name)) == "histogram" else name
        assert family == current, "sample %s outside its family %s" % (name, current)
        pairs = frozenset(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', labels or ""))
        assert (name, pairs) not in samples, "duplicate sample " + line
        samples[(name, pairs)] = float(value)
    return samples, types


def get(samples, name, **labels):
    return samples.get((name, frozenset(labels.items())), 0.0)


def scrape(endpoint):
    with urllib.request.urlopen(endpoint + "/metrics", timeout=10) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        return parse(response.read().decode())


class Metrics(ServerTestCase):
    server_args = ("--ttl-interval-ms", "50", "--ttl-cooldown-ms", "0")

    def test_counters_move_with_traffic(self):
        table = unique_name("metrics")
        self.ddb.create_table(
            TableName=table, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "g", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            GlobalSecondaryIndexes=[{"IndexName": "by-g",
                                     "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"}}],
            StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
        before, types = scrape(self.endpoint)
        self.assertEqual(types["ddbd_requests_total"], "counter")
        self.assertEqual(types["ddbd_request_duration_seconds"], "histogram")
        for i in range(5):
            self.ddb.put_item(TableName=table, Item={"pk": {"S": "k%d" % i}, "g": {"S": "x"}})
        self.ddb.get_item(TableName=table, Key={"pk": {"S": "k0"}}, ConsistentRead=True)
        self.ddb.get_item(TableName=table, Key={"pk": {"S": "k1"}})  # eventually consistent: 0.5
        self.ddb.update_item(TableName=table, Key={"pk": {"S": "k0"}},
                             UpdateExpression="SET v = :v",
                             ExpressionAttributeValues={":v": {"N": "1"}})
        self.ddb.delete_item(TableName=table, Key={"pk": {"S": "k4"}})
        self.ddb.query(TableName=table, IndexName="by-g", KeyConditionExpression="g = :g",
                       ExpressionAttributeValues={":g": {"S": "x"}})
        for _ in range(2):
            with self.assertRaises(self.ddb.exceptions.ResourceNotFoundException):
                self.ddb.get_item(TableName=table + "-missing", Key={"pk": {"S": "a"}})
        after, _ = scrape(self.endpoint)

        def moved(name, **labels):
            return get(after, name, **labels) - get(before, name, **labels)

        self.assertEqual(moved("ddbd_requests_total", operation="PutItem"), 5)
        self.assertEqual(moved("ddbd_requests_total", operation="GetItem"), 4)
        self.assertEqual(moved("ddbd_request_errors_total", operation="GetItem",
                               error="ResourceNotFoundException"), 2)
        self.assertEqual(moved("ddbd_request_duration_seconds_count", operation="PutItem"), 5)
        self.assertEqual(get(after, "ddbd_request_duration_seconds_bucket", operation="PutItem",
                             le="+Inf"),
                         get(after, "ddbd_request_duration_seconds_count", operation="PutItem"))
        self.assertGreater(moved("ddbd_request_duration_seconds_sum", operation="PutItem"), 0)
        self.assertEqual(get(after, "ddbd_table_items", table=table), 4)
        self.assertEqual(get(after, "ddbd_index_items", table=table, index="by-g"), 4)
        self.assertGreater(get(after, "ddbd_table_size_bytes", table=table), 0)
        # Reads: 1 (consistent) + 0.5 (eventual) on the table; the query on the index 0.5.
        self.assertEqual(get(after, "ddbd_consumed_read_capacity_units_total", table=table,
                             index=""), 1.5)
        self.assertEqual(get(after, "ddbd_consumed_read_capacity_units_total", table=table,
                             index="by-g"), 0.5)
        # Writes: 5 puts, 1 update, 1 delete, each 1 unit on the table and 1 on the index (it
        # projects ALL, so the update changed the entry too).
        self.assertEqual(get(after, "ddbd_consumed_write_capacity_units_total", table=table,
                             index=""), 7)
        self.assertEqual(get(after, "ddbd_consumed_write_capacity_units_total", table=table,
                             index="by-g"), 7)
        self.assertEqual(get(after, "ddbd_item_changes_total", table=table, kind="insert"), 5)
        self.assertEqual(get(after, "ddbd_item_changes_total", table=table, kind="modify"), 1)
        self.assertEqual(get(after, "ddbd_item_changes_total", table=table, kind="remove"), 1)
        self.assertEqual(get(after, "ddbd_stream_records_total", table=table), 7)
        self.assertGreaterEqual(get(after, "ddbd_connections_total"), 1)
        self.assertGreaterEqual(get(after, "ddbd_connections_open"), 1)
        self.assertGreater(get(after, "process_resident_memory_bytes"), 0)

    def test_time_to_live_deletions_are_counted(self):
        table = unique_name("metrics-ttl")
        self.ddb.create_table(TableName=table, BillingMode="PAY_PER_REQUEST",
                              AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                              KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        self.ddb.update_time_to_live(TableName=table, TimeToLiveSpecification={
            "Enabled": True, "AttributeName": "expires"})
        past = str(int(time.time()) - 60)
        for i in range(3):
            self.ddb.put_item(TableName=table, Item={"pk": {"S": "e%d" % i},
                                                     "expires": {"N": past}})
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            samples, _ = scrape(self.endpoint)
            if get(samples, "ddbd_ttl_deleted_items_total", table=table) == 3:
                break
            time.sleep(0.05)
        self.assertEqual(get(samples, "ddbd_ttl_deleted_items_total", table=table), 3)
        self.assertEqual(get(samples, "ddbd_table_items", table=table), 0)

    def test_unknown_operations_share_one_label(self):
        before, _ = scrape(self.endpoint)
        request = urllib.request.Request(
            self.endpoint + "/", data=b"{}", method="POST",
            headers={"Content-Type": "application/x-amz-json-1.0",
                     "X-Amz-Target": "DynamoDB_20120810.Made\"Up"})
        with self.assertRaises(urllib.error.HTTPError):
            urllib.request.urlopen(request, timeout=10)
        after, _ = scrape(self.endpoint)
        self.assertEqual(get(after, "ddbd_requests_total", operation="unknown") -
                         get(before, "ddbd_requests_total", operation="unknown"), 1)
        self.assertNotIn("Made", str(after.keys()))

    def test_scrape_needs_no_signature_even_with_auth_keys(self):
        if os.environ.get("DDBD_ENDPOINT"):
            self.skipTest("starts its own ddbd")
        server = DdbdServer("--auth-keys", "AKIDTEST:secret").start()
        try:
            samples, _ = scrape(server.endpoint)
            self.assertEqual(get(samples, "ddbd_build_info", version=next(
                dict(labels)["version"] for name, labels in samples
                if name == "ddbd_build_info")), 1)
        finally:
            server.stop()


class NamespaceMetrics(unittest.TestCase):
    def test_each_namespace_labels_its_tables(self):
        if os.environ.get("DDBD_ENDPOINT"):
            self.skipTest("starts its own ddbd")
        server = DdbdServer("--namespaces", "credentials").start()
        try:
            for key, region in (("AKIDONE", "us-east-1"), ("AKIDTWO", "eu-west-1")):
                ddb = boto3.client("dynamodb", endpoint_url=server.endpoint, region_name=region,
                                   aws_access_key_id=key, aws_secret_access_key="s")
                ddb.create_table(TableName="Shared", BillingMode="PAY_PER_REQUEST",
                                 AttributeDefinitions=[{"AttributeName": "pk",
                                                        "AttributeType": "S"}],
                                 KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
                for i in range(2 if key == "AKIDONE" else 3):
                    ddb.put_item(TableName="Shared", Item={"pk": {"S": str(i)}})
            samples, _ = scrape(server.endpoint)
            self.assertEqual(get(samples, "ddbd_table_items", namespace="AKIDONE/us-east-1",
                                 table="Shared"), 2)
            self.assertEqual(get(samples, "ddbd_table_items", namespace="AKIDTWO/eu-west-1",
                                 table="Shared"), 3)
        finally:
            server.stop()


class StoreMetrics(unittest.TestCase):
    def test_log_syncs_and_checkpoints(self):
        if os.environ.get("DDBD_ENDPOINT"):
            self.skipTest("starts its own ddbd")
        with tempfile.TemporaryDirectory() as directory:
            server = DdbdServer("--db-path", directory, "--checkpoint-log-bytes", "4096").start()
            try:
                ddb = client(server.endpoint)
                table = unique_name("metrics-store")
                ddb.create_table(TableName=table, BillingMode="PAY_PER_REQUEST",
                                 AttributeDefinitions=[{"AttributeName": "pk",
                                                        "AttributeType": "S"}],
                                 KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
                for i in range(40):
                    ddb.put_item(TableName=table, Item={"pk": {"S": "k%d" % i},
                                                        "v": {"S": "x" * 500}})
                deadline = time.monotonic() + 10
                while True:
                    samples, types = scrape(server.endpoint)
                    # The figures follow the answers a moment later (counted after the waiters
                    # are told), so the last put's record may still be coming.
                    if (get(samples, "ddbd_checkpoint_duration_seconds_count") >= 1 and
                            get(samples, "ddbd_log_records_total") >= 41):
                        break
                    self.assertLess(time.monotonic(), deadline, "no checkpoint was written")
                    time.sleep(0.1)
                self.assertEqual(types["ddbd_log_sync_duration_seconds"], "histogram")
                self.assertGreaterEqual(get(samples, "ddbd_log_sync_duration_seconds_count"), 40)
                self.assertGreaterEqual(get(samples, "ddbd_log_records_total"), 41)
                self.assertGreater(get(samples, "ddbd_log_written_bytes_total"), 20000)
                self.assertLess(get(samples, "ddbd_log_bytes"),
                                get(samples, "ddbd_log_written_bytes_total"))
            finally:
                server.stop()


class AccessLog(unittest.TestCase):
    def test_one_json_line_per_request(self):
        if os.environ.get("DDBD_ENDPOINT"):
            self.skipTest("starts its own ddbd")
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "access.log")
            server = DdbdServer("--access-log", path).start()
            try:
                ddb = client(server.endpoint)
                table = unique_name("access")
                ddb.create_table(TableName=table, BillingMode="PAY_PER_REQUEST",
                                 AttributeDefinitions=[{"AttributeName": "pk",
                                                        "AttributeType": "S"}],
                                 KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
                ddb.put_item(TableName=table, Item={"pk": {"S": "a"}},
                             ReturnConsumedCapacity="TOTAL")
                with self.assertRaises(ddb.exceptions.ConditionalCheckFailedException):
                    ddb.put_item(TableName=table, Item={"pk": {"S": "a"}},
                                 ConditionExpression="attribute_not_exists(pk)")
                ddb.batch_get_item(RequestItems={table: {"Keys": [{"pk": {"S": "a"}}]}})
            finally:
                server.stop()
            with open(path) as f:
                lines = [json.loads(line) for line in f]
        self.assertEqual([line["operation"] for line in lines],
                         ["CreateTable", "PutItem", "PutItem", "BatchGetItem"])
        created, put, refused, batch = lines
        self.assertEqual((created["table"], created["status"], created["error"]), (table, 200, ""))
        self.assertEqual(put["consumed_capacity"], 1.0)
        self.assertNotIn("consumed_capacity", created)
        self.assertEqual((refused["status"], refused["error"]),
                         (400, "ConditionalCheckFailedException"))
        self.assertEqual(batch["table"], table)
        for line in lines:
            self.assertEqual(len(line["request_id"]), 52)
            self.assertRegex(line["time"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
            self.assertGreaterEqual(line["latency_ms"], 0)


if __name__ == "__main__":
    unittest.main()
