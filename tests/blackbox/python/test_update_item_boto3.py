"""UpdateItem through boto3: every action, every ReturnValues mode, upserts, conditions, and
DynamoDB's validation texts."""
import unittest

from ddbd_harness import ServerTestCase, hash_table, unique_name


class UpdateTestCase(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = unique_name("update")
        cls.ddb.create_table(**hash_table(cls.table))

    def update(self, key, expression, values=None, names=None, **kwargs):
        args = dict(TableName=self.table, Key={"pk": {"S": key}}, UpdateExpression=expression, **kwargs)
        if values:
            args["ExpressionAttributeValues"] = values
        if names:
            args["ExpressionAttributeNames"] = names
        return self.ddb.update_item(**args).get("Attributes")

    def item(self, key):
        return self.ddb.get_item(TableName=self.table, Key={"pk": {"S": key}}).get("Item")

    def assertUpdateError(self, message, expression, values=None, names=None, key="err"):
        with self.assertRaises(Exception) as caught:
            self.update(key, expression, values, names)
        error = caught.exception.response["Error"]
        self.assertEqual((error["Code"], error["Message"]), ("ValidationException", message))


class UpdateItem(UpdateTestCase):
    def test_upsert_and_every_action(self):
        new = self.update("u1", "SET n = :one, l = :l, m = :m", {
            ":one": {"N": "1"}, ":l": {"L": [{"S": "x"}]}, ":m": {"M": {"a": {"N": "1"}}}}, ReturnValues="ALL_NEW")
        self.assertEqual(new, {"pk": {"S": "u1"}, "n": {"N": "1"}, "l": {"L": [{"S": "x"}]},
                               "m": {"M": {"a": {"N": "1"}}}})
        self.update("u1", "SET n = n + :one, l = list_append(l, :more), m.b = if_not_exists(m.b, :ten) "
                    "ADD visits :one, tags :tags",
                    {":one": {"N": "1"}, ":more": {"L": [{"S": "y"}]}, ":ten": {"N": "10"}, ":tags": {"SS": ["a", "b"]}})
        self.update("u1", "REMOVE l[0], m.a DELETE tags :a", {":a": {"SS": ["a"]}})
        self.assertEqual(self.item("u1"), {"pk": {"S": "u1"}, "n": {"N": "2"}, "l": {"L": [{"S": "y"}]},
                                           "m": {"M": {"b": {"N": "10"}}}, "visits": {"N": "1"},
                                           "tags": {"SS": ["b"]}})
        self.update("u1", "DELETE tags :b", {":b": {"SS": ["b"]}})
        self.assertNotIn("tags", self.item("u1"))  # an emptied set is removed

    def test_swap_uses_values_from_before_the_update(self):
        self.update("swap", "SET a = :1, b = :2", {":1": {"N": "1"}, ":2": {"N": "2"}})
        self.update("swap", "SET a = b, b = a")
        item = self.item("swap")
        self.assertEqual((item["a"], item["b"]), ({"N": "2"}, {"N": "1"}))

    def test_return_values_modes(self):
        self.update("rv", "SET a = :1, b = :1", {":1": {"N": "1"}})
        self.assertEqual(self.update("rv", "SET a = :2", {":2": {"N": "2"}}, ReturnValues="UPDATED_OLD"),
                         {"a": {"N": "1"}})
        self.assertEqual(self.update("rv", "SET a = :3", {":3": {"N": "3"}}, ReturnValues="UPDATED_NEW"),
                         {"a": {"N": "3"}})
        self.assertEqual(self.update("rv", "SET a = :4", {":4": {"N": "4"}}, ReturnValues="ALL_OLD"),
                         {"pk": {"S": "rv"}, "a": {"N": "3"}, "b": {"N": "1"}})
        self.assertIsNone(self.update("rv", "SET a = :5", {":5": {"N": "5"}}, ReturnValues="NONE"))
        self.assertIsNone(self.update("rv-new", "SET a = :5", {":5": {"N": "5"}}, ReturnValues="ALL_OLD"))

    def test_list_indexes_and_nested_maps(self):
        self.update("list", "SET l = :l, m = :m", {":l": {"L": [{"N": "0"}, {"N": "1"}, {"N": "2"}]},
                                                   ":m": {"M": {"inner": {"M": {}}}}}, names=None)
        self.update("list", "SET l[1] = :x, l[10] = :y, m.#i.deep = :x REMOVE l[0], l[2]",
                    {":x": {"S": "x"}, ":y": {"S": "y"}}, {"#i": "inner"})
        item = self.item("list")
        self.assertEqual(item["l"], {"L": [{"S": "x"}, {"S": "y"}]})
        self.assertEqual(item["m"], {"M": {"inner": {"M": {"deep": {"S": "x"}}}}})

    def test_paths_cannot_set_a_value_deeper_than_an_item_nests(self):
        # A value inside 31 maps or lists is the deepest an item holds (behaviours-to-match B5); a path
        # can set a value deeper than the request held it, so the finished item is judged, and
        # repeated updates cannot grow an item without bound.
        def deep(levels):
            value = {"S": "x"}
            for _ in range(levels):
                value = {"M": {"n": value}}
            return value
        self.update("nest", "SET d = :v", {":v": deep(20)})
        self.update("nest", "SET d" + ".n" * 11 + " = :v", {":v": deep(20)})  # a leaf at level 32
        self.assertUpdateError("Nesting Levels have exceeded supported limits: Attributes in the item have "
                               "nested levels beyond supported limit",
                               "SET d" + ".n" * 12 + " = :v", {":v": deep(20)}, key="nest")
        self.assertEqual(self.item("nest")["d"], deep(31))

    def test_conditional_update(self):
        self.update("cond", "SET v = :1", {":1": {"N": "1"}})
        with self.assertRaises(Exception) as caught:
            self.update("cond", "SET v = :2", {":2": {"N": "2"}, ":9": {"N": "9"}}, ConditionExpression="v = :9",
                        ReturnValuesOnConditionCheckFailure="ALL_OLD")
        self.assertEqual(caught.exception.response["Error"]["Code"], "ConditionalCheckFailedException")
        self.assertEqual(caught.exception.response["Item"], {"pk": {"S": "cond"}, "v": {"N": "1"}})
        self.update("cond", "SET v = v + :1", {":1": {"N": "1"}}, ConditionExpression="v = :1")
        self.assertEqual(self.item("cond")["v"], {"N": "2"})

    def test_exact_decimal_arithmetic(self):
        self.update("math", "SET v = :a", {":a": {"N": "0.1"}})
        self.update("math", "SET v = v + :b", {":b": {"N": "0.2"}})
        self.assertEqual(self.item("math")["v"], {"N": "0.3"})
        self.update("math", "ADD v :c", {":c": {"N": "-10.3"}})
        self.assertEqual(self.item("math")["v"], {"N": "-10"})

    def test_validation_texts(self):
        self.assertUpdateError("One or more parameter values were invalid: Cannot update attribute pk. This "
                               "attribute is part of the key", "SET pk = :v", {":v": {"S": "x"}})
        self.assertUpdateError("The document path provided in the update expression is invalid for update",
                               "SET missing_parent.child = :v", {":v": {"S": "x"}})
        self.update("err", "SET s = :s", {":s": {"S": "text"}})
        self.assertUpdateError("An operand in the update expression has an incorrect data type",
                               "SET s = s + :one", {":one": {"N": "1"}})
        self.assertUpdateError("Invalid UpdateExpression: Two document paths overlap with each other; must remove "
                               "or rewrite one of these paths; path one: [a], path two: [a, b]",
                               "SET a = :v, a.b = :v", {":v": {"N": "1"}})
        self.assertUpdateError('Invalid UpdateExpression: The "SET" section can only be used once in an update '
                               'expression;', "SET a = :v SET b = :v", {":v": {"N": "1"}})
        self.assertUpdateError("Invalid UpdateExpression: Incorrect operand type for operator or function; "
                               "operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND",
                               "ADD a :v", {":v": {"S": "1"}})
        self.assertUpdateError("Invalid UpdateExpression: The function is not allowed in an update expression; "
                               "function: size", "SET a = size(b)")
        self.assertUpdateError('Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "SET"', "SET")
        self.assertUpdateError("Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: "
                               "name", "SET name = :v", {":v": {"N": "1"}})
        # DynamoDB's newer text, in its envelope (behaviours-to-match B1; this held "...: UpdateExpression
        # and ConditionExpression are null" until the 2026 recordings).
        self.assertError(self.ddb.update_item, "ValidationException",
                         "1 validation error detected: ExpressionAttributeValues can only be specified when using "
                         "expressions", TableName=self.table, Key={"pk": {"S": "x"}},
                         ExpressionAttributeValues={":v": {"N": "1"}})
        self.assertError(self.ddb.update_item, "ValidationException",
                         "Can not use both expression and non-expression parameters in the same request: "
                         "Non-expression parameters: {AttributeUpdates} Expression parameters: {UpdateExpression}",
                         TableName=self.table, Key={"pk": {"S": "x"}}, UpdateExpression="SET a = :v",
                         ExpressionAttributeValues={":v": {"N": "1"}},
                         AttributeUpdates={"a": {"Value": {"N": "1"}, "Action": "PUT"}})


# Issue 15: what an update does to a missing item, legacy ADD of lists, the order of appends,
# and the overflow of arithmetic.
class UpdateSemantics(UpdateTestCase):
    def test_only_removals_on_a_missing_item_create_nothing(self):
        for mode in ["NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"]:
            for expression, values in [("REMOVE a", None), ("REMOVE x.y", None), ("REMOVE x[0]", None),
                                       ("DELETE s :s", {":s": {"SS": ["a"]}}),
                                       ("REMOVE a DELETE s :s", {":s": {"SS": ["a"]}})]:
                with self.subTest(mode=mode, expression=expression):
                    self.assertIsNone(self.update("missing", expression, values, ReturnValues=mode))
                    self.assertIsNone(self.item("missing"))
        got = self.ddb.update_item(TableName=self.table, Key={"pk": {"S": "missing"}},
                                   AttributeUpdates={"a": {"Action": "DELETE"}}, ReturnValues="ALL_NEW")
        self.assertNotIn("Attributes", got)
        self.assertIsNone(self.item("missing"))
        # A SET, ADD or no update at all still creates the item.
        self.assertEqual(self.update("created", "REMOVE a SET b = :b", {":b": {"N": "1"}},
                                     ReturnValues="ALL_NEW"), {"pk": {"S": "created"}, "b": {"N": "1"}})
        self.ddb.update_item(TableName=self.table, Key={"pk": {"S": "bare"}})
        self.assertEqual(self.item("bare"), {"pk": {"S": "bare"}})
        # On an existing item, a path under a missing attribute is still an error.
        self.assertUpdateError("The document path provided in the update expression is invalid for update",
                               "REMOVE x.y", key="bare")

    def test_legacy_add_appends_lists(self):
        def add(value):
            return self.ddb.update_item(TableName=self.table, Key={"pk": {"S": "list"}},
                                        AttributeUpdates={"l": {"Action": "ADD", "Value": value}},
                                        ReturnValues="UPDATED_NEW")["Attributes"]["l"]
        self.assertEqual(add({"L": [{"S": "a"}]}), {"L": [{"S": "a"}]})
        self.assertEqual(add({"L": [{"N": "1"}, {"S": "a"}]}), {"L": [{"S": "a"}, {"N": "1"}, {"S": "a"}]})
        self.assertError(self.ddb.update_item, "ValidationException", "Type mismatch for attribute to update",
                         TableName=self.table, Key={"pk": {"S": "list"}},
                         AttributeUpdates={"l": {"Action": "ADD", "Value": {"SS": ["a"]}}})
        self.ddb.put_item(TableName=self.table, Item={"pk": {"S": "sets"}, "ns": {"NS": ["1"]}})
        for action in ["ADD", "DELETE"]:
            self.assertError(self.ddb.update_item, "ValidationException",
                             "Type mismatch for attribute to update", TableName=self.table,
                             Key={"pk": {"S": "sets"}},
                             AttributeUpdates={"ns": {"Action": action, "Value": {"SS": ["1"]}}})
        # The expression form keeps its own wording.
        self.assertUpdateError("An operand in the update expression has an incorrect data type",
                               "ADD ns :s", {":s": {"SS": ["1"]}}, key="sets")

    def test_appends_past_the_end_go_in_index_order(self):
        self.ddb.put_item(TableName=self.table, Item={"pk": {"S": "appends"},
                                                      "l": {"L": [{"S": "a"}, {"S": "b"}]}})
        got = self.update("appends", "SET l[7] = :z, l[3] = :x, l[5] = :y, l[0] = :w",
                          {":w": {"S": "w"}, ":x": {"S": "x"}, ":y": {"S": "y"}, ":z": {"S": "z"}},
                          ReturnValues="ALL_NEW")
        self.assertEqual([v["S"] for v in got["l"]["L"]], ["w", "b", "x", "y", "z"])

    def test_arithmetic_overflow(self):
        self.assertUpdateError("Number overflow. Attempting to store a number with magnitude larger than "
                               "supported range", "SET n = :big - :one",
                               {":big": {"N": "1E50"}, ":one": {"N": "1"}})
        self.assertEqual(self.update("sum", "SET n = :a + :b", {":a": {"N": "1E37"}, ":b": {"N": "1"}},
                                     ReturnValues="UPDATED_NEW"), {"n": {"N": "10000000000000000000000000000000000001"}})

if __name__ == "__main__":
    unittest.main()
