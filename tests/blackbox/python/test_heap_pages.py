"""The ddbd process asks for 2 MiB pages for its heap, the region its allocator mapped at start-up
and those it grows into, unless the environment says otherwise: such regions are marked with
madvise(MADV_HUGEPAGE), which /proc shows as the "hg" flag of the mapping."""
import http.client
import json
import os
import subprocess
import tempfile
import time
import unittest

HEADERS = {"Content-Type": "application/x-amz-json-1.0",
           "Authorization": "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/dynamodb/aws4_request, "
                            "SignedHeaders=host;x-amz-date, Signature=0",
           "X-Amz-Date": "20260101T000000Z"}


def call(connection, operation, body):
    headers = dict(HEADERS, **{"X-Amz-Target": "DynamoDB_20120810." + operation})
    connection.request("POST", "/", body=json.dumps(body), headers=headers)
    response = connection.getresponse()
    data = response.read()
    assert response.status == 200, data
    return json.loads(data)


def huge_page_mappings(pid):
    with open("/proc/%d/smaps" % pid) as smaps:
        return sum(1 for line in smaps if line.startswith("VmFlags:") and " hg" in line)


def mappings_after_growing_heap(extra_env):
    """Starts ddbd, stores ~50 MB of items (past the region its allocator maps at start-up), and
    counts its mappings marked for huge pages before and after."""
    with tempfile.TemporaryDirectory() as directory:
        port_file = os.path.join(directory, "port")
        process = subprocess.Popen([os.environ["DDBD_BIN"], "--port", "0", "--port-file", port_file,
                                    "--log-level", "warn"], env=dict(os.environ, **extra_env))
        try:
            deadline = time.time() + 10
            while not (os.path.exists(port_file) and open(port_file).read().strip()):
                assert time.time() < deadline and process.poll() is None, "ddbd did not start"
                time.sleep(0.01)
            connection = http.client.HTTPConnection("127.0.0.1", int(open(port_file).read()), timeout=60)
            call(connection, "CreateTable", {
                "TableName": "heap", "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})
            at_start = huge_page_mappings(process.pid)
            filler = "x" * 350_000
            for batch in range(6):
                requests = [{"PutRequest": {"Item": {"pk": {"S": "item-%d-%d" % (batch, i)}, "data": {"S": filler}}}}
                            for i in range(25)]
                result = call(connection, "BatchWriteItem", {"RequestItems": {"heap": requests}})
                assert result["UnprocessedItems"] == {}, result
            return at_start, huge_page_mappings(process.pid)
        finally:
            process.terminate()
            process.wait(timeout=10)


class HeapPages(unittest.TestCase):
    def test_heap_uses_huge_pages_from_the_start(self):
        at_start, grown = mappings_after_growing_heap({})
        if os.environ["DDBD_HEAP"] == "mimalloc":
            # The start-up region holds a small table's items: marked too, before any request.
            self.assertGreater(at_start, 0)
            self.assertGreater(grown, 0)
        else:  # a sanitizer build: the system allocator, which does not ask
            self.assertEqual((at_start, grown), (0, 0))

    def test_environment_setting_wins(self):
        self.assertEqual(mappings_after_growing_heap({"MIMALLOC_LARGE_OS_PAGES": "0"}), (0, 0))


if __name__ == "__main__":
    unittest.main()
