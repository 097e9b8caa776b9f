"""Stream triggers (issue 47): ddbd started with --stream-trigger TABLE=URL,... acts as Lambda's
event source mapping for the table's stream and POSTs Lambda's DynamoDB event to a small HTTP
handler started here, which records each event and answers as each test tells it (success, a
500, a runtime's error document, X-Amz-Function-Error, partial batch responses, not reachable).
Writes go through boto3; what the handler receives is compared with what boto3's DynamoDB Streams
client reads from the same stream. Covers batching, order, attaching to a table made later,
following a stream disabled and enabled, retries, bisection, the failure destination, partial
batch responses, filters, record age (the admin API's clock), /metrics, and the position across a
restart with --db-path."""
import http.server
import json
import os
import re
import tempfile
import threading
import time
import unittest
import urllib.request

import boto3
from botocore.config import Config

from ddbd_harness import CREDENTIALS, DdbdServer, client, eventually, unique_name

S = lambda v: {"S": v}
RIE_PATH = "/2015-03-31/functions/function/invocations"


class Handler:
    """An HTTP function on a port of its own. `answer(event)` gives (status, headers, body); the
    events received are kept in order (a 503 answer means "not reached": kept apart)."""

    def __init__(self):
        self.events = []
        self.refused = 0
        self.lock = threading.Lock()
        self.answer = lambda event: (200, {}, "")
        owner = self

        class Request(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                event = json.loads(body)
                with owner.lock:
                    status, headers, text = owner.answer(event)
                    if status == 503:
                        owner.refused += 1
                    else:
                        owner.events.append((self.path, event, body))
                data = text.encode()
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                if headers.get("Transfer-Encoding") == "chunked":
                    # Streamed in chunks of 7 bytes (an extension on one), then a trailer.
                    self.end_headers()
                    for i in range(0, len(data), 7):
                        piece = data[i:i + 7]
                        self.wfile.write(b"%x%s\r\n%s\r\n" % (len(piece), b";x=1" if i == 0 else b"", piece))
                    self.wfile.write(b"0\r\nX-Trailer: 1\r\n\r\n")
                    return
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Request)
        self.port = self.server.server_address[1]
        self.url = "http://127.0.0.1:%d%s" % (self.port, RIE_PATH)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def records(self):
        """Every record received, in order of arrival (retries included)."""
        with self.lock:
            return [r for _, event, _ in self.events for r in event["Records"]]

    def keys(self):
        return [r["dynamodb"]["Keys"]["pk"]["S"] for r in self.records()]

    def batches(self):
        with self.lock:
            return [[r["dynamodb"]["Keys"]["pk"]["S"] for r in event["Records"]]
                    for _, event, _ in self.events]


def stream_table(ddb, name, view="NEW_AND_OLD_IMAGES"):
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     StreamSpecification={"StreamEnabled": True, "StreamViewType": view})
    return ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"]


def stream_records(endpoint, arn):
    """Every record of the stream, read with boto3's DynamoDB Streams client."""
    streams = boto3.client("dynamodbstreams", endpoint_url=endpoint,
                           config=Config(retries={"max_attempts": 1}), **CREDENTIALS)
    found = []
    for shard in streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]:
        iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                              ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        while iterator:
            page = streams.get_records(ShardIterator=iterator)
            found += page["Records"]
            if not page["Records"]:
                break
            iterator = page.get("NextShardIterator")
    return found


def metric(endpoint, name, table):
    with urllib.request.urlopen(endpoint + "/metrics") as answer:
        text = answer.read().decode()
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name + "{") and 'table="%s"' % table in line:
            total += float(line.rsplit(" ", 1)[1])
    return total


class StreamTriggerCase(unittest.TestCase):
    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        self.handler = Handler()
        self.addCleanup(self.handler.stop)
        self.table = unique_name("trig")

    def start(self, *settings, extra=()):
        spec = ",".join(("%s=%s" % (self.table, self.handler.url),) + settings)
        server = DdbdServer("--stream-trigger", spec, *extra).start()
        self.addCleanup(server.stop)
        return server, client(server.endpoint)


