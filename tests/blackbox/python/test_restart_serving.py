"""A restart serves while it builds: after the port opens, a replayed table's key order and its
indexes are built on a thread of the store's own (GetItem answers from the hash at once; writes,
Query and Scan wait for the order; reads of an index for the index). Clients that write, delete
and read from the first moment get every answer right, and what they wrote is in the table, its
index and the next restart."""
import json
import os
import tempfile
import threading
import unittest

from ddbd_harness import DdbdServer, client

ITEMS = 30000
WRITERS = 3
EACH = 100


def item(i):
    return {"pk": {"S": "user#%06d" % i}, "age": {"N": str(20 + i % 50)},
            "bio": {"S": "x" * 100}}


class RestartServing(unittest.TestCase):
    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        self.directory = tempfile.TemporaryDirectory()
        self.data = os.path.join(self.directory.name, "data")
        seed = os.path.join(self.directory.name, "seed")
        os.makedirs(seed)
        with open(os.path.join(seed, "load.table.json"), "w") as f:
            json.dump({"TableName": "load", "BillingMode": "PAY_PER_REQUEST",
                       "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                                {"AttributeName": "age", "AttributeType": "N"}],
                       "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                       "GlobalSecondaryIndexes": [{
                           "IndexName": "by-age", "Projection": {"ProjectionType": "ALL"},
                           "KeySchema": [{"AttributeName": "age", "KeyType": "HASH"}]}]}, f)
        with open(os.path.join(seed, "load.items.jsonl"), "w") as f:
            for i in range(ITEMS):
                f.write(json.dumps(item(i)) + "\n")
        DdbdServer("--db-path", self.data, "--seed", seed).start().stop()
        self.server = None

    def tearDown(self):
        if self.server:
            self.server.stop()
        self.directory.cleanup()

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

    def test_clients_from_the_first_moment_get_every_answer_right(self):
        self.server = DdbdServer("--db-path", self.data).start()
        endpoint = self.server.endpoint
        failures = []

        def writer(w):
            ddb = client(endpoint)
            try:
                for i in range(EACH):
                    ddb.put_item(TableName="load", Item={"pk": {"S": "new#%d#%03d" % (w, i)},
                                                         "age": {"N": "20"}})
                    ddb.delete_item(TableName="load",
                                    Key={"pk": {"S": "user#%06d" % (w * 1000 + i)}})
            except Exception as error:  # noqa: BLE001 - any failure fails the test
                failures.append(repr(error))

        def reader():
            ddb = client(endpoint)
            try:
                for i in range(EACH):
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

        threads = [threading.Thread(target=writer, args=(w,)) for w in range(WRITERS)]
        threads += [threading.Thread(target=reader) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(failures, [])
        ddb = client(endpoint)
        # Every write landed once: as many items as before (each writer put as many as it
        # deleted), the new ones found by key order and by the index.
        self.assertEqual(self.count(ddb, TableName="load"), ITEMS)
        deleted_of_age_20 = sum(1 for w in range(WRITERS) for i in range(EACH)
                                if (w * 1000 + i) % 50 == 0)
        age_20 = ITEMS // 50 - deleted_of_age_20 + WRITERS * EACH
        self.assertEqual(self.count(ddb, TableName="load", IndexName="by-age",
                                    KeyConditionExpression="age = :a",
                                    ExpressionAttributeValues={":a": {"N": "20"}}), age_20)
        for w in range(WRITERS):
            self.assertEqual(self.count(ddb, TableName="load", KeyConditionExpression="pk = :p",
                                        ExpressionAttributeValues={
                                            ":p": {"S": "new#%d#%03d" % (w, EACH - 1)}}), 1)
        self.server.stop()
        self.server = DdbdServer("--db-path", self.data).start()
        ddb = client(self.server.endpoint)
        self.assertEqual(self.count(ddb, TableName="load"), ITEMS)
        self.assertEqual(self.count(ddb, TableName="load", IndexName="by-age",
                                    KeyConditionExpression="age = :a",
                                    ExpressionAttributeValues={":a": {"N": "20"}}), age_20)
        self.assertNotIn("Item", ddb.get_item(TableName="load",
                                              Key={"pk": {"S": "user#%06d" % 1000}}))


if __name__ == "__main__":
    unittest.main()
