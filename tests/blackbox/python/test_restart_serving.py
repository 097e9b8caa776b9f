"""A restart serves while it builds: after the port opens, a replayed table's key order and its
indexes are built on a thread of the store's own (GetItem answers from the hash at once; writes,
Query and Scan wait for the order; reads of an index and writes for the index). Requests sent
from the first moment get every answer right, and what they wrote is in the table, its index and
the next restart."""
import http.client
import json
import os
import tempfile
import threading
import unittest

from ddbd_harness import DdbdServer, client


def item(i):
    return {"pk": {"S": "user#%06d" % i}, "age": {"N": str(20 + i % 50)},
            "bio": {"S": "x" * 100}}


class RestartServing(unittest.TestCase):
    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        self.directory = tempfile.TemporaryDirectory()
        self.data = os.path.join(self.directory.name, "data")
        self.server = None

    def tearDown(self):
        if self.server:
            self.server.stop()
        self.directory.cleanup()

    def seed(self, table, index, attribute, items):
        """A --db-path directory holding `items` in `table` (keyed by pk, with an ALL-projection
        global index `index` on number `attribute`), written by a ddbd that has stopped: the
        next start replays it."""
        seed = os.path.join(self.directory.name, "seed")
        os.makedirs(seed)
        with open(os.path.join(seed, table + ".table.json"), "w") as f:
            json.dump({"TableName": table, "BillingMode": "PAY_PER_REQUEST",
                       "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                                {"AttributeName": attribute, "AttributeType": "N"}],
                       "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                       "GlobalSecondaryIndexes": [{
                           "IndexName": index, "Projection": {"ProjectionType": "ALL"},
                           "KeySchema": [{"AttributeName": attribute, "KeyType": "HASH"}]}]}, f)
        with open(os.path.join(seed, table + ".items.jsonl"), "w") as f:
            for each in items:
                f.write(json.dumps(each) + "\n")
        DdbdServer("--db-path", self.data, "--seed", seed).start().stop()

    def count(self, ddb, **query):
        total, start = 0, None
        while True:
            args = dict(query, Select="COUNT")
            if start:
                args["ExclusiveStartKey"] = start
            page = ddb.query(**args) if "KeyConditionExpression" in query else ddb.scan(**args)
            total += page["Count"]
            start = page.get("LastEvaluatedKey")
            if not start:
                return total

    def test_right_after_a_restart_an_index_is_whole_when_read_and_takes_writes(self):
        # The first requests go out together the moment the port opens: item reads answer at
        # once, index reads and writes wait until the index is whole.
        count = 30000
        self.seed("Items", "by-g", "g", ({"pk": {"S": "p%06d" % i}, "g": {"N": str(i % 3)},
                                          "pad": {"S": "x" * 50}} for i in range(count)))
        self.server = DdbdServer("--db-path", self.data).start()
        headers = {"Content-Type": "application/x-amz-json-1.0",
                   "Authorization": "AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/dynamodb/aws4_request, "
                                    "SignedHeaders=host, Signature=0",
                   "X-Amz-Date": "20260101T000000Z"}

        def call(operation, body):
            connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=60)
            connection.request("POST", "/", json.dumps(body),
                               dict(headers, **{"X-Amz-Target": "DynamoDB_20120810." + operation}))
            response = connection.getresponse()
            return response.status, json.loads(response.read())

        def indexed(g):
            total, start_key = 0, None
            while True:
                query = {"TableName": "Items", "IndexName": "by-g", "Select": "COUNT",
                         "KeyConditionExpression": "g = :g", "ExpressionAttributeValues": {":g": {"N": g}}}
                if start_key:
                    query["ExclusiveStartKey"] = start_key
                status, body = call("Query", query)
                self.assertEqual(status, 200, body)
                total += body["Count"]
                start_key = body.get("LastEvaluatedKey")
                if not start_key:
                    return total

        results = {}
        calls = {
            "query": lambda: indexed("1"),
            "put": lambda: call("PutItem", {"TableName": "Items", "Item": {"pk": {"S": "new"}, "g": {"N": "7"}}}),
            "get": lambda: call("GetItem", {"TableName": "Items", "Key": {"pk": {"S": "p000004"}}}),
            "describe": lambda: call("DescribeTable", {"TableName": "Items"}),
        }
        threads = [threading.Thread(target=lambda name=name, f=f: results.__setitem__(name, f()))
                   for name, f in calls.items()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(results["query"], count // 3)
        self.assertEqual(results["put"][0], 200)
        self.assertEqual(results["get"], (200, {"Item": {"pk": {"S": "p000004"}, "g": {"N": "1"},
                                                         "pad": {"S": "x" * 50}}}))
        index = results["describe"][1]["Table"]["GlobalSecondaryIndexes"][0]
        self.assertIn(index["ItemCount"], (count, count + 1))  # the put's entry, if it came first
        # The write made its entry in the whole index.
        self.assertEqual(indexed("7"), 1)
        self.assertEqual(indexed("0") + indexed("1") + indexed("2"), count)

    def test_clients_from_the_first_moment_get_every_answer_right(self):
        items, writers, each = 30000, 3, 100
        self.seed("load", "by-age", "age", (item(i) for i in range(items)))
        self.server = DdbdServer("--db-path", self.data).start()
        endpoint = self.server.endpoint
        failures = []

        def writer(w):
            ddb = client(endpoint)
            try:
                for i in range(each):
                    ddb.put_item(TableName="load", Item={"pk": {"S": "new#%d#%03d" % (w, i)},
                                                         "age": {"N": "20"}})
                    ddb.delete_item(TableName="load",
                                    Key={"pk": {"S": "user#%06d" % (w * 1000 + i)}})
            except Exception as error:  # noqa: BLE001 - any failure fails the test
                failures.append(repr(error))

        def reader():
            ddb = client(endpoint)
            try:
                for i in range(each):
                    key = {"pk": {"S": "user#%06d" % (20000 + i)}}
                    got = ddb.get_item(TableName="load", Key=key)
                    if got.get("Item") != item(20000 + i):
                        failures.append("GetItem %d: %s" % (i, got.get("Item")))
                    page = ddb.query(TableName="load", KeyConditionExpression="pk = :p",
                                     ExpressionAttributeValues={":p": key["pk"]})
                    if page["Items"] != [item(20000 + i)]:
                        failures.append("Query %d: %s" % (i, page["Items"]))
            except Exception as error:  # noqa: BLE001
                failures.append(repr(error))

        threads = [threading.Thread(target=writer, args=(w,)) for w in range(writers)]
        threads += [threading.Thread(target=reader) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(failures, [])
        ddb = client(endpoint)
        # Every write landed once: as many items as before (each writer put as many as it
        # deleted), the new ones found by key order and by the index.
        self.assertEqual(self.count(ddb, TableName="load"), items)
        deleted_of_age_20 = sum(1 for w in range(writers) for i in range(each)
                                if (w * 1000 + i) % 50 == 0)
        age_20 = items // 50 - deleted_of_age_20 + writers * each
        by_age_20 = dict(TableName="load", IndexName="by-age", KeyConditionExpression="age = :a",
                         ExpressionAttributeValues={":a": {"N": "20"}})
        self.assertEqual(self.count(ddb, **by_age_20), age_20)
        for w in range(writers):
            self.assertEqual(self.count(ddb, TableName="load", KeyConditionExpression="pk = :p",
                                        ExpressionAttributeValues={
                                            ":p": {"S": "new#%d#%03d" % (w, each - 1)}}), 1)
        self.server.stop()
        self.server = DdbdServer("--db-path", self.data).start()
        ddb = client(self.server.endpoint)
        self.assertEqual(self.count(ddb, TableName="load"), items)
        self.assertEqual(self.count(ddb, **by_age_20), age_20)
        self.assertNotIn("Item", ddb.get_item(TableName="load",
                                              Key={"pk": {"S": "user#%06d" % 1000}}))


if __name__ == "__main__":
    unittest.main()
