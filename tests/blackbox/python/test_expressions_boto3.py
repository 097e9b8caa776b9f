"""Expression forms DynamoDB accepts and the errors it gives for misplaced ones (issue 15):
parenthesized SET operands, functions as operands, names that start with '_', syntax-error
context, nesting and operator limits on the normal stack."""
from ddbd_harness import ServerTestCase, hash_table, unique_name


class Expressions(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = unique_name("expr")
        cls.ddb.create_table(**hash_table(cls.table))

    def setUp(self):
        self.key = {"pk": {"S": self.id()}}
        self.ddb.put_item(TableName=self.table, Item=dict(self.key, n={"N": "10"},
                                                         s={"S": "hello"}))

    def update(self, expression, values=None, names=None, **extra):
        args = dict(TableName=self.table, Key=self.key, UpdateExpression=expression,
                    ReturnValues="ALL_NEW", **extra)
        if values:
            args["ExpressionAttributeValues"] = values
        if names:
            args["ExpressionAttributeNames"] = names
        return self.ddb.update_item(**args)["Attributes"]

    def assertConditionError(self, expression, message, values=None):
        args = dict(TableName=self.table, Key=self.key, ConditionExpression=expression)
        if values:
            args["ExpressionAttributeValues"] = values
        self.assertError(self.ddb.delete_item, "ValidationException",
                         "Invalid ConditionExpression: " + message, **args)

    def test_parenthesized_set_operands(self):
        # What ElectroDB generates for add and subtract.
        got = self.update("SET #p = (if_not_exists(#p, :d) - :v), #q = (if_not_exists(#q, :d) + :v)",
                          {":d": {"N": "0"}, ":v": {"N": "3"}}, {"#p": "n", "#q": "m"})
        self.assertEqual((got["n"], got["m"]), ({"N": "7"}, {"N": "3"}))
        got = self.update("SET a = (:v), b = (n) + (:v)", {":v": {"N": "1"}})
        self.assertEqual((got["a"], got["b"]), ({"N": "1"}, {"N": "8"}))
        self.assertError(self.ddb.update_item, "ValidationException",
                         "Invalid UpdateExpression: The expression has redundant parentheses;",
                         TableName=self.table, Key=self.key, UpdateExpression="SET a = ((:v))",
                         ExpressionAttributeValues={":v": {"N": "1"}})

    def test_functions_of_literals(self):
        values = {":hello": {"S": "hello"}, ":five": {"N": "5"}, ":t": {"S": "S"}}
        self.ddb.delete_item(TableName=self.table, Key=self.key, ExpressionAttributeValues=values,
                             ConditionExpression="size(:hello) = :five AND attribute_type(:hello, :t)")
        self.assertConditionError(
            "size(:five) = :five",
            "Incorrect operand type for operator or function; operator or function: size, "
            "operand type: N", {":five": {"N": "5"}})

    def test_misplaced_and_unknown_functions(self):
        values = {":v": {"N": "1"}}
        self.assertConditionError("dog(n) = :v", "Invalid function name; function: dog", values)
        self.assertConditionError("if_not_exists(n, :v) = :v", "The function is not allowed in a "
                                  "condition expression; function: if_not_exists", values)
        self.assertConditionError("n = list_append(n, :v)", "The function is not allowed in a "
                                  "condition expression; function: list_append", values)

    def test_only_if_not_exists_nests(self):
        values = {":l": {"L": [{"S": "x"}]}}
        got = self.update("SET l = list_append(if_not_exists(l, :l), :l)", values)
        self.assertEqual(got["l"], {"L": [{"S": "x"}, {"S": "x"}]})
        self.assertError(self.ddb.update_item, "ValidationException",
                         "Invalid UpdateExpression: Only if_not_exists() function can be nested",
                         TableName=self.table, Key=self.key,
                         UpdateExpression="SET l = list_append(list_append(l, :l), :l)",
                         ExpressionAttributeValues=values)

    def test_names_start_with_a_letter(self):
        self.assertError(self.ddb.update_item, "ValidationException",
                         'Invalid UpdateExpression: Syntax error; token: "_", near: "SET _123"',
                         TableName=self.table, Key=self.key, UpdateExpression="SET _123 = :v",
                         ExpressionAttributeValues={":v": {"N": "1"}})
        self.assertError(self.ddb.get_item, "ValidationException",
                         'Invalid ProjectionExpression: Syntax error; token: "_", near: ", _b"',
                         TableName=self.table, Key=self.key, ProjectionExpression="a, _b")
        self.assertConditionError("n = :v OR _x = :v",
                                  'Syntax error; token: "_", near: "OR _x"', {":v": {"N": "1"}})

    def test_list_indexes_are_32_bit(self):
        self.assertError(self.ddb.get_item, "ValidationException",
                         "Invalid ProjectionExpression: List index is not within the allowable range; "
                         "index: [2147483648]", TableName=self.table, Key=self.key,
                         ProjectionExpression="l[2147483648]")
        self.assertEqual(self.ddb.get_item(TableName=self.table, Key=self.key,
                                           ProjectionExpression="l[2147483647]")["Item"], {})

    def test_syntax_errors_quote_the_next_token(self):
        self.assertConditionError("n == :v", 'Syntax error; token: "=", near: "== :v"',
                                  {":v": {"N": "1"}})

    def test_an_expression_met_before_checks_each_requests_names_and_values(self):
        # The server keeps the parse of a text it met before and binds each request's names and
        # values into it: what it answers must be what a first meeting answers.
        item = dict(self.key, n={"N": "10"}, s={"S": "hello"})
        for _ in range(4):
            self.ddb.put_item(TableName=self.table, Item=item, ConditionExpression="n < :v",
                              ExpressionAttributeValues={":v": {"N": "100"}})
            self.ddb.put_item(TableName=self.table, Item=item, ConditionExpression="#a <> #b",
                              ExpressionAttributeNames={"#a": "n", "#b": "s"})
        self.assertConditionError(
            "n < :v", "Incorrect operand type for operator or function; operator or function: <, "
            "operand type: BOOL", {":v": {"BOOL": True}})
        self.assertError(  # in the newer layer's envelope, as DynamoDB answers it (B1)
            self.ddb.delete_item, "ValidationException", "1 validation error detected: Invalid "
            "ConditionExpression: An expression attribute value used in expression is not "
            "defined; attribute value: :v", TableName=self.table, Key=self.key,
            ConditionExpression="n < :v", ExpressionAttributeValues={":w": {"N": "1"}})
        self.assertError(
            self.ddb.put_item, "ValidationException", "Invalid ConditionExpression: The first "
            "operand must be distinct from the remaining operands for this operator or function; "
            "operator: <>, first operand: [n]", TableName=self.table, Item=item,
            ConditionExpression="#a <> #b", ExpressionAttributeNames={"#a": "n", "#b": "n"})
        self.assertError(
            self.ddb.put_item, "ConditionalCheckFailedException", "The conditional request failed",
            TableName=self.table, Item=item, ConditionExpression="n < :v",
            ExpressionAttributeValues={":v": {"N": "5"}})
        for _ in range(4):
            got = self.ddb.query(TableName=self.table, KeyConditionExpression="pk = :p",
                                 ExpressionAttributeValues={":p": self.key["pk"]})
            self.assertEqual(got["Count"], 1)
        self.assertError(
            self.ddb.query, "ValidationException", "One or more parameter values were invalid: "
            "Condition parameter type does not match schema type", TableName=self.table,
            KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"N": "1"}})

    def test_an_update_met_before_checks_each_requests_names_and_values(self):
        for i in range(4):
            got = self.update("SET #a = :v, #b = :w ADD c :n", {":v": {"N": "1"}, ":w": {"S": "w"},
                              ":n": {"N": "2"}}, {"#a": "x", "#b": "y"})
            self.assertEqual((got["x"], got["y"], got["c"]),
                             ({"N": "1"}, {"S": "w"}, {"N": str(2 * (i + 1))}))
        update = dict(TableName=self.table, Key=self.key,
                      UpdateExpression="SET #a = :v, #b = :w ADD c :n")
        self.assertError(
            self.ddb.update_item, "ValidationException", "Invalid UpdateExpression: Two document "
            "paths overlap with each other; must remove or rewrite one of these paths; path one: "
            "[x], path two: [x]", **update, ExpressionAttributeNames={"#a": "x", "#b": "x"},
            ExpressionAttributeValues={":v": {"N": "1"}, ":w": {"S": "w"}, ":n": {"N": "2"}})
        self.assertError(
            self.ddb.update_item, "ValidationException", "Invalid UpdateExpression: Incorrect "
            "operand type for operator or function; operator: ADD, operand type: STRING, typeSet: "
            "ALLOWED_FOR_ADD_OPERAND", **update, ExpressionAttributeNames={"#a": "x", "#b": "y"},
            ExpressionAttributeValues={":v": {"N": "1"}, ":w": {"S": "w"}, ":n": {"S": "2"}})
