"""A request near the 16 MB limit costs about twice its size while in flight, not four times: the
body is parsed in place, a gzip body is inflated into a buffer of its own size, and a batch's
encoded items are let go once the table holds them (issue 34).

Measured as the process's peak RSS (VmHWM, reset before the request) above its RSS before, less
what stays stored (the table's TableSizeBytes). Not run on sanitizer builds (tests/blackbox/
CMakeLists.txt): their allocator keeps freed memory in quarantine, so RSS says nothing of ddbd's.
(`scripts/request-memory` prints the same figures for more shapes.)
"""
import gzip
import http.client
import json
import unittest

from ddbd_harness import DdbdServer

HEADERS = {"Content-Type": "application/x-amz-json-1.0",
           "Authorization": "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/dynamodb/aws4_request, "
                            "SignedHeaders=host;x-amz-date, Signature=0",
           "X-Amz-Date": "20260101T000000Z"}
MB = 1_000_000


def status_kb(pid, field):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise AssertionError(field)


def text(size, seed):
    unit = "%08d" % seed
    return (unit * (size // len(unit) + 1))[:size]


class RequestMemory(unittest.TestCase):
    def in_flight(self, operation, body, compress=False):
        """(bytes of the body, peak bytes above the RSS before it less what was stored)."""
        server = DdbdServer().start()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)

            def call(target, request, encoding=None):
                data = json.dumps(request).encode()
                headers = dict(HEADERS, **{"X-Amz-Target": "DynamoDB_20120810." + target})
                if encoding:
                    data = gzip.compress(data, 1)
                    headers["Content-Encoding"] = encoding
                connection.request("POST", "/", body=data, headers=headers)
                response = connection.getresponse()
                answer = response.read()
                self.assertEqual(response.status, 200, answer[:500])
                return json.loads(answer)

            call("CreateTable", {
                "TableName": "memory", "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})
            pid = server.process.pid
            before = status_kb(pid, "VmRSS")
            with open("/proc/%d/clear_refs" % pid, "w") as clear:
                clear.write("5")  # VmHWM starts again from the RSS now
            call(operation, body, "gzip" if compress else None)
            peak = status_kb(pid, "VmHWM")
            stored = call("DescribeTable", {"TableName": "memory"})["Table"]["TableSizeBytes"]
            connection.close()
            return len(json.dumps(body)), (peak - before) * 1024 - stored
        finally:
            server.stop()

    def test_batch_of_large_items(self):
        # 25 items of 400 KB: the body, the decoded items, then the table's copy, about 2x.
        # Before: 4.45x (RapidJSON's copy of every string and its parse stack; the encoded
        # items held beside the table's copies to the batch's end).
        items = [{"PutRequest": {"Item": {"pk": {"S": "k%d" % i}, "v": {"S": text(399_950, i)}}}}
                 for i in range(25)]
        size, in_flight = self.in_flight("BatchWriteItem", {"RequestItems": {"memory": items}})
        self.assertGreater(size, 9.9 * MB)
        self.assertLess(in_flight, 2.5 * size, "%.2fx" % (in_flight / size))

    def test_body_that_is_mostly_one_string(self):
        # A 10 MB member no operation reads: only the body itself (before: 3.56x).
        body = {"TableName": "memory", "Key": {"pk": {"S": "x"}}, "Padding": text(10 * MB, 3)}
        size, in_flight = self.in_flight("GetItem", body)
        self.assertLess(in_flight, 1.3 * size, "%.2fx" % (in_flight / size))

    def test_gzip_body(self):
        # The compressed bytes are small; the inflated body is held once, at its size (before:
        # 2.74x, growing by doubling to 16 MB and copying).
        body = {"TableName": "memory", "Key": {"pk": {"S": "x"}}, "Padding": text(10 * MB, 5)}
        size, in_flight = self.in_flight("GetItem", body, compress=True)
        self.assertLess(in_flight, 1.3 * size, "%.2fx" % (in_flight / size))


if __name__ == "__main__":
    unittest.main()
