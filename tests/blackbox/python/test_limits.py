"""No request can take ddbd down (issue 15): every expression kind, JSON body and AttributeValue
nested as deep as the size limits allow gets DynamoDB's error from a server whose threads have
256 KB stacks (`ulimit -s 256`), and the operator limit is counted as DynamoDB counts it."""
import http.client
import json

from ddbd_harness import ServerTestCase, hash_table, unique_name

AUTH = "AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/dynamodb/aws4_request, " \
       "SignedHeaders=host;x-amz-date;x-amz-target, Signature=abc"
NESTING = ("Nesting Levels have exceeded supported limits: Attributes in the item have nested levels "
           "beyond supported limit")
TOO_MANY = "Invalid %s: The expression contains too many operators; operator count: 301"


class DeepInputOnSmallStack(ServerTestCase):
    stack_kb = 256

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = unique_name()
        cls.ddb.create_table(**dict(hash_table(cls.table), AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "S"}], KeySchema=[
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"}]))
        cls.ddb.put_item(TableName=cls.table,
                         Item={"pk": {"S": "p"}, "sk": {"S": "s"}, "a": {"N": "1"}})

    def tearDown(self):
        # The server is still there, and still answers.
        self.assertIn(self.table, self.ddb.list_tables()["TableNames"])
        if self.server:
            self.assertIsNone(self.server.process.poll(), self.server.output())

    def condition_kinds(self, expression):
        """(kind, call) for each operation that takes `expression` as a condition or filter."""
        key = {"pk": {"S": "p"}, "sk": {"S": "s"}}
        return [
            ("ConditionExpression", lambda: self.raw.put_item(
                TableName=self.table, Item=key, ConditionExpression=expression)),
            ("ConditionExpression", lambda: self.raw.delete_item(
                TableName=self.table, Key=key, ConditionExpression=expression)),
            ("ConditionExpression", lambda: self.raw.update_item(
                TableName=self.table, Key=key, UpdateExpression="SET b = :b",
                ExpressionAttributeValues={":b": {"N": "2"}}, ConditionExpression=expression)),
            ("FilterExpression", lambda: self.raw.scan(
                TableName=self.table, FilterExpression=expression)),
            ("FilterExpression", lambda: self.raw.query(
                TableName=self.table, KeyConditionExpression="pk = :p",
                ExpressionAttributeValues={":p": {"S": "p"}}, FilterExpression=expression)),
            ("KeyConditionExpression", lambda: self.raw.query(
                TableName=self.table, KeyConditionExpression=expression)),
        ]

    def assertEveryKind(self, expression, detail):
        for kind, call in self.condition_kinds(expression):
            with self.subTest(kind=kind):
                self.assertError(call, "ValidationException", "Invalid %s: %s" % (kind, detail))

    def test_parentheses_to_the_size_limit(self):
        self.assertEveryKind("(" * 2040 + "a < b" + ")" * 2040,
                             "The expression has redundant parentheses;")
        self.assertEveryKind("(" * 4000 + "a", 'Syntax error; token: "<EOF>", near: "a"')

    def test_operators_count_and_stop_at_301(self):
        nested = "a<b or (" * 454 + "a<b" + ")" * 454
        for kind, call in self.condition_kinds(nested):
            with self.subTest(kind=kind):
                self.assertError(call, "ValidationException", TOO_MANY % kind)
        for expression in ["NOT " * 1000 + "a<b", " OR ".join(["a<b"] * 585)]:
            self.assertError(lambda: self.raw.scan(TableName=self.table,
                                                   FilterExpression=expression),
                             "ValidationException", TOO_MANY % "FilterExpression")

    def test_deepest_accepted_conditions_evaluate(self):
        values = {":one": {"N": "1"}, ":two": {"N": "2"}}
        # 149 levels, 299 operators: accepted and evaluated (true at the innermost level).
        nested = "a = :two or (" * 149 + "a = :one" + ")" * 149
        self.assertEqual(self.ddb.scan(TableName=self.table, FilterExpression=nested,
                                       ExpressionAttributeValues=values)["Count"], 1)
        # 298 NOTs around one comparison: even, so the comparison's own value.
        nots = "NOT (" * 298 + "a = :one" + ")" * 298
        self.assertEqual(self.ddb.scan(TableName=self.table, FilterExpression=nots,
                                       ExpressionAttributeValues={":one": {"N": "1"}})["Count"],
                         1)

    def test_nested_function_calls(self):
        self.assertEveryKind("a < " + "f(" * 1355 + "b" + ")" * 1355,
                             "Invalid function name; function: f")
        self.assertError(lambda: self.raw.update_item(
            TableName=self.table, Key={"pk": {"S": "p"}, "sk": {"S": "s"}},
            UpdateExpression="SET a = " + "f(" * 1355 + "b" + ")" * 1355),
            "ValidationException", "Invalid UpdateExpression: Invalid function name; function: f")

    def test_update_expression_parentheses(self):
        call = self.raw.update_item
        key = {"pk": {"S": "p"}, "sk": {"S": "s"}}
        with self.assertRaises(Exception) as caught:
            call(TableName=self.table, Key=key,
                 UpdateExpression="SET a = " + "(" * 2000 + "b" + ")" * 2000)
        error = caught.exception.response["Error"]
        self.assertEqual(error["Code"], "ValidationException")
        self.assertTrue(error["Message"].startswith("Invalid UpdateExpression: Syntax error"))

    def test_document_paths_longer_than_items_nest(self):
        key = {"pk": {"S": "p"}, "sk": {"S": "s"}}
        self.assertEqual(self.ddb.get_item(TableName=self.table, Key=key,
                                           ProjectionExpression=".".join(["a"] * 32))["Item"], {})
        for kind, extra in [("ProjectionExpression", {}), ("ConditionExpression", {})]:
            path = ".".join(["a"] * 2000)
            call = (lambda: self.raw.get_item(TableName=self.table, Key=key,
                                              ProjectionExpression=path)) \
                if kind == "ProjectionExpression" else \
                (lambda: self.raw.delete_item(TableName=self.table, Key=key,
                                              ConditionExpression="attribute_exists(%s)" % path))
            self.assertError(call, "ValidationException",
                             "Invalid %s: The document path has too many nesting levels; nesting "
                             "levels: 2000" % kind)
        self.assertError(lambda: self.raw.update_item(
            TableName=self.table, Key=key, UpdateExpression="REMOVE " + "a." * 32 + "a"),
            "ValidationException", "Invalid UpdateExpression: The document path has too many "
            "nesting levels; nesting levels: 33")

    def post(self, body, target="DynamoDB_20120810.PutItem"):
        host, port = self.endpoint[len("http://"):].split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        try:
            connection.request("POST", "/", body=body, headers={
                "Content-Type": "application/x-amz-json-1.0", "Authorization": AUTH,
                "X-Amz-Date": "20260101T000000Z",
                "X-Amz-Target": target})
            response = connection.getresponse()
            return response.status, json.loads(response.read())
        finally:
            connection.close()

    def test_attribute_values_nested_too_deep(self):
        value = '{"S":"x"}'
        for _ in range(5000):
            value = '{"M":{"m":%s}}' % value
        body = '{"TableName":"%s","Item":{"pk":{"S":"p"},"sk":{"S":"s"},"deep":%s}}' % (
            self.table, value)
        self.assertEqual(self.post(body.encode()), (400, {
            "__type": "com.amazon.coral.validate#ValidationException",
            "message": "Nesting Levels have exceeded supported limits: Attributes in the item "
                       "have nested levels beyond supported limit"}))

    def test_partiql_nesting(self):
        select = 'SELECT * FROM "%s" WHERE ' % self.table
        malformed = "Statement wasn't well formed, can't be processed: "
        # 64 levels of parentheses and NOT are read and evaluated; the 65th is refused, and so
        # is anything deeper, up to the 8 KB statement limit.
        deepest = "pk = 'p' AND sk = 's' AND " + "(" * 32 + "NOT " * 31 + "(a <> 1)" + ")" * 32
        self.assertEqual(len(self.ddb.execute_statement(Statement=select + deepest)["Items"]), 1)
        for statement in [select + "(" * 65 + "a = 1" + ")" * 65, select + "(" * 8000,
                          select + "NOT " * 2000 + "a = 1"]:
            self.assertError(self.raw.execute_statement, "ValidationException", malformed,
                             Statement=statement)
        nested = "INSERT INTO \"%s\" VALUE {'pk': 'p', 'sk': 'deep', 'l': %s}"
        self.assertError(self.raw.execute_statement, "ValidationException", NESTING,
                         Statement=nested % (self.table, "[" * 4000))
        self.ddb.execute_statement(Statement=nested % (self.table, "[" * 31 + "1" + "]" * 31))
        self.assertError(self.raw.execute_statement, "ValidationException",
                         "The document path has too many nesting levels; nesting levels: 33",
                         Statement='SELECT a%s FROM "%s"' % (".a" * 32, self.table))

    def test_json_nested_to_the_body_limit(self):
        for body in [b"[" * 1_000_000, b'{"TableName":' + b'{"a":' * 200_000 + b"1" +
                     b"}" * 200_000 + b"}"]:
            status, error = self.post(body, "DynamoDB_20120810.DescribeTable")
            self.assertEqual(status, 400)
            self.assertIn("SerializationException", error["__type"])


class BoundedErrorMessages(ServerTestCase):
    """Issue 34: an error that quotes client input quotes at most 65,536 bytes of a value (one past
    the longest attribute name, so what DynamoDB quotes whole stays whole: test_schema_rules_boto3)
    and a message is at most 128 KiB, whatever the
    request held (a 3 MB statement came back whole)."""

    def test_long_values_are_quoted_in_part(self):
        for call, kwargs, path in [
                (self.raw.execute_statement, {"Statement": "SELECT * FROM t WHERE " + "a" * 3000000}, "statement"),
                (self.raw.get_item, {"TableName": "t" * 300000, "Key": {"k": {"S": "v"}}}, "tableName")]:
            with self.assertRaises(Exception) as caught:
                call(**kwargs)
            error = caught.exception.response["Error"]
            self.assertEqual(error["Code"], "ValidationException")
            value = next(iter(kwargs.values()))
            self.assertEqual(error["Message"],
                             "1 validation error detected: Value '%s...' at '%s' failed to satisfy constraint: "
                             "Member must have length less than or equal to %d"
                             % (value[:65536], path, 8192 if path == "statement" else 255))

    def test_a_value_at_the_limit_is_quoted_whole(self):
        for length, quoted in [(65536, "t" * 65536), (65537, "t" * 65536 + "...")]:
            with self.assertRaises(Exception) as caught:
                self.raw.describe_table(TableName="t" * length)
            self.assertEqual(caught.exception.response["Error"]["Message"],
                             "1 validation error detected: Value '%s' at 'tableName' failed to satisfy "
                             "constraint: Member must have length less than or equal to 255" % quoted)
