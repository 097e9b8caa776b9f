"""Sets come back in DynamoDB's order whatever order they were written or added in: SS and BS
members by their unsigned bytes, NS members by value (../shared/behaviours-to-match.md F1,
recorded against AWS). Test suites written against DynamoDB compare them as arrays."""
from ddbd_harness import ServerTestCase, hash_table, unique_name


class SetOrder(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = unique_name("sets")
        cls.ddb.create_table(**hash_table(cls.table))

    def get(self, key):
        return self.ddb.get_item(TableName=self.table, Key={"pk": {"S": key}})["Item"]

    def test_written_sets_come_back_ordered(self):
        item = {"pk": {"S": "w"}, "ss": {"SS": ["m", "z", "b", "\u00e9", "A"]}, "ns": {"NS": ["10", "2", "-1", "1.5"]},
                "bs": {"BS": [b"\xff", b"\x00", b"a"]},
                "m": {"M": {"inner": {"SS": ["y", "x"]}, "l": {"L": [{"NS": ["3", "-3"]}]}}}}
        self.ddb.put_item(TableName=self.table, Item=item)
        expected = {"pk": {"S": "w"}, "ss": {"SS": ["A", "b", "m", "z", "\u00e9"]},
                    "ns": {"NS": ["-1", "1.5", "2", "10"]}, "bs": {"BS": [b"\x00", b"a", b"\xff"]},
                    "m": {"M": {"inner": {"SS": ["x", "y"]}, "l": {"L": [{"NS": ["-3", "3"]}]}}}}
        self.assertEqual(self.get("w"), expected)
        self.assertEqual(self.ddb.scan(TableName=self.table, ScanFilter={
            "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "w"}]}})["Items"], [expected])
        self.assertEqual(self.ddb.query(TableName=self.table, KeyConditionExpression="pk = :p",
                                        ExpressionAttributeValues={":p": {"S": "w"}})["Items"], [expected])
        self.assertEqual(self.ddb.batch_get_item(RequestItems={self.table: {"Keys": [{"pk": {"S": "w"}}]}})
                         ["Responses"][self.table], [expected])
        old = self.ddb.put_item(TableName=self.table, Item={"pk": {"S": "w"}}, ReturnValues="ALL_OLD")
        self.assertEqual(old["Attributes"], expected)

    def test_added_members_take_their_place(self):
        self.ddb.put_item(TableName=self.table, Item={"pk": {"S": "a"}, "s": {"SS": ["a"]}, "n": {"NS": ["5"]}})
        answer = self.ddb.update_item(TableName=self.table, Key={"pk": {"S": "a"}},
                                      UpdateExpression="ADD s :s, n :n", ReturnValues="ALL_NEW",
                                      ExpressionAttributeValues={":s": {"SS": ["", "c"]}, ":n": {"NS": ["-7", "50"]}})
        self.assertEqual(answer["Attributes"]["s"], {"SS": ["", "a", "c"]})
        self.assertEqual(answer["Attributes"]["n"], {"NS": ["-7", "5", "50"]})
        answer = self.ddb.update_item(TableName=self.table, Key={"pk": {"S": "a"}}, ReturnValues="UPDATED_NEW",
                                      AttributeUpdates={"s": {"Action": "ADD", "Value": {"SS": ["b"]}}})
        self.assertEqual(answer["Attributes"], {"s": {"SS": ["", "a", "b", "c"]}})
        self.assertEqual(self.get("a")["s"], {"SS": ["", "a", "b", "c"]})
        answer = self.ddb.update_item(TableName=self.table, Key={"pk": {"S": "a"}}, ReturnValues="UPDATED_NEW",
                                      UpdateExpression="DELETE s :s", ExpressionAttributeValues={":s": {"SS": ["a"]}})
        self.assertEqual(answer["Attributes"], {"s": {"SS": ["", "b", "c"]}})

    def test_partiql_sets_come_back_ordered(self):
        self.ddb.execute_statement(Statement="INSERT INTO \"%s\" VALUE {'pk': 'p', 's': <<'z', 'a', 'm'>>, "
                                             "'n': <<3, -1, 20>>}" % self.table)
        items = self.ddb.execute_statement(Statement="SELECT * FROM \"%s\" WHERE pk = 'p'" % self.table)["Items"]
        self.assertEqual(items, [{"pk": {"S": "p"}, "s": {"SS": ["a", "m", "z"]}, "n": {"NS": ["-1", "3", "20"]}}])

    def test_equal_sets_whatever_their_order(self):
        self.ddb.put_item(TableName=self.table, Item={"pk": {"S": "e"}, "s": {"SS": ["b", "a"]}})
        self.ddb.put_item(TableName=self.table, Item={"pk": {"S": "e"}, "s": {"SS": ["a", "b"]}},
                          ConditionExpression="s = :s", ExpressionAttributeValues={":s": {"SS": ["b", "a"]}})
