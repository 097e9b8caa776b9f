"""What SDKs refuse to send, sent over plain HTTP: malformed JSON, wrong targets and content types,
missing authentication, huge bodies, stalled clients, CORS, the health check, keep-alive."""
import http.client
import json
import os
import signal
import socket
import subprocess
import tempfile
import time
import unittest
import zlib

from ddbd_harness import DdbdServer, ServerTestCase

AMZ_DATE = "20260101T000000Z"
AUTH = "AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/dynamodb/aws4_request, " \
       "SignedHeaders=host;x-amz-date;x-amz-target, Signature=abc"


class RawHttpTestCase(ServerTestCase):
    def setUp(self):
        host, port = self.endpoint[len("http://"):].split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=10)

    def tearDown(self):
        self.connection.close()

    def request(self, body, target="DynamoDB_20120810.ListTables",
                content_type="application/x-amz-json-1.0", auth=AUTH, method="POST", headers=None):
        all_headers = {"Content-Type": content_type, "X-Amz-Date": AMZ_DATE}
        if target is not None:
            all_headers["X-Amz-Target"] = target
        if auth is not None:
            all_headers["Authorization"] = auth
        all_headers.update(headers or {})
        all_headers = {k: v for k, v in all_headers.items() if v is not None}
        self.connection.request(method, "/", body=body, headers=all_headers)
        response = self.connection.getresponse()
        return response, response.read()

    def assertJsonError(self, response_and_body, status, expected):
        response, body = response_and_body
        self.assertEqual(response.status, status)
        self.assertEqual(json.loads(body), expected)
        self.assertEqual(int(response.getheader("x-amz-crc32")), zlib.crc32(body))


