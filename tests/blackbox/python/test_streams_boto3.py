"""DynamoDB Streams through boto3's `dynamodbstreams` client: a table's changes end to end in every
view type (none for writes that change nothing), DynamoDB's formats (ARNs, labels, shard ids,
sequence numbers, event ids), paging, a consumer that follows shards across rollovers
(--stream-shard-rollover-ms), TTL deletes as REMOVE records with the service identity, disabled
streams and deleted tables still readable, and each error with its type."""
import re
import time
import unittest

import boto3
from botocore.config import Config

from ddbd_harness import CREDENTIALS, ServerTestCase, hash_table, unique_name

S = lambda v: {"S": v}
N = lambda v: {"N": str(v)}
ROLLOVER_S = 0.8


def streams_client(endpoint):
    return boto3.client("dynamodbstreams", endpoint_url=endpoint,
                        config=Config(retries={"max_attempts": 1}), **CREDENTIALS)


class StreamsTestCase(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.streams = streams_client(cls.endpoint)

    def streamed_table(self, view="NEW_AND_OLD_IMAGES", **extra):
        name = unique_name("streamed")
        table = self.ddb.create_table(**hash_table(name, StreamSpecification={
            "StreamEnabled": True, "StreamViewType": view}, **extra))["TableDescription"]
        return name, table["LatestStreamArn"]

    def shards(self, arn):
        return self.streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]

    def read_shard(self, arn, shard_id, kind="TRIM_HORIZON"):
        """Every record of one shard, and whether the shard ended (no NextShardIterator)."""
        iterator = self.streams.get_shard_iterator(StreamArn=arn, ShardId=shard_id,
                                                   ShardIteratorType=kind)["ShardIterator"]
        records = []
        while True:
            page = self.streams.get_records(ShardIterator=iterator)
            records += page["Records"]
            if "NextShardIterator" not in page:
                return records, True
            if not page["Records"]:
                return records, False
            iterator = page["NextShardIterator"]

    def read_all(self, arn):
        records = []
        for shard in self.shards(arn):
            records += self.read_shard(arn, shard["ShardId"])[0]
        return records


