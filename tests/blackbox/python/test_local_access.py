"""Issue 34, a browser page cannot reach the local database: by default CORS allows loopback
origins and ddbd's own console only (also with DynamoDB Local's flags); --cors (and -cors) opens it
to a list or to '*'. Bound to loopback, a request naming ddbd by any other Host (a page that rebound
its DNS name to 127.0.0.1) is refused with 403 unless --allowed-hosts names it. Under --auth-keys,
/metrics names no table without --metrics-token. Malformed HTTP is answered 400 before closing."""
import http.client
import json
import socket
import unittest
import urllib.request

import boto3

from ddbd_harness import CREDENTIALS, DdbdServer, ServerTestCase, hash_table, unique_name

AUTH = ("AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/dynamodb/aws4_request, "
        "SignedHeaders=host, Signature=00")


def call(port, host=None, origin=None, method="POST", path="/", target="DynamoDB_20120810.ListTables",
         extra=None):
    """One request with the Host and Origin given; returns (status, headers, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", host or "127.0.0.1:%d" % port)
        if origin:
            connection.putheader("Origin", origin)
        body = b"{}" if method == "POST" else b""
        if method == "POST":
            for name, value in (("X-Amz-Target", target), ("Content-Type", "application/x-amz-json-1.0"),
                                ("Authorization", AUTH), ("X-Amz-Date", "20260101T000000Z")):
                connection.putheader(name, value)
        for name, value in (extra or {}).items():
            connection.putheader(name, value)
        connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        return response.status, response, response.read()
    finally:
        connection.close()


def preflight(port, origin, host=None):
    return call(port, host=host, origin=origin, method="OPTIONS", extra={
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type,x-amz-date,x-amz-target"})


def own_server(*args):
    server = DdbdServer(*args).start()
    return server


class Defaults(ServerTestCase):
    def test_cors_allows_loopback_origins_only(self):
        port = self.server.port
        for origin in ("http://localhost:3000", "http://127.0.0.1:5173", "https://[::1]:8443",
                       "http://app.localhost:8080", "http://127.0.0.1:%d" % port):
            status, response, _ = preflight(port, origin)
            self.assertEqual(status, 200)
            self.assertEqual(response.getheader("Access-Control-Allow-Origin"), origin)
            self.assertEqual(response.getheader("Access-Control-Allow-Headers"),
                             "authorization,content-type,x-amz-date,x-amz-target")
        for origin in ("http://evil.example", "https://localhost.evil.example", "null",
                       "http://192.168.1.10:3000"):
            status, response, _ = preflight(port, origin)
            self.assertIsNone(response.getheader("Access-Control-Allow-Origin"), origin)
            self.assertIsNone(response.getheader("Access-Control-Allow-Headers"), origin)
            # The request itself, were a browser to send it, carries no permission to read.
            status, response, _ = call(port, origin=origin)
            self.assertEqual(status, 200)
            self.assertIsNone(response.getheader("Access-Control-Allow-Origin"))

    def test_other_host_names_are_refused(self):
        port = self.server.port
        for host in ("localhost:%d" % port, "127.0.0.1:%d" % port, "[::1]:%d" % port, "localhost"):
            self.assertEqual(call(port, host=host)[0], 200, host)
        for host in ("evil.example:%d" % port, "rebound.example", "127.0.0.1.nip.io:%d" % port):
            status, response, body = call(port, host=host, origin="http://%s" % host)
            self.assertEqual(status, 403, host)
            error = json.loads(body)
            self.assertEqual(error["__type"], "com.amazon.coral.service#AccessDeniedException")
            self.assertIn("this request was sent to '%s'" % host, error["message"])
            self.assertIn("--allowed-hosts", error["message"])
            self.assertEqual(preflight(port, "http://%s" % host, host=host)[0], 403)
            self.assertEqual(call(port, host=host, method="GET", path="/metrics")[0], 403)
            self.assertEqual(call(port, host=host, method="GET", path="/console/")[0], 403)
        # DynamoDB's health check answers by any name.
        status, _, body = call(port, host="dynamodb.us-east-1.amazonaws.com", method="GET")
        self.assertEqual((status, body), (200, b"healthy: dynamodb.us-east-1.amazonaws.com "))

    def test_sdks_pointed_at_localhost_are_served(self):
        ddb = boto3.client("dynamodb", endpoint_url="http://localhost:%d" % self.server.port, **CREDENTIALS)
        name = unique_name("local")
        ddb.create_table(**hash_table(name))
        self.assertIn(name, ddb.list_tables()["TableNames"])

    def test_malformed_http_gets_400_before_the_connection_closes(self):
        for request in (b"GARBAGE\r\n\r\n", b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: x\r\n\r\n",
                        b"POST / HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n",
                        b"POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"):
            with socket.create_connection(("127.0.0.1", self.server.port), timeout=10) as raw:
                raw.sendall(request)
                answer = b""
                while True:
                    chunk = raw.recv(4096)
                    if not chunk:
                        break
                    answer += chunk
                self.assertTrue(answer.startswith(b"HTTP/1.1 400 Bad Request\r\n"), (request, answer))
                self.assertIn(b"Connection: close\r\n", answer)


class Opened(unittest.TestCase):
    def test_cors_lists_and_star_and_dynamodb_local_flags(self):
        cases = [(("--cors", "https://app.example"), "https://app.example", "https://app.example"),
                 (("--cors", "*"), "http://evil.example", "*"),
                 (("-cors", "*", "-inMemory"), "http://evil.example", "*"),
                 (("-inMemory",), "http://evil.example", None),
                 (("-inMemory",), "http://localhost:3000", "http://localhost:3000")]
        for args, origin, allowed in cases:
            server = own_server(*args)
            try:
                _, response, _ = preflight(server.port, origin)
                self.assertEqual(response.getheader("Access-Control-Allow-Origin"), allowed, args)
            finally:
                server.stop()

    def test_allowed_hosts_and_any_address(self):
        server = own_server("--allowed-hosts", "ddb.test:8000,Other.Test")
        try:
            self.assertEqual(call(server.port, host="ddb.test:8000")[0], 200)
            self.assertEqual(call(server.port, host="other.test")[0], 200)
            self.assertEqual(call(server.port, host="evil.example")[0], 403)
        finally:
            server.stop()
        server = own_server("--allowed-hosts", "*")
        try:
            self.assertEqual(call(server.port, host="evil.example")[0], 200)
        finally:
            server.stop()

    def test_metrics_under_auth_keys_name_no_table_without_the_token(self):
        server = own_server("--auth-keys", "AKIDTEST:secret", "--metrics-token", "s3cret-token")
        try:
            ddb = boto3.client("dynamodb", endpoint_url=server.endpoint, **CREDENTIALS)
            name = unique_name("hidden")
            ddb.create_table(**hash_table(name))
            ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})

            def scrape(token=None):
                request = urllib.request.Request(server.endpoint + "/metrics")
                if token:
                    request.add_header("Authorization", "Bearer " + token)
                with urllib.request.urlopen(request, timeout=10) as response:
                    return response.read().decode()
            anonymous = scrape()
            self.assertIn("ddbd_requests_total", anonymous)
            self.assertNotIn(name, anonymous)
            self.assertNotIn("\nddbd_table_items{", anonymous)  # the family is declared, empty
            self.assertNotIn(name, scrape("wrong"))
            self.assertIn('ddbd_table_items{table="%s"} 1' % name, scrape("s3cret-token"))
        finally:
            server.stop()
        # Without keys, anyone who can reach the port may read the names.
        server = own_server()
        try:
            boto3.client("dynamodb", endpoint_url=server.endpoint, **CREDENTIALS).create_table(
                **hash_table("visible-table"))
            with urllib.request.urlopen(server.endpoint + "/metrics", timeout=10) as response:
                self.assertIn('table="visible-table"', response.read().decode())
        finally:
            server.stop()


if __name__ == "__main__":
    unittest.main()
