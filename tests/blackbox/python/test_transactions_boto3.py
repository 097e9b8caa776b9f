"""TransactWriteItems and TransactGetItems through boto3: all or nothing across tables, every
condition evaluated, cancellation reasons in request order with their messages and ALL_OLD
items, the validation errors, consumed capacity (twice the table's units, split as read or
write units) and item collection metrics."""
import unittest

from ddbd_harness import ServerTestCase, composite_table, hash_table, unique_name

S = lambda v: {"S": v}
N = lambda v: {"N": str(v)}

def local_index_table(name):
    """A table keyed by pk and sk with a KEYS_ONLY local index on rank (N): item collections."""
    args = composite_table(name)
    args["AttributeDefinitions"].append({"AttributeName": "rank", "AttributeType": "N"})
    args["LocalSecondaryIndexes"] = [{"IndexName": "by-rank", "Projection": {"ProjectionType": "KEYS_ONLY"},
                                      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                    {"AttributeName": "rank", "KeyType": "RANGE"}]}]
    return args


CANCELLED = "Transaction cancelled, please refer cancellation reasons for specific reasons [%s]"
NESTING = ("Nesting Levels have exceeded supported limits: Attributes in the item have nested levels "
           "beyond supported limit")


def deep(levels):
    """A string wrapped in `levels` single-key maps."""
    value = S("x")
    for _ in range(levels):
        value = {"M": {"n": value}}
    return value