class Protocol(RawHttpTestCase):
    def test_malformed_json_is_a_serialization_exception_without_message(self):
        self.assertJsonError(self.request(b'{"TableName":'), 400,
                             {"__type": "com.amazon.coral.service#SerializationException"})

    def test_missing_and_unknown_targets(self):
        unknown = {"__type": "com.amazon.coral.service#UnknownOperationException"}
        self.assertJsonError(self.request(b"{}", target=None), 400, unknown)
        self.assertJsonError(self.request(b"{}", target="DynamoDB_20120810.Frobnicate"), 400, unknown)
        self.assertJsonError(self.request(b"{}", target="Kinesis_20131202.ListStreams"), 400, unknown)

    def test_missing_authorization(self):
        self.assertJsonError(self.request(b"{}", auth=None), 400, {
            "__type": "com.amazon.coral.service#MissingAuthenticationTokenException",
            "message": "Request is missing Authentication Token"})

    def test_wrong_json_types(self):
        self.assertJsonError(self.request(b'{"TableName": 5}', target="DynamoDB_20120810.DescribeTable"), 400, {
            "__type": "com.amazon.coral.service#SerializationException",
            "Message": "NUMBER_VALUE cannot be converted to String"})
        self.assertJsonError(self.request(b'{"Limit": "5"}'), 400, {
            "__type": "com.amazon.coral.service#SerializationException",
            "Message": "STRING_VALUE cannot be converted to Integer"})

    def test_content_types(self):
        response, body = self.request(b"{}", content_type="application/json")
        self.assertEqual((response.status, response.getheader("Content-Type")), (200, "application/json"))
        response, body = self.request(b"{}", content_type="text/plain")
        self.assertEqual((response.status, body), (404, b"<UnknownOperationException/>\n"))

    def test_success_headers(self):
        response, body = self.request(b"{}")
        self.assertEqual(response.status, 200)
        self.assertEqual(response.getheader("Content-Type"), "application/x-amz-json-1.0")
        self.assertRegex(response.getheader("x-amzn-RequestId"), r"^[A-Z0-9]{52}$")
        self.assertEqual(int(response.getheader("x-amz-crc32")), zlib.crc32(body))
        self.assertIn("TableNames", json.loads(body))

    def test_keep_alive_serves_many_requests_on_one_connection(self):
        for _ in range(20):
            response, _ = self.request(b"{}")
            self.assertEqual(response.status, 200)

    def test_health_check(self):
        self.connection.request("GET", "/")
        response = self.connection.getresponse()
        host = self.endpoint[len("http://"):]
        self.assertEqual((response.status, response.read()), (200, b"healthy: %s " % host.encode()))
        self.connection.request("GET", "/", headers={"Host": "dynamodb.eu-west-2.amazonaws.com"})
        response = self.connection.getresponse()
        self.assertEqual(response.read(), b"healthy: dynamodb.eu-west-2.amazonaws.com ")
        # HTTP/1.0 without Host: the name of the region's endpoint.
        with socket.create_connection(self.connection.sock.getpeername()[:2], timeout=10) as raw:
            raw.sendall(b"GET / HTTP/1.0\r\n\r\n")
            answer = b""
            while chunk := raw.recv(4096):
                answer += chunk
        self.assertTrue(answer.endswith(b"\r\n\r\nhealthy: dynamodb.us-east-1.amazonaws.com "), answer)

    def test_date_and_server_headers_on_every_answer(self):
        for method, body, auth in [("POST", b"{}", AUTH), ("POST", b"{}", None), ("GET", None, AUTH),
                                   ("PUT", b"{}", AUTH)]:
            response, _ = self.request(body, auth=auth, method=method)
            self.assertEqual(response.getheader("Server"), "Server")
            self.assertRegex(response.getheader("Date"),
                             r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|"
                             r"Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$")

    def test_only_post_to_the_root_is_the_api(self):
        body = json.dumps({"TableName": "not-created-by-path", "BillingMode": "PAY_PER_REQUEST",
                           "AttributeDefinitions": [{"AttributeName": "k", "AttributeType": "S"}],
                           "KeySchema": [{"AttributeName": "k", "KeyType": "HASH"}]}).encode()
        for path in ["/tables", "/dynamodb/", "//"]:
            self.connection.request("POST", path, body=body, headers={
                "Content-Type": "application/x-amz-json-1.0", "Authorization": AUTH,
                "X-Amz-Date": AMZ_DATE, "X-Amz-Target": "DynamoDB_20120810.CreateTable"})
            response = self.connection.getresponse()
            self.assertEqual((response.status, response.read()), (404, b"<UnknownOperationException/>\n"))
        response, body = self.request(b"{}")
        self.assertNotIn("not-created-by-path", json.loads(body)["TableNames"])

    def test_headers_over_16_kb_get_400(self):
        response, _ = self.request(b"{}", headers={"X-Pad": "a" * (15 * 1024)})
        self.assertEqual(response.status, 200)
        for headers, path in [({"X-Pad": "a" * (17 * 1024)}, "/"),
                              ({"X-Pad-%d" % i: "a" * 1000 for i in range(17)}, "/"),
                              ({}, "/?" + "q" * (17 * 1024))]:
            connection = http.client.HTTPConnection(*self.connection.sock.getpeername()[:2], timeout=10)
            connection.request("POST", path, body=b"{}", headers=dict(
                headers, **{"Content-Type": "application/x-amz-json-1.0", "Authorization": AUTH,
                            "X-Amz-Date": AMZ_DATE, "X-Amz-Target": "DynamoDB_20120810.ListTables"}))
            response = connection.getresponse()
            response.read()
            self.assertEqual(response.status, 400)
            self.assertEqual(response.getheader("Server"), "Server")
            connection.close()

    def test_cors_preflight(self):
        self.connection.request("OPTIONS", "/", headers={
            "Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type,x-amz-target,authorization"})
        response = self.connection.getresponse()
        response.read()
        self.assertEqual(response.status, 200)
        self.assertEqual(response.getheader("Access-Control-Allow-Origin"), "http://localhost:3000")
        self.assertEqual(response.getheader("Access-Control-Allow-Headers"), "content-type,x-amz-target,authorization")
        self.assertEqual(response.getheader("Access-Control-Allow-Methods"), "POST")

    def test_deeply_nested_body_is_refused_and_the_server_lives_on(self):
        depth = 100000
        body = b'{"TableName":"abc","AttributeDefinitions":' + b"[" * depth + b"]" * depth + b"}"
        response, _ = self.request(body, target="DynamoDB_20120810.CreateTable")
        self.assertEqual(response.status, 400)
        self.assertEqual(self.request(b"{}")[0].status, 200)

    def test_a_body_over_16_mb_is_refused_with_413(self):
        with socket.create_connection((self.connection.host, self.connection.port)) as raw:
            size = 17 * 1024 * 1024
            raw.sendall(("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\n"
                         "X-Amz-Target: DynamoDB_20120810.ListTables\r\nAuthorization: %s\r\nX-Amz-Date: 20260101T000000Z\r\n"
                         "Content-Length: %d\r\n\r\n" % (AUTH, size)).encode())
            raw.settimeout(10)
            self.assertTrue(raw.recv(4096).startswith(b"HTTP/1.1 413"))
        self.assertEqual(self.request(b"{}")[0].status, 200)

    def test_a_body_of_almost_16_mb_is_accepted(self):
        padding = " " * (16 * 1024 * 1024 - 100)
        response, _ = self.request(("{%s}" % padding).encode())
        self.assertEqual(response.status, 200)


