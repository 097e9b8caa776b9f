"""DynamoDB Local's namespaces with the real binary: started as DynamoDB Local is (a single-dash
flag without -sharedDb) or with --namespaces credentials, each access key id and region has its own
tables and streams, ARNs carry the request's region; -sharedDb (and ddbd's default) share one
database; with --db-path each namespace is kept in its own directory across restarts."""
import os
import tempfile
import unittest

import boto3
from botocore.config import Config

from ddbd_harness import DdbdServer, hash_table

CONFIG = Config(retries={"max_attempts": 1})


def signed_as(endpoint, key, region="us-east-1", service="dynamodb"):
    return boto3.client(service, endpoint_url=endpoint, config=CONFIG, aws_access_key_id=key,
                        aws_secret_access_key="secret", region_name=region)


class Namespaces(unittest.TestCase):
    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        self.servers = []

    def tearDown(self):
        for server in self.servers:
            server.stop()

    def start(self, *args):
        server = DdbdServer(*args).start()
        self.servers.append(server)
        return server.endpoint

    def test_each_key_and_region_has_its_own_tables(self):
        endpoint = self.start("-inMemory")  # as DynamoDB Local is started
        alice = signed_as(endpoint, "alice", "eu-west-1")
        created = alice.create_table(
            StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"},
            **hash_table("Orders"))["TableDescription"]
        self.assertTrue(created["TableArn"].startswith("arn:aws:dynamodb:eu-west-1:"))
        self.assertIn(":eu-west-1:", created["LatestStreamArn"])
        alice.put_item(TableName="Orders", Item={"pk": {"S": "a"}})
        self.assertEqual(alice.list_tables()["TableNames"], ["Orders"])
        bob = signed_as(endpoint, "bob", "eu-west-1")
        self.assertEqual(bob.list_tables()["TableNames"], [])
        with self.assertRaises(bob.exceptions.ResourceNotFoundException):
            bob.get_item(TableName="Orders", Key={"pk": {"S": "a"}})
        # The same key in another region is another database too.
        alice_west = signed_as(endpoint, "alice", "us-west-2")
        self.assertEqual(alice_west.list_tables()["TableNames"], [])
        alice_west.create_table(**hash_table("Orders"))
        self.assertTrue(alice_west.describe_table(TableName="Orders")["Table"]["TableArn"]
                        .startswith("arn:aws:dynamodb:us-west-2:"))
        self.assertNotIn("Item", alice_west.get_item(TableName="Orders", Key={"pk": {"S": "a"}}))
        self.assertIn("Item", alice.get_item(TableName="Orders", Key={"pk": {"S": "a"}}))
        # Streams follow the namespace.
        streams = lambda c: [s["TableName"] for s in c.list_streams()["Streams"]]
        self.assertEqual(streams(signed_as(endpoint, "alice", "eu-west-1", "dynamodbstreams")), ["Orders"])
        self.assertEqual(streams(signed_as(endpoint, "bob", "eu-west-1", "dynamodbstreams")), [])

    def test_shared_db_and_the_default_share_one_database(self):
        for args in (["-sharedDb", "-inMemory"], [], ["-inMemory", "--namespaces", "shared"]):
            endpoint = self.start(*args)
            signed_as(endpoint, "alice", "eu-west-1").create_table(**hash_table("Shared"))
            bob = signed_as(endpoint, "bob", "ap-south-1")
            self.assertEqual(bob.list_tables()["TableNames"], ["Shared"], args)
            # One database: ARNs in the server's region (--region), whoever asks.
            self.assertTrue(bob.describe_table(TableName="Shared")["Table"]["TableArn"]
                            .startswith("arn:aws:dynamodb:us-east-1:"), args)

    def test_namespaces_are_kept_apart_across_restarts(self):
        with tempfile.TemporaryDirectory() as directory:
            endpoint = self.start("--namespaces", "credentials", "--db-path", directory)
            signed_as(endpoint, "alice").create_table(**hash_table("Alpha"))
            signed_as(endpoint, "bob").create_table(**hash_table("Beta"))
            signed_as(endpoint, "bob").put_item(TableName="Beta", Item={"pk": {"S": "kept"}})
            self.servers.pop().stop()
            self.assertEqual(sorted(d for d in os.listdir(directory) if d != "LOCK"),
                             ["alice_us-east-1", "bob_us-east-1"])
            endpoint = self.start("-dbPath", directory)  # DynamoDB Local's way: namespaces too
            self.assertEqual(signed_as(endpoint, "alice").list_tables()["TableNames"], ["Alpha"])
            bob = signed_as(endpoint, "bob")
            self.assertEqual(bob.list_tables()["TableNames"], ["Beta"])
            self.assertIn("Item", bob.get_item(TableName="Beta", Key={"pk": {"S": "kept"}}))
            # A second server on the directory is refused at start.
            with self.assertRaises(RuntimeError) as caught:
                DdbdServer("-dbPath", directory).start()
            self.assertIn("is locked by another process", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