class Transactions(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.accounts = unique_name("tx-acct")
        cls.ddb.create_table(**hash_table(cls.accounts))
        cls.ledger = unique_name("tx-ledger")
        cls.ddb.create_table(**composite_table(cls.ledger))

    def balance(self, name):
        item = self.ddb.get_item(TableName=self.accounts, Key={"pk": S(name)}, ConsistentRead=True).get("Item")
        return None if item is None else int(item["bal"]["N"])

    def transfer(self, source, target, amount, **extra):
        condition = {"ConditionExpression": "bal >= :x"}
        return [
            {"Update": dict(TableName=self.accounts, Key={"pk": S(source)}, UpdateExpression="SET bal = bal - :x",
                            ExpressionAttributeValues={":x": N(amount)}, **condition, **extra)},
            {"Update": dict(TableName=self.accounts, Key={"pk": S(target)}, UpdateExpression="SET bal = bal + :x",
                            ExpressionAttributeValues={":x": N(amount)})},
            {"Put": {"TableName": self.ledger, "Item": {"pk": S(source), "sk": S("to-%s-%d" % (target, amount))}}},
        ]

    def cancel(self, items, **kwargs):
        with self.assertRaises(self.ddb.exceptions.TransactionCanceledException) as caught:
            self.ddb.transact_write_items(TransactItems=items, **kwargs)
        return caught.exception.response

    def test_all_actions_apply_together_across_tables(self):
        self.ddb.put_item(TableName=self.accounts, Item={"pk": S("alice"), "bal": N(100)})
        self.ddb.put_item(TableName=self.accounts, Item={"pk": S("bob"), "bal": N(0)})
        self.ddb.transact_write_items(TransactItems=self.transfer("alice", "bob", 30))
        self.assertEqual((self.balance("alice"), self.balance("bob")), (70, 30))
        ledger = self.ddb.get_item(TableName=self.ledger, Key={"pk": S("alice"), "sk": S("to-bob-30")})
        self.assertIn("Item", ledger)

    def test_a_failed_condition_cancels_everything_and_names_each_action(self):
        self.ddb.put_item(TableName=self.accounts, Item={"pk": S("carol"), "bal": N(10)})
        self.ddb.put_item(TableName=self.accounts, Item={"pk": S("dave"), "bal": N(0)})
        answer = self.cancel(self.transfer("carol", "dave", 50, ReturnValuesOnConditionCheckFailure="ALL_OLD"))
        self.assertEqual(answer["Error"]["Message"], CANCELLED % "ConditionalCheckFailed, None, None")
        self.assertEqual(answer["CancellationReasons"], [
            {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed",
             "Item": {"pk": S("carol"), "bal": N(10)}},
            {"Code": "None"}, {"Code": "None"}])
        self.assertEqual((self.balance("carol"), self.balance("dave")), (10, 0))
        self.assertNotIn("Item", self.ddb.get_item(TableName=self.ledger, Key={"pk": S("carol"), "sk": S("to-dave-50")}))

    def test_every_condition_is_evaluated(self):
        answer = self.cancel([
            {"ConditionCheck": {"TableName": self.accounts, "Key": {"pk": S("nobody-1")},
                                "ConditionExpression": "attribute_exists(pk)"}},
            {"Put": {"TableName": self.accounts, "Item": {"pk": S("ok")}}},
            {"ConditionCheck": {"TableName": self.accounts, "Key": {"pk": S("nobody-2")},
                                "ConditionExpression": "attribute_exists(pk)", "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}])
        self.assertEqual(answer["Error"]["Message"], CANCELLED % "ConditionalCheckFailed, None, ConditionalCheckFailed")
        # No item to return: no Item member even with ALL_OLD.
        self.assertNotIn("Item", answer["CancellationReasons"][2])
        self.assertIsNone(self.balance("ok"))

    def test_a_bad_key_is_that_actions_validation_error(self):
        answer = self.cancel([
            {"Put": {"TableName": self.accounts, "Item": {"pk": S("fine")}}},
            {"Delete": {"TableName": self.accounts, "Key": {"pk": N(1)}}},
            {"Delete": {"TableName": self.accounts, "Key": {"pk": N(2)}}}])
        self.assertEqual([reason["Code"] for reason in answer["CancellationReasons"]], ["None", "ValidationError", "None"])
        self.assertEqual(answer["CancellationReasons"][1]["Message"],
                         "The provided key element does not match the schema")

    def test_empty_keys_and_oversized_puts_are_refused_before_the_transaction(self):
        # behaviours-to-match C2 and C3, recorded against AWS: the whole request's ValidationException,
        # not a cancellation; in request order (a bad key before them still cancels).
        empty = ("One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
                 "contain an empty %s value. Key: pk")
        fine = {"Put": {"TableName": self.accounts, "Item": {"pk": S("fine")}}}
        for action, kind in (({"Put": {"TableName": self.accounts, "Item": {"pk": S("")}}}, "string"),
                             ({"Update": {"TableName": self.accounts, "Key": {"pk": S("")},
                                          "UpdateExpression": "SET a = :a", "ExpressionAttributeValues": {":a": N(1)}}},
                              "string"),
                             ({"Delete": {"TableName": self.accounts, "Key": {"pk": S("")}}}, "string"),
                             ({"ConditionCheck": {"TableName": self.accounts, "Key": {"pk": S("")},
                                                  "ConditionExpression": "attribute_exists(pk)"}}, "string")):
            with self.subTest(action=list(action)[0]):
                self.assertError(self.ddb.transact_write_items, "ValidationException", empty % kind,
                                 TransactItems=[fine, action])
        binary = unique_name("tx-bin")
        self.ddb.create_table(TableName=binary, BillingMode="PAY_PER_REQUEST",
                              AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "B"}],
                              KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        self.assertError(self.ddb.transact_write_items, "ValidationException", empty % "binary",
                         TransactItems=[{"Delete": {"TableName": binary, "Key": {"pk": {"B": b""}}}}])
        self.assertError(self.ddb.transact_write_items, "ValidationException",
                         "Item size has exceeded the maximum allowed size",
                         TransactItems=[fine, {"Put": {"TableName": self.accounts,
                                                       "Item": {"pk": S("big"), "v": S("x" * 409601)}}}])
        answer = self.cancel([{"Delete": {"TableName": self.accounts, "Key": {"pk": N(1)}}},
                              {"Delete": {"TableName": self.accounts, "Key": {"pk": S("")}}}])
        self.assertEqual([reason["Code"] for reason in answer["CancellationReasons"]], ["ValidationError", "None"])
        self.assertIsNone(self.balance("fine"))
        # An element with no action (C4).
        self.assertError(self.raw.transact_write_items, "ValidationException",
                         "1 validation error detected: Value '' at 'transactItems' failed to satisfy constraint: "
                         "TransactWriteRequest should contain Delete or Put or Update or ConditionCheck",
                         TransactItems=[{}])

    def test_actions_are_validated_one_at_a_time_in_request_order(self):
        # behaviours-to-match C1 and B5, recorded against AWS: the first action's problem wins
        # whatever the kinds; within an item its own attribute names come first, then its values'
        # nesting, then the names inside its maps; an action's expressions before its values'
        # nesting.
        in_values = "ExpressionAttributeValues contains invalid value: %s for key :deep" % NESTING
        check = {"ConditionCheck": {"TableName": self.accounts, "Key": {"pk": S("c1")},
                                    "ConditionExpression": "v <> :deep",
                                    "ExpressionAttributeValues": {":deep": deep(40)}}}
        unnamed = {"Put": {"TableName": self.accounts, "Item": {"pk": S("c1"), "": S("x")}}}
        self.assertError(self.raw.transact_write_items, "ValidationException", in_values,
                         TransactItems=[check, unnamed])
        self.assertError(self.raw.transact_write_items, "ValidationException", "Empty attribute name",
                         TransactItems=[unnamed, check])
        # Within one item, either order of the members.
        for item in ({"pk": S("c1"), "d": deep(40), "": S("x")}, {"pk": S("c1"), "": S("x"), "d": deep(40)}):
            self.assertError(self.raw.transact_write_items, "ValidationException", "Empty attribute name",
                             TransactItems=[{"Put": {"TableName": self.accounts, "Item": item}}])
        self.assertError(self.raw.transact_write_items, "ValidationException", NESTING,
                         TransactItems=[{"Put": {"TableName": self.accounts, "Item": {
                             "pk": S("c1"), "m": {"M": {"": S("x")}}, "d": deep(40)}}}])
        # An action's expression problems before its key's nesting.
        deep_key = {"pk": deep(100)}
        for extra, message in (
                ({"ConditionExpression": "v <>"}, None),
                ({"ConditionExpression": "attribute_exists(v)", "ExpressionAttributeValues": {":u": N(1)}},
                 "Value provided in ExpressionAttributeValues unused in expressions: keys: {:u}")):
            with self.subTest(extra=extra):
                with self.assertRaises(Exception) as caught:
                    self.raw.transact_write_items(TransactItems=[
                        {"Delete": dict(TableName=self.accounts, Key=deep_key, **extra)}])
                error = caught.exception.response["Error"]
                self.assertEqual(error["Code"], "ValidationException")
                if message is None:
                    self.assertTrue(error["Message"].startswith("Invalid ConditionExpression: Syntax error"),
                                    error["Message"])
                else:
                    self.assertEqual(error["Message"], message)

    def test_condition_check_and_update_values_nest_a_level_deeper(self):
        # behaviours-to-match B5, recorded against AWS: 32 wraps are not refused in a ConditionCheck's
        # values; in an Update's they cancel the transaction when they would make the item too deep.
        self.ddb.put_item(TableName=self.accounts, Item={"pk": S("b5"), "v": N(1)})
        self.ddb.transact_write_items(TransactItems=[{"ConditionCheck": {
            "TableName": self.accounts, "Key": {"pk": S("b5")}, "ConditionExpression": "v <> :deep",
            "ExpressionAttributeValues": {":deep": deep(32)}}}])
        answer = self.cancel([{"Update": {"TableName": self.accounts, "Key": {"pk": S("b5")},
                                          "UpdateExpression": "SET d = :deep",
                                          "ExpressionAttributeValues": {":deep": deep(32)}}}])
        self.assertEqual(answer["CancellationReasons"], [{"Code": "ValidationError", "Message": NESTING}])
        self.ddb.transact_write_items(TransactItems=[{"Update": {
            "TableName": self.accounts, "Key": {"pk": S("b5")}, "UpdateExpression": "SET d = :deep",
            "ExpressionAttributeValues": {":deep": deep(31)}}}])
        self.assertError(self.raw.transact_write_items, "ValidationException",
                         "ExpressionAttributeValues contains invalid value: %s for key :deep" % NESTING,
                         TransactItems=[{"Update": {"TableName": self.accounts, "Key": {"pk": S("b5")},
                                                    "UpdateExpression": "SET d = :deep",
                                                    "ExpressionAttributeValues": {":deep": deep(33)}}}])

    def test_the_same_item_twice_is_refused(self):
        self.assertError(self.ddb.transact_write_items, "ValidationException",
                         "Transaction request cannot include multiple operations on one item",
                         TransactItems=[{"Put": {"TableName": self.accounts, "Item": {"pk": S("x")}}},
                                        {"ConditionCheck": {"TableName": self.accounts, "Key": {"pk": S("x")},
                                                            "ConditionExpression": "attribute_not_exists(pk)"}}])

    def test_request_shape_errors(self):
        self.assertError(self.raw.transact_write_items, "ValidationException",
                         "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: "
                         "Member must have length greater than or equal to 1", TransactItems=[])
        too_many = [{"Put": {"TableName": self.accounts, "Item": {"pk": S("p%d" % i)}}} for i in range(101)]
        with self.assertRaises(self.ddb.exceptions.ClientError) as caught:
            self.raw.transact_write_items(TransactItems=too_many)
        message = caught.exception.response["Error"]["Message"]
        self.assertIn("transactItems", message)
        self.assertIn("less than or equal to 100", message)
        self.assertError(self.raw.transact_write_items, "ValidationException",
                         "1 validation error detected: Value null at 'transactItems.1.member.conditionCheck."
                         "conditionExpression' failed to satisfy constraint: Member must not be null",
                         TransactItems=[{"ConditionCheck": {"TableName": self.accounts, "Key": {"pk": S("x")}}}])
        self.assertError(self.raw.transact_write_items, "ValidationException",
                         "1 validation error detected: Value 'dog' at 'transactItems.1.member.put."
                         "returnValuesOnConditionCheckFailure' failed to satisfy constraint: Member must satisfy "
                         "enum value set: [ALL_OLD, NONE]",
                         TransactItems=[{"Put": {"TableName": self.accounts, "Item": {"pk": S("x")},
                                                 "ReturnValuesOnConditionCheckFailure": "dog"}}])
        self.assertError(self.raw.transact_write_items, "ValidationException",
                         "1 validation error detected: Value '%s' at 'clientRequestToken' failed to satisfy "
                         "constraint: Member must have length less than or equal to 36" % ("t" * 37),
                         TransactItems=[{"Put": {"TableName": self.accounts, "Item": {"pk": S("x")}}}],
                         ClientRequestToken="t" * 37)
        self.assertError(self.ddb.transact_write_items, "ResourceNotFoundException", "Requested resource not found",
                         TransactItems=[{"Put": {"TableName": "no-such-table", "Item": {"pk": S("x")}}}])
        # Expression errors are the request's, not an action's.
        self.assertError(self.ddb.transact_write_items, "ValidationException",
                         "Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}",
                         TransactItems=[{"Put": {"TableName": self.accounts, "Item": {"pk": S("x")},
                                                 "ConditionExpression": "attribute_not_exists(pk)",
                                                 "ExpressionAttributeValues": {":unused": S("u")}}}])

    def test_capacity_is_twice_the_table_units_as_write_units(self):
        answer = self.ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": self.accounts, "Item": {"pk": S("cap"), "d": S("x" * 1500)}}},
            {"ConditionCheck": {"TableName": self.ledger, "Key": {"pk": S("cap"), "sk": S("1")},
                                "ConditionExpression": "attribute_not_exists(pk)"}}],
            ReturnConsumedCapacity="TOTAL")
        self.assertEqual(answer["ConsumedCapacity"], [
            {"TableName": self.accounts, "CapacityUnits": 4.0, "WriteCapacityUnits": 4.0},
            {"TableName": self.ledger, "CapacityUnits": 2.0, "WriteCapacityUnits": 2.0}])

    def test_get_items_reads_a_consistent_set_with_projections(self):
        self.ddb.put_item(TableName=self.accounts, Item={"pk": S("g1"), "bal": N(5), "note": S("n")})
        answer = self.ddb.transact_get_items(TransactItems=[
            {"Get": {"TableName": self.accounts, "Key": {"pk": S("g1")}, "ProjectionExpression": "#b",
                     "ExpressionAttributeNames": {"#b": "bal"}}},
            {"Get": {"TableName": self.ledger, "Key": {"pk": S("none"), "sk": S("none")}}}],
            ReturnConsumedCapacity="TOTAL")
        self.assertEqual(answer["Responses"], [{"Item": {"bal": N(5)}}, {}])
        self.assertEqual(answer["ConsumedCapacity"], [
            {"TableName": self.accounts, "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0},
            {"TableName": self.ledger, "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0}])
        self.assertError(self.ddb.transact_get_items, "ValidationException",
                         "Transaction request cannot include multiple operations on one item",
                         TransactItems=[{"Get": {"TableName": self.accounts, "Key": {"pk": S("g1")}}}] * 2)

    def test_item_collection_metrics_for_tables_with_a_local_index(self):
        table = unique_name("tx-lsi")
        self.ddb.create_table(**local_index_table(table))
        answer = self.ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": table, "Item": {"pk": S("c"), "sk": S("1"), "rank": N(1)}}},
            {"Put": {"TableName": self.accounts, "Item": {"pk": S("icm")}}}], ReturnItemCollectionMetrics="SIZE")
        self.assertEqual(answer["ItemCollectionMetrics"], {
            table: [{"ItemCollectionKey": {"pk": S("c")}, "SizeEstimateRangeGB": [0.0, 1.0]}]})

    def test_a_client_request_token_applies_once(self):
        self.ddb.put_item(TableName=self.accounts, Item={"pk": S("counter"), "bal": N(0)})
        items = [{"Update": {"TableName": self.accounts, "Key": {"pk": S("counter")},
                             "UpdateExpression": "SET bal = bal + :one", "ExpressionAttributeValues": {":one": N(1)}}}]
        first = self.ddb.transact_write_items(TransactItems=items, ClientRequestToken="order-42",
                                              ReturnConsumedCapacity="TOTAL")
        self.assertEqual(first["ConsumedCapacity"],
                         [{"TableName": self.accounts, "CapacityUnits": 2.0, "WriteCapacityUnits": 2.0}])
        again = self.ddb.transact_write_items(TransactItems=items, ClientRequestToken="order-42",
                                              ReturnConsumedCapacity="TOTAL")
        self.assertEqual(self.balance("counter"), 1)
        # A repeat reports read units, as the API reference documents.
        self.assertEqual(again["ConsumedCapacity"],
                         [{"TableName": self.accounts, "CapacityUnits": 1.0, "ReadCapacityUnits": 1.0}])
        with self.assertRaises(self.ddb.exceptions.IdempotentParameterMismatchException):
            self.ddb.transact_write_items(TransactItems=items + [
                {"Put": {"TableName": self.accounts, "Item": {"pk": S("other")}}}], ClientRequestToken="order-42")
        # Without a token each call applies.
        self.ddb.transact_write_items(TransactItems=items)
        self.assertEqual(self.balance("counter"), 2)

    def test_a_cancelled_call_is_evaluated_afresh_when_repeated(self):
        items = [{"ConditionCheck": {"TableName": self.accounts, "Key": {"pk": S("gate")},
                                     "ConditionExpression": "attribute_exists(pk)"}},
                 {"Put": {"TableName": self.accounts, "Item": {"pk": S("behind-gate")}}}]
        self.cancel(items, ClientRequestToken="gate-1")
        self.ddb.put_item(TableName=self.accounts, Item={"pk": S("gate")})
        self.ddb.transact_write_items(TransactItems=items, ClientRequestToken="gate-1")
        self.assertIsNotNone(self.ddb.get_item(TableName=self.accounts, Key={"pk": S("behind-gate")}).get("Item"))

    def test_puts_over_4_mb_together_are_refused_deletes_are_not(self):
        big = "x" * (390 * 1024)
        puts = [{"Put": {"TableName": self.accounts, "Item": {"pk": S("big%d" % i), "d": S(big)}}} for i in range(11)]
        with self.assertRaises(self.ddb.exceptions.ClientError) as caught:
            self.ddb.transact_write_items(TransactItems=puts)
        self.assertEqual(caught.exception.response["Error"]["Code"], "ValidationException")
        self.assertIn("size cannot exceed", caught.exception.response["Error"]["Message"])
        self.assertIsNone(self.balance("big0"))
        for put in puts:  # the same items one by one, then deleted together
            self.ddb.put_item(TableName=self.accounts, Item=put["Put"]["Item"])
        self.ddb.transact_write_items(TransactItems=[
            {"Delete": {"TableName": self.accounts, "Key": {"pk": S("big%d" % i)}}} for i in range(11)])

    def test_each_action_failing_in_turn_leaves_nothing_applied(self):
        for failing in range(4):
            items = []
            for i in range(4):
                action = {"TableName": self.accounts, "Item": {"pk": S("turn-%d-%d" % (failing, i))}}
                if i == failing:
                    action["ConditionExpression"] = "attribute_exists(pk)"  # the item is new: fails
                items.append({"Put": action})
            answer = self.cancel(items)
            codes = [reason["Code"] for reason in answer["CancellationReasons"]]
            self.assertEqual(codes, ["ConditionalCheckFailed" if i == failing else "None" for i in range(4)])
            for i in range(4):
                self.assertIsNone(self.balance("turn-%d-%d" % (failing, i)), (failing, i))


class TransactionCollections(ServerTestCase):
    server_args = ("--item-collection-limit-bytes", "300")

    def test_an_outgrown_item_collection_cancels_the_transaction(self):
        table = unique_name("tx-lsi")
        self.ddb.create_table(**local_index_table(table))
        other = unique_name("tx-plain")
        self.ddb.create_table(**hash_table(other))
        with self.assertRaises(self.ddb.exceptions.TransactionCanceledException) as caught:
            self.ddb.transact_write_items(TransactItems=[
                {"Put": {"TableName": other, "Item": {"pk": S("fine")}}},
                {"Put": {"TableName": table, "Item": {"pk": S("c"), "sk": S("1"), "rank": N(1), "d": S("x" * 400)}}}])
        self.assertEqual(caught.exception.response["CancellationReasons"], [
            {"Code": "None"}, {"Code": "ItemCollectionSizeLimitExceeded", "Message": "Collection size exceeded."}])
        self.assertNotIn("Item", self.ddb.get_item(TableName=other, Key={"pk": S("fine")}))


if __name__ == "__main__":
    unittest.main()
