"""Secondary indexes through boto3: the classic designs (status + date GSI, inverted index, sparse
index, LSI on a second sort key), projections, index reads and paging, and validation texts."""
import unittest

from ddbd_harness import ServerTestCase, unique_name

S = lambda v: {"S": v}
N = lambda v: {"N": str(v)}


class Indexes(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = unique_name("idx")
        cls.ddb.create_table(
            TableName=cls.table, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": n, "AttributeType": t} for n, t in
                                  [("pk", "S"), ("sk", "S"), ("status", "S"), ("created", "N"), ("amount", "N")]],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
            GlobalSecondaryIndexes=[
                {"IndexName": "by-status", "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["note"]},
                 "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"},
                               {"AttributeName": "created", "KeyType": "RANGE"}]},
                {"IndexName": "inverted", "Projection": {"ProjectionType": "ALL"},
                 "KeySchema": [{"AttributeName": "sk", "KeyType": "HASH"}, {"AttributeName": "pk", "KeyType": "RANGE"}]}],
            LocalSecondaryIndexes=[
                {"IndexName": "by-amount", "Projection": {"ProjectionType": "KEYS_ONLY"},
                 "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "amount", "KeyType": "RANGE"}]}])
        for customer in ("c1", "c2"):
            for i in range(5):
                item = {"pk": S(customer), "sk": S("order#%d" % i), "created": N(1000 + i), "amount": N(i * 10),
                        "note": S("note %d" % i), "secret": S("not projected")}
                if i != 2:  # order#2 has no status: it stays out of the sparse index
                    item["status"] = S("open" if i % 2 else "closed")
                cls.ddb.put_item(TableName=cls.table, Item=item)

    def query(self, **kwargs):
        return self.ddb.query(TableName=self.table, **kwargs)

    def test_describe_shows_every_index(self):
        table = self.ddb.describe_table(TableName=self.table)["Table"]
        gsis = {g["IndexName"]: g for g in table["GlobalSecondaryIndexes"]}
        self.assertEqual(gsis["by-status"]["IndexStatus"], "ACTIVE")
        self.assertEqual(gsis["by-status"]["ItemCount"], 8)  # sparse: 2 of 10 lack status
        self.assertEqual(gsis["inverted"]["ItemCount"], 10)
        self.assertEqual(gsis["by-status"]["Projection"], {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["note"]})
        self.assertEqual(gsis["by-status"]["IndexArn"], table["TableArn"] + "/index/by-status")
        self.assertEqual(gsis["by-status"]["ProvisionedThroughput"]["ReadCapacityUnits"], 0)
        lsi = table["LocalSecondaryIndexes"][0]
        self.assertEqual((lsi["IndexName"], lsi["ItemCount"]), ("by-amount", 10))
        self.assertNotIn("IndexStatus", lsi)

    def test_status_and_date_gsi_with_include_projection(self):
        result = self.query(IndexName="by-status", KeyConditionExpression="#s = :s AND created >= :t",
                            ExpressionAttributeNames={"#s": "status"},
                            ExpressionAttributeValues={":s": S("closed"), ":t": N(1001)})
        # Closed orders are #0 (created 1000) and #4 (1004) of each customer; only #4 is >= 1001.
        self.assertEqual(sorted((i["pk"]["S"], i["sk"]["S"]) for i in result["Items"]),
                         [("c1", "order#4"), ("c2", "order#4")])
        for item in result["Items"]:
            self.assertEqual(set(item), {"pk", "sk", "status", "created", "note"})  # INCLUDE projection
        everything = self.query(IndexName="by-status", KeyConditionExpression="#s = :s",
                                ExpressionAttributeNames={"#s": "status"}, ExpressionAttributeValues={":s": S("closed")})
        created = [int(i["created"]["N"]) for i in everything["Items"]]
        self.assertEqual(created, sorted(created))

    def test_inverted_index_answers_the_other_direction(self):
        result = self.query(IndexName="inverted", KeyConditionExpression="sk = :o",
                            ExpressionAttributeValues={":o": S("order#3")})
        self.assertEqual([i["pk"]["S"] for i in result["Items"]], ["c1", "c2"])
        self.assertIn("secret", result["Items"][0])  # ALL projection

    def test_sparse_index_leaves_out_items_without_the_key(self):
        scanned = self.ddb.scan(TableName=self.table, IndexName="by-status")
        self.assertEqual(scanned["Count"], 8)
        self.assertNotIn("order#2", [i["sk"]["S"] for i in scanned["Items"]])

    def test_lsi_orders_by_the_second_sort_key_and_fetches_the_rest(self):
        result = self.query(IndexName="by-amount", KeyConditionExpression="pk = :c AND amount BETWEEN :a AND :b",
                            ExpressionAttributeValues={":c": S("c1"), ":a": N(10), ":b": N(30)},
                            ScanIndexForward=False)
        self.assertEqual([i["amount"]["N"] for i in result["Items"]], ["30", "20", "10"])
        self.assertEqual(set(result["Items"][0]), {"pk", "sk", "amount"})  # KEYS_ONLY
        everything = self.query(IndexName="by-amount", KeyConditionExpression="pk = :c",
                                ExpressionAttributeValues={":c": S("c1")}, Select="ALL_ATTRIBUTES", Limit=1)
        self.assertIn("secret", everything["Items"][0])

    def test_index_pages_carry_index_and_table_keys(self):
        page = self.query(IndexName="by-status", KeyConditionExpression="#s = :s",
                          ExpressionAttributeNames={"#s": "status"}, ExpressionAttributeValues={":s": S("open")},
                          Limit=1)
        self.assertEqual(set(page["LastEvaluatedKey"]), {"pk", "sk", "status", "created"})
        seen = []
        for page in self.ddb.get_paginator("query").paginate(
                TableName=self.table, IndexName="by-status", KeyConditionExpression="#s = :s",
                ExpressionAttributeNames={"#s": "status"}, ExpressionAttributeValues={":s": S("open")},
                PaginationConfig={"PageSize": 1}):
            seen.extend((i["pk"]["S"], i["sk"]["S"]) for i in page["Items"])
        self.assertEqual(len(seen), 4)
        self.assertEqual(len(set(seen)), 4)

    def test_parallel_scan_of_an_index_covers_it_once(self):
        seen = []
        for segment in range(3):
            paginator = self.ddb.get_paginator("scan")
            for page in paginator.paginate(TableName=self.table, IndexName="by-status", Segment=segment,
                                           TotalSegments=3, PaginationConfig={"PageSize": 2}):
                seen += [(i["pk"]["S"], i["sk"]["S"]) for i in page["Items"]]
        self.assertEqual(len(seen), 8)  # the sparse index's 8 entries, each once
        self.assertEqual(len(set(seen)), 8)

    def test_writes_move_entries_between_index_partitions(self):
        key = {"pk": S("c1"), "sk": S("order#1")}
        self.ddb.update_item(TableName=self.table, Key=key, UpdateExpression="SET #s = :c",
                             ExpressionAttributeNames={"#s": "status"}, ExpressionAttributeValues={":c": S("cancelled")})
        try:
            cancelled = self.query(IndexName="by-status", KeyConditionExpression="#s = :c",
                                   ExpressionAttributeNames={"#s": "status"},
                                   ExpressionAttributeValues={":c": S("cancelled")})
            self.assertEqual([i["sk"]["S"] for i in cancelled["Items"]], ["order#1"])
        finally:
            self.ddb.update_item(TableName=self.table, Key=key, UpdateExpression="SET #s = :o",
                                 ExpressionAttributeNames={"#s": "status"}, ExpressionAttributeValues={":o": S("open")})

    def test_index_read_errors(self):
        def error(message, **kwargs):
            self.assertError(self.ddb.query, "ValidationException", message, TableName=self.table, **kwargs)
        status = dict(KeyConditionExpression="#s = :s", ExpressionAttributeNames={"#s": "status"},
                      ExpressionAttributeValues={":s": S("open")})
        error("Consistent reads are not supported on global secondary indexes", IndexName="by-status",
              ConsistentRead=True, **status)
        error("One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global "
              "secondary index by-status because its projection type is not ALL", IndexName="by-status",
              Select="ALL_ATTRIBUTES", **status)
        error("The table does not have the specified index: nope", IndexName="nope", **status)
        error("Query condition missed key schema element: status", IndexName="by-status",
              KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("c1")})

    def test_index_key_of_the_wrong_type_is_refused_on_write(self):
        self.assertError(self.ddb.put_item, "ValidationException",
                         "One or more parameter values were invalid: Type mismatch for Index Key status Expected: S "
                         "Actual: N IndexName: by-status", TableName=self.table,
                         Item={"pk": S("c9"), "sk": S("x"), "status": N(1)})
        self.assertError(self.ddb.put_item, "ValidationException",
                         "One or more parameter values are not valid. A value specified for a secondary index key is "
                         "not supported. The AttributeValue for a key attribute cannot contain an empty string value. "
                         "IndexName: by-status, IndexKey: status", TableName=self.table,
                         Item={"pk": S("c9"), "sk": S("x"), "status": S("")})
        self.assertError(self.ddb.put_item, "ValidationException",
                         "One or more parameter values were invalid: Size limit exceeded for Index Key status Actual "
                         "Size: 2049 bytes Max Size: 2048 bytes IndexName: by-status", TableName=self.table,
                         Item={"pk": S("c9"), "sk": S("x"), "status": S("s" * 2049)})
        self.assertError(self.ddb.put_item, "ValidationException",
                         "One or more parameter values were invalid: Size limit exceeded for Index Key pk Actual "
                         "Size: 1025 bytes Max Size: 1024 bytes IndexName: inverted", TableName=self.table,
                         Item={"pk": S("p" * 1025), "sk": S("x")})  # pk is the inverted index's sort key


class IndexDefinitionErrors(ServerTestCase):
    def create(self, **kwargs):
        args = dict(TableName=unique_name("idx-bad"), BillingMode="PAY_PER_REQUEST",
                    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                          {"AttributeName": "g", "AttributeType": "S"}],
                    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        args.update(kwargs)
        return args

    def assertCreateError(self, message, **kwargs):
        self.assertError(self.ddb.create_table, "ValidationException", message, **self.create(**kwargs))

    def gsi(self, name="gsi1", key="g", projection=None, **extra):
        return dict({"IndexName": name, "KeySchema": [{"AttributeName": key, "KeyType": "HASH"}],
                     "Projection": projection or {"ProjectionType": "ALL"}}, **extra)

    def test_texts(self):
        invalid = "One or more parameter values were invalid: "
        self.assertCreateError(invalid + "Duplicate index name: gsi1", GlobalSecondaryIndexes=[self.gsi(), self.gsi()])
        self.assertCreateError(invalid + "Some index key attributes are not defined in AttributeDefinitions. "
                               "Keys: [missing], AttributeDefinitions: [pk, g]",
                               GlobalSecondaryIndexes=[self.gsi(key="missing")])
        self.assertCreateError(invalid + "Some AttributeDefinitions are not used. AttributeDefinitions: [pk, g, x], "
                               "keys used: [pk, g]", GlobalSecondaryIndexes=[self.gsi()],
                               AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("pk", "g", "x")])
        self.assertCreateError(invalid + "Table KeySchema does not have a range key, which is required when "
                               "specifying a LocalSecondaryIndex",
                               LocalSecondaryIndexes=[{"IndexName": "lsi1", "Projection": {"ProjectionType": "ALL"},
                                                       "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                                     {"AttributeName": "g", "KeyType": "RANGE"}]}])
        self.assertCreateError(invalid + "ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified",
                               GlobalSecondaryIndexes=[self.gsi(projection={"ProjectionType": "KEYS_ONLY",
                                                                            "NonKeyAttributes": ["x"]})])
        self.assertCreateError(invalid + "ProvisionedThroughput should not be specified for index: gsi1 when "
                               "BillingMode is PAY_PER_REQUEST", GlobalSecondaryIndexes=[self.gsi(
                                   ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})])
        provisioned = dict(BillingMode="PROVISIONED", ProvisionedThroughput={"ReadCapacityUnits": 1,
                                                                              "WriteCapacityUnits": 1})
        self.assertCreateError(invalid + "ProvisionedThroughput is not specified for index: gsi1",
                               GlobalSecondaryIndexes=[self.gsi()], **provisioned)


class ItemCollectionLimit(ServerTestCase):
    """The 10 GB item-collection limit of tables with LSIs, lowered by a flag so it can be reached."""
    server_args = ("--item-collection-limit-bytes", "3000")

    def test_item_collection_size_limit_exceeded(self):
        table = unique_name("collection")
        self.ddb.create_table(
            TableName=table, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("pk", "sk", "at")],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
            LocalSecondaryIndexes=[{"IndexName": "by-time", "Projection": {"ProjectionType": "KEYS_ONLY"},
                                    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                  {"AttributeName": "at", "KeyType": "RANGE"}]}])
        item = lambda i: {"pk": S("p"), "sk": S("e%03d" % i), "at": S("t%03d" % i), "pad": S("x" * 300)}
        written = 0
        with self.assertRaises(self.ddb.exceptions.ItemCollectionSizeLimitExceededException) as caught:
            for written in range(100):
                self.ddb.put_item(TableName=table, Item=item(written))
        self.assertEqual(caught.exception.response["Error"]["Message"],
                         "The total size of an item collection has exceeded the maximum limit of 10 gigabytes.")
        self.assertEqual(written, 9)  # nine items of ~326 bytes (+ ~20 in the index) fit in 3000
        self.assertEqual(self.ddb.scan(TableName=table, Select="COUNT")["Count"], 9)
        # Another partition is a different collection.
        self.ddb.put_item(TableName=table, Item=dict(item(0), pk=S("q")))


if __name__ == "__main__":
    unittest.main()
