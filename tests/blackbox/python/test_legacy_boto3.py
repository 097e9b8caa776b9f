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
        self.assertFails("ValidationException", invalid + "Value must be provided when Exists is null for Attribute: a",
                         Expected={"a": {}})
        self.assertFails("ValidationException", invalid + "Value must be provided when Exists is true for Attribute: a",
                         Expected={"a": {"Exists": True}})
        self.assertFails("ValidationException", invalid + "Value cannot be used when Exists is false for Attribute: a",
                         Expected={"a": {"Exists": False, "Value": {"S": "a"}}})
        self.assertFails("ValidationException", invalid + "Exists and ComparisonOperator cannot be used together "
                         "for Attribute: a", Expected={"a": {"Exists": True, "ComparisonOperator": "LT"}})
        self.assertFails("ValidationException", invalid + "Invalid number of argument(s) for the EQ ComparisonOperator",
                         Expected={"a": {"ComparisonOperator": "EQ", "AttributeValueList": []}})
        self.assertFails("ValidationException", invalid + "Invalid number of argument(s) for the NULL ComparisonOperator",
                         Expected={"a": {"ComparisonOperator": "NULL", "AttributeValueList": [{"S": "a"}]}})
        self.assertFails("ValidationException", invalid + "ComparisonOperator LT is not valid for SS AttributeValue type",
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


if __name__ == "__main__":
    unittest.main()
