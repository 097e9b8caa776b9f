"""Transactions in flight, made observable with --transaction-hold-ms: while a transaction holds
its items, a single-item write to one gets TransactionConflictException, another transaction or a
TransactGetItems meeting one is cancelled with a TransactionConflict reason, other requests are
answered meanwhile, a batch write hands the held item back in UnprocessedItems, and the held
transaction commits and answers when the hold is over."""
import threading
import time
import unittest

from ddbd_harness import ServerTestCase, client, hash_table, unique_name

S = lambda v: {"S": v}
HOLD_S = 0.6


class TransactionConflicts(ServerTestCase):
    server_args = ("--transaction-hold-ms", str(int(HOLD_S * 1000)))

    def test_a_held_transaction_conflicts_with_writes_and_transactions(self):
        table = unique_name("held")
        self.ddb.create_table(**hash_table(table))
        self.ddb.put_item(TableName=table, Item={"pk": S("counter"), "n": {"N": "0"}})
        outcome = {}

        def held_transaction():
            started = time.monotonic()
            client(self.endpoint).transact_write_items(TransactItems=[
                {"Put": {"TableName": table, "Item": {"pk": S("x")}}},
                {"Update": {"TableName": table, "Key": {"pk": S("counter")}, "UpdateExpression": "SET n = n + :one",
                            "ExpressionAttributeValues": {":one": {"N": "1"}}}}])
            outcome["seconds"] = time.monotonic() - started

        thread = threading.Thread(target=held_transaction)
        thread.start()
        time.sleep(HOLD_S / 4)  # the transaction has decided and holds its items
        started = time.monotonic()
        self.assertEqual(self.ddb.get_item(TableName=table, Key={"pk": S("other")}).get("Item"), None)
        self.assertLess(time.monotonic() - started, HOLD_S / 2)  # answered meanwhile
        self.assertError(self.ddb.put_item, "TransactionConflictException", "Transaction is ongoing for the item",
                         TableName=table, Item={"pk": S("x")})
        # BatchWriteItem has no TransactionConflict error: the held item is handed back.
        answer = self.ddb.batch_write_item(RequestItems={table: [
            {"PutRequest": {"Item": {"pk": S("x"), "by": S("batch")}}}, {"PutRequest": {"Item": {"pk": S("z")}}}]})
        self.assertEqual(answer["UnprocessedItems"],
                         {table: [{"PutRequest": {"Item": {"pk": S("x"), "by": S("batch")}}}]})
        self.assertIn("Item", self.ddb.get_item(TableName=table, Key={"pk": S("z")}))
        with self.assertRaises(self.ddb.exceptions.TransactionCanceledException) as caught:
            self.ddb.transact_write_items(TransactItems=[
                {"Put": {"TableName": table, "Item": {"pk": S("y")}}},
                {"Delete": {"TableName": table, "Key": {"pk": S("counter")}}}])
        self.assertEqual(caught.exception.response["CancellationReasons"],
                         [{"Code": "None"}, {"Code": "TransactionConflict", "Message": "Transaction is ongoing for the item."}])
        with self.assertRaises(self.ddb.exceptions.TransactionCanceledException) as caught:
            self.ddb.transact_get_items(TransactItems=[{"Get": {"TableName": table, "Key": {"pk": S("x")}}}])
        self.assertEqual(caught.exception.response["CancellationReasons"][0]["Code"], "TransactionConflict")
        # Not yet visible: the transaction commits when its hold is over.
        self.assertNotIn("Item", self.ddb.get_item(TableName=table, Key={"pk": S("x")}))
        thread.join()
        self.assertGreaterEqual(outcome["seconds"], HOLD_S * 0.9)
        self.assertIn("Item", self.ddb.get_item(TableName=table, Key={"pk": S("x")}))
        self.assertEqual(self.ddb.get_item(TableName=table, Key={"pk": S("counter")})["Item"]["n"], {"N": "1"})
        # The items are free again.
        self.ddb.put_item(TableName=table, Item={"pk": S("x"), "after": S("yes")})


if __name__ == "__main__":
    unittest.main()