class StreamRecords(StreamsTestCase):
    server_args = ("--ttl-interval-ms", "100")

    def write_sequence(self, table):
        self.ddb.put_item(TableName=table, Item={"pk": S("a"), "v": N(1)})
        self.ddb.put_item(TableName=table, Item={"pk": S("a"), "v": N(1)})  # changes nothing
        self.ddb.update_item(TableName=table, Key={"pk": S("a")}, UpdateExpression="SET v = :v",
                             ExpressionAttributeValues={":v": N(2)})
        self.ddb.delete_item(TableName=table, Key={"pk": S("a")})
        self.ddb.delete_item(TableName=table, Key={"pk": S("a")})  # nothing to delete

    def test_every_view_type(self):
        old, new = {"pk": S("a"), "v": N(1)}, {"pk": S("a"), "v": N(2)}
        expected = {
            "KEYS_ONLY": [{}, {}, {}],
            "NEW_IMAGE": [{"NewImage": old}, {"NewImage": new}, {}],
            "OLD_IMAGE": [{}, {"OldImage": old}, {"OldImage": new}],
            "NEW_AND_OLD_IMAGES": [{"NewImage": old}, {"NewImage": new, "OldImage": old}, {"OldImage": new}],
        }
        for view, images in expected.items():
            with self.subTest(view=view):
                table, arn = self.streamed_table(view)
                self.write_sequence(table)
                records = self.read_all(arn)
                self.assertEqual([r["eventName"] for r in records], ["INSERT", "MODIFY", "REMOVE"])
                for record, wanted in zip(records, images):
                    body = record["dynamodb"]
                    self.assertEqual(body["Keys"], {"pk": S("a")})
                    self.assertEqual({k: body[k] for k in ("NewImage", "OldImage") if k in body}, wanted)
                    self.assertEqual(body["StreamViewType"], view)
                    self.assertGreater(body["SizeBytes"], 0)
                    self.assertNotIn("userIdentity", record)
                sequences = [int(r["dynamodb"]["SequenceNumber"]) for r in records]
                self.assertEqual(sequences, sorted(sequences))

    def test_formats(self):
        table, arn = self.streamed_table()
        described = self.ddb.describe_table(TableName=table)["Table"]
        label = described["LatestStreamLabel"]
        self.assertRegex(label, r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$")
        self.assertEqual(arn, "arn:aws:dynamodb:us-east-1:000000000000:table/%s/stream/%s" % (table, label))
        self.ddb.put_item(TableName=table, Item={"pk": S("x")})
        stream = self.streams.describe_stream(StreamArn=arn)["StreamDescription"]
        self.assertEqual((stream["StreamArn"], stream["StreamLabel"], stream["StreamStatus"],
                          stream["StreamViewType"], stream["TableName"]),
                         (arn, label, "ENABLED", "NEW_AND_OLD_IMAGES", table))
        self.assertEqual(stream["KeySchema"], [{"AttributeName": "pk", "KeyType": "HASH"}])
        self.assertIn("CreationRequestDateTime", stream)
        shard = stream["Shards"][0]
        self.assertRegex(shard["ShardId"], r"^shardId-\d{20}-[0-9a-f]{8}$")
        self.assertNotIn("ParentShardId", shard)
        self.assertNotIn("EndingSequenceNumber", shard["SequenceNumberRange"])
        iterator = self.streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                                   ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        self.assertTrue(iterator.startswith(arn + "|1|"))
        self.assertLessEqual(len(iterator), 2048)
        record = self.streams.get_records(ShardIterator=iterator)["Records"][0]
        self.assertRegex(record["eventID"], r"^[0-9a-f]{32}$")
        self.assertEqual((record["eventVersion"], record["eventSource"], record["awsRegion"]),
                         ("1.1", "aws:dynamodb", "us-east-1"))
        self.assertRegex(record["dynamodb"]["SequenceNumber"], r"^\d{21,40}$")
        self.assertLessEqual(int(shard["SequenceNumberRange"]["StartingSequenceNumber"]),
                             int(record["dynamodb"]["SequenceNumber"]))
        created = record["dynamodb"]["ApproximateCreationDateTime"].timestamp()
        self.assertLess(abs(created - time.time()), 5)
        self.assertEqual(created, int(created))  # rounded down to the second

    def test_batches_and_transactions_are_recorded(self):
        table, arn = self.streamed_table("KEYS_ONLY")
        self.ddb.batch_write_item(RequestItems={table: [{"PutRequest": {"Item": {"pk": S(k)}}} for k in "abc"]})
        self.ddb.transact_write_items(TransactItems=[
            {"Delete": {"TableName": table, "Key": {"pk": S("a")}}},
            {"Put": {"TableName": table, "Item": {"pk": S("d")}}}])
        records = self.read_all(arn)
        self.assertEqual([(r["eventName"], r["dynamodb"]["Keys"]["pk"]["S"]) for r in records],
                         [("INSERT", "a"), ("INSERT", "b"), ("INSERT", "c"), ("REMOVE", "a"), ("INSERT", "d")])

    def test_iterator_types_and_paging(self):
        table, arn = self.streamed_table("KEYS_ONLY")
        for i in range(5):
            self.ddb.put_item(TableName=table, Item={"pk": S(str(i))})
        shard = self.shards(arn)[0]["ShardId"]
        get = lambda kind, **extra: self.streams.get_shard_iterator(
            StreamArn=arn, ShardId=shard, ShardIteratorType=kind, **extra)["ShardIterator"]
        first = self.streams.get_records(ShardIterator=get("TRIM_HORIZON"), Limit=2)
        self.assertEqual([r["dynamodb"]["Keys"]["pk"]["S"] for r in first["Records"]], ["0", "1"])
        rest = self.streams.get_records(ShardIterator=first["NextShardIterator"])
        self.assertEqual([r["dynamodb"]["Keys"]["pk"]["S"] for r in rest["Records"]], ["2", "3", "4"])
        second = first["Records"][1]["dynamodb"]["SequenceNumber"]
        at = self.streams.get_records(ShardIterator=get("AT_SEQUENCE_NUMBER", SequenceNumber=second), Limit=1)
        self.assertEqual(at["Records"][0]["dynamodb"]["SequenceNumber"], second)
        after = self.streams.get_records(ShardIterator=get("AFTER_SEQUENCE_NUMBER", SequenceNumber=second), Limit=1)
        self.assertEqual(after["Records"][0]["dynamodb"]["Keys"]["pk"]["S"], "2")
        latest = self.streams.get_records(ShardIterator=get("LATEST"))
        self.assertEqual(latest["Records"], [])  # an empty page is an empty list, not absent
        self.ddb.put_item(TableName=table, Item={"pk": S("5")})
        later = self.streams.get_records(ShardIterator=latest["NextShardIterator"])
        self.assertEqual([r["dynamodb"]["Keys"]["pk"]["S"] for r in later["Records"]], ["5"])

    def test_ttl_deletes_carry_the_service_identity(self):
        table, arn = self.streamed_table("OLD_IMAGE")
        self.ddb.update_time_to_live(TableName=table, TimeToLiveSpecification={"AttributeName": "exp", "Enabled": True})
        self.ddb.put_item(TableName=table, Item={"pk": S("gone"), "exp": N(int(time.time()) - 10)})
        self.ddb.put_item(TableName=table, Item={"pk": S("mine")})
        self.ddb.delete_item(TableName=table, Key={"pk": S("mine")})
        deadline = time.monotonic() + 3
        while "Item" in self.ddb.get_item(TableName=table, Key={"pk": S("gone")}):
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.02)
        removes = [r for r in self.read_all(arn) if r["eventName"] == "REMOVE"]
        by_key = {r["dynamodb"]["Keys"]["pk"]["S"]: r for r in removes}
        self.assertEqual(by_key["gone"]["userIdentity"], {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"})
        self.assertEqual(by_key["gone"]["dynamodb"]["OldImage"]["pk"], S("gone"))
        self.assertNotIn("userIdentity", by_key["mine"])

    def test_list_streams_by_table_and_paged(self):
        names = []
        for _ in range(3):
            names.append(self.streamed_table()[0])
        mine = self.streams.list_streams(TableName=names[1])["Streams"]
        self.assertEqual([s["TableName"] for s in mine], [names[1]])
        seen, start = [], {}
        while True:
            page = self.streams.list_streams(Limit=1, **start)
            seen += [s["StreamArn"] for s in page["Streams"]]
            if "LastEvaluatedStreamArn" not in page:
                break
            start = {"ExclusiveStartStreamArn": page["LastEvaluatedStreamArn"]}
        self.assertEqual(len(seen), len(set(seen)), seen)
        for name in names:
            self.assertTrue(any(":table/%s/stream/" % name in arn for arn in seen), (name, seen))

    def test_no_record_for_a_write_that_only_reorders(self):
        # behaviours-to-match F2, recorded against AWS: map members and set members in another
        # order are the same value; equal numbers written differently too.
        table, arn = self.streamed_table("NEW_AND_OLD_IMAGES")
        self.ddb.put_item(TableName=table, Item={"pk": S("r"), "m": {"M": {"a": {"N": "1"}, "b": {"N": "2"}}},
                                                 "s": {"SS": ["x", "y"]}, "n": {"N": "1"}})
        self.ddb.update_item(TableName=table, Key={"pk": S("r")}, UpdateExpression="SET m = :m, s = :s, n = :n",
                             ExpressionAttributeValues={":m": {"M": {"b": {"N": "2"}, "a": {"N": "1"}}},
                                                        ":s": {"SS": ["y", "x"]}, ":n": {"N": "1.0"}})
        self.ddb.put_item(TableName=table, Item={"n": {"N": "1"}, "s": {"SS": ["y", "x"]}, "pk": S("r"),
                                                 "m": {"M": {"b": {"N": "2"}, "a": {"N": "1"}}}})
        self.ddb.update_item(TableName=table, Key={"pk": S("r")}, UpdateExpression="SET n = :n",
                             ExpressionAttributeValues={":n": {"N": "2"}})
        self.assertEqual([r["eventName"] for r in self.read_all(arn)], ["INSERT", "MODIFY"])

    def test_disabled_and_deleted_streams_stay_readable(self):
        table, arn = self.streamed_table("KEYS_ONLY")
        self.ddb.put_item(TableName=table, Item={"pk": S("1")})
        self.ddb.update_table(TableName=table, StreamSpecification={"StreamEnabled": False})
        self.ddb.put_item(TableName=table, Item={"pk": S("2")})  # not recorded
        stream = self.streams.describe_stream(StreamArn=arn)["StreamDescription"]
        self.assertEqual(stream["StreamStatus"], "DISABLED")
        self.assertIn("EndingSequenceNumber", stream["Shards"][0]["SequenceNumberRange"])
        records, ended = self.read_shard(arn, stream["Shards"][0]["ShardId"])
        self.assertEqual([r["dynamodb"]["Keys"]["pk"]["S"] for r in records], ["1"])
        self.assertTrue(ended)  # a closed shard read to its end has no NextShardIterator
        again = self.ddb.update_table(TableName=table, StreamSpecification={
            "StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})["TableDescription"]
        self.assertNotEqual(again["LatestStreamArn"], arn)
        self.ddb.put_item(TableName=table, Item={"pk": S("3")})
        self.ddb.delete_table(TableName=table)
        self.assertEqual([r["dynamodb"]["Keys"]["pk"]["S"] for r in self.read_all(again["LatestStreamArn"])],
                         ["3"])
        self.assertEqual(len(self.streams.list_streams(TableName=table)["Streams"]), 2)

    def test_errors(self):
        table, arn = self.streamed_table()
        shard = self.shards(arn)[0]["ShardId"]
        missing = arn.replace(table, "no-such-table")
        self.assertError(self.streams.describe_stream, "ResourceNotFoundException",
                         "Requested resource not found: Stream: %s not found" % missing, StreamArn=missing)
        self.assertError(self.streams.get_shard_iterator, "ResourceNotFoundException",
                         "Requested resource not found: Shard does not exist", StreamArn=arn,
                         ShardId="shardId-00000000000000000000-00000000", ShardIteratorType="LATEST")
        for call in (lambda: self.streams.describe_stream(StreamArn="arn:aws:dynamodb:us-east-1:000000000000:table/" + table),
                     lambda: self.streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                                             ShardIteratorType="AT_SEQUENCE_NUMBER"),
                     lambda: self.streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="LATEST",
                                                             SequenceNumber="1" * 21),
                     lambda: self.streams.get_records(ShardIterator=arn + "|1|00")):
            with self.assertRaises(Exception) as caught:
                call()
            self.assertEqual(caught.exception.response["Error"]["Code"], "ValidationException")
        raw = boto3.client("dynamodbstreams", endpoint_url=self.endpoint,
                           config=Config(parameter_validation=False, retries={"max_attempts": 1}), **CREDENTIALS)
        self.assertError(raw.describe_stream, "ValidationException",
                         "1 validation error detected: Value 'short' at 'streamArn' failed to satisfy "
                         "constraint: Member must have length greater than or equal to 37", StreamArn="short")
        self.assertError(raw.get_records, "ValidationException",
                         "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
                         "Member must have value greater than or equal to 1",
                         ShardIterator=arn + "|1|00", Limit=0)
        # A ShardFilter needs both its members (behaviours-to-match F3; texts inferred).
        self.assertError(raw.describe_stream, "ValidationException",
                         "1 validation error detected: Value 'null' at 'shardFilter.type' failed to satisfy "
                         "constraint: Member must be CHILD_SHARDS", StreamArn=arn, ShardFilter={"ShardId": shard})
        self.assertError(raw.describe_stream, "ValidationException",
                         "1 validation error detected: Value 'null' at 'shardFilter.shardId' failed to satisfy "
                         "constraint: Member must not be null", StreamArn=arn, ShardFilter={"Type": "CHILD_SHARDS"})
        with self.assertRaises(Exception) as caught:
            self.streams.list_streams(Limit=101)  # over the documented 100: refused, as measured
        self.assertEqual(caught.exception.response["Error"]["Code"], "ValidationException")
        with self.assertRaises(Exception) as caught:
            self.streams.list_streams(ExclusiveStartStreamArn="x" * 40)
        self.assertEqual(caught.exception.response["Error"]["Code"], "ValidationException")
        # A shard id past the last one pages to nothing.
        last = self.shards(arn)[-1]["ShardId"]
        self.assertEqual(self.streams.describe_stream(StreamArn=arn, ExclusiveStartShardId=last)
                         ["StreamDescription"]["Shards"], [])


class ShardRollover(StreamsTestCase):
    server_args = ("--stream-shard-rollover-ms", str(int(ROLLOVER_S * 1000)))

    def test_a_consumer_follows_lineage_across_rollovers(self):
        table, arn = self.streamed_table("KEYS_ONLY")
        written = []
        for i in range(3):
            for j in range(3):
                key = "%d-%d" % (i, j)
                self.ddb.put_item(TableName=table, Item={"pk": S(key)})
                written.append(key)
            time.sleep(ROLLOVER_S + 0.1)
        shards = self.shards(arn)
        self.assertGreaterEqual(len(shards), 4)
        by_id = {s["ShardId"]: s for s in shards}
        roots = [s for s in shards if s.get("ParentShardId") not in by_id]
        self.assertEqual(len(roots), 1)
        # Follow the lineage as a consumer would: each parent read to its end, then its child.
        read, shard, seen = [], roots[0], 0
        while shard is not None:
            records, ended = self.read_shard(arn, shard["ShardId"])
            read += [r["dynamodb"]["Keys"]["pk"]["S"] for r in records]
            children = self.streams.describe_stream(StreamArn=arn, ShardFilter={
                "Type": "CHILD_SHARDS", "ShardId": shard["ShardId"]})["StreamDescription"]["Shards"]
            if not children:
                self.assertFalse(ended)  # the open shard
                break
            self.assertTrue(ended)
            self.assertEqual(len(children), 1)
            shard = children[0]
            seen += 1
        self.assertEqual(read, written)
        self.assertGreaterEqual(seen, 3)


if __name__ == "__main__":
    unittest.main()
