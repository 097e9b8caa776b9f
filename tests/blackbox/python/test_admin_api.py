"""The admin API under /_ddbd/ (issue 37): off unless --admin-api; then POST /_ddbd/ttl/sweep runs
the Time to Live sweep now and POST /_ddbd/clock moves the server's one clock forward, so an item
whose TTL is an hour ahead is gone, with its stream record, a second later. Who may call it:
callers on this machine, no browser page, and under --auth-keys only signed requests."""
import http.client
import json
import os
import socket
import time
import unittest

import botocore.auth
import botocore.awsrequest
import botocore.credentials

from ddbd_harness import DdbdServer, client, hash_table, unique_name


def call(port, method, path, body=None, headers=None, host="127.0.0.1"):
    connection = http.client.HTTPConnection(host, port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), json.loads(answer.read() or b"null")
    finally:
        connection.close()


class OwnServer(unittest.TestCase):
    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")

    def start(self, *args):
        server = DdbdServer(*args).start()
        self.addCleanup(server.stop)
        return server


class AdminApiOff(OwnServer):
    def test_off_by_default_and_says_how_to_turn_it_on(self):
        server = self.start()
        status, _, body = call(server.port, "POST", "/_ddbd/clock", '{"advanceSeconds": 60}')
        self.assertEqual(status, 404)
        self.assertEqual(body["message"],
                         "the admin API is off: start ddbd with --admin-api to use /_ddbd/clock")
        self.assertEqual(call(server.port, "POST", "/_ddbd/ttl/sweep")[0], 404)
        # The health check is not part of it: always on.
        self.assertEqual(call(server.port, "GET", "/_ddbd/health")[:3:2], (200, {"status": "healthy"}))