class SlowClients(RawHttpTestCase):
    server_args = ("--request-timeout-ms", "300")

    def test_a_stalled_request_is_dropped_and_others_are_served(self):
        stalled = socket.create_connection((self.connection.host, self.connection.port))
        stalled.sendall(b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{")
        self.assertEqual(self.request(b"{}")[0].status, 200)
        stalled.settimeout(5)
        started = time.monotonic()
        self.assertEqual(stalled.recv(100), b"")  # closed by the server
        self.assertLess(time.monotonic() - started, 3)
        stalled.close()


    def test_headers_trickled_byte_by_byte_are_cut_off(self):
        # Slowloris: each byte comes before any per-read timeout would fire, but the request as a
        # whole must arrive within --request-timeout-ms.
        trickle = socket.create_connection((self.connection.host, self.connection.port))
        started = time.monotonic()
        closed = False
        for byte in b"POST / HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 100:
            try:
                trickle.sendall(bytes([byte]))
            except OSError:
                closed = True
                break
            time.sleep(0.05)
            if time.monotonic() - started > 3:
                break
        if not closed:
            trickle.settimeout(3)
            try:
                closed = trickle.recv(100) == b""
            except OSError:
                closed = True
        self.assertTrue(closed)
        self.assertLess(time.monotonic() - started, 4)
        trickle.close()
        self.connection.close()
        self.assertEqual(self.request(b"{}")[0].status, 200)

    def test_a_client_that_never_reads_is_dropped(self):
        # Large answers to a client that reads none of them: one answer at a time is buffered,
        # and the connection is closed once writing it stalls past the timeout.
        table = "slow-reader-%d" % os.getpid()
        body = json.dumps({"TableName": table, "BillingMode": "PAY_PER_REQUEST",
                           "AttributeDefinitions": [{"AttributeName": "k", "AttributeType": "S"}],
                           "KeySchema": [{"AttributeName": "k", "KeyType": "HASH"}]}).encode()
        self.assertEqual(self.request(body, target="DynamoDB_20120810.CreateTable")[0].status, 200)
        for i in range(40):
            item = json.dumps({"TableName": table, "Item": {"k": {"S": "k%d" % i}, "pad": {"S": "x" * 20000}}})
            self.connection.close()
            self.assertEqual(self.request(item.encode(), target="DynamoDB_20120810.PutItem")[0].status, 200)
        reader = socket.create_connection((self.connection.host, self.connection.port))
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        scan = json.dumps({"TableName": table}).encode()
        request = ("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\n"
                   "X-Amz-Target: DynamoDB_20120810.Scan\r\nAuthorization: %s\r\nX-Amz-Date: %s\r\n"
                   "Content-Length: %d\r\n\r\n" % (AUTH, AMZ_DATE, len(scan))).encode() + scan
        reader.settimeout(1)
        try:
            for _ in range(20):  # pipelined; the server reads the next only once an answer is out
                reader.sendall(request)
        except (OSError, socket.timeout):
            pass
        time.sleep(1.5)  # past the 300 ms timeout: the stalled write has been given up
        self.connection.close()  # idle past the timeout too: a new connection
        self.assertEqual(self.request(b"{}")[0].status, 200)
        reader.settimeout(5)
        received = b""
        try:
            while True:
                chunk = reader.recv(1 << 20)
                if not chunk:
                    break
                received += chunk
        except OSError:
            pass
        # Fewer answers than requests: the connection was dropped, not buffered without end.
        self.assertLess(received.count(b"HTTP/1.1 200"), 20)
        reader.close()


class AnswerBudget(RawHttpTestCase):
    """Issue 34: answers waiting for clients that do not read are bounded all together
    (--answer-buffer-bytes); past the budget the slowest readers (whose answers waited longest)
    are dropped, and the rest are served. Before, 50 such clients held 500 MB."""
    server_args = ("--answer-buffer-bytes", "30000000")

    def test_the_slowest_readers_are_dropped_past_the_budget(self):
        import urllib.request
        table = "budget-%d" % os.getpid()
        body = json.dumps({"TableName": table, "BillingMode": "PAY_PER_REQUEST",
                           "AttributeDefinitions": [{"AttributeName": "k", "AttributeType": "S"}],
                           "KeySchema": [{"AttributeName": "k", "KeyType": "HASH"}]}).encode()
        self.assertEqual(self.request(body, target="DynamoDB_20120810.CreateTable")[0].status, 200)
        for i in range(25):
            item = json.dumps({"TableName": table, "Item": {"k": {"S": "k%d" % i}, "pad": {"S": "x" * 390000}}})
            self.assertEqual(self.request(item.encode(), target="DynamoDB_20120810.PutItem")[0].status, 200)
        batch = json.dumps({"RequestItems": {table: {"Keys": [{"k": {"S": "k%d" % i}} for i in range(25)]}}}).encode()
        request = ("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\n"
                   "X-Amz-Target: DynamoDB_20120810.BatchGetItem\r\nAuthorization: %s\r\nX-Amz-Date: %s\r\n"
                   "Content-Length: %d\r\n\r\n" % (AUTH, AMZ_DATE, len(batch))).encode() + batch
        readers = []
        for _ in range(8):  # ~10 MB answers each, none read: 80 MB against a 30 MB budget
            reader = socket.socket()
            reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            reader.connect((self.connection.host, self.connection.port))
            reader.sendall(request)
            readers.append(reader)
            time.sleep(0.3)  # in order: the first are the slowest
        # The answers are made one after another (slowly under a sanitizer, or on a busy
        # machine): the drops are counted once the last answer has been made.
        deadline = time.monotonic() + 15
        while True:
            with urllib.request.urlopen(self.endpoint + "/metrics", timeout=10) as response:
                metrics = response.read().decode()
            dropped = int(float(metrics.split("\nddbd_connections_dropped_total ")[1].split()[0]))
            if dropped >= 5 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        self.assertGreaterEqual(dropped, 5)
        self.assertLessEqual(dropped, 8)

        def closed(reader):  # read what is there; a dropped connection ends (or was reset)
            reader.settimeout(3)
            try:
                while True:
                    if not reader.recv(1 << 20):
                        return True
            except socket.timeout:
                return False
            except OSError:
                return True
        states = [closed(reader) for reader in readers]
        # The dropped ones are closed, the oldest first (the latest answers may come out in
        # either order: two I/O threads).
        self.assertEqual(sum(states), dropped, states)
        self.assertTrue(all(states[:3]), states)
        self.assertEqual(self.request(b"{}")[0].status, 200)  # the server goes on
        self.assertIn("exceeded --answer-buffer-bytes", self.server.output())
        for reader in readers:
            reader.close()


class ConnectionLimit(RawHttpTestCase):
    server_args = ("--max-connections", "2")

    def test_connections_over_the_limit_wait_for_one_to_close(self):
        first = self.connection  # one of the two, opened by setUp
        self.assertEqual(self.request(b"{}")[0].status, 200)
        second = http.client.HTTPConnection(self.connection.host, self.connection.port, timeout=10)
        second.request("GET", "/")
        self.assertEqual(second.getresponse().read()[:8], b"healthy:")
        waiting = socket.create_connection((self.connection.host, self.connection.port))
        waiting.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        waiting.settimeout(0.5)
        with self.assertRaises(socket.timeout):
            waiting.recv(100)  # queued in the backlog, not served
        second.close()
        waiting.settimeout(5)
        self.assertTrue(waiting.recv(100).startswith(b"HTTP/1.1 200"))
        waiting.close()
        self.assertEqual(self.request(b"{}")[0].status, 200)
        first.close()


class Shutdown(unittest.TestCase):
    def test_sigterm_with_an_idle_connection_open_exits_promptly_and_cleanly(self):
        if os.environ.get("DDBD_ENDPOINT"):
            self.skipTest("needs its own ddbd")
        server = DdbdServer().start()
        idle = socket.create_connection(("127.0.0.1", server.port))
        idle.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        idle.recv(4096)
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        self.assertEqual(server.process.wait(timeout=5), 0)
        self.assertLess(time.monotonic() - started, 2)
        idle.close()
        server.stop()


class CommandLine(unittest.TestCase):
    def run_ddbd(self, *args):
        return subprocess.run([os.environ["DDBD_BIN"], *args], capture_output=True, text=True, timeout=10)

    def setUp(self):
        if not os.environ.get("DDBD_BIN"):
            self.skipTest("needs the ddbd binary")

    def test_help_and_version(self):
        result = self.run_ddbd("--help")
        self.assertEqual(result.returncode, 0)
        self.assertIn("--port N", result.stdout)
        self.assertRegex(self.run_ddbd("-version").stdout,
                         r"^ddbd \d+\.\d+\.\d+ \(git ([0-9a-f]{12}|unknown)\)\n$")

    def test_bad_flags_exit_2_with_one_line(self):
        result = self.run_ddbd("--port", "eighty")
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr, "ddbd: --port: expected an integer from 0 to 65535, got 'eighty'\n")
        result = self.run_ddbd("-bogus")
        self.assertEqual((result.returncode, result.stderr), (2, "ddbd: unknown flag '-bogus' (see --help)\n"))

    def test_the_log_as_json_lines(self):
        # A logged value with a quote, a backslash, a tab and a byte past ASCII stays valid JSON.
        odd = '-Dodd="a\\b\tc\xe9"'
        server = DdbdServer("--log-format", "json", "--log-level", "info", "-inMemory", odd).start()
        time.sleep(0.05)
        try:
            output = [line for line in server.output().splitlines() if line.strip()]
        finally:
            server.stop()
        # DynamoDB Local's banner stays as it prints it (its tooling reads it); all else is JSON.
        banner = [line for line in output if not line.startswith("{")]
        self.assertEqual(banner[0], "Initializing DynamoDB Local with the following configuration:")
        self.assertTrue(all(":\t" in line for line in banner[1:]), banner)
        lines = [json.loads(line) for line in output if line.startswith("{")]
        self.assertTrue(lines)
        for line in lines:
            self.assertEqual(set(line), {"time", "level", "message"})
            self.assertRegex(line["time"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
        messages = [line["message"] for line in lines]
        self.assertTrue(any(m.startswith("ddbd ") and "listening on" in m for m in messages))
        self.assertIn("ignoring Java's arguments of a DynamoDB Local command line: "
                      '-Dodd="a\\b\tc\u00c3\u00a9"', messages)

    def test_subcommands_have_help(self):
        for command, first in (("dump", "Usage: ddbd dump --endpoint URL"),
                               ("load", "Usage: ddbd load --endpoint URL PATH..."),
                               ("health", "Usage: ddbd health [options]")):
            result = self.run_ddbd(command, "--help")
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertTrue(result.stdout.startswith(first), result.stdout)
        # The server's --help lists them, grouped apart from the options.
        self.assertIn("\nCommands (each has --help):\n  health ", self.run_ddbd("--help").stdout)

    def test_localhost_and_ipv6_listen_and_print_as_urls(self):
        for host, url in (("localhost", "http://127.0.0.1:"), ("::1", "http://[::1]:")):
            server = DdbdServer("--host", host, "--log-level", "info").start()
            try:
                time.sleep(0.05)
                self.assertIn("listening on " + url, server.output())
            finally:
                server.stop()

    def test_dynamodb_local_flags_serve(self):
        with tempfile.TemporaryDirectory() as directory:
            server = DdbdServer("-sharedDb", "-disableTelemetry", "-dbPath", directory).start()
            try:
                connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
                connection.request("GET", "/")
                # DynamoDB Local's answer, as its tooling expects (test_dynamodb_local_flags).
                self.assertEqual(connection.getresponse().status, 400)
                self.assertIn("LOCK", os.listdir(directory))  # -dbPath keeps the data there
            finally:
                server.stop()


if __name__ == "__main__":
    unittest.main()
