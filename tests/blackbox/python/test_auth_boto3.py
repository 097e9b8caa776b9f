"""Signature Version 4 verification (issue 22): with --auth-keys, boto3 with the right secret is
served and with a wrong secret or an unknown key refused with DynamoDB's errors; requests signed
by hand (by this file's own signer, not botocore's) exercise the canonical form (header case,
spaces, repeated and unsigned headers, query strings) and the clock window both ways. Without
keys, any well-formed signature passes, and a malformed header never does."""
import datetime
import hashlib
import hmac
import http.client
import json
import os
import tempfile
import unittest

import boto3
from botocore.config import Config

from ddbd_harness import ServerTestCase, hash_table, unique_name

EXPECTED = ("The request signature we calculated does not match the signature you provided. Check your AWS "
            "Secret Access Key and signing method. Consult the service documentation for details.")


def amz_date(shift_seconds=0):
    moment = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=shift_seconds)
    return moment.strftime("%Y%m%dT%H%M%SZ")


def signed_headers(host, target, body, key_id, secret, date, extra=(), sign_extra=True, path="/", query="",
                   payload_hash=None):
    """Headers for a POST signed the Signature Version 4 way. `extra` are (name, value) pairs sent
    as given (repeats allowed); they are signed unless sign_extra is false. `payload_hash` replaces
    the body's hash in the canonical request (as X-Amz-Content-Sha256 claims it)."""
    headers = [("Host", host), ("X-Amz-Date", date), ("X-Amz-Target", target),
               ("Content-Type", "application/x-amz-json-1.0")] + list(extra)
    signed = {}
    for name, value in headers:
        if not sign_extra and (name, value) in extra:
            continue
        # Canonical values: trimmed, inner runs of spaces collapsed; repeats joined by commas.
        signed.setdefault(name.lower(), []).append(" ".join(value.split()))
    names = sorted(signed)
    canonical_query = "&".join(sorted(query.split("&"))) if query else ""
    canonical = "\n".join(["POST", path, canonical_query] + ["%s:%s" % (n, ",".join(signed[n])) for n in names] +
                          ["", ";".join(names), payload_hash or hashlib.sha256(body).hexdigest()])
    scope = "%s/us-east-1/dynamodb/aws4_request" % date[:8]
    to_sign = "\n".join(["AWS4-HMAC-SHA256", date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    key = ("AWS4" + secret).encode()
    for part in (date[:8], "us-east-1", "dynamodb", "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    authorization = "AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=%s, Signature=%s" % (
        key_id, scope, ";".join(names), signature)
    return headers + [("Authorization", authorization)]


def presigned_query(host, body, key_id, secret, date, drop=None):
    """The query of a presigned POST /: X-Amz-* parameters, the signature over the rest."""
    from urllib.parse import quote
    scope = "%s/us-east-1/dynamodb/aws4_request" % date[:8]
    parameters = {"X-Amz-Algorithm": "AWS4-HMAC-SHA256", "X-Amz-Credential": "%s/%s" % (key_id, scope),
                  "X-Amz-Date": date, "X-Amz-Expires": "300", "X-Amz-SignedHeaders": "host"}
    encoded = "&".join("%s=%s" % (quote(k, safe="-_.~"), quote(v, safe="-_.~")) for k, v in sorted(parameters.items()))
    canonical = "\n".join(["POST", "/", encoded, "host:%s" % host, "", "host", hashlib.sha256(body).hexdigest()])
    to_sign = "\n".join(["AWS4-HMAC-SHA256", date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    key = ("AWS4" + secret).encode()
    for part in (date[:8], "us-east-1", "dynamodb", "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    parameters["X-Amz-Signature"] = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    if drop:
        del parameters[drop]
    return "&".join("%s=%s" % (quote(k, safe="-_.~"), quote(v, safe="-_.~")) for k, v in parameters.items())


def presigned_headers(host):
    return [("Host", host), ("X-Amz-Target", "DynamoDB_20120810.ListTables"),
            ("Content-Type", "application/x-amz-json-1.0")]


class Verified(ServerTestCase):
    server_args = ("--auth-keys", "AKIDTEST:secret,SECOND:second-secret")

    def client(self, key_id, secret):
        return boto3.client("dynamodb", endpoint_url=self.endpoint, region_name="us-east-1",
                            aws_access_key_id=key_id, aws_secret_access_key=secret,
                            config=Config(retries={"max_attempts": 1}))

    def send(self, headers, body=b"{}", path="/"):
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
        try:
            connection.putrequest("POST", path, skip_host=True, skip_accept_encoding=True)
            for name, value in headers:
                connection.putheader(name, value)
            connection.putheader("Content-Length", str(len(body)))
            connection.endheaders(body)
            response = connection.getresponse()
            return response.status, json.loads(response.read())
        finally:
            connection.close()

    def signed(self, date=None, **kwargs):
        return signed_headers("127.0.0.1:%d" % self.server.port, "DynamoDB_20120810.ListTables", b"{}",
                              kwargs.pop("key_id", "AKIDTEST"), kwargs.pop("secret", "secret"),
                              date or amz_date(), **kwargs)

    def assertRefused(self, answer, code, message):
        status, body = answer
        self.assertEqual(status, 400)
        self.assertEqual((body["__type"], body.get("message")), ("com.amazon.coral.service#" + code, message))

    def test_boto3_with_each_key_and_wrong_ones(self):
        name = unique_name("auth")
        self.ddb.create_table(**hash_table(name))
        self.assertIn(name, self.client("SECOND", "second-secret").list_tables()["TableNames"])
        with self.assertRaises(Exception) as caught:
            self.client("AKIDTEST", "not-the-secret").list_tables()
        self.assertEqual(caught.exception.response["Error"], {"Code": "InvalidSignatureException", "Message": EXPECTED})
        with self.assertRaises(Exception) as caught:
            self.client("NOBODY", "secret").list_tables()
        self.assertEqual(caught.exception.response["Error"],
                         {"Code": "UnrecognizedClientException",
                          "Message": "The security token included in the request is invalid."})

    def test_canonical_form_of_headers_and_query(self):
        self.assertEqual(self.send(self.signed())[0], 200)
        # Spaces around and inside values, upper-case names, a header sent twice, an unsigned one.
        extra = [("X-Custom", "  a   b  "), ("x-custom", "second"), ("X-UPPER", "Value")]
        self.assertEqual(self.send(self.signed(extra=extra))[0], 200)
        unsigned = [("X-Not-Signed", "anything")]
        self.assertEqual(self.send(self.signed(extra=unsigned, sign_extra=False))[0], 200)
        self.assertEqual(self.send(self.signed(path="/", query="b=2&a=1"), path="/?b=2&a=1")[0], 200)
        # A signed header changed on the way is a wrong signature.
        tampered = [(n, "DynamoDB_20120810.DescribeLimits" if n == "X-Amz-Target" else v) for n, v in self.signed()]
        self.assertRefused(self.send(tampered), "InvalidSignatureException", EXPECTED)

    def test_a_body_changed_on_the_way(self):
        self.assertRefused(self.send(self.signed(), body=b'{"Limit":1}'), "InvalidSignatureException", EXPECTED)

    def put_signed(self, table, signed_body, sent_body=None, encoding=None, payload_hash=None, declare=True):
        """A PutItem signed over `signed_body`, sending `sent_body` (default: the same bytes)."""
        extra = []
        if encoding:
            extra.append(("Content-Encoding", encoding))
        if declare:
            extra.append(("X-Amz-Content-Sha256", payload_hash or hashlib.sha256(signed_body).hexdigest()))
        headers = signed_headers("127.0.0.1:%d" % self.server.port, "DynamoDB_20120810.PutItem", signed_body,
                                 "AKIDTEST", "secret", amz_date(), extra=extra, payload_hash=payload_hash)
        return self.send(headers, body=signed_body if sent_body is None else sent_body)

    def item_body(self, table, pk):
        return json.dumps({"TableName": table, "Item": {"pk": {"S": pk}}}).encode()

    def stored(self, table):
        return sorted(i["pk"]["S"] for i in self.ddb.scan(TableName=table, ConsistentRead=True)["Items"])

    def test_the_payload_hash_is_the_body_as_received(self):
        """Issue 34: the canonical request's payload hash is the body's, never the header's claim."""
        table = unique_name("payload")
        self.ddb.create_table(**hash_table(table))
        self.assertEqual(self.put_signed(table, self.item_body(table, "signed"))[0], 200)
        # A captured signed PutItem (X-Amz-Content-Sha256 signed along) replayed with another body.
        replayed = self.put_signed(table, self.item_body(table, "signed"), sent_body=self.item_body(table, "forged"))
        self.assertRefused(replayed, "InvalidSignatureException", EXPECTED)
        # UNSIGNED-PAYLOAD signed as the payload's hash: the body is not covered, so it is refused.
        unsigned = self.put_signed(table, self.item_body(table, "unsigned"), payload_hash="UNSIGNED-PAYLOAD")
        self.assertRefused(unsigned, "InvalidSignatureException", EXPECTED)
        # A declared hash that is the body's in another case or form is still not the body's.
        upper = self.put_signed(table, self.item_body(table, "upper"),
                                payload_hash=hashlib.sha256(self.item_body(table, "upper")).hexdigest().upper())
        self.assertRefused(upper, "InvalidSignatureException", EXPECTED)
        self.assertEqual(self.stored(table), ["signed"])

    def test_compressed_bodies_signed_as_sent(self):
        """The signature covers the bytes on the wire; the body is decoded after it is checked."""
        import gzip
        import zlib
        table = unique_name("compressed")
        self.ddb.create_table(**hash_table(table))
        for encoding, compress, declare in [("gzip", gzip.compress, True), ("gzip", gzip.compress, False),
                                            ("deflate", zlib.compress, True)]:
            pk = "%s-%s" % (encoding, declare)
            sent = compress(self.item_body(table, pk))
            status, body = self.put_signed(table, sent, encoding=encoding, declare=declare)
            self.assertEqual(status, 200, body)
        # Signed over the decoded body instead: not what was sent.
        plain = self.item_body(table, "decoded-signed")
        self.assertRefused(self.put_signed(table, plain, sent_body=gzip.compress(plain), encoding="gzip",
                                           declare=False), "InvalidSignatureException", EXPECTED)
        self.assertEqual(self.stored(table), ["deflate-True", "gzip-False", "gzip-True"])

    def test_boto3_compressing_its_requests(self):
        """botocore compresses no DynamoDB operation by itself; a hook gzips each body before it
        is signed, as a client with request compression on does."""
        import gzip
        table = unique_name("boto3gzip")
        client = self.client("AKIDTEST", "secret")
        client.create_table(**hash_table(table))

        def compress(request, **_):
            request.data = gzip.compress(request.body if isinstance(request.body, bytes) else request.body.encode())
            request.headers["Content-Encoding"] = "gzip"
        client.meta.events.register("before-sign.dynamodb.*", compress)
        client.put_item(TableName=table, Item={"pk": {"S": "zipped"}, "pad": {"S": "x" * 5000}})
        self.assertEqual(client.get_item(TableName=table, Key={"pk": {"S": "zipped"}})["Item"]["pad"]["S"],
                         "x" * 5000)

    def test_clock_skew_both_ways(self):
        self.assertEqual(self.send(self.signed(date=amz_date(-240)))[0], 200)
        self.assertEqual(self.send(self.signed(date=amz_date(840)))[0], 200)
        past = amz_date(-400)
        status, body = self.send(self.signed(date=past))
        self.assertEqual(status, 400)
        self.assertRegex(body["message"], r"^Signature expired: %s is now earlier than \d{8}T\d{6}Z "
                                          r"\(\d{8}T\d{6}Z - 5 min\.\)$" % past)
        future = amz_date(1000)
        status, body = self.send(self.signed(date=future))
        self.assertRegex(body["message"], r"^Signature not yet current: %s is still later than \d{8}T\d{6}Z "
                                          r"\(\d{8}T\d{6}Z \+ 15 min\.\)$" % future)
        self.assertEqual(body["__type"], "com.amazon.coral.service#InvalidSignatureException")
        # The date before the key; components separated by spaces alone are parsed (A3, recorded).
        status, body = self.send(self.signed(date=past, key_id="UNKNOWNKEY"))
        self.assertRegex(body["message"], r"^Signature expired: %s " % past)
        spaced = [(name, value.replace(", ", " ") if name == "Authorization" else value)
                  for name, value in self.signed()]
        self.assertEqual(self.send(spaced)[0], 200)

    def test_missing_and_malformed_headers(self):
        headers = [h for h in self.signed() if h[0] != "Authorization"]
        self.assertRefused(self.send(headers), "MissingAuthenticationTokenException",
                           "Request is missing Authentication Token")
        partial = "AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/dynamodb/aws4_request"
        self.assertRefused(self.send(headers + [("Authorization", partial)]), "IncompleteSignatureException",
                           "Authorization header requires 'Signature' parameter. Authorization header requires "
                           "'SignedHeaders' parameter. Authorization=" + partial)


    def test_presigned_requests(self):
        host = "127.0.0.1:%d" % self.server.port
        query = presigned_query(host, b"{}", "AKIDTEST", "secret", amz_date())
        self.assertEqual(self.send(presigned_headers(host), path="/?" + query)[0], 200)
        wrong = presigned_query(host, b"{}", "AKIDTEST", "other", amz_date())
        self.assertRefused(self.send(presigned_headers(host), path="/?" + wrong), "InvalidSignatureException",
                           EXPECTED)
        partial = presigned_query(host, b"{}", "AKIDTEST", "secret", amz_date(), drop="X-Amz-SignedHeaders")
        self.assertRefused(self.send(presigned_headers(host), path="/?" + partial), "IncompleteSignatureException",
                           "AWS query-string parameters must include 'X-Amz-Algorithm', 'X-Amz-Credential', "
                           "'X-Amz-Signature', 'X-Amz-SignedHeaders', 'X-Amz-Date'. Re-examine the query-string "
                           "parameters.")
        self.assertRefused(self.send(self.signed(), path="/?" + query), "InvalidSignatureException",
                           "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP "
                           "header.")


class KeysFile(ServerTestCase):
    """--auth-keys-file: one KEYID:SECRET a line, with comments."""
    keys = tempfile.NamedTemporaryFile("w", suffix=".keys", delete=False)
    keys.write("# test keys\nFROMFILE:file-secret\n\n")
    keys.close()
    server_args = ("--auth-keys-file", keys.name)

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        os.unlink(cls.keys.name)

    def test_keys_from_a_file(self):
        good = boto3.client("dynamodb", endpoint_url=self.endpoint, region_name="us-east-1",
                            aws_access_key_id="FROMFILE", aws_secret_access_key="file-secret")
        self.assertIn("TableNames", good.list_tables())
        with self.assertRaises(Exception) as caught:
            self.ddb.list_tables()  # AKIDTEST is not in the file
        self.assertEqual(caught.exception.response["Error"]["Code"], "UnrecognizedClientException")


class NotVerified(ServerTestCase):
    def test_a_presigned_request_is_authenticated_without_keys(self):
        host = self.endpoint[len("http://"):]
        connection = http.client.HTTPConnection(host, timeout=10)
        query = presigned_query(host, b"{}", "ANYONE", "whatever", amz_date())
        connection.request("POST", "/?" + query, body=b"{}", headers=dict(presigned_headers(host)))
        response = connection.getresponse()
        self.assertEqual(response.status, 200, response.read())
        connection.close()

    def test_any_well_formed_signature_passes_without_keys(self):
        anyone = boto3.client("dynamodb", endpoint_url=self.endpoint, region_name="us-east-1",
                              aws_access_key_id="ANYONE", aws_secret_access_key="whatever")
        self.assertIn("TableNames", anyone.list_tables())


if __name__ == "__main__":
    unittest.main()
