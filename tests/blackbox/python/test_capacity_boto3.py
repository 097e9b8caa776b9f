"""ReturnConsumedCapacity and ReturnItemCollectionMetrics through boto3, with DynamoDB's exact
figures (../shared/aws-semantics.md section 1): reads per 4 KB, writes per 1 KB, the larger of the
old and new item, index costs per changed entry, one entry per table for batches."""
import unittest

from ddbd_harness import ServerTestCase, composite_table, hash_table, unique_name

S = lambda v: {"S": v}
N = lambda v: {"N": str(v)}


def sized(pk, size, **extra):
    """An item {pk, d} of exactly `size` bytes (names count: 'pk' + pk + 'd' + d)."""
    filler = size - (2 + len(pk) + 1)
    item = {"pk": S(pk), "d": S("x" * filler)}
    item.update(extra)
    return item


class Capacity(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.plain = unique_name("cap")
        cls.ddb.create_table(**hash_table(cls.plain))
        cls.other = unique_name("cap-other")
        cls.ddb.create_table(**hash_table(cls.other))
        cls.indexed = unique_name("cap-idx")
        cls.ddb.create_table(
            TableName=cls.indexed, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": n, "AttributeType": t} for n, t in
                                  [("pk", "S"), ("sk", "S"), ("status", "S"), ("amount", "N")]],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
            GlobalSecondaryIndexes=[
                {"IndexName": "by-status", "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["note"]},
                 "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}]}],
            LocalSecondaryIndexes=[
                {"IndexName": "by-amount", "Projection": {"ProjectionType": "KEYS_ONLY"},
                 "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                               {"AttributeName": "amount", "KeyType": "RANGE"}]}])

    def put(self, item, table=None, **kwargs):
        return self.ddb.put_item(TableName=table or self.plain, Item=item, ReturnConsumedCapacity="TOTAL", **kwargs)

    def units(self, answer):
        return answer["ConsumedCapacity"]["CapacityUnits"]

    def test_total_shape_is_table_name_and_units_only(self):
        answer = self.put(sized("shape", 10))
        self.assertEqual(answer["ConsumedCapacity"], {"TableName": self.plain, "CapacityUnits": 1.0})

    def test_none_and_absent_return_nothing(self):
        answer = self.ddb.put_item(TableName=self.plain, Item=sized("none", 10), ReturnConsumedCapacity="NONE")
        self.assertNotIn("ConsumedCapacity", answer)
        self.assertNotIn("ConsumedCapacity", self.ddb.get_item(TableName=self.plain, Key={"pk": S("none")}))

    def test_writes_are_counted_per_kilobyte(self):
        self.assertEqual(self.units(self.put(sized("w1024", 1024))), 1.0)
        self.assertEqual(self.units(self.put(sized("w1025", 1025))), 2.0)
        self.assertEqual(self.units(self.put(sized("w3000", 3000))), 3.0)
        # Long attribute names count toward the size.
        name = "n" * 1100
        self.assertEqual(self.units(self.put({"pk": S("longname"), name: S("v")})), 2.0)

    def test_an_overwrite_costs_the_larger_of_the_two_items(self):
        self.put(sized("over", 2049))
        self.assertEqual(self.units(self.put(sized("over", 10))), 3.0)
        self.assertEqual(self.units(self.put(sized("over", 10))), 1.0)

    def test_delete_costs_the_item_or_one(self):
        self.put(sized("del", 2000))
        answer = self.ddb.delete_item(TableName=self.plain, Key={"pk": S("del")}, ReturnConsumedCapacity="TOTAL")
        self.assertEqual(self.units(answer), 2.0)
        answer = self.ddb.delete_item(TableName=self.plain, Key={"pk": S("del")}, ReturnConsumedCapacity="TOTAL")
        self.assertEqual(self.units(answer), 1.0)

    def test_update_costs_the_larger_image(self):
        self.put(sized("upd", 1000))
        answer = self.ddb.update_item(
            TableName=self.plain, Key={"pk": S("upd")}, UpdateExpression="SET e = :e",
            ExpressionAttributeValues={":e": S("y" * 100)}, ReturnConsumedCapacity="TOTAL")
        self.assertEqual(self.units(answer), 2.0)  # 1000 -> 1101 bytes
        answer = self.ddb.update_item(
            TableName=self.plain, Key={"pk": S("upd")}, UpdateExpression="REMOVE e",
            ReturnConsumedCapacity="TOTAL", ReturnValues="ALL_OLD")
        self.assertEqual(self.units(answer), 2.0)  # the old image
        self.assertIn("e", answer["Attributes"])

    def test_get_item_is_counted_per_4_kb_and_halved_when_eventual(self):
        self.put(sized("r4096", 4096))
        self.put(sized("r4097", 4097))
        for key, consistent, expected in [("r4096", True, 1.0), ("r4096", False, 0.5), ("r4097", True, 2.0),
                                          ("r4097", False, 1.0), ("missing", True, 1.0), ("missing", False, 0.5)]:
            answer = self.ddb.get_item(TableName=self.plain, Key={"pk": S(key)}, ConsistentRead=consistent,
                                       ReturnConsumedCapacity="TOTAL")
            self.assertEqual(answer["ConsumedCapacity"], {"TableName": self.plain, "CapacityUnits": expected},
                             (key, consistent))

    def test_a_projection_does_not_make_a_read_cheaper(self):
        self.put(sized("proj", 5000))
        answer = self.ddb.get_item(TableName=self.plain, Key={"pk": S("proj")}, ProjectionExpression="pk",
                                   ConsistentRead=True, ReturnConsumedCapacity="INDEXES")
        self.assertEqual(answer["ConsumedCapacity"],
                         {"TableName": self.plain, "CapacityUnits": 2.0, "Table": {"CapacityUnits": 2.0}})

    def test_query_sums_the_items_read_before_the_filter_and_rounds_once(self):
        table = unique_name("cap-q")
        self.ddb.create_table(**composite_table(table))
        for i in range(10):  # 10 items of 1,000 bytes: 10,000 bytes -> 3 x 4 KB
            self.ddb.put_item(TableName=table, Item={"pk": S("p"), "sk": S("%03d" % i),
                                                     "d": S("x" * (1000 - 2 - 1 - 2 - 3 - 1))})
        common = dict(TableName=table, KeyConditionExpression="pk = :p", ReturnConsumedCapacity="TOTAL")
        answer = self.ddb.query(ExpressionAttributeValues={":p": S("p")}, **common)
        self.assertEqual(answer["ConsumedCapacity"], {"TableName": table, "CapacityUnits": 1.5})
        answer = self.ddb.query(ExpressionAttributeValues={":p": S("p")}, ConsistentRead=True, **common)
        self.assertEqual(self.units(answer), 3.0)
        # The filter and the projection drop items after they were read: the same cost.
        answer = self.ddb.query(ExpressionAttributeValues={":p": S("p"), ":none": S("none")},
                                FilterExpression="d = :none", ProjectionExpression="sk", **common)
        self.assertEqual((answer["Count"], self.units(answer)), (0, 1.5))
        answer = self.ddb.query(ExpressionAttributeValues={":p": S("p")}, Select="COUNT", Limit=4, **common)
        self.assertEqual(self.units(answer), 0.5)  # 4,000 bytes
        # Nothing read still costs the minimum.
        answer = self.ddb.query(ExpressionAttributeValues={":p": S("nobody")}, **common)
        self.assertEqual(self.units(answer), 0.5)
        answer = self.ddb.scan(TableName=table, ReturnConsumedCapacity="TOTAL")
        self.assertEqual(answer["ConsumedCapacity"], {"TableName": table, "CapacityUnits": 1.5})

    def test_batch_get_rounds_each_item_and_reports_one_entry_per_table(self):
        for i in range(5):
            self.put(sized("bg%d" % i, 100))
            self.put(sized("bg%d" % i, 100), table=self.other)
        self.put(sized("bgbig", 6000), table=self.other)
        answer = self.ddb.batch_get_item(RequestItems={
            self.plain: {"Keys": [{"pk": S("bg%d" % i)} for i in range(5)], "ConsistentRead": True},
            self.other: {"Keys": [{"pk": S("bg%d" % i)} for i in range(3)] + [{"pk": S("bgbig")}]}},
            ReturnConsumedCapacity="TOTAL")
        self.assertEqual(answer["ConsumedCapacity"], [
            {"TableName": self.plain, "CapacityUnits": 5.0},
            {"TableName": self.other, "CapacityUnits": 2.5}])  # 3 x 0.5 + 2 x 4 KB / 2

    def test_batch_write_sums_per_table(self):
        self.put(sized("bwbig", 2049))
        answer = self.ddb.batch_write_item(RequestItems={
            self.plain: [{"PutRequest": {"Item": sized("bwbig", 10)}},
                         {"PutRequest": {"Item": sized("bwnew", 1500)}},
                         {"DeleteRequest": {"Key": {"pk": S("bwmissing")}}}],
            self.other: [{"PutRequest": {"Item": sized("bw", 10)}}]},
            ReturnConsumedCapacity="TOTAL")
        self.assertEqual(answer["ConsumedCapacity"], [
            {"TableName": self.plain, "CapacityUnits": 6.0},  # 3 + 2 + 1
            {"TableName": self.other, "CapacityUnits": 1.0}])

    def test_invalid_mode_is_a_validation_error(self):
        self.assertError(self.raw.get_item, "ValidationException",
                         "1 validation error detected: Value 'ALL' at 'returnConsumedCapacity' failed to satisfy "
                         "constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]",
                         TableName=self.plain, Key={"pk": S("x")}, ReturnConsumedCapacity="ALL")

    # Index write costs: a new entry 1, a key change 2, a removal 1, a projected change 1, an
    # unprojected change or an identical overwrite 0; indexes that cost nothing are absent.
    def write_indexed(self, item, **kwargs):
        answer = self.ddb.put_item(TableName=self.indexed, Item=item, ReturnConsumedCapacity="INDEXES", **kwargs)
        return answer["ConsumedCapacity"]

    def test_index_costs_per_changed_entry(self):
        base = {"pk": S("ix"), "sk": S("1"), "status": S("open"), "amount": N(5), "note": S("a")}
        self.assertEqual(self.write_indexed(dict(base)), {
            "TableName": self.indexed, "CapacityUnits": 3.0, "Table": {"CapacityUnits": 1.0},
            "GlobalSecondaryIndexes": {"by-status": {"CapacityUnits": 1.0}},
            "LocalSecondaryIndexes": {"by-amount": {"CapacityUnits": 1.0}}})
        # Identical overwrite: the table only.
        self.assertEqual(self.write_indexed(dict(base)),
                         {"TableName": self.indexed, "CapacityUnits": 1.0, "Table": {"CapacityUnits": 1.0}})
        # An attribute no index keeps: the table only.
        self.assertEqual(self.write_indexed(dict(base, other=S("x")))["CapacityUnits"], 1.0)
        # A projected attribute (note, in by-status): that index once.
        changed = self.write_indexed(dict(base, other=S("x"), note=S("b")))
        self.assertEqual(changed["GlobalSecondaryIndexes"], {"by-status": {"CapacityUnits": 1.0}})
        self.assertNotIn("LocalSecondaryIndexes", changed)
        # The GSI key changes: delete + put, 2.
        changed = self.write_indexed(dict(base, other=S("x"), note=S("b"), status=S("done")))
        self.assertEqual(changed["GlobalSecondaryIndexes"], {"by-status": {"CapacityUnits": 2.0}})
        self.assertEqual(changed["CapacityUnits"], 3.0)
        # Both index keys removed: 1 each.
        changed = self.write_indexed({"pk": S("ix"), "sk": S("1")})
        self.assertEqual(changed, {
            "TableName": self.indexed, "CapacityUnits": 3.0, "Table": {"CapacityUnits": 1.0},
            "GlobalSecondaryIndexes": {"by-status": {"CapacityUnits": 1.0}},
            "LocalSecondaryIndexes": {"by-amount": {"CapacityUnits": 1.0}}})
        # TOTAL includes index units without showing the parts.
        answer = self.ddb.put_item(TableName=self.indexed, Item=dict(base, sk=S("2")), ReturnConsumedCapacity="TOTAL")
        self.assertEqual(answer["ConsumedCapacity"], {"TableName": self.indexed, "CapacityUnits": 3.0})

    def test_index_reads_are_charged_to_the_index(self):
        self.ddb.put_item(TableName=self.indexed, Item={"pk": S("ir"), "sk": S("1"), "status": S("read"),
                                                        "amount": N(1), "big": S("x" * 5000)})
        answer = self.ddb.query(TableName=self.indexed, IndexName="by-status", KeyConditionExpression="#s = :s",
                                ExpressionAttributeNames={"#s": "status"}, ExpressionAttributeValues={":s": S("read")},
                                ReturnConsumedCapacity="INDEXES")
        self.assertEqual(answer["ConsumedCapacity"], {
            "TableName": self.indexed, "CapacityUnits": 0.5, "Table": {"CapacityUnits": 0.0},
            "GlobalSecondaryIndexes": {"by-status": {"CapacityUnits": 0.5}}})
        # A local index read that fetches unprojected attributes also reads the table item.
        answer = self.ddb.query(TableName=self.indexed, IndexName="by-amount", KeyConditionExpression="pk = :p",
                                ExpressionAttributeValues={":p": S("ir")}, Select="ALL_ATTRIBUTES",
                                ConsistentRead=True, ReturnConsumedCapacity="INDEXES")
        self.assertEqual(answer["ConsumedCapacity"], {
            "TableName": self.indexed, "CapacityUnits": 3.0, "Table": {"CapacityUnits": 2.0},
            "LocalSecondaryIndexes": {"by-amount": {"CapacityUnits": 1.0}}})

    def test_item_collection_metrics_only_for_tables_with_a_local_index(self):
        metrics = {"ItemCollectionKey": {"pk": S("icm")}, "SizeEstimateRangeGB": [0.0, 1.0]}
        answer = self.ddb.put_item(TableName=self.indexed, Item={"pk": S("icm"), "sk": S("1")},
                                   ReturnItemCollectionMetrics="SIZE")
        self.assertEqual(answer["ItemCollectionMetrics"], metrics)
        answer = self.ddb.update_item(TableName=self.indexed, Key={"pk": S("icm"), "sk": S("1")},
                                      UpdateExpression="SET a = :a", ExpressionAttributeValues={":a": N(1)},
                                      ReturnItemCollectionMetrics="SIZE")
        self.assertEqual(answer["ItemCollectionMetrics"], metrics)
        answer = self.ddb.delete_item(TableName=self.indexed, Key={"pk": S("icm"), "sk": S("1")},
                                      ReturnItemCollectionMetrics="SIZE")
        self.assertEqual(answer["ItemCollectionMetrics"], metrics)
        answer = self.ddb.put_item(TableName=self.indexed, Item={"pk": S("icm"), "sk": S("1")},
                                   ReturnItemCollectionMetrics="NONE")
        self.assertNotIn("ItemCollectionMetrics", answer)
        answer = self.ddb.put_item(TableName=self.plain, Item={"pk": S("icm")}, ReturnItemCollectionMetrics="SIZE")
        self.assertNotIn("ItemCollectionMetrics", answer)
        answer = self.ddb.batch_write_item(RequestItems={
            self.indexed: [{"PutRequest": {"Item": {"pk": S("icm"), "sk": S("2")}}},
                           {"PutRequest": {"Item": {"pk": S("icm2"), "sk": S("1")}}}],
            self.plain: [{"PutRequest": {"Item": {"pk": S("icm")}}}]}, ReturnItemCollectionMetrics="SIZE")
        self.assertEqual(answer["ItemCollectionMetrics"], {self.indexed: [
            metrics, {"ItemCollectionKey": {"pk": S("icm2")}, "SizeEstimateRangeGB": [0.0, 1.0]}]})


if __name__ == "__main__":
    unittest.main()
