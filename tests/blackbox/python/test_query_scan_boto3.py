"""Query and Scan through boto3: sort-key order for every key type, paging by Limit and by the
1 MB read limit (with and without filters), counts, parallel scan, paginators, and errors."""
import decimal
import random
import unittest

from ddbd_harness import ServerTestCase, unique_name, composite_table


class QueryScan(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.numbers = unique_name("qs-n")
        cls.ddb.create_table(**composite_table(cls.numbers, "N"))
        cls.values = ["-1E10", "-100", "-2.5", "-0.001", "0", "0.001", "1", "1.5", "2", "10", "1E3", "99999999999999999999"]
        shuffled = list(cls.values)
        random.Random(7).shuffle(shuffled)
        for value in shuffled:
            cls.ddb.put_item(TableName=cls.numbers, Item={"pk": {"S": "p"}, "sk": {"N": value},
                                                          "parity": {"N": str(len(value) % 2)}})
        cls.ddb.put_item(TableName=cls.numbers, Item={"pk": {"S": "other"}, "sk": {"N": "5"}})

    def query(self, table, **kwargs):
        return self.ddb.query(TableName=table, **kwargs)

    def sorted_numbers(self):
        return sorted(self.values, key=decimal.Decimal)

    def test_numbers_sort_by_value_in_both_directions(self):
        items = self.query(self.numbers, KeyConditionExpression="pk = :p",
                           ExpressionAttributeValues={":p": {"S": "p"}})["Items"]
        expected = [str(decimal.Decimal(v).normalize()) if "E" not in v.upper() else None for v in self.sorted_numbers()]
        got = [item["sk"]["N"] for item in items]
        self.assertEqual([decimal.Decimal(v) for v in got], [decimal.Decimal(v) for v in self.sorted_numbers()])
        backwards = self.query(self.numbers, KeyConditionExpression="pk = :p", ScanIndexForward=False,
                               ExpressionAttributeValues={":p": {"S": "p"}})["Items"]
        self.assertEqual([item["sk"]["N"] for item in backwards], list(reversed(got)))
        del expected

    def test_sort_key_conditions(self):
        def sks(expression, **values):
            values = {":" + k: {"N": v} for k, v in values.items()}
            values[":p"] = {"S": "p"}
            result = self.query(self.numbers, KeyConditionExpression="pk = :p AND " + expression,
                                ExpressionAttributeValues=values)
            return [decimal.Decimal(item["sk"]["N"]) for item in result["Items"]]
        numbers = [decimal.Decimal(v) for v in self.sorted_numbers()]
        self.assertEqual(sks("sk = :v", v="1.50"), [decimal.Decimal("1.5")])
        self.assertEqual(sks("sk < :v", v="0"), [n for n in numbers if n < 0])
        self.assertEqual(sks("sk <= :v", v="0"), [n for n in numbers if n <= 0])
        self.assertEqual(sks("sk > :v", v="2"), [n for n in numbers if n > 2])
        self.assertEqual(sks("sk >= :v", v="2"), [n for n in numbers if n >= 2])
        self.assertEqual(sks("sk BETWEEN :a AND :b", a="-2.5", b="1"), [n for n in numbers if -2.5 <= n <= 1])
        self.assertEqual(sks(":v < sk", v="1E3"), [n for n in numbers if n > 1000])

    def test_strings_sort_by_utf8_bytes_and_begins_with(self):
        table = unique_name("qs-s")
        self.ddb.create_table(**composite_table(table, "S"))
        words = ["b", "a", "ab", "aB", "A", "Z", "é", "日本", "\U0001F600", "", "a\u0000"]
        words = [w for w in words if w]  # an empty sort key is not allowed
        for word in words:
            self.ddb.put_item(TableName=table, Item={"pk": {"S": "p"}, "sk": {"S": word}})
        items = self.query(table, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p"}})["Items"]
        self.assertEqual([i["sk"]["S"] for i in items], sorted(words, key=lambda w: w.encode("utf-8")))
        prefixed = self.query(table, KeyConditionExpression="pk = :p AND begins_with(sk, :a)",
                              ExpressionAttributeValues={":p": {"S": "p"}, ":a": {"S": "a"}})["Items"]
        self.assertEqual([i["sk"]["S"] for i in prefixed], ["a", "a\u0000", "aB", "ab"])

    def test_binary_sorts_by_unsigned_bytes(self):
        table = unique_name("qs-b")
        self.ddb.create_table(**composite_table(table, "B"))
        blobs = [b"\xff", b"\x00", b"\x7f", b"\x80", b"\x00\x01", b"\x01"]
        for blob in blobs:
            self.ddb.put_item(TableName=table, Item={"pk": {"S": "p"}, "sk": {"B": blob}})
        items = self.query(table, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p"}})["Items"]
        self.assertEqual([i["sk"]["B"] for i in items], sorted(blobs))

    def test_limit_counts_items_evaluated_before_the_filter(self):
        result = self.query(self.numbers, KeyConditionExpression="pk = :p", FilterExpression="parity = :one",
                            ExpressionAttributeValues={":p": {"S": "p"}, ":one": {"N": "1"}}, Limit=5)
        self.assertEqual(result["ScannedCount"], 5)
        self.assertLessEqual(result["Count"], 5)
        self.assertIn("LastEvaluatedKey", result)
        counted = self.query(self.numbers, KeyConditionExpression="pk = :p", Select="COUNT",
                             ExpressionAttributeValues={":p": {"S": "p"}})
        self.assertNotIn("Items", counted)
        self.assertEqual((counted["Count"], counted["ScannedCount"]), (len(self.values), len(self.values)))

    def test_paginators_visit_every_item_exactly_once(self):
        pages = self.ddb.get_paginator("query").paginate(
            TableName=self.numbers, KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": {"S": "p"}}, PaginationConfig={"PageSize": 5})
        got = [item["sk"]["N"] for page in pages for item in page["Items"]]
        self.assertEqual(len(got), len(self.values))
        self.assertEqual(len(set(got)), len(self.values))
        scanned = [(i["pk"]["S"], i["sk"]["N"]) for page in self.ddb.get_paginator("scan").paginate(
            TableName=self.numbers, PaginationConfig={"PageSize": 3}) for i in page["Items"]]
        self.assertEqual(len(scanned), len(self.values) + 1)
        self.assertEqual(len(set(scanned)), len(scanned))

    def test_exclusive_start_key_resumes_after_a_deleted_item(self):
        first = self.query(self.numbers, KeyConditionExpression="pk = :p",
                           ExpressionAttributeValues={":p": {"S": "p"}}, Limit=3)
        start = first["LastEvaluatedKey"]
        self.ddb.delete_item(TableName=self.numbers, Key=start)
        try:
            rest = self.query(self.numbers, KeyConditionExpression="pk = :p", ExclusiveStartKey=start,
                              ExpressionAttributeValues={":p": {"S": "p"}})["Items"]
            # The deleted item was the last one of page one; page two resumes right after it.
            self.assertEqual(len(first["Items"]) + len(rest), len(self.values))
            self.assertNotIn(start["sk"], [item["sk"] for item in rest])
        finally:
            self.ddb.put_item(TableName=self.numbers, Item=dict(start, parity={"N": "0"}))

    def test_one_megabyte_ends_a_page(self):
        table = unique_name("qs-mb")
        self.ddb.create_table(**composite_table(table, "N"))
        blob = "x" * (100 * 1024)
        for i in range(25):
            self.ddb.put_item(TableName=table, Item={"pk": {"S": "p"}, "sk": {"N": str(i)}, "blob": {"S": blob},
                                                     "keep": {"BOOL": i % 2 == 0}})
        first = self.query(table, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p"}})
        self.assertEqual(first["Count"], 11)  # 11 items of ~100 KB pass 1 MB
        self.assertEqual(first["LastEvaluatedKey"]["sk"], {"N": "10"})
        filtered = self.query(table, KeyConditionExpression="pk = :p", FilterExpression="keep = :t",
                              ExpressionAttributeValues={":p": {"S": "p"}, ":t": {"BOOL": True}})
        self.assertEqual((filtered["ScannedCount"], filtered["Count"]), (11, 6))
        total = sum(len(page["Items"]) for page in self.ddb.get_paginator("scan").paginate(TableName=table))
        self.assertEqual(total, 25)

    def test_parallel_scan_segments_cover_the_table_exactly_once(self):
        table = unique_name("qs-par")
        self.ddb.create_table(**composite_table(table, "N"))
        keys = {("p%03d" % i, str(j)) for i in range(60) for j in range(2)}
        for pk, sk in keys:
            self.ddb.put_item(TableName=table, Item={"pk": {"S": pk}, "sk": {"N": sk}})
        for total in (1, 2, 3, 7, 200):
            seen = []
            for segment in range(total):
                for page in self.ddb.get_paginator("scan").paginate(
                        TableName=table, Segment=segment, TotalSegments=total, PaginationConfig={"PageSize": 7}):
                    seen.extend((i["pk"]["S"], i["sk"]["N"]) for i in page["Items"])
            self.assertEqual(sorted(seen), sorted(keys), total)

    def test_validation_texts(self):
        def query_error(message, **kwargs):
            self.assertError(self.raw.query, "ValidationException", message, TableName=self.numbers, **kwargs)
        p = {":p": {"S": "p"}, ":v": {"N": "1"}}
        query_error("Query condition missed key schema element: pk", KeyConditionExpression="sk = :v",
                    ExpressionAttributeValues={":v": {"N": "1"}})
        query_error("Invalid operator used in KeyConditionExpression: OR",
                    KeyConditionExpression="pk = :p OR sk = :v", ExpressionAttributeValues=p)
        # behaviours-to-match E3, recorded against AWS (the first held the text without its prefix).
        query_error("Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key",
                    KeyConditionExpression="pk = :p AND sk > :v AND sk < :v", ExpressionAttributeValues=p)
        query_error("The number of query conditions (3) exceeds the number of key attributes defined in the "
                    "schema (2)", KeyConditionExpression="pk = :p AND sk > :v AND extra = :v",
                    ExpressionAttributeValues=p)
        # A KeyConditionExpression's undefined values and wrong operand types in the order written
        # (behaviours-to-match B6, recorded against AWS).
        begins = ("Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or "
                  "function: begins_with, operand type: N")
        undefined = ("Invalid KeyConditionExpression: An expression attribute value used in expression is not "
                     "defined; attribute value: :missing")
        for expression, message in (("begins_with(sk, :v) AND pk = :missing", begins),
                                    ("pk = :p AND begins_with(sk, :v) AND sk = :missing", begins),
                                    ("pk = :missing AND begins_with(sk, :v)", undefined)):
            with self.subTest(expression=expression):
                query_error(message, KeyConditionExpression=expression, ExpressionAttributeValues=p)
        query_error("Filter Expression can only contain non-primary key attributes: Primary key attribute: sk",
                    KeyConditionExpression="pk = :p", FilterExpression="sk > :v", ExpressionAttributeValues=p)
        query_error("Invalid KeyConditionExpression: The expression can not be empty;",
                    KeyConditionExpression="", ExpressionAttributeValues={":p": {"S": "p"}})
        query_error("1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have "
                    "value greater than or equal to 1", KeyConditionExpression="pk = :p",
                    ExpressionAttributeValues={":p": {"S": "p"}}, Limit=0)
        query_error("1 validation error detected: Value 'INVALID' at 'select' failed to satisfy constraint: Member "
                    "must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]",
                    KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p"}}, Select="INVALID")
        query_error("Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES",
                    KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p"}},
                    Select="ALL_ATTRIBUTES", ProjectionExpression="pk")
        schema = "The provided starting key is invalid: The provided key element does not match the schema"
        query_error(schema, KeyConditionExpression="pk = :p",
                    ExpressionAttributeValues={":p": {"S": "p"}}, ExclusiveStartKey={"pk": {"S": "p"}})
        query_error(schema, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p"}},
                    ExclusiveStartKey={"pk": {"S": "p"}, "sk": {"S": "wrong type"}})
        query_error("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.")
        query_error("The table does not have the specified index: nope", KeyConditionExpression="pk = :p",
                    ExpressionAttributeValues={":p": {"S": "p"}}, IndexName="nope")

        def scan_error(message, **kwargs):
            self.assertError(self.raw.scan, "ValidationException", message, TableName=self.numbers, **kwargs)
        scan_error("The TotalSegments parameter is required but was not present in the request when Segment "
                   "parameter is present", Segment=0)
        scan_error("The Segment parameter is required but was not present in the request when parameter "
                   "TotalSegments is present", TotalSegments=4)
        scan_error("The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 5 "
                   "is not less than TotalSegments: 5", Segment=5, TotalSegments=5)
        scan_error("1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have "
                   "value greater than or equal to 1", Limit=0)
        scan_error("The provided starting key is invalid: The provided key element does not match the schema",
                   ExclusiveStartKey={"pk": {"S": "p"}})
        self.assertError(self.ddb.scan, "ResourceNotFoundException", "Requested resource not found",
                         TableName="no-such-table")
        first = self.ddb.scan(TableName=self.numbers, Segment=0, TotalSegments=2, Limit=1)
        self.assertIn("LastEvaluatedKey", first)
        scan_error("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey "
                   "with correct Segment. TotalSegments: 2 Segment: 1", Segment=1, TotalSegments=2,
                   ExclusiveStartKey=first["LastEvaluatedKey"])


if __name__ == "__main__":
    unittest.main()
