"""ConditionExpression on PutItem and DeleteItem through boto3: outcomes, atomicity under
concurrency, the old item on failure, and DynamoDB's validation texts."""
import threading
import unittest

from botocore.exceptions import ClientError

from ddbd_harness import ServerTestCase, hash_table, unique_name


class Conditions(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = unique_name("cond")
        cls.ddb.create_table(**hash_table(cls.table))

    def put(self, item, **kwargs):
        return self.ddb.put_item(TableName=self.table, Item=item, **kwargs)

    def assertConditionFails(self, call, item=None, **kwargs):
        with self.assertRaises(ClientError) as caught:
            call(TableName=self.table, **kwargs)
        error = caught.exception.response
        self.assertEqual((error["Error"]["Code"], error["Error"]["Message"]),
                         ("ConditionalCheckFailedException", "The conditional request failed"))
        self.assertEqual(error.get("Item"), item)

    def test_put_if_absent(self):
        item = {"pk": {"S": "once"}, "v": {"N": "1"}}
        self.put(item, ConditionExpression="attribute_not_exists(pk)")
        self.assertConditionFails(self.ddb.put_item, Item={"pk": {"S": "once"}, "v": {"N": "2"}},
                                  ConditionExpression="attribute_not_exists(pk)")
        self.assertConditionFails(self.ddb.put_item, item=item, Item={"pk": {"S": "once"}},
                                  ConditionExpression="attribute_not_exists(pk)",
                                  ReturnValuesOnConditionCheckFailure="ALL_OLD")
        got = self.ddb.get_item(TableName=self.table, Key={"pk": {"S": "once"}})["Item"]
        self.assertEqual(got, item)

    def test_optimistic_locking_with_a_version_number(self):
        self.put({"pk": {"S": "doc"}, "version": {"N": "1"}})
        self.put({"pk": {"S": "doc"}, "version": {"N": "2"}}, ConditionExpression="version = :v",
                 ExpressionAttributeValues={":v": {"N": "1"}})
        self.assertConditionFails(self.ddb.put_item, Item={"pk": {"S": "doc"}, "version": {"N": "2"}},
                                  ConditionExpression="version = :v", ExpressionAttributeValues={":v": {"N": "1"}})

    def test_conditional_delete_and_complex_conditions(self):
        self.put({"pk": {"S": "del"}, "status": {"S": "done"}, "tags": {"SS": ["a", "b"]}, "n": {"N": "5"}})
        self.assertConditionFails(self.ddb.delete_item, Key={"pk": {"S": "del"}},
                                  ConditionExpression="#s = :open", ExpressionAttributeNames={"#s": "status"},
                                  ExpressionAttributeValues={":open": {"S": "open"}})
        deleted = self.ddb.delete_item(
            TableName=self.table, Key={"pk": {"S": "del"}}, ReturnValues="ALL_OLD",
            ConditionExpression="(#s IN (:done, :open) AND contains(tags, :a)) OR n BETWEEN :lo AND :hi",
            ExpressionAttributeNames={"#s": "status"},
            ExpressionAttributeValues={":done": {"S": "done"}, ":open": {"S": "open"}, ":a": {"S": "a"},
                                       ":lo": {"N": "100"}, ":hi": {"N": "200"}})
        self.assertEqual(deleted["Attributes"]["n"], {"N": "5"})
        # A condition on an item that does not exist sees no attributes.
        self.assertConditionFails(self.ddb.delete_item, Key={"pk": {"S": "del"}},
                                  ConditionExpression="attribute_exists(pk)")

    def test_only_one_of_many_concurrent_creates_wins(self):
        wins = []

        def create(worker):
            try:
                self.put({"pk": {"S": "race"}, "winner": {"N": str(worker)}},
                         ConditionExpression="attribute_not_exists(pk)")
                wins.append(worker)
            except ClientError as error:
                assert error.response["Error"]["Code"] == "ConditionalCheckFailedException"

        threads = [threading.Thread(target=create, args=(i,)) for i in range(16)]
        [thread.start() for thread in threads]
        [thread.join() for thread in threads]
        self.assertEqual(len(wins), 1)

    def test_validation_texts(self):
        item = {"pk": {"S": "v"}}
        self.assertError(self.ddb.put_item, "ValidationException",
                         "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"= \"",
                         TableName=self.table, Item=item, ConditionExpression="a = ")
        # In DynamoDB's newer envelope (behaviours-to-match B1 records it for UpdateItem; for
        # PutItem inferred. This held the text without it until then); the syntax error above without.
        self.assertError(self.ddb.put_item, "ValidationException",
                         "1 validation error detected: Invalid ConditionExpression: An expression attribute value "
                         "used in expression is not defined; attribute value: :x", TableName=self.table, Item=item,
                         ConditionExpression="a = :x")
        self.assertError(self.ddb.put_item, "ValidationException",
                         "Value provided in ExpressionAttributeValues unused in expressions: keys: {:y}",
                         TableName=self.table, Item=item, ConditionExpression="attribute_exists(a)",
                         ExpressionAttributeValues={":y": {"S": "1"}})
        self.assertError(self.ddb.put_item, "ValidationException",
                         "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}",
                         TableName=self.table, Item=item, ConditionExpression="attribute_exists(a)",
                         ExpressionAttributeNames={"#b": "b"})
        # DynamoDB's newer text and envelope (behaviours-to-match B1; this held "...: ConditionExpression
        # is null" until the 2026 recordings), for the names too, also beside Expected; empty maps and
        # an empty ConditionExpression likewise. The older text stays where the older layer reads.
        envelope = "1 validation error detected: "
        self.assertError(self.ddb.put_item, "ValidationException",
                         envelope + "ExpressionAttributeValues can only be specified when using expressions",
                         TableName=self.table, Item=item, ExpressionAttributeValues={":y": {"S": "1"}})
        self.assertError(self.ddb.delete_item, "ValidationException",
                         envelope + "ExpressionAttributeNames can only be specified when using expressions",
                         TableName=self.table, Key=item, ExpressionAttributeNames={"#y": "y"},
                         Expected={"a": {"Exists": False}})
        self.assertError(self.ddb.put_item, "ValidationException",
                         envelope + "ExpressionAttributeValues must not be empty", TableName=self.table,
                         Item=item, ConditionExpression="attribute_exists(a)", ExpressionAttributeValues={})
        self.assertError(self.ddb.put_item, "ValidationException",
                         envelope + "ExpressionAttributeNames must not be empty", TableName=self.table,
                         Item=item, ConditionExpression="attribute_exists(a)", ExpressionAttributeNames={})
        self.assertError(self.ddb.delete_item, "ValidationException",
                         envelope + "Invalid ConditionExpression: The expression can not be empty;",
                         TableName=self.table, Key=item, ConditionExpression="")
        self.assertError(self.ddb.update_item, "ValidationException",
                         envelope + "Invalid ConditionExpression: An expression attribute value used in "
                         "expression is not defined; attribute value: :v", TableName=self.table, Key=item,
                         UpdateExpression="SET a = :a", ConditionExpression="b = :v",
                         ExpressionAttributeValues={":a": {"S": "x"}})
        # UpdateExpression's own stay without it (B1).
        self.assertError(self.ddb.update_item, "ValidationException",
                         "Invalid UpdateExpression: An expression attribute value used in expression is not "
                         "defined; attribute value: :v", TableName=self.table, Key=item,
                         UpdateExpression="SET a = :v", ExpressionAttributeValues={":a": {"S": "x"}},
                         ConditionExpression="b = :a")
        self.assertError(self.ddb.update_item, "ValidationException",
                         "Invalid UpdateExpression: The expression can not be empty;", TableName=self.table,
                         Key=item, UpdateExpression="")
        self.assertError(self.ddb.transact_write_items, "ValidationException",
                         "ExpressionAttributeValues can only be specified when using expressions: "
                         "ConditionExpression is null",
                         TransactItems=[{"Put": {"TableName": self.table, "Item": item,
                                                 "ExpressionAttributeValues": {":y": {"S": "1"}}}}])
        self.assertError(self.ddb.put_item, "ValidationException",
                         "Invalid ConditionExpression: The expression has redundant parentheses;",
                         TableName=self.table, Item=item, ConditionExpression="((attribute_not_exists(pk)))")
        self.assertError(self.ddb.put_item, "ValidationException",
                         "Invalid ConditionExpression: The first operand must be distinct from the remaining "
                         "operands for this operator or function; operator: contains, first operand: [data]",
                         TableName=self.table, Item=item, ConditionExpression="contains(#a, #a)",
                         ExpressionAttributeNames={"#a": "data"})
        self.assertError(self.ddb.put_item, "ValidationException",
                         "Can not use both expression and non-expression parameters in the same request: "
                         "Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}",
                         TableName=self.table, Item=item, Expected={"pk": {"Exists": False}},
                         ConditionExpression="attribute_not_exists(pk)")
        # PutItem reads its values in DynamoDB's newer validation layer, which words an expression
        # value's fault as an item's, without the older "ExpressionAttributeValues contains invalid
        # value: ... for key :s" wrapper (behaviours-to-match B2 records it for numbers and sets with
        # repeats; for an empty set it is inferred. This held the wrapper until then).
        self.assertError(self.ddb.put_item, "ValidationException",
                         "One or more parameter values were invalid: An string set  may not be empty",
                         TableName=self.table, Item=item,
                         ConditionExpression="a = :s", ExpressionAttributeValues={":s": {"SS": []}})
        self.assertError(self.ddb.scan, "ValidationException",
                         "ExpressionAttributeValues contains invalid value: One or more parameter values were "
                         "invalid: An string set  may not be empty for key :s", TableName=self.table,
                         FilterExpression="a = :s", ExpressionAttributeValues={":s": {"SS": []}})


if __name__ == "__main__":
    unittest.main()
