"""Vector indexes and SearchVectors (issue 41), sent raw and signed: boto3 1.43 predates them.

Scores are checked against a plain reference (f32 elements, f64 sums); every write path is checked
to keep the index exact by comparing searches with a recomputation over the items a Scan reads.
"""
import gzip
import http.client
import json
import math
import os
import struct
import time
import unittest
import urllib.error
import urllib.request

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from ddbd_harness import DdbdServer, ServerTestCase, unique_name


def signed(endpoint, operation, body, key="AKIDTEST", secret="secret", gzip_body=False,
           accept=None, context=None):
    """(HTTP status, answer) of a request signed as an SDK signs it; `body` a dict, or the JSON
    text to send as it is. `gzip_body` sends it compressed; `accept` an Accept-Encoding (a gzip
    answer is decompressed); `context` the TLS context of an https endpoint."""
    data = (body if isinstance(body, str) else json.dumps(body)).encode()
    headers = {"Content-Type": "application/x-amz-json-1.0",
               "X-Amz-Target": "DynamoDB_20120810." + operation}
    if gzip_body:
        data = gzip.compress(data)
        headers["Content-Encoding"] = "gzip"
    if accept:
        headers["Accept-Encoding"] = accept
    request = AWSRequest(method="POST", url=endpoint + "/", data=data, headers=headers)
    SigV4Auth(Credentials(key, secret), "dynamodb", "us-east-1").add_auth(request)
    sent = urllib.request.Request(endpoint + "/", data=data, method="POST",
                                  headers=dict(request.headers.items()))
    try:
        with urllib.request.urlopen(sent, timeout=30, context=context) as response:
            raw = response.read()
            if response.headers.get("Content-Encoding") == "gzip":
                raw = gzip.decompress(raw)
            return response.status, json.loads(raw or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def reference_score(function, query, candidate):
    q = [f32(x) for x in query]
    c = [f32(x) for x in candidate]
    if function == "DOT_PRODUCT":
        return sum(a * b for a, b in zip(q, c))
    if function == "EUCLIDEAN":
        return math.sqrt(sum((a - b) ** 2 for a, b in zip(q, c)))
    qq, cc = sum(a * a for a in q), sum(b * b for b in c)
    if qq == 0 or cc == 0:
        return 1.0
    return 1 - sum(a * b for a, b in zip(q, c)) / math.sqrt(qq * cc)


def vector(values):
    return {"L": [{"N": repr(float(x)) if x != int(x) else str(int(x))} for x in values]}


def index(name="emb", dimensions=3, function="COSINE", schema=(), projection="ALL", **extra):
    definition = {"IndexName": name, "VectorAttribute": {"AttributeName": "v"},
                  "Dimensions": dimensions, "DistanceFunction": function,
                  "Projection": {"ProjectionType": projection}, **extra}
    if schema:
        definition["SearchSchema"] = [{"AttributeName": a, "SearchSchemaElementType": t}
                                      for a, t in schema]
    return definition


class VectorCase(ServerTestCase):
    """Raw signed calls, tables with vector indexes, and searches checked against a recomputation."""

    def call(self, operation, body, status=200):
        got, answer = signed(self.endpoint, operation, body)
        self.assertEqual(got, status, answer)
        return answer

    def refused(self, operation, body, kind, message):
        got, answer = signed(self.endpoint, operation, body)
        self.assertEqual((got, answer.get("__type", "").split("#")[-1],
                          answer.get("message", answer.get("Message"))), (400, kind, message))

    def table(self, *indexes, definitions=(), billing="PAY_PER_REQUEST"):
        name = unique_name("vectors")
        body = {"TableName": name, "BillingMode": billing,
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}] +
                [{"AttributeName": a, "AttributeType": t} for a, t in definitions],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                "VectorIndexes": list(indexes)}
        if billing == "PROVISIONED":
            body["ProvisionedThroughput"] = {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}
        return name, body

    def create(self, *indexes, definitions=()):
        name, body = self.table(*indexes, definitions=definitions)
        self.call("CreateTable", body)
        return name

    def search(self, table, query, top_k=10, **extra):
        return self.call("SearchVectors", {"TableName": table, "IndexName": "emb",
                                           "SearchVector": [{"N": str(x)} for x in query],
                                           "TopK": top_k, **extra})

    def expected(self, table, function, query, top_k, keep=lambda item: True):
        """The best top_k by a recomputation over every item a Scan reads; ties in the Scan's
        order (both go by the items' key bytes)."""
        items = self.call("Scan", {"TableName": table})["Items"]
        scored = []
        for item in items:
            if "v" not in item or not keep(item):
                continue
            candidate = [float(x["N"]) for x in item["v"]["L"]]
            scored.append((item["pk"]["S"], reference_score(function, query, candidate)))
        larger = function == "DOT_PRODUCT"
        scored.sort(key=lambda s: -s[1] if larger else s[1])  # stable: ties keep the Scan's order
        return scored[:top_k]

    def assertSearch(self, table, function, query, top_k=10, keep=lambda item: True, **extra):
        answer = self.search(table, query, top_k, **extra)
        got = [(r["Item"]["pk"]["S"], r["Score"]) for r in answer["SearchResults"]]
        want = self.expected(table, function, query, top_k, keep)
        self.assertEqual([k for k, _ in got], [k for k, _ in want])
        for (_, a), (_, b) in zip(got, want):
            self.assertAlmostEqual(a, b, places=9)
        return answer



