"""The legacy parameters through boto3: Expected with ConditionalOperator and AttributeUpdates,
evaluated by the same engine as expressions, with DynamoDB's validation texts."""
import unittest

from botocore.exceptions import ClientError

from ddbd_harness import ServerTestCase, hash_table, unique_name


class Legacy(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = unique_name("legacy")
        cls.ddb.create_table(**hash_table(cls.table))

    def put(self, item, **kwargs):
        return self.ddb.put_item(TableName=self.table, Item=item, **kwargs)

    def assertFails(self, code, message, **kwargs):
        with self.assertRaises(ClientError) as caught:
            self.put({"pk": {"S": "x"}}, **kwargs)
        error = caught.exception.response["Error"]
        self.assertEqual((error["Code"], error["Message"]), (code, message))

    def test_expected_conditions(self):
        self.put({"pk": {"S": "e"}, "n": {"N": "5"}, "s": {"S": "hello"}}, Expected={"pk": {"Exists": False}})
        with self.assertRaises(ClientError):
            self.put({"pk": {"S": "e"}}, Expected={"pk": {"Exists": False}})
        self.put({"pk": {"S": "e"}, "n": {"N": "6"}, "s": {"S": "hello"}},
                 Expected={"n": {"Value": {"N": "5"}}, "s": {"ComparisonOperator": "BEGINS_WITH",
                                                            "AttributeValueList": [{"S": "he"}]}})
        self.put({"pk": {"S": "e"}, "n": {"N": "7"}},
                 Expected={"n": {"ComparisonOperator": "GT", "AttributeValueList": [{"N": "100"}]},
                           "s": {"ComparisonOperator": "NOT_NULL"}}, ConditionalOperator="OR")
        with self.assertRaises(ClientError):
            self.put({"pk": {"S": "e"}}, Expected={"n": {"ComparisonOperator": "IN",
                                                         "AttributeValueList": [{"N": "1"}, {"N": "2"}]}})
        self.ddb.delete_item(TableName=self.table, Key={"pk": {"S": "e"}},
                             Expected={"n": {"ComparisonOperator": "BETWEEN",
                                             "AttributeValueList": [{"N": "7"}, {"N": "8"}]}})

    def test_attribute_updates(self):
        attributes = self.ddb.update_item(
            TableName=self.table, Key={"pk": {"S": "u"}}, ReturnValues="ALL_NEW",
            AttributeUpdates={"n": {"Action": "ADD", "Value": {"N": "2"}}, "s": {"Value": {"S": "x"}},
                              "tags": {"Action": "ADD", "Value": {"SS": ["a", "b"]}}})["Attributes"]
        self.assertEqual(attributes, {"pk": {"S": "u"}, "n": {"N": "2"}, "s": {"S": "x"},
                                      "tags": {"SS": ["a", "b"]}})
        attributes = self.ddb.update_item(
            TableName=self.table, Key={"pk": {"S": "u"}}, ReturnValues="UPDATED_NEW",
            AttributeUpdates={"s": {"Action": "DELETE"}, "tags": {"Action": "DELETE", "Value": {"SS": ["a"]}}},
            Expected={"n": {"Value": {"N": "2"}}})["Attributes"]
        self.assertEqual(attributes, {"tags": {"SS": ["b"]}})

    def test_validation_texts(self):
        invalid = "One or more parameter values were invalid: "
        # PutItem's malformed Expected entries come in DynamoDB's newer envelope (behaviours-to-match
        # B1; these held the texts without it until the 2026 recordings).
        expected = "1 validation error detected: " + invalid
        self.assertFails("ValidationException", expected + "Value must be provided when Exists is null for Attribute: a",
                         Expected={"a": {}})
        self.assertFails("ValidationException", expected + "Value must be provided when Exists is true for Attribute: a",
                         Expected={"a": {"Exists": True}})
        self.assertFails("ValidationException", expected + "Value cannot be used when Exists is false for Attribute: a",
                         Expected={"a": {"Exists": False, "Value": {"S": "a"}}})
        self.assertFails("ValidationException", expected + "Exists and ComparisonOperator cannot be used together "
                         "for Attribute: a", Expected={"a": {"Exists": True, "ComparisonOperator": "LT"}})
        self.assertFails("ValidationException", expected + "Invalid number of argument(s) for the EQ ComparisonOperator",
                         Expected={"a": {"ComparisonOperator": "EQ", "AttributeValueList": []}})
        self.assertFails("ValidationException", expected + "Invalid number of argument(s) for the NULL ComparisonOperator",
                         Expected={"a": {"ComparisonOperator": "NULL", "AttributeValueList": [{"S": "a"}]}})
        self.assertFails("ValidationException", expected + "ComparisonOperator LT is not valid for SS AttributeValue type",
                         Expected={"a": {"ComparisonOperator": "LT", "AttributeValueList": [{"SS": ["a"]}]}})
        self.assertFails("ValidationException",
                         "ConditionalOperator can only be used when Filter or Expected has two or more elements",
                         Expected={"a": {"Exists": False}}, ConditionalOperator="AND")
        self.assertError(self.ddb.update_item, "ValidationException",
                         invalid + "Only DELETE action is allowed when no attribute value is specified",
                         TableName=self.table, Key={"pk": {"S": "x"}}, AttributeUpdates={"a": {"Action": "PUT"}})
        self.assertError(self.ddb.update_item, "ValidationException",
                         invalid + "Cannot update attribute pk. This attribute is part of the key",
                         TableName=self.table, Key={"pk": {"S": "x"}}, AttributeUpdates={"pk": {"Value": {"S": "y"}}})


def condition(value="x", op="EQ"):
    return {"ComparisonOperator": op, "AttributeValueList": [{"S": value}]}


def mixing(legacy, expression):
    return ("Can not use both expression and non-expression parameters in the same request: "
            "Non-expression parameters: {%s} Expression parameters: {%s}" % (legacy, expression))


# Issue 15: the rules hold for every legacy parameter and every expression parameter, each
# operation listing what is present in its own order.
class ParameterStyles(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = unique_name("styles")
        cls.ddb.create_table(**hash_table(cls.table))
        cls.ddb.put_item(TableName=cls.table, Item={"pk": {"S": "k1"}, "a": {"S": "x"},
                                                    "b": {"S": "y"}, "l": {"L": [{"S": "x"}]}})

    def assertValidation(self, call, message, **kwargs):
        self.assertError(call, "ValidationException", message, TableName=self.table, **kwargs)

    def test_mixing_names_everything_present(self):
        key = {"pk": {"S": "k1"}}
        values = {":v": {"S": "x"}}
        self.assertValidation(self.raw.update_item, mixing(
            "AttributeUpdates, Expected, ConditionalOperator", "UpdateExpression, ConditionExpression"),
            Key=key, AttributeUpdates={"a": {"Value": {"S": "v"}}}, Expected={"a": condition()},
            ConditionalOperator="AND", UpdateExpression="SET a = :v",
            ConditionExpression="attribute_exists(pk)", ExpressionAttributeValues=values)
        self.assertValidation(self.raw.update_item, mixing("AttributeUpdates", "ConditionExpression"),
                              Key=key, AttributeUpdates={"a": {"Value": {"S": "v"}}},
                              ConditionExpression="attribute_exists(pk)")
        self.assertValidation(self.raw.update_item, mixing("Expected", "UpdateExpression"), Key=key,
                              Expected={"a": condition(), "b": condition("y")},
                              UpdateExpression="SET c = :v", ExpressionAttributeValues=values)
        self.assertValidation(self.raw.put_item, mixing("ConditionalOperator", "ConditionExpression"),
                              Item=key, ConditionalOperator="AND",
                              ConditionExpression="attribute_exists(pk)")
        self.assertValidation(self.raw.delete_item, mixing("Expected, ConditionalOperator",
                                                           "ConditionExpression"),
                              Key=key, Expected={"a": condition()}, ConditionalOperator="OR",
                              ConditionExpression="attribute_exists(pk)")
        self.assertValidation(self.raw.get_item, mixing("AttributesToGet", "ProjectionExpression"),
                              Key=key, AttributesToGet=["a"], ProjectionExpression="a")
        self.assertValidation(self.raw.scan, mixing(
            "AttributesToGet, ScanFilter, ConditionalOperator", "ProjectionExpression, FilterExpression"),
            AttributesToGet=["a"], ScanFilter={"a": condition()}, ConditionalOperator="AND",
            FilterExpression="a = :v", ProjectionExpression="b", ExpressionAttributeValues=values)
        self.assertValidation(self.raw.scan, mixing("ScanFilter", "ProjectionExpression"),
                              ScanFilter={"a": condition()}, ProjectionExpression="b")
        self.assertValidation(self.raw.query, mixing(
            "QueryFilter, ConditionalOperator, KeyConditions",
            "ProjectionExpression, FilterExpression, KeyConditionExpression"),
            KeyConditions={"pk": condition("k1")}, QueryFilter={"a": condition()},
            ConditionalOperator="AND", KeyConditionExpression="pk = :p", FilterExpression="a = :v",
            ProjectionExpression="b", ExpressionAttributeValues={":p": {"S": "k1"}, ":v": {"S": "x"}})
        self.assertValidation(self.raw.query, mixing("AttributesToGet", "KeyConditionExpression"),
                              AttributesToGet=["a"], KeyConditionExpression="pk = :p",
                              ExpressionAttributeValues={":p": {"S": "k1"}})

    def test_key_conditions_go_with_filter_and_projection_expressions(self):
        # Without KeyConditionExpression, KeyConditions is not counted (measured against AWS).
        got = self.ddb.query(TableName=self.table, KeyConditions={"pk": condition("k1")},
                             ProjectionExpression="a", FilterExpression="b = :b",
                             ExpressionAttributeValues={":b": {"S": "y"}})
        self.assertEqual(got["Items"], [{"a": {"S": "x"}}])

    def test_conditional_operator_needs_two_conditions(self):
        without = "ConditionalOperator cannot be used without Filter or Expected"
        two = "ConditionalOperator can only be used when Filter or Expected has two or more elements"
        key = {"pk": {"S": "k1"}}
        self.assertValidation(self.ddb.scan, without, ConditionalOperator="AND")
        self.assertValidation(self.ddb.scan, without, ConditionalOperator="OR", ScanFilter={})
        self.assertValidation(self.ddb.scan, two, ConditionalOperator="AND", ScanFilter={"a": condition()})
        self.assertValidation(self.ddb.query, without, ConditionalOperator="AND",
                              KeyConditions={"pk": condition("k1")})
        self.assertValidation(self.ddb.query, without, ConditionalOperator="AND")
        self.assertValidation(self.ddb.put_item, without, Item=key, ConditionalOperator="AND")
        self.assertValidation(self.ddb.delete_item, without, Key=key, ConditionalOperator="OR",
                              Expected={})
        self.assertValidation(self.ddb.update_item, without, Key=key, ConditionalOperator="AND",
                              AttributeUpdates={"a": {"Value": {"S": "v"}}})
        self.assertEqual(self.ddb.scan(TableName=self.table, ConditionalOperator="OR", ScanFilter={
            "a": condition("x"), "b": condition("nope")})["Count"], 1)

    def test_attribute_value_lists_of_one_type_and_ordered_bounds(self):
        same = "One or more parameter values were invalid: AttributeValues inside AttributeValueList " \
               "must be of same type"
        reversed_bounds = ("The BETWEEN condition was provided a range where the lower bound is "
                           "greater than the upper bound")
        key = {"pk": {"S": "k1"}}
        mixed = {"ComparisonOperator": "IN", "AttributeValueList": [{"S": "b"}, {"N": "1"}]}
        # DeleteItem's Expected in the newer layer's envelope (B1), the filters without.
        self.assertValidation(self.ddb.delete_item, "1 validation error detected: " + same, Key=key,
                              Expected={"a": mixed})
        self.assertValidation(self.ddb.scan, same, ScanFilter={"a": mixed})
        self.assertValidation(self.ddb.query, same, KeyConditions={"pk": condition("k1")},
                              QueryFilter={"a": mixed})
        self.assertValidation(self.ddb.scan, same, ScanFilter={"a": {
            "ComparisonOperator": "BETWEEN", "AttributeValueList": [{"S": "a"}, {"N": "1"}]}})
        self.assertValidation(self.ddb.put_item, reversed_bounds, Item=key, Expected={"a": {
            "ComparisonOperator": "BETWEEN", "AttributeValueList": [{"S": "b"}, {"S": "a"}]}})
        self.assertValidation(self.ddb.scan, reversed_bounds, ScanFilter={"a": {
            "ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "10"}, {"N": "9"}]}})

    def test_not_contains_is_false_for_a_missing_attribute(self):
        self.assertEqual(self.ddb.scan(TableName=self.table, ScanFilter={
            "missing": condition("q", "NOT_CONTAINS")})["Count"], 0)
        self.assertEqual(self.ddb.scan(TableName=self.table, ScanFilter={
            "l": condition("q", "NOT_CONTAINS")})["Count"], 1)
        with self.assertRaises(ClientError) as caught:
            self.ddb.put_item(TableName=self.table, Item={"pk": {"S": "k9"}},
                              Expected={"missing": condition("q", "NOT_CONTAINS")})
        self.assertEqual(caught.exception.response["Error"]["Code"], "ConditionalCheckFailedException")

    def test_duplicate_attributes_to_get(self):
        message = "One or more parameter values were invalid: Duplicate value in attribute name: a"
        self.assertValidation(self.ddb.get_item, message, Key={"pk": {"S": "k1"}},
                              AttributesToGet=["a", "b", "a"])
        self.assertValidation(self.ddb.scan, message, AttributesToGet=["a", "a"])

    def test_key_conditions_operators(self):
        self.assertValidation(self.raw.query, (
            "1 validation error detected: Value 'eq' at 'keyConditions.pk.member.comparisonOperator' "
            "failed to satisfy constraint: Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, "
            "NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]"),
            KeyConditions={"pk": condition("k1", "eq")})
        self.assertValidation(self.raw.query, "Attempted conditional constraint is not an indexable "
                              "operation", KeyConditions={"pk": condition("k1", "NE")})
        self.assertValidation(self.raw.query, "One or more parameter values were invalid: "
                              "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type",
                              KeyConditions={"pk": condition("k1"), "sk": {
                                  "ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"N": "1"}]}})

if __name__ == "__main__":
    unittest.main()
