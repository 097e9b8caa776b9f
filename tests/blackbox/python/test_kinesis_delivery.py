"""Kinesis streaming destinations deliver (issue 46): ddbd started with --kinesis-endpoint sends a
table's changes to kinesalite (a Kinesis-compatible server from the npm registry, started here) with
PutRecords, and the records are read back with boto3's Kinesis client: DynamoDB's record JSON, in
order per item, both precisions; a stream that is not there turns the destination ENABLE_FAILED;
an endpoint that is down is retried (counted in /metrics) and nothing is lost, across a restart
with --db-path too; a disabled destination sends nothing more. A TCP relay between ddbd and
kinesalite stands for the endpoint going down and coming back."""
import base64
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.request

import boto3
from botocore.config import Config

from ddbd_harness import CREDENTIALS, DdbdServer, client, eventually, unique_name

JS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "js")
KINESALITE = os.path.join(JS, "node_modules", ".bin", "kinesalite")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
S = lambda v: {"S": v}
N = lambda v: {"N": str(v)}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Kinesalite:
    """kinesalite on a port of its own, in memory, streams ACTIVE at once."""

    def __init__(self):
        if not os.path.exists(KINESALITE):
            raise unittest.SkipTest("kinesalite is not installed (scripts/test installs it)")
        self.port = free_port()
        self.process = subprocess.Popen(
            ["node", KINESALITE, "--port", str(self.port), "--createStreamMs", "0",
             "--deleteStreamMs", "0", "--updateStreamMs", "0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.endpoint = "http://127.0.0.1:%d" % self.port
        self.kinesis = boto3.client("kinesis", endpoint_url=self.endpoint,
                                    config=Config(retries={"max_attempts": 2}), **CREDENTIALS)
        deadline = time.monotonic() + 15
        while True:
            try:
                self.kinesis.list_streams()
                return
            except Exception:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError("kinesalite did not start")
                time.sleep(0.05)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)

    def create_stream(self, shards=1):
        name = unique_name("kin")
        self.kinesis.create_stream(StreamName=name, ShardCount=shards)
        return self.kinesis.describe_stream_summary(
            StreamName=name)["StreamDescriptionSummary"]["StreamARN"]

    def records(self, arn):
        """Every record in the stream, shard by shard: (partition key, decoded JSON)."""
        name = arn.split("/", 1)[1]
        found = []
        for shard in self.kinesis.describe_stream(StreamName=name)["StreamDescription"]["Shards"]:
            iterator = self.kinesis.get_shard_iterator(
                StreamName=name, ShardId=shard["ShardId"],
                ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            while iterator:
                answer = self.kinesis.get_records(ShardIterator=iterator, Limit=10000)
                found += [(r["PartitionKey"], json.loads(r["Data"])) for r in answer["Records"]]
                if not answer["Records"]:
                    break
                iterator = answer.get("NextShardIterator")
        return found


class Relay:
    """A TCP relay to `port` that can be cut (connections refused) and mended."""

    def __init__(self, port):
        self.target = port
        self.cut = False
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.endpoint = "http://127.0.0.1:%d" % self.port
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:
                return
            if self.cut:
                near.close()
                continue
            far = socket.create_connection(("127.0.0.1", self.target))
            done = threading.Barrier(2, action=lambda: (near.close(), far.close()))
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self.pipe, args=(a, b, done), daemon=True).start()

    @staticmethod
    def pipe(source, sink, done):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        done.wait()  # the last of the pair closes both

    def close(self):
        self.listener.close()


def metrics(endpoint):
    with urllib.request.urlopen(endpoint + "/metrics") as answer:
        return answer.read().decode()


def metric(text, name, table):
    for line in text.splitlines():
        if line.startswith(name + "{") and 'table="%s"' % table in line:
            return float(line.rsplit(" ", 1)[1])
    return None


def new_table(ddb, sort=False):
    name = unique_name("kd")
    keys = [("pk", "HASH")] + ([("sk", "RANGE")] if sort else [])
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": k, "AttributeType": "S"}
                                           for k, _ in keys],
                     KeySchema=[{"AttributeName": k, "KeyType": t} for k, t in keys])
    return name