class VectorSearchTest(VectorCase):
    def test_create_and_describe(self):
        table = self.create(index(schema=[("cat", "HASH"), ("color", "INLINE_FILTER")]),
                            definitions=[("cat", "S"), ("color", "S")])
        described = self.call("DescribeTable", {"TableName": table})["Table"]["VectorIndexes"]
        self.assertEqual(described, [{
            "IndexName": "emb",
            "SearchSchema": [{"AttributeName": "cat", "SearchSchemaElementType": "HASH"},
                             {"AttributeName": "color", "SearchSchemaElementType": "INLINE_FILTER"}],
            "Projection": {"ProjectionType": "ALL"}, "VectorAttribute": {"AttributeName": "v"},
            "Dimensions": 3, "DistanceFunction": "COSINE", "IndexStatus": "ACTIVE",
            "IndexSizeBytes": 0, "ItemCount": 0,
            "IndexArn": "arn:aws:dynamodb:us-east-1:000000000000:table/%s/index/emb" % table}])
        self.call("PutItem", {"TableName": table, "Item": {
            "pk": {"S": "a"}, "cat": {"S": "x"}, "v": vector([1, 2, 3])}})
        self.call("PutItem", {"TableName": table, "Item": {"pk": {"S": "b"}, "v": vector([1, 2, 3])}})
        described = self.call("DescribeTable", {"TableName": table})["Table"]["VectorIndexes"][0]
        # The item without the HASH attribute is not indexed (aws-semantics.md section 11).
        self.assertEqual((described["ItemCount"], described["IndexSizeBytes"]), (1, 12))
        with urllib.request.urlopen(self.endpoint + "/metrics", timeout=10) as response:
            metrics = response.read().decode()
        labels = '{table="%s",index="emb"}' % table
        self.assertIn("ddbd_vector_index_vectors%s 1\n" % labels, metrics)
        self.assertIn("ddbd_vector_index_bytes%s 12\n" % labels, metrics)

    def test_scores_of_each_function(self):
        for function in ("COSINE", "EUCLIDEAN", "DOT_PRODUCT"):
            with self.subTest(function):
                table = self.create(index(function=function, dimensions=4))
                rows = [[1, 0, 0, 0], [0.5, 0.25, -1, 2], [0, 0, 0, 0], [3.3, -7.1, 0.1, 1e-3],
                        [1, 0, 0, 0], [-2, -2, 2, 2], [100, 200, 300, 400]]
                for i, row in enumerate(rows):
                    self.call("PutItem", {"TableName": table,
                                          "Item": {"pk": {"S": "k%02d" % i}, "v": vector(row)}})
                for query in ([1, 0, 0, 0], [0.1, -0.2, 0.3, -0.4], [0, 0, 0, 0]):
                    self.assertSearch(table, function, query, top_k=5)

    def test_every_write_path_keeps_the_index_exact(self):
        table = self.create(index(dimensions=2))
        put = lambda pk, v: {"PutRequest": {"Item": {"pk": {"S": pk}, "v": vector(v)}}}
        self.call("BatchWriteItem", {"RequestItems": {table: [put("b1", [1, 1]), put("b2", [2, -1])]}})
        self.call("PutItem", {"TableName": table, "Item": {"pk": {"S": "p1"}, "v": vector([0, 1])}})
        self.call("UpdateItem", {"TableName": table, "Key": {"pk": {"S": "b2"}},
                                 "UpdateExpression": "SET v = :v",
                                 "ExpressionAttributeValues": {":v": vector([-1, 0])}})
        self.call("UpdateItem", {"TableName": table, "Key": {"pk": {"S": "p1"}},
                                 "UpdateExpression": "SET v[1] = :x",
                                 "ExpressionAttributeValues": {":x": {"N": "-3"}}})
        self.call("TransactWriteItems", {"TransactItems": [
            {"Put": {"TableName": table, "Item": {"pk": {"S": "t1"}, "v": vector([5, 5])}}},
            {"Delete": {"TableName": table, "Key": {"pk": {"S": "b1"}}}}]})
        self.call("ExecuteStatement", {"Statement": "INSERT INTO \"%s\" VALUE {'pk': 's1', 'v': [3, 4]}"
                                                    % table})
        # Not indexed: the wrong length, not numbers, removed by an update.
        self.call("PutItem", {"TableName": table, "Item": {"pk": {"S": "x1"}, "v": vector([1, 2, 3])}})
        self.call("PutItem", {"TableName": table, "Item": {"pk": {"S": "x2"},
                                                           "v": {"L": [{"S": "1"}, {"N": "2"}]}}})
        self.call("UpdateItem", {"TableName": table, "Key": {"pk": {"S": "t1"}},
                                 "UpdateExpression": "REMOVE v"})
        answer = self.assertSearch(table, "COSINE", [1, 0.5], top_k=10,
                                   keep=lambda item: item["pk"]["S"] not in ("x1", "x2"))
        self.assertEqual(sorted(r["Item"]["pk"]["S"] for r in answer["SearchResults"]),
                         ["b2", "p1", "s1"])

    def test_hash_condition_and_inline_filter(self):
        table = self.create(index(dimensions=2, schema=[("cat", "HASH"), ("color", "INLINE_FILTER")]),
                            definitions=[("cat", "S"), ("color", "S")])
        for i in range(30):
            self.call("PutItem", {"TableName": table, "Item": {
                "pk": {"S": "i%02d" % i}, "cat": {"S": "c%d" % (i % 3)},
                "color": {"S": "red" if i % 2 else "blue"}, "v": vector([i, 30 - i])}})
        self.assertSearch(table, "COSINE", [1, 1], top_k=4,
                          keep=lambda item: item["cat"]["S"] == "c1",
                          SearchConditionExpression="cat = :c",
                          ExpressionAttributeValues={":c": {"S": "c1"}})
        self.assertSearch(table, "COSINE", [1, 1], top_k=4,
                          keep=lambda item: item["cat"]["S"] == "c2" and item["color"]["S"] == "red",
                          SearchConditionExpression=":c = #c AND color = :r",
                          ExpressionAttributeNames={"#c": "cat"},
                          ExpressionAttributeValues={":c": {"S": "c2"}, ":r": {"S": "red"}})
        self.refused("SearchVectors", {"TableName": table, "IndexName": "emb", "TopK": 1,
                                       "SearchVector": [{"N": "1"}, {"N": "1"}]},
                     "ValidationException",
                     "Invalid SearchConditionExpression: The HASH attribute cat of vector index "
                     "emb must be given a value")

    def test_projection_and_consumed_capacity(self):
        table = self.create(index(dimensions=2, projection="KEYS_ONLY"))
        self.call("PutItem", {"TableName": table, "Item": {
            "pk": {"S": "a"}, "other": {"S": "o"}, "v": vector([1, 0])}})
        answer = self.search(table, [1, 0], ReturnConsumedCapacity="TOTAL")
        self.assertEqual(answer["SearchResults"], [{"Item": {"pk": {"S": "a"}}, "Score": 0.0}])
        # Bytes only, as AWS reports them: no units, no table name.
        self.assertEqual(list(answer["ConsumedCapacity"]), ["VectorSearchRequestBytes"])
        answer = self.search(table, [1, 0], ProjectionExpression="#o",
                             ExpressionAttributeNames={"#o": "pk"})
        self.assertEqual(answer["SearchResults"][0]["Item"], {"pk": {"S": "a"}})

    def test_backups_and_restores_keep_vector_indexes(self):
        table = self.create(index(dimensions=2, schema=[("cat", "HASH")]),
                            index(name="second", dimensions=2, function="DOT_PRODUCT"),
                            definitions=[("cat", "S")])
        for i in range(6):
            self.call("PutItem", {"TableName": table, "Item": {
                "pk": {"S": "i%d" % i}, "cat": {"S": "c"}, "v": vector([i, 1])}})
        backup = self.call("CreateBackup", {"TableName": table, "BackupName": "vectors"})
        arn = backup["BackupDetails"]["BackupArn"]
        features = self.call("DescribeBackup", {"BackupArn": arn})[
            "BackupDescription"]["SourceTableFeatureDetails"]
        self.assertEqual([v["IndexName"] for v in features["VectorIndexes"]], ["emb", "second"])
        whole = unique_name("restored")
        self.call("RestoreTableFromBackup", {"TargetTableName": whole, "BackupArn": arn})
        restored = self.call("DescribeTable", {"TableName": whole})["Table"]
        self.assertEqual([(v["IndexName"], v["ItemCount"]) for v in restored["VectorIndexes"]],
                         [("emb", 6), ("second", 6)])
        self.assertEqual([a["AttributeName"] for a in restored["AttributeDefinitions"]],
                         ["pk", "cat"])
        self.assertSearch(whole, "COSINE", [1, 0], top_k=3,
                          SearchConditionExpression="cat = :c",
                          ExpressionAttributeValues={":c": {"S": "c"}})
        # VectorIndexOverride keeps only what it names; each must be a source index as it was.
        some = unique_name("restored")
        self.call("RestoreTableFromBackup", {"TargetTableName": some, "BackupArn": arn,
                                             "VectorIndexOverride": [index(name="second", dimensions=2,
                                                                           function="DOT_PRODUCT")]})
        restored = self.call("DescribeTable", {"TableName": some})["Table"]
        self.assertEqual([v["IndexName"] for v in restored["VectorIndexes"]], ["second"])
        self.assertEqual([a["AttributeName"] for a in restored["AttributeDefinitions"]], ["pk"])
        self.refused("RestoreTableFromBackup",
                     {"TargetTableName": unique_name("restored"), "BackupArn": arn,
                      "VectorIndexOverride": [index(name="second", dimensions=3)]},
                     "ValidationException",
                     "Invalid Request: Vector index second does not match a vector index that "
                     "existed in the source table and cannot be created during the restore "
                     "operation")
        self.refused("UpdateTable", {"TableName": table, "BillingMode": "PROVISIONED",
                                     "ProvisionedThroughput": {"ReadCapacityUnits": 1,
                                                               "WriteCapacityUnits": 1}},
                     "ValidationException",
                     "One or more parameter values were invalid: Vector indexes are supported "
                     "only on tables that use on-demand capacity mode (BillingMode "
                     "PAY_PER_REQUEST)")

    def test_update_table_creates_and_deletes_vector_indexes(self):
        name, body = self.table()
        del body["VectorIndexes"]
        self.call("CreateTable", body)
        for i in range(8):
            self.call("PutItem", {"TableName": name, "Item": {
                "pk": {"S": "i%d" % i}, "cat": {"S": "c%d" % (i % 2)}, "v": vector([i, 8 - i])}})
        # Without --table-delay-ms the index is there, filled from the items, at once.
        answer = self.call("UpdateTable", {
            "TableName": name, "AttributeDefinitions": [{"AttributeName": "cat", "AttributeType": "S"}],
            "VectorIndexUpdates": [{"Create": index(dimensions=2, schema=[("cat", "HASH")])}]})
        described = answer["TableDescription"]["VectorIndexes"][0]
        self.assertEqual((described["IndexName"], described["IndexStatus"], described["ItemCount"]),
                         ("emb", "ACTIVE", 8))
        self.assertSearch(name, "COSINE", [1, 1], top_k=3,
                          keep=lambda item: item["cat"]["S"] == "c1",
                          SearchConditionExpression="cat = :c",
                          ExpressionAttributeValues={":c": {"S": "c1"}})
        self.refused("UpdateTable", {"TableName": name, "VectorIndexUpdates": [
            {"Create": index(name="again", dimensions=2)}, {"Delete": {"IndexName": "emb"}}]},
            "LimitExceededException",
            "Subscriber limit exceeded: Only 1 online index can be created or deleted "
            "simultaneously per table")
        self.refused("UpdateTable", {"TableName": name, "VectorIndexUpdates": [
            {"Delete": {"IndexName": "nope"}}]}, "ResourceNotFoundException",
            "Requested resource not found")
        answer = self.call("UpdateTable", {"TableName": name, "VectorIndexUpdates": [
            {"Delete": {"IndexName": "emb"}}]})
        self.assertNotIn("VectorIndexes", answer["TableDescription"])
        # The definition only its search schema used goes with it.
        self.assertEqual([a["AttributeName"] for a in
                          answer["TableDescription"]["AttributeDefinitions"]], ["pk"])
        self.refused("SearchVectors", {"TableName": name, "IndexName": "emb", "TopK": 1,
                                       "SearchVector": [{"N": "1"}, {"N": "1"}]},
                     "ValidationException", "The table does not have the specified index: emb")

    def test_a_table_arn_names_the_table(self):
        table = self.create(index(dimensions=2))
        self.call("PutItem", {"TableName": table, "Item": {"pk": {"S": "a"}, "v": vector([1, 2])}})
        arn = self.call("DescribeTable", {"TableName": table})["Table"]["TableArn"]
        answer = self.call("SearchVectors", {"TableName": arn, "IndexName": "emb", "TopK": 1,
                                             "SearchVector": [{"N": "1"}, {"N": "2"}]})
        [result] = answer["SearchResults"]
        self.assertEqual(result["Item"], {"pk": {"S": "a"}, "v": vector([1, 2])})
        self.assertAlmostEqual(result["Score"], 0.0, places=12)  # 1 - 5/sqrt(5*5) in f64

    def test_answers_stop_at_16_mb(self):
        table = self.create(index(dimensions=2))
        padding = "x" * (300 * 1024)  # ~300 KB items: 16 MB holds 54 of them
        for i in range(60):
            self.call("PutItem", {"TableName": table, "Item": {
                "pk": {"S": "i%02d" % i}, "v": vector([1, i]), "pad": {"S": padding}}})
        answer = self.search(table, [1, 0], top_k=100)
        results = answer["SearchResults"]
        # Each item is 307,200 bytes of padding and a few dozen more: 54 fit in 16 MB, not 55.
        self.assertEqual(len(results), 54)
        # The best first: the nearest to [1, 0] are the smallest i.
        self.assertEqual([r["Item"]["pk"]["S"] for r in results[:3]], ["i00", "i01", "i02"])

    def test_refusals(self):
        table = self.create(index(dimensions=2))
        base = {"TableName": table, "IndexName": "emb", "TopK": 1,
                "SearchVector": [{"N": "1"}, {"N": "1"}]}
        self.refused("SearchVectors", dict(base, SearchVector=[{"N": "1E+39"}, {"N": "0"}]),
                     "ValidationException",
                     "Search vector contains invalid values. All values in the search vector must "
                     "be a 32-bit floating-point number attribute")
        self.refused("SearchVectors", dict(base, SearchVector=[{"S": "1"}, {"N": "0"}]),
                     "ValidationException",
                     "Search vector contains invalid values. All values in the search vector must "
                     "be a 32-bit floating-point number attribute")
        self.refused("SearchVectors", dict(base, SearchConditionExpression="pk > :p",
                                           ExpressionAttributeValues={":p": {"S": "a"}}),
                     "ValidationException",
                     "Invalid SearchConditionExpression: Invalid comparator used in "
                     "SearchConditionExpression")
        # As AWS's newer front end words it (serde): the number, then where its reader stood.
        text = ('{"TableName":"%s","IndexName":"emb","TopK":3.50,'
                '"SearchVector":[{"N":"1"},{"N":"1"}]}' % table)
        self.refused("SearchVectors", text, "SerializationException",
                     "invalid type: floating point `3.5`, expected i32 at line 1 column %d"
                     % (text.index("3.50") + 4))
        self.refused("SearchVectors", '{\n  "TopK": 1e1,\n  "TableName": "%s"\n}' % table,
                     "SerializationException",
                     "invalid type: floating point `10`, expected i32 at line 2 column 13")
        self.refused("SearchVectors", dict(base, TopK=101), "ValidationException",
                     "1 validation error detected: Value '101' at 'topK' failed to satisfy "
                     "constraint: Member must have value less than or equal to 100")
        self.refused("SearchVectors", dict(base, IndexName="nope"), "ValidationException",
                     "The table does not have the specified index: nope")
        self.refused("SearchVectors", dict(base, TableName="missing-table"),
                     "ResourceNotFoundException",
                     "Requested resource not found: Table: missing-table not found")
        name, body = self.table(index(), billing="PROVISIONED")
        self.refused("CreateTable", body, "ValidationException",
                     "One or more parameter values were invalid: Vector indexes are supported "
                     "only on tables that use on-demand capacity mode (BillingMode "
                     "PAY_PER_REQUEST)")
        name, body = self.table(index(schema=[("cat", "HASH")]))
        self.refused("CreateTable", body, "ValidationException",
                     "One or more parameter values were invalid: SearchSchema attribute cat of "
                     "vector index emb is not defined in AttributeDefinitions")
        name, body = self.table(index(dimensions=4097))
        self.refused("CreateTable", body, "ValidationException",
                     "One or more parameter values were invalid: Dimensions of vector index emb "
                     "is 4097, more than the maximum of 4096")


