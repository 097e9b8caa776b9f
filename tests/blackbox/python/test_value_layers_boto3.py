"""Which of DynamoDB's validation layers reads an operation's attribute values decides how a bad
number or a set with a repeat is worded (../shared/behaviours-to-match.md B2 and B3, recorded
against AWS in October 2026): PutItem, UpdateItem and DeleteItem answer in the newer layer inside
the "1 validation error detected: " envelope, wherever the value is; GetItem, BatchGetItem and
Query in the newer layer without it (and without the older wrappers); BatchWriteItem, the
transactions and Scan in the older layer. protocol/model/supplement.json's value_rules."""
from ddbd_harness import ServerTestCase, hash_table, unique_name

ENVELOPE = "1 validation error detected: "
NOT_NUMERIC = "The parameter cannot be converted to a numeric value"
OVERFLOW = "Number overflow. Attempting to store a number with magnitude larger than supported range"
UNDERFLOW = "Number underflow. Attempting to store a number with magnitude smaller than supported range"
INVALID = "One or more parameter values were invalid: "

# Each bad value, and its text in the newer layer and in the older one.
NUMBERS = [
    ({"N": ""}, NOT_NUMERIC + ": ", NOT_NUMERIC),
    ({"N": "abc"}, NOT_NUMERIC + ": abc", NOT_NUMERIC + ": abc"),
    ({"N": "1e126"}, OVERFLOW, OVERFLOW),
    # Magnitudes are computed in 32 bits in the older layer: this one wraps round to an underflow.
    ({"N": "1e2147483647"}, OVERFLOW, UNDERFLOW),
    # A written exponent beyond 32 bits is no number at all (B3).
    ({"N": "1e9223372036854775808"}, NOT_NUMERIC + ": 1e9223372036854775808",
     NOT_NUMERIC + ": 1e9223372036854775808"),
    ({"N": "1e2147483648"}, NOT_NUMERIC + ": 1e2147483648", NOT_NUMERIC + ": 1e2147483648"),
    # Zero is range-checked by its written exponent (B3).
    ({"N": "0e126"}, OVERFLOW, OVERFLOW),
    ({"N": "0e-131"}, UNDERFLOW, UNDERFLOW),
    ({"NS": ["1", ""]}, NOT_NUMERIC + ": ", NOT_NUMERIC),
    ({"SS": ["b", "a", "b"]}, INVALID + 'Input collection ["a", "b", "b"] contains duplicates.',
     INVALID + "Input collection [b, a, b] contains duplicates."),
    ({"SS": ["c", "b", "c", "a"]}, INVALID + 'Input collection ["b", "c", "c", "a"] contains duplicates.',
     INVALID + "Input collection [c, b, c, a] contains duplicates."),
    ({"BS": [b"\xff", b"\x00", b"\x00"]}, INVALID + 'Input collection ["AA==","/w==","AA=="]of type BS '
     "contains duplicates.", INVALID + "Input collection [/w==, AA==, AA==]of type BS contains duplicates."),
    ({"NS": ["2", "1", "2"]}, INVALID + "Input collection contains duplicates.",
     "Input collection contains duplicates"),
]


class ValueLayers(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = unique_name("layers")
        cls.ddb.create_table(**hash_table(cls.table))
        cls.ddb.put_item(TableName=cls.table, Item={"pk": {"S": "a"}, "n": {"N": "1"}})

    def check(self, call, expected, **kwargs):
        self.assertError(call, "ValidationException", expected, **kwargs)

    def test_put_update_delete_item_newer_layer_in_the_envelope(self):
        for value, newer, _ in NUMBERS:
            with self.subTest(value=value):
                self.check(self.ddb.put_item, ENVELOPE + newer, TableName=self.table,
                           Item={"pk": {"S": "x"}, "v": value})
                self.check(self.ddb.put_item, ENVELOPE + newer, TableName=self.table,
                           Item={"pk": {"S": "x"}, "m": {"M": {"l": {"L": [value]}}}})
                self.check(self.ddb.put_item, ENVELOPE + newer, TableName=self.table,
                           Item={"pk": {"S": "a"}}, ConditionExpression="v = :v",
                           ExpressionAttributeValues={":v": value})
                self.check(self.ddb.update_item, ENVELOPE + newer, TableName=self.table,
                           Key={"pk": {"S": "a"}}, UpdateExpression="SET v = :v",
                           ExpressionAttributeValues={":v": value})
                self.check(self.ddb.update_item, ENVELOPE + newer, TableName=self.table,
                           Key={"pk": {"S": "a"}}, AttributeUpdates={"v": {"Value": value}})
                self.check(self.ddb.update_item, ENVELOPE + newer, TableName=self.table,
                           Key={"pk": {"S": "a"}}, AttributeUpdates={"v": {"Value": {"S": "x"}}},
                           Expected={"v": {"Value": value}})
                self.check(self.ddb.delete_item, ENVELOPE + newer, TableName=self.table,
                           Key={"pk": {"S": "a"}}, ConditionExpression="v = :v",
                           ExpressionAttributeValues={":v": value})

    def test_get_item_batch_get_item_query_newer_layer_without_the_envelope(self):
        for value, newer, _ in NUMBERS:
            with self.subTest(value=value):
                self.check(self.ddb.get_item, newer, TableName=self.table, Key={"pk": {"S": "a"}, "x": value})
                self.check(self.ddb.batch_get_item, newer,
                           RequestItems={self.table: {"Keys": [{"pk": {"S": "a"}, "x": value}]}})
                # No "ExpressionAttributeValues contains invalid value" wrapper, no "The provided
                # starting key is invalid" prefix.
                self.check(self.ddb.query, newer, TableName=self.table, KeyConditionExpression="pk = :p",
                           FilterExpression="v = :v",
                           ExpressionAttributeValues={":p": {"S": "a"}, ":v": value})
                self.check(self.ddb.query, newer, TableName=self.table, KeyConditionExpression="pk = :p",
                           ExpressionAttributeValues={":p": {"S": "a"}},
                           ExclusiveStartKey={"pk": {"S": "a"}, "x": value})

    def test_batch_write_item_transactions_and_scan_older_layer(self):
        for value, _, older in NUMBERS:
            with self.subTest(value=value):
                self.check(self.ddb.batch_write_item, older,
                           RequestItems={self.table: [{"PutRequest": {"Item": {"pk": {"S": "x"}, "v": value}}}]})
                self.check(self.ddb.transact_write_items, older,
                           TransactItems=[{"Put": {"TableName": self.table,
                                                   "Item": {"pk": {"S": "x"}, "v": value}}}])
                self.check(self.ddb.transact_get_items, older,
                           TransactItems=[{"Get": {"TableName": self.table, "Key": {"pk": {"S": "a"}, "x": value}}}])
                self.check(self.ddb.scan, "ExpressionAttributeValues contains invalid value: %s for key :v" % older,
                           TableName=self.table, FilterExpression="v = :v",
                           ExpressionAttributeValues={":v": value})

    def test_numbers_at_the_edges_are_stored(self):
        for text, stored in (("0e125", "0"), ("0e-130", "0"), ("0.0e126", "0"), ("1e125", "1" + "0" * 125)):
            with self.subTest(text=text):
                self.ddb.put_item(TableName=self.table, Item={"pk": {"S": "edge"}, "v": {"N": text}})
                item = self.ddb.get_item(TableName=self.table, Key={"pk": {"S": "edge"}})["Item"]
                self.assertEqual(item["v"], {"N": stored})