class TestEvents(StreamTriggerCase):
    def test_event_is_lambdas_and_matches_get_records(self):
        server, ddb = self.start("batch-size=7")
        arn = stream_table(ddb, self.table)  # made after ddbd started: the trigger attaches
        for i in range(20):
            ddb.put_item(TableName=self.table, Item={"pk": S("k%02d" % i), "v": S("1")})
        ddb.update_item(TableName=self.table, Key={"pk": S("k00")},
                        UpdateExpression="SET v = :v", ExpressionAttributeValues={":v": S("2")})
        ddb.delete_item(TableName=self.table, Key={"pk": S("k01")})
        eventually(lambda: self.assertEqual(len(self.handler.records()), 22))
        self.assertTrue(all(len(b) <= 7 for b in self.handler.batches()))
        self.assertEqual(self.handler.keys(), ["k%02d" % i for i in range(20)] + ["k00", "k01"])
        paths = {path for path, _, _ in self.handler.events}
        self.assertEqual(paths, {RIE_PATH})
        expected = stream_records(server.endpoint, arn)
        received = self.handler.records()
        for got, want in zip(received, expected):
            self.assertEqual(list(got), ["eventID", "eventName", "eventVersion", "eventSource",
                                         "awsRegion", "dynamodb", "eventSourceARN"])
            self.assertEqual(got["eventSourceARN"], arn)
            for member in ("eventID", "eventName", "eventVersion", "eventSource", "awsRegion"):
                self.assertEqual(got[member], want[member])
            change, stored = got["dynamodb"], want["dynamodb"]
            self.assertEqual(list(change)[0], "ApproximateCreationDateTime")
            self.assertEqual(change["ApproximateCreationDateTime"],
                             int(stored["ApproximateCreationDateTime"].timestamp()))
            for member in ("Keys", "SequenceNumber", "SizeBytes", "StreamViewType"):
                self.assertEqual(change[member], stored[member])
            self.assertEqual(change.get("NewImage"), stored.get("NewImage"))
            self.assertEqual(change.get("OldImage"), stored.get("OldImage"))
        self.assertEqual([r["eventName"] for r in received[-2:]], ["MODIFY", "REMOVE"])
        self.assertEqual(received[-2]["dynamodb"]["OldImage"]["v"], S("1"))
        self.assertEqual(received[-2]["dynamodb"]["NewImage"]["v"], S("2"))
        eventually(lambda: self.assertEqual(
            metric(server.endpoint, "ddbd_stream_trigger_records_delivered_total", self.table), 22))
        self.assertEqual(
            metric(server.endpoint, "ddbd_stream_trigger_records_pending", self.table), 0)

    def test_follows_the_stream_across_disable_and_enable(self):
        server, ddb = self.start()
        first = stream_table(ddb, self.table, "KEYS_ONLY")
        ddb.put_item(TableName=self.table, Item={"pk": S("one")})
        eventually(lambda: self.assertEqual(self.handler.keys(), ["one"]))
        ddb.update_table(TableName=self.table, StreamSpecification={"StreamEnabled": False})
        ddb.put_item(TableName=self.table, Item={"pk": S("unseen")})
        time.sleep(0.01)
        ddb.update_table(TableName=self.table, StreamSpecification={
            "StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
        second = ddb.describe_table(TableName=self.table)["Table"]["LatestStreamArn"]
        self.assertNotEqual(first, second)
        ddb.put_item(TableName=self.table, Item={"pk": S("two")})
        eventually(lambda: self.assertEqual(self.handler.keys(), ["one", "two"]))
        records = self.handler.records()
        self.assertEqual(records[0]["eventSourceARN"], first)
        self.assertEqual(records[0]["dynamodb"]["StreamViewType"], "KEYS_ONLY")
        self.assertEqual(records[1]["eventSourceARN"], second)
        self.assertEqual(records[1]["dynamodb"]["NewImage"], {"pk": S("two")})

    def test_a_time_to_live_deletion_names_dynamodb(self):
        server, ddb = self.start(extra=("--ttl-interval-ms", "50"))
        stream_table(ddb, self.table)
        ddb.update_time_to_live(TableName=self.table, TimeToLiveSpecification={
            "Enabled": True, "AttributeName": "ttl"})
        ddb.put_item(TableName=self.table, Item={"pk": S("old"), "ttl": {"N": str(int(time.time()) - 10)}})
        eventually(lambda: self.assertEqual(len(self.handler.records()), 2))
        removal = self.handler.records()[1]
        self.assertEqual(removal["eventName"], "REMOVE")
        self.assertEqual(removal["userIdentity"],
                         {"type": "Service", "principalId": "dynamodb.amazonaws.com"})


class TestFailures(StreamTriggerCase):
    def test_retries_then_bisects_to_the_bad_record_and_records_it(self):
        failed_file = os.path.join(tempfile.mkdtemp(), "failed.jsonl")
        self.addCleanup(lambda: os.path.exists(failed_file) and os.remove(failed_file))

        def answer(event):
            keys = [r["dynamodb"]["Keys"]["pk"]["S"] for r in event["Records"]]
            return (500, {}, "bad record") if "bad" in keys else (200, {}, "")
        self.handler.answer = answer
        server, ddb = self.start("batch-size=4", "maximum-batching-window-in-seconds=1",
                                 "maximum-retry-attempts=1",
                                 "bisect-batch-on-function-error=true",
                                 "on-failure=" + failed_file, "function-name=orders-fn")
        arn = stream_table(ddb, self.table)
        ddb.batch_write_item(RequestItems={self.table: [
            {"PutRequest": {"Item": {"pk": S(k)}}} for k in ("a", "b", "bad", "c")]})
        eventually(lambda: self.assertTrue(os.path.exists(failed_file)))
        with open(failed_file) as f:
            lines = [json.loads(line) for line in f]
        self.assertEqual(len(lines), 1)
        record = lines[0]
        self.assertEqual(list(record), ["requestContext", "responseContext", "version",
                                        "timestamp", "DDBStreamBatchInfo", "payload"])
        self.assertEqual(record["requestContext"]["condition"], "RetryAttemptsExhausted")
        self.assertEqual(record["requestContext"]["approximateInvokeCount"], 2)
        self.assertEqual(record["requestContext"]["functionArn"],
                         "arn:aws:lambda:us-east-1:000000000000:function:orders-fn")
        self.assertRegex(record["requestContext"]["requestId"],
                         r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
        self.assertEqual(record["responseContext"], {
            "statusCode": 500, "executedVersion": "$LATEST", "functionError": "Unhandled"})
        info = record["DDBStreamBatchInfo"]
        bad = [r for r in stream_records(server.endpoint, arn)
               if r["dynamodb"]["Keys"]["pk"]["S"] == "bad"][0]
        self.assertEqual(info["batchSize"], 1)
        self.assertEqual(info["streamArn"], arn)
        self.assertEqual(info["startSequenceNumber"], bad["dynamodb"]["SequenceNumber"])
        self.assertEqual(info["endSequenceNumber"], bad["dynamodb"]["SequenceNumber"])
        self.assertRegex(info["shardId"], r"^shardId-")
        self.assertRegex(info["approximateArrivalOfFirstRecord"],
                         r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        self.assertEqual(record["payload"]["Records"][0]["eventID"], bad["eventID"])
        # abad-c fails whole; its halves; "bad" alone, invoked twice (once retried), given up.
        eventually(lambda: self.assertEqual(
            [k for b in self.handler.batches() if "bad" not in b for k in b], ["a", "b", "c"]))
        self.assertEqual(self.handler.batches()[0], ["a", "b", "bad", "c"])
        self.assertEqual(sum(1 for b in self.handler.batches() if b == ["bad"]), 2)
        self.assertEqual(
            metric(server.endpoint, "ddbd_stream_trigger_records_discarded_total", self.table), 1)
        ddb.put_item(TableName=self.table, Item={"pk": S("after")})
        eventually(lambda: self.assertEqual(self.handler.keys()[-1], "after"))

    def test_function_errors_as_the_invoke_api_and_a_runtime_mark_them(self):
        answers = [(200, {"X-Amz-Function-Error": "Unhandled"}, '{"errorMessage":"x"}'),
                   (200, {}, '{"errorMessage":"boom","errorType":"Error"}'),
                   (200, {}, '{"statusCode":200}')]
        self.handler.answer = lambda event: answers.pop(0) if answers else (200, {}, "")
        server, ddb = self.start()
        stream_table(ddb, self.table)
        ddb.put_item(TableName=self.table, Item={"pk": S("x")})
        eventually(lambda: self.assertEqual(self.handler.keys(), ["x", "x", "x"]))
        time.sleep(0.3)
        self.assertEqual(self.handler.keys(), ["x", "x", "x"])
        self.assertEqual(
            metric(server.endpoint, "ddbd_stream_trigger_function_errors_total", self.table), 2)

    def test_partial_batch_response_resumes_at_the_first_failure(self):
        sent = []

        def answer(event):
            sequences = [r["dynamodb"]["SequenceNumber"] for r in event["Records"]]
            keys = [r["dynamodb"]["Keys"]["pk"]["S"] for r in event["Records"]]
            sent.append(keys)
            if len(sent) == 1:  # c and e failed: retried from c (the answer sent chunked)
                return 200, {"Transfer-Encoding": "chunked"}, json.dumps({"batchItemFailures": [
                    {"itemIdentifier": sequences[4]}, {"itemIdentifier": sequences[2]}]})
            if len(sent) == 2:  # a misnamed member: the whole batch again
                return 200, {}, json.dumps({"batchItemFailures": [{"ItemIdentifier": "1"}]})
            return 200, {}, json.dumps({"batchItemFailures": []})
        self.handler.answer = answer
        server, ddb = self.start("batch-size=5", "maximum-batching-window-in-seconds=2",
                                 "function-response-types=ReportBatchItemFailures")
        stream_table(ddb, self.table)
        ddb.batch_write_item(RequestItems={self.table: [
            {"PutRequest": {"Item": {"pk": S(k)}}} for k in "abcde"]})
        eventually(lambda: self.assertEqual(len(sent), 3))
        self.assertEqual(sent, [list("abcde"), list("cde"), list("cde")])
        time.sleep(0.3)
        self.assertEqual(len(sent), 3)

    def test_records_past_their_age_are_given_up(self):
        failed_file = os.path.join(tempfile.mkdtemp(), "failed.jsonl")
        self.handler.answer = lambda event: (500, {}, "")
        server, ddb = self.start("maximum-record-age-in-seconds=60", "on-failure=" + failed_file,
                                 extra=("--admin-api",))
        stream_table(ddb, self.table)
        ddb.put_item(TableName=self.table, Item={"pk": S("late")})
        eventually(lambda: self.assertGreaterEqual(len(self.handler.events), 2))
        request = urllib.request.Request(server.endpoint + "/_ddbd/clock",
                                         data=b'{"advanceSeconds": 61}', method="POST")
        urllib.request.urlopen(request).read()
        eventually(lambda: self.assertTrue(os.path.exists(failed_file)))
        with open(failed_file) as f:
            record = json.loads(f.readline())
        self.assertEqual(record["requestContext"]["condition"], "RecordAgeExceeded")
        self.assertEqual(record["payload"]["Records"][0]["dynamodb"]["Keys"], {"pk": S("late")})

    def test_a_function_not_reached_is_tried_again_and_the_position_survives_a_restart(self):
        self.handler.answer = lambda event: (503, {}, "")
        with tempfile.TemporaryDirectory() as directory:
            server, ddb = self.start(extra=("--db-path", directory))
            stream_table(ddb, self.table)
            ddb.put_item(TableName=self.table, Item={"pk": S("held")})
            eventually(lambda: self.assertGreaterEqual(self.handler.refused, 2))
            eventually(lambda: self.assertEqual(metric(
                server.endpoint, "ddbd_stream_trigger_records_pending", self.table), 1))
            self.assertGreater(metric(
                server.endpoint, "ddbd_stream_trigger_unreachable_total", self.table), 0)
            self.handler.answer = lambda event: (200, {}, "")
            eventually(lambda: self.assertEqual(self.handler.keys(), ["held"]))
            ddb.put_item(TableName=self.table, Item={"pk": S("down")})
            eventually(lambda: self.assertEqual(self.handler.keys(), ["held", "down"]))
            self.handler.answer = lambda event: (503, {}, "")
            ddb.put_item(TableName=self.table, Item={"pk": S("across")})
            eventually(lambda: self.assertGreaterEqual(self.handler.refused, 4))
            server.stop()
            self.handler.answer = lambda event: (200, {}, "")
            server, ddb = self.start(extra=("--db-path", directory))
            eventually(lambda: self.assertEqual(self.handler.keys(), ["held", "down", "across"]))
            time.sleep(0.3)
            self.assertEqual(self.handler.keys(), ["held", "down", "across"])
            server.stop()  # before its directory goes: a running server still writes there


    def test_a_slow_function_does_not_hold_up_the_stop(self):
        release = threading.Event()
        self.addCleanup(release.set)

        def answer(event):
            release.wait(30)  # a function that does not answer (the handler's lock held)
            return 200, {}, ""
        self.handler.answer = answer
        with tempfile.TemporaryDirectory() as directory:
            server, ddb = self.start(extra=("--db-path", directory))
            stream_table(ddb, self.table)
            ddb.put_item(TableName=self.table, Item={"pk": S("slow")})
            time.sleep(0.5)  # the batch is in flight
            started = time.monotonic()
            server.stop()
            self.assertLess(time.monotonic() - started, 5)
            release.set()
            # Not acknowledged: sent again after the restart.
            self.handler.answer = lambda event: (200, {}, "")
            server, ddb = self.start(extra=("--db-path", directory))
            eventually(lambda: self.assertEqual(self.handler.keys()[-1], "slow"))
            server.stop()  # before its directory goes: a running server still writes there


class TestFilters(StreamTriggerCase):
    def test_filter_criteria_select_records(self):
        server, ddb = self.start(
            'filter={"eventName":["INSERT"],"dynamodb":{"NewImage":{"pk":{"S":[{"prefix":"order#"}]}}}}',
            'filter={"eventName":["REMOVE"]}')
        stream_table(ddb, self.table)
        for key in ("order#1", "user#1", "order#2"):
            ddb.put_item(TableName=self.table, Item={"pk": S(key)})
        ddb.put_item(TableName=self.table, Item={"pk": S("order#1"), "v": S("2")})  # MODIFY
        ddb.delete_item(TableName=self.table, Key={"pk": S("user#1")})
        eventually(lambda: self.assertEqual(self.handler.keys(), ["order#1", "order#2", "user#1"]))
        eventually(lambda: self.assertEqual(
            metric(server.endpoint, "ddbd_stream_trigger_records_filtered_total", self.table), 2))
        self.assertEqual([r["eventName"] for r in self.handler.records()],
                         ["INSERT", "INSERT", "REMOVE"])


class TestSettings(unittest.TestCase):
    def test_bad_settings_stop_the_start(self):
        binary = os.environ.get("DDBD_BIN")
        if not binary:
            raise unittest.SkipTest("set DDBD_BIN")
        import subprocess
        for spec, message in [
                ("Orders=http://127.0.0.1:1,batch-size=0",
                 "ddbd: --stream-trigger: batch-size: expected 1 to 10000, got '0'\n"),
                ('Orders=http://127.0.0.1:1,filter={"eventName":"INSERT"}',
                 'ddbd: --stream-trigger: filter {"eventName":"INSERT"}: a field\'s rule must be '
                 "an array of matchers or an object of fields\n")]:
            result = subprocess.run([binary, "--port", "0", "--stream-trigger", spec],
                                    capture_output=True, text=True, timeout=10)
            self.assertEqual((result.returncode, result.stderr), (2, message))


if __name__ == "__main__":
    unittest.main()
