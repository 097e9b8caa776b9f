"""Table, index and name rules DynamoDB checks (issue 15): table-name length for every operation,
ExclusiveStartKey against the schema, index definitions, UpdateTable's index changes, what a
backfill leaves out, DeleteTable's answer, and the expression-attribute maps' keys and values."""
from ddbd_harness import ServerTestCase, composite_table, hash_table, unique_name

LENGTH = ("1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: "
          "Member must have length greater than or equal to 3")


class SchemaRules(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.hash = unique_name("hash")
        cls.ddb.create_table(**hash_table(cls.hash))
        cls.ranged = unique_name("ranged")
        cls.ddb.create_table(**composite_table(cls.ranged))

    def test_short_table_names_for_every_operation(self):
        key = {"pk": {"S": "a"}}
        calls = [(self.raw.get_item, dict(Key=key)), (self.raw.put_item, dict(Item=key)),
                 (self.raw.delete_item, dict(Key=key)), (self.raw.update_item, dict(Key=key)),
                 (self.raw.query, dict(KeyConditionExpression="pk = :p",
                                       ExpressionAttributeValues={":p": {"S": "a"}})),
                 (self.raw.scan, {}), (self.raw.describe_table, {}), (self.raw.delete_table, {}),
                 (self.raw.update_table, dict(BillingMode="PAY_PER_REQUEST"))]
        for call, kwargs in calls:
            with self.subTest(call=call.__name__):
                self.assertError(call, "ValidationException", LENGTH, TableName="ab", **kwargs)

    def test_exclusive_start_keys(self):
        values = {":p": {"S": "p"}}
        self.assertError(self.ddb.query, "ValidationException",
                         "The provided starting key is invalid: The provided key element does not "
                         "match the schema", TableName=self.ranged, KeyConditionExpression="pk = :p",
                         ExpressionAttributeValues=values,
                         ExclusiveStartKey={"pk": {"S": "p"}, "sk": {"N": "1"}})
        # Recorded against AWS (behaviours-to-match E4, one observation; this held "The query can
        # return at most one row and cannot be restarted" until then).
        self.assertError(self.ddb.query, "ValidationException",
                         "The provided exclusive start key is invalid: ExclusiveStartKey: "
                         "{pk=AttributeValue: {S:p}}",
                         TableName=self.hash, KeyConditionExpression="pk = :p",
                         ExpressionAttributeValues=values, ExclusiveStartKey={"pk": {"S": "p"}})

    def test_index_definitions(self):
        definitions = [{"AttributeName": "pk", "AttributeType": "S"},
                       {"AttributeName": "g", "AttributeType": "S"}]

        def create(index):
            self.assertError(self.ddb.create_table, "ValidationException", index.pop("error"),
                             TableName=unique_name("bad"), BillingMode="PAY_PER_REQUEST",
                             AttributeDefinitions=definitions,
                             KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                             GlobalSecondaryIndexes=[dict(IndexName="by-g", **index)])
        create(dict(KeySchema=[{"AttributeName": "g", "KeyType": "HASH"}],
                    Projection={"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a", "b", "a"]},
                    error="One or more parameter values were invalid: Duplicate element in "
                          "NonKeyAttributes: a"))
        create(dict(KeySchema=[{"AttributeName": "g", "KeyType": "HASH"}],
                    Projection={"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a", "b" * 256]},
                    error="1 validation error detected: Value '[a, " + "b" * 256 + "]' at "
                          "'globalSecondaryIndexes.1.member.projection.nonKeyAttributes' failed to "
                          "satisfy constraint: Member must satisfy constraint: [Member must have "
                          "length less than or equal to 255, Member must have length greater than "
                          "or equal to 1]"))
        create(dict(KeySchema=[{"AttributeName": "g", "KeyType": "HASH"},
                               {"AttributeName": "g", "KeyType": "RANGE"}],
                    Projection={"ProjectionType": "ALL"},
                    error="The KeySchema contains multiple key attributes with the same name"))

    def test_repeated_names_before_unused_definitions(self):
        # behaviours-to-match B6, recorded against AWS: an index key naming one attribute twice is
        # reported before an unused definition; an attribute defined twice is refused also when
        # only global indexes use it.
        self.assertError(self.ddb.create_table, "ValidationException",
                         "The KeySchema contains multiple key attributes with the same name",
                         TableName=unique_name("bad"), BillingMode="PAY_PER_REQUEST",
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                               {"AttributeName": "g", "AttributeType": "S"},
                                               {"AttributeName": "unused", "AttributeType": "S"}],
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         GlobalSecondaryIndexes=[{"IndexName": "by-g", "Projection": {"ProjectionType": "ALL"},
                                                  "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                                                                {"AttributeName": "g", "KeyType": "RANGE"}]}])
        self.assertError(self.ddb.create_table, "ValidationException", "Attribute Name is duplicated: xyz",
                         TableName=unique_name("bad"), BillingMode="PAY_PER_REQUEST",
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                               {"AttributeName": "xyz", "AttributeType": "S"},
                                               {"AttributeName": "xyz", "AttributeType": "N"}],
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         GlobalSecondaryIndexes=[{"IndexName": "by-xyz", "Projection": {"ProjectionType": "ALL"},
                                                  "KeySchema": [{"AttributeName": "xyz", "KeyType": "HASH"}]}])

    def test_update_table_attribute_definitions(self):
        table = unique_name("redefine")
        self.ddb.create_table(**composite_table(table, "N"))

        def create_index(name, attribute, definitions):
            return dict(TableName=table, AttributeDefinitions=definitions,
                        GlobalSecondaryIndexUpdates=[{"Create": {
                            "IndexName": name, "KeySchema": [{"AttributeName": attribute, "KeyType": "HASH"}],
                            "Projection": {"ProjectionType": "ALL"}}}])
        self.assertError(self.ddb.update_table, "ValidationException",
                         "One or more parameter values were invalid: Attributes cannot be redefined",
                         **create_index("by-sk", "sk", [{"AttributeName": "sk", "AttributeType": "S"}]))
        # A conflicting definition the new index does not use is ignored.
        self.ddb.update_table(**create_index("by-g", "g", [{"AttributeName": "g", "AttributeType": "S"},
                                                         {"AttributeName": "pk", "AttributeType": "N"}]))
        described = self.ddb.describe_table(TableName=table)["Table"]
        self.assertIn({"AttributeName": "pk", "AttributeType": "S"}, described["AttributeDefinitions"])

    def test_backfill_skips_unusable_keys(self):
        table = unique_name("backfill")
        self.ddb.create_table(**hash_table(table))
        items = {"empty": {"S": ""}, "long": {"S": "x" * 2049}, "fine": {"S": "ok"}, "bin": {"B": b""}}
        for key, g in items.items():
            self.ddb.put_item(TableName=table, Item={"pk": {"S": key}, "g": g})
        self.ddb.update_table(TableName=table, AttributeDefinitions=[{"AttributeName": "g", "AttributeType": "S"}],
                              GlobalSecondaryIndexUpdates=[{"Create": {
                                  "IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                  "Projection": {"ProjectionType": "KEYS_ONLY"}}}])
        scanned = self.ddb.scan(TableName=table, IndexName="by-g")["Items"]
        self.assertEqual(scanned, [{"pk": {"S": "fine"}, "g": {"S": "ok"}}])

    def test_global_index_reads_only_what_it_projects(self):
        table = unique_name("include")
        self.ddb.create_table(**dict(composite_table(table), AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"},
            {"AttributeName": "g", "AttributeType": "S"}, {"AttributeName": "l", "AttributeType": "S"}],
            GlobalSecondaryIndexes=[{"IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a"]}}],
            LocalSecondaryIndexes=[{"IndexName": "by-l", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                                       {"AttributeName": "l", "KeyType": "RANGE"}],
                                    "Projection": {"ProjectionType": "KEYS_ONLY"}}]))
        self.ddb.put_item(TableName=table, Item={"pk": {"S": "p"}, "sk": {"S": "s"}, "g": {"S": "g"},
                                                 "l": {"S": "l"}, "a": {"S": "A"}, "b": {"S": "B"}})
        refused = ("One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported "
                   "for global secondary index by-g because its projection type is not ALL")
        query = dict(TableName=table, IndexName="by-g", KeyConditionExpression="g = :g",
                     ExpressionAttributeValues={":g": {"S": "g"}})
        # Four answers, as DynamoDB gives them (behaviours-to-match E2; these three held the first
        # until then): all attributes; a projection naming what the index does not keep; a Query's
        # filter naming it; a Scan's filter naming it is taken, evaluated on the index's entries.
        self.assertError(self.ddb.query, "ValidationException", refused, Select="ALL_ATTRIBUTES", **query)
        self.assertError(self.ddb.query, "ValidationException", "One or more parameter values were invalid: "
                         "Global secondary index by-g does not project [b, c]", ProjectionExpression="a, b, c",
                         **query)
        self.assertError(self.ddb.query, "ValidationException", "One or more parameter values were invalid: "
                         "Secondary index by-g does not project one or more filter attributes: [b]",
                         **dict(query, FilterExpression="b = :g OR a = :g"))
        self.assertError(self.ddb.scan, "ValidationException", "One or more parameter values were invalid: "
                         "Global secondary index by-g does not project [b]", TableName=table, IndexName="by-g",
                         AttributesToGet=["b"])
        self.assertEqual(self.ddb.scan(TableName=table, IndexName="by-g", FilterExpression="attribute_not_exists(b)")
                         ["Items"], [{"pk": {"S": "p"}, "sk": {"S": "s"}, "g": {"S": "g"}, "a": {"S": "A"}}])
        self.assertEqual(self.ddb.scan(TableName=table, IndexName="by-g", FilterExpression="b = :b",
                                       ExpressionAttributeValues={":b": {"S": "B"}})["Items"], [])
        self.assertEqual(self.ddb.query(ProjectionExpression="a, pk", **query)["Items"],
                         [{"a": {"S": "A"}, "pk": {"S": "p"}}])
        # A local index fetches what it does not keep from the table.
        got = self.ddb.query(TableName=table, IndexName="by-l", KeyConditionExpression="pk = :p",
                             ExpressionAttributeValues={":p": {"S": "p"}}, ProjectionExpression="b")
        self.assertEqual(got["Items"], [{"b": {"S": "B"}}])

    def test_delete_table_answer_is_reduced(self):
        table = unique_name("deleted")
        self.ddb.create_table(**composite_table(table))
        description = self.ddb.delete_table(TableName=table)["TableDescription"]
        for absent in ["AttributeDefinitions", "KeySchema", "CreationDateTime",
                       "GlobalSecondaryIndexes", "LocalSecondaryIndexes"]:
            self.assertNotIn(absent, description)
        self.assertEqual((description["TableName"], description["TableStatus"]), (table, "DELETING"))
        self.assertIn("TableArn", description)

    def test_expression_attribute_map_entries(self):
        key = {"pk": {"S": "a"}}
        # An empty attribute name is refused wherever it can be given, as in an item.
        self.assertError(self.raw.get_item, "ValidationException", "Empty attribute name",
                         TableName=self.hash, Key=key, AttributesToGet=["a", ""])
        self.assertError(self.raw.update_item, "ValidationException", "Empty attribute name",
                         TableName=self.hash, Key=key, AttributeUpdates={"": {"Value": {"S": "x"}}})
        long_name = "n" * 65536
        self.assertError(self.raw.get_item, "ValidationException",
                         "1 validation error detected: Value '[" + long_name + "]' at 'attributesToGet' "
                         "failed to satisfy constraint: Member must satisfy constraint: [Member must have "
                         "length less than or equal to 65535]",
                         TableName=self.hash, Key=key, AttributesToGet=[long_name])
        self.assertError(self.raw.get_item, "ValidationException",
                         "1 validation error detected: Value '{#a=" + long_name + "}' at "
                         "'expressionAttributeNames' failed to satisfy constraint: Map value must satisfy "
                         "constraint: [Member must have length less than or equal to 65535]",
                         TableName=self.hash, Key=key, ProjectionExpression="#a",
                         ExpressionAttributeNames={"#a": long_name})
        self.assertError(self.raw.update_item, "ValidationException",
                         "1 validation error detected: Value at 'attributeUpdates' failed to satisfy "
                         "constraint: Map keys must satisfy constraint: [Member must have length less "
                         "than or equal to 65535]",
                         TableName=self.hash, Key=key, AttributeUpdates={long_name: {"Value": {"S": "x"}}})
        self.assertError(self.raw.get_item, "ValidationException",
                         "ExpressionAttributeNames contains invalid value: Empty attribute name for key #a",
                         TableName=self.hash, Key=key, ProjectionExpression="#a",
                         ExpressionAttributeNames={"#a": ""})
        self.assertError(self.raw.get_item, "ValidationException",
                         "ExpressionAttributeNames contains invalid key: The expression attribute map "
                         "contains a key that is too long; size of key: 258",
                         TableName=self.hash, Key=key, ProjectionExpression="#a",
                         ExpressionAttributeNames={"#" + "a" * 255 + "-x": "foo"})
        self.assertError(self.raw.scan, "ValidationException",
                         "ExpressionAttributeValues contains invalid key: The expression attribute map "
                         "contains a key that is too long;", TableName=self.hash,
                         FilterExpression="foo = :v", ExpressionAttributeValues={":" + "a" * 255: {"S": "x"}})
