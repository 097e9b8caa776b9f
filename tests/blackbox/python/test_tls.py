"""HTTPS (issue 22): with --tls-cert and --tls-key the API port speaks TLS 1.2 or newer (boto3
with the test certificate as its CA bundle, keep-alive across requests; TLS 1.1 refused with a
protocol-version alert; plain HTTP to it gets AWS's 400 page); with --tls-port, HTTPS is served there
beside plain HTTP. The certificate is made for the run with openssl."""
import gzip
import http.client
import json
import os
import socket
import ssl
import subprocess
import tempfile
import time
import unittest
import zlib

import boto3
from botocore.config import Config

from ddbd_harness import DdbdServer, ServerTestCase, hash_table, unique_name

CERTS = tempfile.TemporaryDirectory()
CERT = os.path.join(CERTS.name, "cert.pem")
KEY = os.path.join(CERTS.name, "key.pem")
subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", KEY, "-out", CERT,
                "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
               check=True, capture_output=True)


def https_client(port):
    return boto3.client("dynamodb", endpoint_url="https://127.0.0.1:%d" % port, region_name="us-east-1",
                        aws_access_key_id="AKIDTEST", aws_secret_access_key="secret", verify=CERT,
                        config=Config(retries={"max_attempts": 1}))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Https(ServerTestCase):
    server_args = ("--tls-cert", CERT, "--tls-key", KEY)

    def test_boto3_over_https_with_keep_alive(self):
        ddb = https_client(self.server.port)
        name = unique_name("tls")
        ddb.create_table(**hash_table(name))
        for i in range(20):  # one connection, kept alive
            ddb.put_item(TableName=name, Item={"pk": {"S": "k%d" % i}})
        self.assertEqual(ddb.scan(TableName=name)["Count"], 20)
        with self.assertRaises(Exception):  # a client that does not trust the certificate
            boto3.client("dynamodb", endpoint_url="https://127.0.0.1:%d" % self.server.port,
                         region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b",
                         config=Config(retries={"max_attempts": 1})).list_tables()

    def test_health_check_speaks_tls_to_an_https_only_server(self):
        # `ddbd health` with the server's own options: HTTPS only, so it asks over TLS.
        health = subprocess.run([os.environ["DDBD_BIN"], "health", "--port", str(self.server.port),
                                 "--tls-cert", CERT, "--tls-key", KEY],
                                capture_output=True, text=True, timeout=10)
        self.assertEqual((health.returncode, health.stderr), (0, ""))
        # Told plain HTTP, it gets no healthy answer from a TLS port.
        plain = subprocess.run([os.environ["DDBD_BIN"], "health", "--port", str(self.server.port)],
                               capture_output=True, text=True, timeout=10)
        self.assertEqual(plain.returncode, 1)
        self.assertTrue(plain.stderr.startswith("ddbd health: "), plain.stderr)

    def test_answers_larger_than_one_tls_record(self):
        """Issue 34: an answer over ~16 KiB (one TLS record) stalled after its headers. Answers of
        16 KiB, 64 KiB, about 1 MB and about 16 MB, plain and gzip-compressed, on one kept-alive
        connection; each checked against its x-amz-crc32 and its content."""
        name = unique_name("big")
        ddb = https_client(self.server.port)
        ddb.create_table(**hash_table(name))
        sizes = {"16k": 16 * 1024, "64k": 64 * 1024}
        for key, size in sizes.items():
            ddb.put_item(TableName=name, Item={"pk": {"S": key}, "v": {"S": "x" * size}})
        # 48 items of 350 KB: a Scan page stops past 1 MB; BatchGetItem of 47 of them nears 16 MB.
        for i in range(48):
            ddb.put_item(TableName=name, Item={"pk": {"S": "big%02d" % i}, "v": {"S": chr(65 + i % 26) * 350000}})
        context = ssl.create_default_context(cafile=CERT)
        connection = http.client.HTTPSConnection("127.0.0.1", self.server.port, context=context, timeout=20)

        def call(target, request, accept):
            body = json.dumps(request).encode()
            headers = {"X-Amz-Target": "DynamoDB_20120810." + target, "Content-Type": "application/x-amz-json-1.0",
                       "Authorization": "AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/dynamodb/"
                                        "aws4_request, SignedHeaders=host, Signature=00",
                       "X-Amz-Date": "20260101T000000Z"}
            if accept:
                headers["Accept-Encoding"] = accept
            connection.request("POST", "/", body=body, headers=headers)
            response = connection.getresponse()
            raw = response.read()
            self.assertEqual(response.status, 200, raw[:200])
            self.assertEqual(int(response.getheader("x-amz-crc32")), zlib.crc32(raw))
            if response.getheader("Content-Encoding") == "gzip":
                raw = gzip.decompress(raw)
            else:
                self.assertIsNone(accept)
            return len(raw), json.loads(raw)

        for accept in (None, "gzip"):
            for key, size in sizes.items():
                length, answer = call("GetItem", {"TableName": name, "Key": {"pk": {"S": key}}}, accept)
                self.assertEqual(answer["Item"]["v"]["S"], "x" * size)
                self.assertGreater(length, size)
            length, answer = call("Scan", {"TableName": name, "ConsistentRead": True}, accept)
            self.assertGreater(length, 1000000)
            self.assertIn("LastEvaluatedKey", answer)
            keys = [{"pk": {"S": "big%02d" % i}} for i in range(47)]
            length, answer = call("BatchGetItem", {"RequestItems": {name: {"Keys": keys}}}, accept)
            self.assertGreater(length, 15 * 1000 * 1000)
            self.assertEqual(len(answer["Responses"][name]) + len(answer["UnprocessedKeys"].get(name, {}).get("Keys", [])), 47)
            for item in answer["Responses"][name]:
                index = int(item["pk"]["S"][3:])
                self.assertEqual(item["v"]["S"], chr(65 + index % 26) * 350000)
        connection.close()

    def test_tls_1_2_offers_forward_secret_aead_suites_only(self):
        """Issue 34: RSA key exchange and CBC suites (AES128-SHA was accepted) are refused."""
        def handshake(cipher):
            probe = subprocess.run(["openssl", "s_client", "-connect", "127.0.0.1:%d" % self.server.port,
                                    "-tls1_2", "-cipher", cipher], input=b"", capture_output=True, timeout=10)
            return probe.stdout.decode(errors="replace") + probe.stderr.decode(errors="replace")
        for weak in ("AES128-SHA", "AES256-GCM-SHA384", "ECDHE-RSA-AES128-SHA", "ECDHE-RSA-AES256-SHA384"):
            self.assertIn("handshake failure", handshake(weak), weak)
        for strong in ("ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-CHACHA20-POLY1305"):
            self.assertIn("Cipher is %s" % strong, handshake(strong), strong)

    def test_tls_1_1_is_refused_and_plain_http_gets_a_400(self):
        probe = subprocess.run(["openssl", "s_client", "-connect", "127.0.0.1:%d" % self.server.port,
                                "-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"],
                               input=b"", capture_output=True, timeout=10)
        self.assertIn(b"alert protocol version", probe.stdout + probe.stderr)
        modern = subprocess.run(["openssl", "s_client", "-connect", "127.0.0.1:%d" % self.server.port,
                                 "-tls1_2"], input=b"", capture_output=True, timeout=10)
        self.assertIn(b"Protocol  : TLSv1.2", modern.stdout)
        # AWS answers plain HTTP on its HTTPS port with a 400 page (behaviours-to-match A2; this
        # test held that nothing came back until then).
        with socket.create_connection(("127.0.0.1", self.server.port), timeout=5) as plain:
            plain.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            answer = b""
            while True:
                chunk = plain.recv(4096)
                if not chunk:
                    break
                answer += chunk
        self.assertTrue(answer.startswith(b"HTTP/1.1 400 Bad Request\r\n"), answer)
        self.assertIn(b"The plain HTTP request was sent to HTTPS port", answer)
        self.assertNotIn(b"healthy", answer)


