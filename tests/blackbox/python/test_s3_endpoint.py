"""--s3-endpoint (issue 42) against a small S3 written here that checks every request's Signature
Version 4 with botocore's own S3 signer (an implementation independent of ddbd's): exports and
imports through PutObject, GetObject and ListObjectsV2 in pages of two, keys with spaces, '+' and
'&', a session token and --s3-region; a wrong secret, a missing bucket and a missing key give
DynamoDB's failure codes with S3's words. (tests/blackbox/js/s3_endpoint.check.mjs runs the same
against s3rver, a real S3-compatible server.)"""
import gzip
import hashlib
import http.server
import json
import os
import threading
import unittest
import urllib.parse
import xml.sax.saxutils

import botocore.auth
import botocore.awsrequest
import botocore.credentials

from ddbd_harness import DdbdServer, client, hash_table, unique_name
from test_exports import enable_pitr, wait as wait_export
from test_imports import creation, wait as wait_import

S = lambda v: {"S": v}
KEY, SECRET, TOKEN, REGION = "AKIDS3TEST", "s3-secret", "session-token", "eu-west-3"


class FakeS3(http.server.ThreadingHTTPServer):
    """Buckets in memory; every request's signature recomputed by botocore or refused."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.buckets = {"bucket": {}}
        self.verified = []  # (method, path) of each request whose signature matched
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def endpoint(self):
        return "http://127.0.0.1:%d" % self.server_address[1]


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", content_type="application/xml"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def error(self, status, code, message):
        self.answer(status, ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>%s</Code>"
                             "<Message>%s</Message></Error>" % (code, message)).encode())

    def signed(self, body):
        """Whether botocore, given the headers ddbd signed, computes ddbd's signature."""
        authorization = self.headers.get("Authorization", "")
        parts = dict(p.strip().split("=", 1) for p in authorization.split(" ", 1)[1].split(","))
        access_key, date, region, service, _ = parts["Credential"].split("/")
        names = parts["SignedHeaders"].split(";")
        if (access_key, region, service) != (KEY, REGION, "s3") or "x-amz-security-token" not in names:
            return False
        if self.headers["x-amz-content-sha256"] != hashlib.sha256(body).hexdigest():
            return False
        request = botocore.awsrequest.AWSRequest(
            method=self.command, url=self.server.endpoint + self.path, data=body,
            headers={name: self.headers[name] for name in names if name != "host"})
        request.context["timestamp"] = self.headers["x-amz-date"]
        signer = botocore.auth.S3SigV4Auth(
            botocore.credentials.Credentials(KEY, self.server.secret, TOKEN), "s3", REGION)
        canonical = signer.canonical_request(request)
        expected = signer.signature(signer.string_to_sign(request, canonical), request)
        return expected == parts["Signature"] and date == self.headers["x-amz-date"][:8]

    def handle_one(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        if not self.signed(body):
            return self.error(403, "SignatureDoesNotMatch", "The request signature we calculated does not "
                              "match the signature you provided. Check your key and signing method.")
        self.server.verified.append((self.command, self.path))
        url = urllib.parse.urlsplit(self.path)
        bucket, _, key = urllib.parse.unquote(url.path[1:]).partition("/")
        objects = self.server.buckets.get(bucket)
        if objects is None:
            return self.error(404, "NoSuchBucket", "The specified bucket does not exist")
        if self.command == "PUT":
            objects[key] = body
            return self.answer(200)
        if key:
            if key not in objects:
                return self.error(404, "NoSuchKey", "The specified key does not exist.")
            return self.answer(200, objects[key], "application/octet-stream")
        query = dict(urllib.parse.parse_qsl(url.query))
        assert query.get("list-type") == "2", query
        keys = sorted(k for k in objects if k.startswith(query.get("prefix", "")))
        start = int(query.get("continuation-token", "0"))
        page = keys[start:start + 2]
        more = start + 2 < len(keys)
        contents = "".join("<Contents><Key>%s</Key><Size>%d</Size></Contents>"
                           % (xml.sax.saxutils.escape(k), len(objects[k])) for k in page)
        self.answer(200, ("<ListBucketResult><IsTruncated>%s</IsTruncated>%s%s</ListBucketResult>" % (
            "true" if more else "false", contents,
            "<NextContinuationToken>%d</NextContinuationToken>" % (start + 2) if more else "")).encode())

    do_GET = do_PUT = handle_one


class S3EndpointTest(unittest.TestCase):
    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        self.s3 = FakeS3()
        self.addCleanup(self.s3.server_close)
        self.addCleanup(self.s3.shutdown)

    def start(self, secret):
        self.s3.secret = SECRET
        saved = dict(os.environ)
        os.environ.update(AWS_ACCESS_KEY_ID=KEY, AWS_SECRET_ACCESS_KEY=secret, AWS_SESSION_TOKEN=TOKEN)
        try:
            server = DdbdServer("--s3-endpoint", self.s3.endpoint, "--s3-region", REGION,
                                "--pitr-lag-ms", "0").start()
        finally:
            os.environ.clear()
            os.environ.update(saved)
        self.addCleanup(server.stop)
        return client(server.endpoint)

    def test_exports_and_imports_go_through_signed_requests(self):
        ddb = self.start(SECRET)
        table = unique_name("s3")
        ddb.create_table(**hash_table(table))
        for i in range(20):
            ddb.put_item(TableName=table, Item={"pk": S("k%d" % i), "v": {"N": str(i)}})
        enable_pitr(ddb, table)
        arn = ddb.describe_table(TableName=table)["Table"]["TableArn"]
        done = wait_export(ddb, ddb.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="bucket", S3Prefix="a b+c&d")["ExportDescription"]["ExportArn"])
        self.assertEqual((done["ExportStatus"], done["ItemCount"]), ("COMPLETED", 20), done)
        stored = self.s3.buckets["bucket"]
        self.assertIn(done["ExportManifest"], stored)
        summary = json.loads(stored[done["ExportManifest"]])
        data = [json.loads(line)["Item"] for key, value in stored.items() if "/data/" in key
                for line in gzip.decompress(value).decode().splitlines()]
        self.assertEqual(sorted(item["pk"]["S"] for item in data), sorted("k%d" % i for i in range(20)))
        self.assertEqual(summary["itemCount"], 20)
        self.assertTrue(all(method == "PUT" for method, _ in self.s3.verified))

        # Five objects listed two a page, each read with a signed GET.
        for i in range(5):
            stored["in/put &%d&lt;.json" % i] = json.dumps({"Item": {"pk": S("p%d" % i)}}).encode()
        target = unique_name("s3-imported")
        started = ddb.import_table(S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "in/put &"},
                                   InputFormat="DYNAMODB_JSON", TableCreationParameters=creation(target))
        imported = wait_import(ddb, started["ImportTableDescription"]["ImportArn"])
        self.assertEqual((imported["ImportStatus"], imported["ImportedItemCount"]), ("COMPLETED", 5), imported)
        lists = [path for method, path in self.s3.verified if method == "GET" and "list-type=2" in path]
        self.assertEqual(len(lists), 3)
        self.assertEqual(len([path for method, path in self.s3.verified if method == "GET"]), 8)

    def test_failures_carry_s3s_codes_and_words(self):
        ddb = self.start(SECRET)
        table = unique_name("s3")
        ddb.create_table(**hash_table(table))
        enable_pitr(ddb, table)
        arn = ddb.describe_table(TableName=table)["Table"]["TableArn"]
        done = wait_export(ddb, ddb.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="no-such-bucket")["ExportDescription"]["ExportArn"])
        self.assertEqual((done["ExportStatus"], done["FailureCode"], done["FailureMessage"]),
                         ("FAILED", "S3NoSuchBucket", "The specified bucket does not exist (Service: Amazon S3; "
                                                      "Status Code: 404; Error Code: NoSuchBucket)"))

        wrong = self.start("not-the-secret")
        table = unique_name("s3")
        wrong.create_table(**hash_table(table))
        enable_pitr(wrong, table)
        arn = wrong.describe_table(TableName=table)["Table"]["TableArn"]
        done = wait_export(wrong, wrong.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="bucket")["ExportDescription"]["ExportArn"])
        self.assertEqual((done["ExportStatus"], done["FailureCode"]), ("FAILED", "S3AccessDenied"), done)
        self.assertTrue(done["FailureMessage"].endswith(
            "(Service: Amazon S3; Status Code: 403; Error Code: SignatureDoesNotMatch)"), done)

    def test_an_unreachable_endpoint_names_the_option(self):
        ddb = self.start(SECRET)
        self.s3.shutdown()
        self.s3.socket.close()
        table = unique_name("s3")
        ddb.create_table(**hash_table(table))
        enable_pitr(ddb, table)
        arn = ddb.describe_table(TableName=table)["Table"]["TableArn"]
        done = wait_export(ddb, ddb.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="bucket")["ExportDescription"]["ExportArn"])
        self.assertEqual((done["ExportStatus"], done["FailureCode"]), ("FAILED", "S3Unreachable"), done)
        self.assertIn("--s3-endpoint", done["FailureMessage"])


if __name__ == "__main__":
    unittest.main()