class VectorPointInTimeTest(VectorCase):
    server_args = ("--pitr-lag-ms", "0")

    def test_point_in_time_restore_keeps_vector_indexes(self):
        table = self.create(index(dimensions=2))
        self.call("UpdateContinuousBackups", {
            "TableName": table,
            "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True}})
        for i in range(4):
            self.call("PutItem", {"TableName": table, "Item": {
                "pk": {"S": "i%d" % i}, "v": vector([i, 1])}})
        restored = unique_name("restored")
        self.call("RestoreTableToPointInTime", {"SourceTableName": table,
                                                "TargetTableName": restored,
                                                "UseLatestRestorableTime": True})
        described = self.call("DescribeTable", {"TableName": restored})["Table"]
        self.assertEqual([(v["IndexName"], v["ItemCount"]) for v in described["VectorIndexes"]],
                         [("emb", 4)])
        self.assertSearch(restored, "COSINE", [1, 0], top_k=2)


class VectorIndexRecoveryTest(unittest.TestCase):
    def test_indexes_and_vectors_survive_a_restart(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        import tempfile
        with tempfile.TemporaryDirectory() as directory:
            body = {"TableName": "recovered", "BillingMode": "PAY_PER_REQUEST",
                    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                    "VectorIndexes": [index(dimensions=2, function="EUCLIDEAN")]}
            search = {"TableName": "recovered", "IndexName": "emb", "TopK": 3,
                      "SearchVector": [{"N": "0"}, {"N": "0"}]}
            server = DdbdServer("--db-path", directory).start()
            try:
                self.assertEqual(signed(server.endpoint, "CreateTable", body)[0], 200)
                for i in range(5):
                    signed(server.endpoint, "PutItem", {"TableName": "recovered", "Item": {
                        "pk": {"S": "k%d" % i}, "v": vector([i, i])}})
                signed(server.endpoint, "DeleteItem", {"TableName": "recovered",
                                                       "Key": {"pk": {"S": "k0"}}})
                before = signed(server.endpoint, "SearchVectors", search)[1]
            finally:
                server.stop()
            server = DdbdServer("--db-path", directory).start()
            try:
                after = signed(server.endpoint, "SearchVectors", search)[1]
                described = signed(server.endpoint, "DescribeTable", {"TableName": "recovered"})[1]
            finally:
                server.stop()
        self.assertEqual([r["Item"]["pk"]["S"] for r in after["SearchResults"]], ["k1", "k2", "k3"])
        self.assertEqual(after, before)
        self.assertEqual(described["Table"]["VectorIndexes"][0]["ItemCount"], 4)

    def test_acknowledged_vectors_survive_a_crash(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        import tempfile
        with tempfile.TemporaryDirectory() as directory:
            server = DdbdServer("--db-path", directory).start()
            try:
                signed(server.endpoint, "CreateTable", {
                    "TableName": "crashed", "BillingMode": "PAY_PER_REQUEST",
                    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})
                for i in range(20):
                    signed(server.endpoint, "PutItem", {"TableName": "crashed", "Item": {
                        "pk": {"S": "k%02d" % i}, "v": vector([i, 20 - i, 1])}})
                # An index added to a table with items, then more writes, then no clean stop.
                signed(server.endpoint, "UpdateTable", {"TableName": "crashed", "VectorIndexUpdates": [
                    {"Create": index(dimensions=3, function="DOT_PRODUCT")}]})
                signed(server.endpoint, "PutItem", {"TableName": "crashed", "Item": {
                    "pk": {"S": "late"}, "v": vector([100, 100, 100])}})
                signed(server.endpoint, "DeleteItem", {"TableName": "crashed",
                                                       "Key": {"pk": {"S": "k19"}}})
            finally:
                server.process.kill()  # SIGKILL: no checkpoint, no flush beyond what was acknowledged
                server.process.wait()
                server.stop()
            server = DdbdServer("--db-path", directory).start()
            try:
                answer = signed(server.endpoint, "SearchVectors", {
                    "TableName": "crashed", "IndexName": "emb", "TopK": 3,
                    "SearchVector": [{"N": "0"}, {"N": "1"}, {"N": "0"}]})[1]
                described = signed(server.endpoint, "DescribeTable",
                                   {"TableName": "crashed"})[1]["Table"]
            finally:
                server.stop()
        self.assertEqual([r["Item"]["pk"]["S"] for r in answer["SearchResults"]],
                         ["late", "k00", "k01"])
        self.assertEqual(described["VectorIndexes"][0]["ItemCount"], 20)


class VectorIndexLifecycleTest(unittest.TestCase):
    """With --table-delay-ms, an index added by UpdateTable allocates, then backfills, and is
    searched once ACTIVE; the admin API's clock walks through the phases without waiting."""

    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        self.server = DdbdServer("--table-delay-ms", "60000", "--admin-api").start()
        self.addCleanup(self.server.stop)

    def advance(self, ms):
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
        connection.request("POST", "/_ddbd/clock", body=json.dumps({"advanceMillis": ms}))
        self.assertEqual(connection.getresponse().status, 200)
        connection.close()

    def call(self, operation, body):
        return signed(self.server.endpoint, operation, body)

    def described(self, table):
        answer = self.call("DescribeTable", {"TableName": table})[1]["Table"]
        return answer["TableStatus"], answer.get("VectorIndexes", [])

    def test_time_to_live_deletes_leave_the_index(self):
        table = "expiring"
        self.call("CreateTable", {"TableName": table, "BillingMode": "PAY_PER_REQUEST",
                                  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                                  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                                  "VectorIndexes": [index(dimensions=2)]})
        self.advance(60001)
        self.call("UpdateTimeToLive", {"TableName": table, "TimeToLiveSpecification": {
            "AttributeName": "expires", "Enabled": True}})
        soon = int(time.time()) + 3600
        self.call("PutItem", {"TableName": table, "Item": {"pk": {"S": "old"}, "v": vector([1, 0]),
                                                           "expires": {"N": str(soon)}}})
        self.call("PutItem", {"TableName": table, "Item": {"pk": {"S": "new"}, "v": vector([0, 1])}})
        search = {"TableName": table, "IndexName": "emb", "TopK": 5,
                  "SearchVector": [{"N": "1"}, {"N": "0"}]}
        found = lambda: [r["Item"]["pk"]["S"] for r in self.call("SearchVectors", search)[1]["SearchResults"]]
        self.assertEqual(found(), ["old", "new"])
        self.advance(2 * 3600 * 1000)
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
        connection.request("POST", "/_ddbd/ttl/sweep")
        self.assertEqual(json.loads(connection.getresponse().read()), {"deleted": 1})
        connection.close()
        self.assertEqual(found(), ["new"])

    def test_phases_and_refusals_while_an_index_is_added(self):
        table = "lifecycle"
        self.call("CreateTable", {"TableName": table, "BillingMode": "PAY_PER_REQUEST",
                                  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                                  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})
        self.advance(60001)
        self.call("PutItem", {"TableName": table, "Item": {"pk": {"S": "a"}, "v": vector([1, 2])}})
        status, answer = self.call("UpdateTable", {"TableName": table, "VectorIndexUpdates": [
            {"Create": index(dimensions=2)}]})
        self.assertEqual(status, 200, answer)
        search = {"TableName": table, "IndexName": "emb", "TopK": 1,
                  "SearchVector": [{"N": "1"}, {"N": "2"}]}
        in_use = "Attempt to change a resource which is still in use: "
        # Allocating: CREATING, not yet backfilling.
        table_status, indexes = self.described(table)
        self.assertEqual((table_status, indexes[0]["IndexStatus"], indexes[0].get("Backfilling")),
                         ("UPDATING", "CREATING", None))
        self.assertEqual(self.call("SearchVectors", search)[1]["message"],
                         "Cannot search backfilling vector index: emb")
        self.assertEqual(self.call("UpdateTable", {"TableName": table, "VectorIndexUpdates": [
            {"Delete": {"IndexName": "emb"}}]})[1],
            {"__type": "com.amazonaws.dynamodb.v20120810#ResourceInUseException",
             "message": in_use + "Index creation is in resource allocation phase. Retry deletion "
                                 "during backfilling phase or when the index is active."})
        self.assertEqual(self.call("UpdateTable", {"TableName": table, "VectorIndexUpdates": [
            {"Create": index(name="second", dimensions=2)}]})[1]["__type"].split("#")[1],
            "LimitExceededException")
        self.assertEqual(self.call("DeleteTable", {"TableName": table})[1]["message"],
                         in_use + "Cannot delete table while indexes are being created, updated, "
                                  "or deleted.")
        # Backfilling: shown, still not searchable.
        self.advance(30001)
        table_status, indexes = self.described(table)
        self.assertEqual((indexes[0]["IndexStatus"], indexes[0].get("Backfilling")),
                         ("CREATING", True))
        self.assertEqual(self.call("SearchVectors", search)[1]["message"],
                         "Cannot search backfilling vector index: emb")
        # Done: ACTIVE, no Backfilling, searchable, and the item written before is in it.
        self.advance(30001)
        table_status, indexes = self.described(table)
        self.assertEqual((table_status, indexes[0]["IndexStatus"], "Backfilling" in indexes[0]),
                         ("ACTIVE", "ACTIVE", False))
        status, answer = self.call("SearchVectors", search)
        self.assertEqual([r["Item"]["pk"]["S"] for r in answer["SearchResults"]], ["a"])
        # A deletion during backfilling is taken.
        self.call("UpdateTable", {"TableName": table, "VectorIndexUpdates": [
            {"Create": index(name="second", dimensions=2)}]})
        self.advance(30001)
        status, answer = self.call("UpdateTable", {"TableName": table, "VectorIndexUpdates": [
            {"Delete": {"IndexName": "second"}}]})
        self.assertEqual(status, 200, answer)
        self.assertEqual([(i["IndexName"], i["IndexStatus"]) for i in
                          answer["TableDescription"]["VectorIndexes"]],
                         [("emb", "ACTIVE"), ("second", "DELETING")])


class VectorIndexDumpLoadTest(unittest.TestCase):
    """`ddbd dump` keeps a table's vector indexes in its definition; `load` and `--seed` make them
    again, filled from the items."""

    def test_dump_load_and_seed_keep_vector_indexes(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        import subprocess
        import tempfile
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        env = dict(os.environ, AWS_ACCESS_KEY_ID="AKIDTEST", AWS_SECRET_ACCESS_KEY="secret",
                   AWS_REGION="us-east-1")
        run = lambda *args: subprocess.run([os.environ["DDBD_BIN"], *args], capture_output=True,
                                           text=True, timeout=120, env=env)
        servers = [DdbdServer().start() for _ in range(2)]
        for server in servers:
            self.addCleanup(server.stop)
        first, second = servers
        signed(first.endpoint, "CreateTable", {
            "TableName": "docs", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "lang", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "VectorIndexes": [index(dimensions=3, function="DOT_PRODUCT",
                                    schema=[("lang", "INLINE_FILTER")])]})
        for i in range(5):
            signed(first.endpoint, "PutItem", {"TableName": "docs", "Item": {
                "pk": {"S": "d%d" % i}, "lang": {"S": "en" if i % 2 else "fr"},
                "v": vector([i, 1, -i])}})
        out = os.path.join(directory.name, "dump")
        dumped = run("dump", "--endpoint", first.endpoint, "--out", out)
        self.assertEqual(dumped.returncode, 0, dumped.stderr)
        loaded = run("load", "--endpoint", second.endpoint, out)
        self.assertEqual(loaded.returncode, 0, loaded.stderr)
        seeded = DdbdServer("--seed", out).start()
        self.addCleanup(seeded.stop)
        search = {"TableName": "docs", "IndexName": "emb", "TopK": 2,
                  "SearchVector": [{"N": "1"}, {"N": "0"}, {"N": "0"}],
                  "SearchConditionExpression": "lang = :l",
                  "ExpressionAttributeValues": {":l": {"S": "en"}}}
        expected = signed(first.endpoint, "SearchVectors", search)[1]
        self.assertEqual([r["Item"]["pk"]["S"] for r in expected["SearchResults"]], ["d3", "d1"])
        for server in (second, seeded):
            described = signed(server.endpoint, "DescribeTable", {"TableName": "docs"})[1]["Table"]
            self.assertEqual([(v["IndexName"], v["DistanceFunction"], v["ItemCount"])
                              for v in described["VectorIndexes"]], [("emb", "DOT_PRODUCT", 5)])
            self.assertEqual(signed(server.endpoint, "SearchVectors", search)[1], expected)


class VectorSearchModesTest(unittest.TestCase):
    """Vector search where the combinations live: a database per access key on disk
    (--namespaces credentials --db-path), verified signatures (--auth-keys), gzip both ways, and
    answers over 16 KiB through TLS."""

    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")

    def make_table(self, endpoint, **signing):
        body = {"TableName": "modes", "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                "VectorIndexes": [index(dimensions=2)]}
        self.assertEqual(signed(endpoint, "CreateTable", body, **signing)[0], 200)
        for i in range(40):  # ~1 KB items: an answer of 40 is over 16 KiB
            status, answer = signed(endpoint, "PutItem", {"TableName": "modes", "Item": {
                "pk": {"S": "k%02d" % i}, "v": vector([1, i]), "pad": {"S": "p" * 1000}}},
                gzip_body=i % 2 == 0, **signing)
            self.assertEqual(status, 200, answer)

    def test_namespaces_on_disk_with_verified_signatures_and_gzip(self):
        import tempfile
        search = {"TableName": "modes", "IndexName": "emb", "TopK": 40,
                  "SearchVector": [{"N": "1"}, {"N": "0"}]}
        keys = ("--auth-keys", "AKIDTEST:secret,SECOND:second-secret")
        with tempfile.TemporaryDirectory() as directory:
            server = DdbdServer("--namespaces", "credentials", "--db-path", directory, *keys).start()
            try:
                self.make_table(server.endpoint)
                status, answer = signed(server.endpoint, "SearchVectors", search, gzip_body=True,
                                        accept="gzip")
                self.assertEqual(status, 200, answer)
                self.assertEqual(len(answer["SearchResults"]), 40)
                # Another access key's database has no such table; a wrong secret is refused.
                self.assertEqual(signed(server.endpoint, "SearchVectors", search, key="SECOND",
                                        secret="second-secret")[1]["__type"].split("#")[1],
                                 "ResourceNotFoundException")
                self.assertEqual(signed(server.endpoint, "SearchVectors", search,
                                        secret="wrong")[0], 400)
            finally:
                server.stop()
            server = DdbdServer("--namespaces", "credentials", "--db-path", directory, *keys).start()
            try:
                again = signed(server.endpoint, "SearchVectors", search, accept="gzip")[1]
            finally:
                server.stop()
        self.assertEqual(again, answer)

    def test_answers_over_16_kib_through_tls(self):
        import ssl
        from test_tls import CERT, KEY
        server = DdbdServer("--tls-cert", CERT, "--tls-key", KEY).start()
        self.addCleanup(server.stop)
        endpoint = "https://127.0.0.1:%d" % server.port
        context = ssl.create_default_context(cafile=CERT)
        self.make_table(endpoint, context=context)
        status, answer = signed(endpoint, "SearchVectors", {
            "TableName": "modes", "IndexName": "emb", "TopK": 40,
            "SearchVector": [{"N": "1"}, {"N": "0"}]}, context=context)
        self.assertEqual(status, 200, answer)
        self.assertEqual([r["Item"]["pk"]["S"] for r in answer["SearchResults"]][:3],
                         ["k00", "k01", "k02"])
        self.assertGreater(len(json.dumps(answer)), 16 * 1024)


if __name__ == "__main__":
    unittest.main()