class HttpsSlowClients(ServerTestCase):
    """--request-timeout-ms bounds the handshake and each request over TLS as over plain HTTP."""
    server_args = ("--tls-cert", CERT, "--tls-key", KEY, "--request-timeout-ms", "300")

    def assert_closed_soon(self, sock, started):
        sock.settimeout(5)
        try:
            self.assertEqual(sock.recv(100), b"")  # closed by the server
        except (ConnectionResetError, ssl.SSLError):
            pass
        self.assertLess(time.monotonic() - started, 3)

    def test_a_client_that_never_handshakes_is_dropped(self):
        with socket.create_connection(("127.0.0.1", self.server.port)) as silent:
            self.assert_closed_soon(silent, time.monotonic())

    def test_a_stalled_request_over_tls_is_dropped_and_others_are_served(self):
        context = ssl.create_default_context(cafile=CERT)
        with context.wrap_socket(socket.create_connection(("127.0.0.1", self.server.port)),
                                 server_hostname="localhost") as stalled:
            stalled.sendall(b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{")
            started = time.monotonic()
            self.assertEqual(https_client(self.server.port).list_tables()["TableNames"].__class__, list)
            self.assert_closed_soon(stalled, started)


class HttpsBeside(unittest.TestCase):
    def test_https_on_tls_port_and_http_on_port(self):
        if os.environ.get("DDBD_ENDPOINT"):
            self.skipTest("needs its own ddbd")
        tls_port = free_port()
        server = DdbdServer("--tls-cert", CERT, "--tls-key", KEY, "--tls-port", str(tls_port)).start()
        try:
            plain = boto3.client("dynamodb", endpoint_url=server.endpoint, region_name="us-east-1",
                                 aws_access_key_id="AKIDTEST", aws_secret_access_key="secret")
            name = unique_name("both")
            plain.create_table(**hash_table(name))
            self.assertIn(name, https_client(tls_port).list_tables()["TableNames"])
        finally:
            server.stop()

    def test_bad_certificate_files_stop_the_start(self):
        result = subprocess.run([os.environ["DDBD_BIN"], "--port", "0", "--tls-cert", "/nonexistent.pem",
                                 "--tls-key", KEY], capture_output=True, text=True, timeout=10)
        self.assertEqual(result.returncode, 1)
        self.assertIn("ddbd: --tls-cert: cannot use '/nonexistent.pem'", result.stderr)
        result = subprocess.run([os.environ["DDBD_BIN"], "--tls-cert", CERT], capture_output=True, text=True,
                                timeout=10)
        self.assertEqual((result.returncode, result.stderr.strip()),
                         (2, "ddbd: --tls-cert and --tls-key: give both, or neither"))


if __name__ == "__main__":
    unittest.main()
