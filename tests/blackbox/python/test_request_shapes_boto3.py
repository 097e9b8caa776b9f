"""The generated request layer (issue 39) through a real client: requests with several faults get
every failure in one ValidationException, in DynamoDB's order, worded as DynamoDB words them
(../shared/behaviours-to-match.md B6, recorded against AWS)."""
from ddbd_harness import ServerTestCase, hash_table, unique_name

RETURN_VALUES = "[ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"
CAPACITY = "[INDEXES, TOTAL, NONE]"


class RequestShapes(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = unique_name("shapes")
        cls.ddb.create_table(**hash_table(cls.table))

    def test_update_item_lists_every_failure_in_dynamodb_order(self):
        self.assertError(
            self.raw.update_item, "ValidationException",
            "4 validation errors detected: Value 'INVALID' at 'returnConsumedCapacity' failed to satisfy "
            "constraint: Member must satisfy enum value set: " + CAPACITY + "; Value '' at 'tableName' "
            "failed to satisfy constraint: Member must have length greater than or equal to 1; Value "
            "'INVALID' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: "
            + RETURN_VALUES + "; Value null at 'key' failed to satisfy constraint: Member must not be null",
            TableName="", ReturnValues="INVALID", ReturnConsumedCapacity="INVALID")
        # With the Key given, ReturnValues is judged first and alone.
        self.assertError(
            self.raw.update_item, "ValidationException",
            "1 validation error detected: Value 'INVALID' at 'returnValues' failed to satisfy constraint: "
            "Member must satisfy enum value set: " + RETURN_VALUES,
            TableName=self.table, Key={"pk": {"S": "a"}}, ReturnValues="INVALID",
            ReturnConsumedCapacity="INVALID")
        self.assertError(
            self.raw.update_item, "ValidationException",
            "1 validation error detected: Value 'INVALID' at 'returnConsumedCapacity' failed to satisfy "
            "constraint: Member must satisfy enum value set: " + CAPACITY,
            TableName=self.table, Key={"pk": {"S": "a"}}, ReturnConsumedCapacity="INVALID")
        self.assertError(
            self.raw.update_item, "ValidationException",
            "2 validation errors detected: Value 'XOR' at 'conditionalOperator' failed to satisfy "
            "constraint: Member must satisfy enum value set: [OR, AND]; Value null at 'key' failed to "
            "satisfy constraint: Member must not be null",
            TableName=self.table, AttributeUpdates={"a": {"Value": {"S": "x"}}},
            Expected={"a": {"Value": {"S": "x"}}, "b": {"Value": {"S": "y"}}}, ConditionalOperator="XOR")

    def test_a_deeply_nested_value_does_not_hide_a_bad_enum(self):
        value = {"S": "x"}
        for _ in range(70):
            value = {"M": {"a": value}}
        self.assertError(
            self.raw.delete_item, "ValidationException",
            "1 validation error detected: Value 'BOGUS' at 'returnValues' failed to satisfy constraint: "
            "Member must satisfy enum value set: " + RETURN_VALUES,
            TableName=self.table, Key={"pk": {"S": "a"}}, ReturnValues="BOGUS",
            ConditionExpression="a = :v", ExpressionAttributeValues={":v": value})

    def test_batch_get_item_request_items(self):
        self.assertError(
            self.raw.batch_get_item, "ValidationException",
            "1 validation error detected: Value at 'RequestItems' failed to satisfy constraint: Member "
            "must have length greater than or equal to 1", RequestItems={})
        self.assertError(
            self.raw.batch_get_item, "ValidationException",
            "1 validation error detected: Value at 'RequestItems.%s.member.Keys' failed to satisfy "
            "constraint: Member must have length greater than or equal to 1" % self.table,
            RequestItems={self.table: {"Keys": []}})
        keys_failure = (
            "Value '{\"a!b\":{\"Keys\":[{\"pk\":{\"S\":\"x\"}}]}}' at 'requestItems' failed to satisfy "
            "constraint: Map keys must satisfy constraint: [Member must have length less than or equal to "
            "255, Member must have length greater than or equal to 3, Member must satisfy regular "
            "expression pattern: [a-zA-Z0-9_.-]+]")
        self.assertError(self.raw.batch_get_item, "ValidationException",
                         "1 validation error detected: " + keys_failure,
                         RequestItems={"a!b": {"Keys": [{"pk": {"S": "x"}}]}})
        self.assertError(self.raw.batch_get_item, "ValidationException",
                         "2 validation errors detected: " + keys_failure + "; Value 'BOGUS' at "
                         "'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum "
                         "value set: " + CAPACITY,
                         RequestItems={"a!b": {"Keys": [{"pk": {"S": "x"}}]}}, ReturnConsumedCapacity="BOGUS")

    def test_transaction_token_before_capacity(self):
        token = "t" * 37
        self.assertError(
            self.raw.transact_write_items, "ValidationException",
            "2 validation errors detected: Value '%s' at 'clientRequestToken' failed to satisfy "
            "constraint: Member must have length less than or equal to 36; Value 'BOGUS' at "
            "'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: %s"
            % (token, CAPACITY),
            TransactItems=[{"Put": {"TableName": self.table, "Item": {"pk": {"S": "a"}}}}],
            ClientRequestToken=token, ReturnConsumedCapacity="BOGUS")

    def test_nested_members_are_named_by_path(self):
        self.assertError(
            self.raw.transact_write_items, "ValidationException",
            "1 validation error detected: Value 'ab' at 'transactItems.2.member.update.tableName' failed to "
            "satisfy constraint: Member must have length greater than or equal to 3",
            TransactItems=[{"Put": {"TableName": self.table, "Item": {"pk": {"S": "a"}}}},
                           {"Update": {"TableName": "ab", "Key": {"pk": {"S": "a"}},
                                       "UpdateExpression": "SET a = :v",
                                       "ExpressionAttributeValues": {":v": {"S": "x"}}}}])
        self.assertError(
            self.raw.update_item, "ValidationException",
            "1 validation error detected: Value 'REPLACE' at 'attributeUpdates.a.member.action' failed to "
            "satisfy constraint: Member must satisfy enum value set: [ADD, PUT, DELETE]",
            TableName=self.table, Key={"pk": {"S": "a"}}, AttributeUpdates={"a": {"Action": "REPLACE"}})

    def test_query_conditional_operator_outside_its_enum(self):
        # Recorded against AWS (behaviours-to-match B6): this text alone, "[ALL, OR]" as AWS sends
        # it, ahead of the bad Select; Scan words it as the model does.
        self.assertError(
            self.raw.query, "ValidationException",
            "Failed to satisfy constraint: Member must satisfy enum value set: [ALL, OR]",
            TableName=self.table, KeyConditions={"pk": {"ComparisonOperator": "EQ",
                                                        "AttributeValueList": [{"S": "a"}]}},
            QueryFilter={"a": {"ComparisonOperator": "NOT_NULL"}, "b": {"ComparisonOperator": "NULL"}},
            ConditionalOperator="XOR", Select="BOGUS")
        self.assertError(
            self.raw.scan, "ValidationException",
            "1 validation error detected: Value 'XOR' at 'conditionalOperator' failed to satisfy constraint: "
            "Member must satisfy enum value set: [OR, AND]", TableName=self.table,
            ScanFilter={"a": {"ComparisonOperator": "NOT_NULL"}, "b": {"ComparisonOperator": "NULL"}},
            ConditionalOperator="XOR")


if __name__ == "__main__":
    import unittest
    unittest.main()