class KinesisDelivery(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        cls.kinesalite = Kinesalite()
        cls.relay = Relay(cls.kinesalite.port)

    @classmethod
    def tearDownClass(cls):
        cls.relay.close()
        cls.kinesalite.stop()

    def setUp(self):
        self.relay.cut = False
        self.server = DdbdServer("--kinesis-endpoint", self.relay.endpoint).start()
        self.ddb = client(self.server.endpoint)

    def tearDown(self):
        self.server.stop()

    def wait_records(self, arn, count, seconds=10):
        def check():
            found = self.kinesalite.records(arn)
            self.assertGreaterEqual(len(found), count)
            return found
        found = eventually(check, seconds)
        time.sleep(0.2)  # nothing more arrives
        found = self.kinesalite.records(arn)
        self.assertEqual(len(found), count, found)
        return found

    def test_records_as_dynamodb_writes_them(self):
        arn = self.kinesalite.create_stream()
        name = new_table(self.ddb, sort=True)
        self.ddb.enable_kinesis_streaming_destination(TableName=name, StreamArn=arn)
        before_us = int(time.time() * 1e6)
        key = {"pk": S("p"), "sk": S("s")}
        self.ddb.put_item(TableName=name, Item={**key, "n": N(1), "tags": {"SS": ["a", "b"]}})
        self.ddb.update_item(TableName=name, Key=key, UpdateExpression="SET n = :two",
                             ExpressionAttributeValues={":two": N(2)})
        self.ddb.delete_item(TableName=name, Key=key)
        found = self.wait_records(arn, 3)
        after_us = int(time.time() * 1e6)

        partition_keys = {pk for pk, _ in found}
        self.assertEqual(len(partition_keys), 1)  # one item, one shard's order
        self.assertRegex(partition_keys.pop(), r"^[0-9A-F]{32}$")
        records = [record for _, record in found]
        self.assertEqual([list(r) for r in records], [[
            "awsRegion", "eventID", "eventName", "userIdentity", "recordFormat", "tableName",
            "dynamodb", "eventSource"]] * 3)
        self.assertEqual([r["eventName"] for r in records], ["INSERT", "MODIFY", "REMOVE"])
        for record in records:
            self.assertEqual((record["awsRegion"], record["userIdentity"], record["recordFormat"],
                              record["tableName"], record["eventSource"]),
                             ("us-east-1", None, "application/json", name, "aws:dynamodb"))
            self.assertRegex(record["eventID"], UUID)
            self.assertEqual(record["dynamodb"]["Keys"], key)
            self.assertTrue(before_us - 1000 <= record["dynamodb"]["ApproximateCreationDateTime"]
                            <= after_us + 1000, record)
        self.assertEqual(len({r["eventID"] for r in records}), 3)
        first, second, third = (r["dynamodb"] for r in records)
        item = {**key, "n": N(1), "tags": {"SS": ["a", "b"]}}
        self.assertEqual((first.get("OldImage"), first["NewImage"]), (None, item))
        self.assertEqual((second["OldImage"], second["NewImage"]), (item, {**item, "n": N(2)}))
        self.assertEqual((third["OldImage"], third.get("NewImage")), ({**item, "n": N(2)}, None))
        self.assertEqual([list(d) for d in (first, second, third)], [
            ["ApproximateCreationDateTime", "Keys", "NewImage", "SizeBytes"],
            ["ApproximateCreationDateTime", "Keys", "NewImage", "OldImage", "SizeBytes"],
            ["ApproximateCreationDateTime", "Keys", "OldImage", "SizeBytes"]])
        # As a DynamoDB stream record's: the keys (pk "p", sk "s": 3 + 3 bytes) and each image
        # carried (the keys, n = 1 (1 + 2) and tags ["a", "b"] (4 + 2): 15 bytes).
        self.assertEqual([d["SizeBytes"] for d in (first, second, third)], [6 + 15, 6 + 30, 6 + 15])

        # Delivering, the destination says nothing; MILLISECOND then stamps milliseconds.
        described = self.ddb.describe_kinesis_streaming_destination(
            TableName=name)["KinesisDataStreamDestinations"]
        self.assertEqual(described, [{"StreamArn": arn, "DestinationStatus": "ACTIVE",
                                      "ApproximateCreationDateTimePrecision": "MICROSECOND"}])
        self.ddb.update_kinesis_streaming_destination(
            TableName=name, StreamArn=arn,
            UpdateKinesisStreamingConfiguration={"ApproximateCreationDateTimePrecision": "MILLISECOND"})
        self.ddb.put_item(TableName=name, Item={"pk": S("q"), "sk": S("t")})
        stamp = self.wait_records(arn, 4)[3][1]["dynamodb"]["ApproximateCreationDateTime"]
        self.assertLess(abs(stamp - time.time() * 1000), 10_000)

        # The feed is not a DynamoDB stream.
        streams = boto3.client("dynamodbstreams", endpoint_url=self.server.endpoint, **CREDENTIALS)
        self.assertEqual(streams.list_streams(TableName=name)["Streams"], [])

    def test_many_items_in_order_per_item(self):
        arn = self.kinesalite.create_stream(shards=2)
        name = new_table(self.ddb)
        self.ddb.enable_kinesis_streaming_destination(TableName=name, StreamArn=arn)
        for round_ in range(3):  # 3 x 300 changes: batches of up to 500
            for start in range(0, 300, 25):
                self.ddb.batch_write_item(RequestItems={name: [
                    {"PutRequest": {"Item": {"pk": S("i%d" % i), "round": N(round_)}}}
                    for i in range(start, start + 25)]})
        found = self.wait_records(arn, 900, seconds=30)
        rounds = {}
        for _, record in found:
            rounds.setdefault(record["dynamodb"]["Keys"]["pk"]["S"], []).append(
                record["dynamodb"]["NewImage"]["round"]["N"])
        self.assertEqual(len(rounds), 300)
        self.assertTrue(all(seen == ["0", "1", "2"] for seen in rounds.values()), rounds)
        # Counted once Kinesis has answered PutRecords, which may be after the records show there.
        eventually(lambda: self.assertEqual(metric(
            metrics(self.server.endpoint), "ddbd_kinesis_records_delivered_total", name), 900))

    def test_a_stream_that_is_not_there_fails_the_destination(self):
        missing = "arn:aws:kinesis:us-east-1:000000000000:stream/" + unique_name("none")
        name = new_table(self.ddb)
        self.ddb.enable_kinesis_streaming_destination(TableName=name, StreamArn=missing)
        self.ddb.put_item(TableName=name, Item={"pk": S("a")})

        def failed():
            described = self.ddb.describe_kinesis_streaming_destination(
                TableName=name)["KinesisDataStreamDestinations"]
            self.assertEqual(described[0]["DestinationStatus"], "ENABLE_FAILED")
            return described[0]
        described = eventually(failed)
        self.assertIn("ResourceNotFoundException", described["DestinationStatusDescription"])
        self.assertIn(missing.split("/")[1], described["DestinationStatusDescription"])
        # ENABLE_FAILED may be enabled again, here to a stream that is there.
        arn = self.kinesalite.create_stream()
        self.ddb.enable_kinesis_streaming_destination(TableName=name, StreamArn=arn)
        self.ddb.put_item(TableName=name, Item={"pk": S("b")})
        found = self.wait_records(arn, 1)
        self.assertEqual(found[0][1]["dynamodb"]["Keys"], {"pk": S("b")})

    def test_an_endpoint_down_is_retried_and_nothing_is_lost(self):
        arn = self.kinesalite.create_stream()
        name = new_table(self.ddb)
        self.ddb.enable_kinesis_streaming_destination(TableName=name, StreamArn=arn)
        self.relay.cut = True
        for i in range(5):
            self.ddb.put_item(TableName=name, Item={"pk": S("k%d" % i)})

        def piling_up():
            text = metrics(self.server.endpoint)
            self.assertEqual(metric(text, "ddbd_kinesis_records_pending", name), 5)
            self.assertGreaterEqual(metric(text, "ddbd_kinesis_put_failures_total", name), 2)
        eventually(piling_up)
        self.assertEqual(self.kinesalite.records(arn), [])
        self.relay.cut = False
        found = self.wait_records(arn, 5)
        self.assertEqual([r["dynamodb"]["Keys"]["pk"]["S"] for _, r in found],
                         ["k%d" % i for i in range(5)])
        eventually(lambda: self.assertEqual(
            metric(metrics(self.server.endpoint), "ddbd_kinesis_records_pending", name), 0))

    def test_disabled_sends_nothing_more(self):
        arn = self.kinesalite.create_stream()
        name = new_table(self.ddb)
        self.ddb.enable_kinesis_streaming_destination(TableName=name, StreamArn=arn)
        self.ddb.put_item(TableName=name, Item={"pk": S("before")})
        self.wait_records(arn, 1)
        self.ddb.disable_kinesis_streaming_destination(TableName=name, StreamArn=arn)
        self.ddb.put_item(TableName=name, Item={"pk": S("after")})
        time.sleep(0.5)
        self.assertEqual(len(self.kinesalite.records(arn)), 1)


class KinesisDeliveryAcrossRestarts(unittest.TestCase):
    """With --db-path, what was not delivered before a stop is delivered after it, once."""

    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        self.kinesalite = Kinesalite()
        self.relay = Relay(self.kinesalite.port)
        self.directory = tempfile.mkdtemp()

    def tearDown(self):
        self.relay.close()
        self.kinesalite.stop()
        shutil.rmtree(self.directory)

    def start(self, *more):
        return DdbdServer("--db-path", self.directory, "--kinesis-endpoint", self.relay.endpoint,
                          *more).start()

    def test_pending_records_survive_a_restart_and_delivered_ones_are_not_sent_again(self):
        arn = self.kinesalite.create_stream()
        server = self.start()
        try:
            ddb = client(server.endpoint)
            name = new_table(ddb)
            ddb.enable_kinesis_streaming_destination(TableName=name, StreamArn=arn)
            ddb.put_item(TableName=name, Item={"pk": S("delivered")})
            eventually(lambda: self.assertEqual(len(self.kinesalite.records(arn)), 1))
            self.relay.cut = True
            for i in range(3):
                ddb.put_item(TableName=name, Item={"pk": S("held%d" % i)})
        finally:
            server.stop()
        self.assertEqual(len(self.kinesalite.records(arn)), 1)
        self.relay.cut = False
        for checkpoint in ((), ("--checkpoint-log-bytes", "1")):  # from the log, then a checkpoint
            server = self.start(*checkpoint)
            try:
                ddb = client(server.endpoint)
                eventually(lambda: self.assertEqual(len(self.kinesalite.records(arn)), 4))
                time.sleep(0.3)
                keys = [r["dynamodb"]["Keys"]["pk"]["S"] for _, r in self.kinesalite.records(arn)]
                self.assertEqual(keys, ["delivered", "held0", "held1", "held2"])
                self.assertEqual(ddb.describe_kinesis_streaming_destination(TableName=name)[
                    "KinesisDataStreamDestinations"][0]["DestinationStatus"], "ACTIVE")
            finally:
                server.stop()


if __name__ == "__main__":
    unittest.main()