class TheClockAndTheSweep(OwnServer):
    def test_an_item_an_hour_from_expiry_is_gone_after_an_hour_of_clock_and_a_sweep(self):
        # No sweeper of its own: only the admin call deletes.
        server = self.start("--admin-api", "--ttl-interval-ms", "0")
        ddb = client(server.endpoint)
        streams = __import__("boto3").client(
            "dynamodbstreams", endpoint_url=server.endpoint, aws_access_key_id="AKIDTEST",
            aws_secret_access_key="secret", region_name="us-east-1")
        table = unique_name("admin")
        stream_arn = ddb.create_table(**hash_table(table), StreamSpecification={
            "StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})[
            "TableDescription"]["LatestStreamArn"]
        ddb.update_time_to_live(TableName=table, TimeToLiveSpecification={
            "AttributeName": "expires", "Enabled": True})
        status, _, before = call(server.port, "GET", "/_ddbd/clock")
        self.assertEqual((status, before["offsetMillis"]), (200, 0))
        self.assertLess(abs(before["epochMillis"] - time.time() * 1000), 60_000)
        hour_ahead = int(time.time()) + 3600
        ddb.put_item(TableName=table, Item={"pk": {"S": "soon"}, "expires": {"N": str(hour_ahead)}})
        ddb.put_item(TableName=table, Item={"pk": {"S": "later"},
                                            "expires": {"N": str(hour_ahead + 86400)}})

        self.assertEqual(call(server.port, "POST", "/_ddbd/ttl/sweep")[2], {"deleted": 0})
        self.assertIn("Item", ddb.get_item(TableName=table, Key={"pk": {"S": "soon"}}))

        status, headers, moved = call(server.port, "POST", "/_ddbd/clock", '{"advanceSeconds": 3601}')
        self.assertEqual(status, 200)
        self.assertEqual(moved["offsetMillis"], 3_601_000)
        self.assertNotIn("Access-Control-Allow-Origin", headers)
        self.assertEqual(call(server.port, "GET", "/_ddbd/clock")[2]["offsetMillis"], 3_601_000)

        self.assertEqual(call(server.port, "POST", "/_ddbd/ttl/sweep")[2], {"deleted": 1})
        self.assertNotIn("Item", ddb.get_item(TableName=table, Key={"pk": {"S": "soon"}}))
        self.assertIn("Item", ddb.get_item(TableName=table, Key={"pk": {"S": "later"}}))

        shard = streams.describe_stream(StreamArn=stream_arn)["StreamDescription"]["Shards"][0]
        iterator = streams.get_shard_iterator(StreamArn=stream_arn, ShardId=shard["ShardId"],
                                              ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        records = streams.get_records(ShardIterator=iterator)["Records"]
        removal = [r for r in records if r["eventName"] == "REMOVE"]
        self.assertEqual(len(removal), 1)
        self.assertEqual(removal[0]["userIdentity"],
                         {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"})
        self.assertEqual(removal[0]["dynamodb"]["Keys"], {"pk": {"S": "soon"}})
        # The record's time is the moved clock's (an hour ahead of the put's).
        put_time = [r for r in records if r["eventName"] == "INSERT"][0]["dynamodb"]["ApproximateCreationDateTime"]
        self.assertGreaterEqual((removal[0]["dynamodb"]["ApproximateCreationDateTime"] - put_time).total_seconds(), 3600)

        # Signed requests still pass: the signature's date check keeps real time.
        self.assertEqual(len(ddb.list_tables()["TableNames"]), 1)

    def test_the_clock_moves_forward_only_and_refuses_what_it_cannot_read(self):
        server = self.start("--admin-api")
        status, _, body = call(server.port, "POST", "/_ddbd/clock", '{"advanceSeconds": -1}')
        self.assertEqual(status, 400)
        self.assertTrue(body["message"].startswith("the clock moves forward only (it is "), body)
        past = int(time.time()) - 3600
        self.assertEqual(call(server.port, "POST", "/_ddbd/clock", '{"epochSeconds": %d}' % past)[0], 400)
        for bad in ("", "[]", '{"advanceSeconds": "60"}', '{"forward": 1}', "{"):
            status, _, body = call(server.port, "POST", "/_ddbd/clock", bad)
            self.assertEqual(status, 400, bad)
            self.assertEqual(body["message"], 'expected {"advanceSeconds": N}, {"advanceMillis": N} '
                                              'or {"epochSeconds": N}')
        status, _, body = call(server.port, "POST", "/_ddbd/clock", '{"advanceSeconds": 1e300}')
        self.assertEqual((status, body["message"]),
                         (400, "the clock moves at most a century ahead of real time in all"))
        target = int(time.time()) + 86400 * 30
        status, _, body = call(server.port, "POST", "/_ddbd/clock", '{"epochSeconds": %d}' % target)
        self.assertEqual(status, 200)
        self.assertLess(abs(body["epochMillis"] - target * 1000), 1000)
        self.assertEqual(call(server.port, "POST", "/_ddbd/clock", '{"advanceMillis": 500}')[0], 200)
        self.assertEqual(call(server.port, "DELETE", "/_ddbd/clock")[0], 405)
        self.assertEqual(call(server.port, "GET", "/_ddbd/ttl/sweep")[0], 405)
        self.assertEqual(call(server.port, "GET", "/_ddbd/other")[0], 404)

    def test_no_browser_page_and_no_other_host_name(self):
        server = self.start("--admin-api")
        status, headers, body = call(server.port, "POST", "/_ddbd/clock", '{"advanceSeconds": 1}',
                                     headers={"Origin": "http://localhost:3000"})
        self.assertEqual(status, 403)
        self.assertNotIn("Access-Control-Allow-Origin", headers)
        self.assertEqual(body["message"], "the admin API answers no browser page "
                                          "(this request came from http://localhost:3000)")
        # A preflight gets no CORS grant either.
        status, headers, _ = call(server.port, "OPTIONS", "/_ddbd/clock", headers={
            "Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST"})
        self.assertEqual(status, 403)
        self.assertNotIn("Access-Control-Allow-Origin", headers)
        # A rebound name (DNS rebinding) is refused by the Host check before anything else.
        status, _, _ = call(server.port, "POST", "/_ddbd/clock", '{"advanceSeconds": 1}',
                            headers={"Host": "attacker.example:%d" % server.port})
        self.assertEqual(status, 403)
        self.assertEqual(call(server.port, "GET", "/_ddbd/clock")[2]["offsetMillis"], 0)


class Namespaces(OwnServer):
    def test_the_sweep_and_the_clock_reach_every_namespace_and_a_data_directory(self):
        # A database per access key id (DynamoDB Local's rule), kept in a directory: one clock
        # and one sweep for all of them.
        with __import__("tempfile").TemporaryDirectory() as directory:
            server = self.start("--admin-api", "--namespaces", "credentials", "--db-path",
                                directory, "--ttl-interval-ms", "0")
            hour_ahead = int(time.time()) + 3600
            for key in ("alice", "bob"):
                ddb = __import__("boto3").client(
                    "dynamodb", endpoint_url=server.endpoint, aws_access_key_id=key,
                    aws_secret_access_key="s", region_name="us-east-1")
                ddb.create_table(**hash_table("Expiring"))
                ddb.update_time_to_live(TableName="Expiring", TimeToLiveSpecification={
                    "AttributeName": "expires", "Enabled": True})
                ddb.put_item(TableName="Expiring",
                             Item={"pk": {"S": key}, "expires": {"N": str(hour_ahead)}})
            self.assertEqual(call(server.port, "POST", "/_ddbd/ttl/sweep")[2], {"deleted": 0})
            call(server.port, "POST", "/_ddbd/clock", '{"advanceSeconds": 3601}')
            self.assertEqual(call(server.port, "POST", "/_ddbd/ttl/sweep")[2], {"deleted": 2})


def other_address():
    """An address of this machine that is not loopback, or None."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # nothing is sent: this picks the outgoing address
        address = probe.getsockname()[0]
        return None if address.startswith("127.") else address
    except OSError:
        return None
    finally:
        probe.close()


class OtherMachines(OwnServer):
    def test_callers_off_this_machine_only_with_any(self):
        address = other_address()
        if address is None:
            self.skipTest("this machine has no address but loopback")
        server = self.start("--host", "0.0.0.0", "--admin-api")
        status, _, body = call(server.port, "GET", "/_ddbd/clock", host=address)
        self.assertEqual(status, 403)
        self.assertEqual(body["message"], "the admin API answers callers on this machine only; "
                                          "start ddbd with --admin-api any to accept others")
        self.assertEqual(call(server.port, "GET", "/_ddbd/clock")[0], 200)
        anyone = self.start("--host", "0.0.0.0", "--admin-api", "any")
        self.assertEqual(call(anyone.port, "GET", "/_ddbd/clock", host=address)[0], 200)


class Signed(OwnServer):
    def signed_headers(self, port, method, path, body, key="AKIDTEST", secret="secret"):
        request = botocore.awsrequest.AWSRequest(
            method=method, url="http://127.0.0.1:%d%s" % (port, path), data=body,
            headers={"Content-Type": "application/json"})
        botocore.auth.SigV4Auth(botocore.credentials.Credentials(key, secret), "dynamodb",
                                "us-east-1").add_auth(request)
        return dict(request.headers.items())

    def test_under_auth_keys_only_a_valid_signature_passes(self):
        server = self.start("--admin-api", "--auth-keys", "AKIDTEST:secret")
        body = '{"advanceSeconds": 60}'
        status, _, answer = call(server.port, "POST", "/_ddbd/clock", body)
        self.assertEqual(status, 403)
        self.assertEqual(answer["message"], "the admin API needs a request signed with one of "
                                            "--auth-keys (Signature Version 4), as DynamoDB "
                                            "requests are")
        wrong = self.signed_headers(server.port, "POST", "/_ddbd/clock", body, secret="wrong")
        status, _, answer = call(server.port, "POST", "/_ddbd/clock", body, headers=wrong)
        self.assertEqual(status, 403)
        self.assertIn("The request signature we calculated does not match", answer["message"])
        # A signature over another body does not carry this one.
        other = self.signed_headers(server.port, "POST", "/_ddbd/clock", '{"advanceSeconds": 1}')
        self.assertEqual(call(server.port, "POST", "/_ddbd/clock", body, headers=other)[0], 403)
        good = self.signed_headers(server.port, "POST", "/_ddbd/clock", body)
        status, _, answer = call(server.port, "POST", "/_ddbd/clock", body, headers=good)
        self.assertEqual((status, answer["offsetMillis"]), (200, 60_000))
        # DynamoDB requests keep passing with the clock a minute ahead: their dates are checked
        # against real time.
        ddb = __import__("boto3").client("dynamodb", endpoint_url=server.endpoint,
                                         aws_access_key_id="AKIDTEST",
                                         aws_secret_access_key="secret", region_name="us-east-1")
        self.assertEqual(ddb.list_tables()["TableNames"], [])


if __name__ == "__main__":
    unittest.main()
