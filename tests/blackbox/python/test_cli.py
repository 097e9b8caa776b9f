"""The AWS CLI against the real ddbd: the README's quick start, and an error as the CLI shows it."""
import json
import os
import subprocess
import unittest

from ddbd_harness import ServerTestCase, unique_name


class AwsCli(ServerTestCase):
    def aws(self, *args):
        env = dict(os.environ, AWS_ACCESS_KEY_ID="AKIDTEST", AWS_SECRET_ACCESS_KEY="secret",
                   AWS_DEFAULT_REGION="us-east-1", AWS_PAGER="", AWS_CONFIG_FILE=os.devnull,
                   AWS_SHARED_CREDENTIALS_FILE=os.devnull)
        return subprocess.run(["aws", "dynamodb", *args, "--endpoint-url", self.endpoint, "--output", "json"],
                              capture_output=True, text=True, env=env, timeout=60)

    def test_create_list_describe_delete(self):
        name = unique_name("cli")
        created = self.aws("create-table", "--table-name", name,
                           "--attribute-definitions", "AttributeName=pk,AttributeType=S",
                           "--key-schema", "AttributeName=pk,KeyType=HASH",
                           "--billing-mode", "PAY_PER_REQUEST")
        self.assertEqual(created.returncode, 0, created.stderr)
        self.assertEqual(json.loads(created.stdout)["TableDescription"]["TableStatus"], "ACTIVE")
        self.assertEqual(self.aws("wait", "table-exists", "--table-name", name).returncode, 0)
        self.assertIn(name, json.loads(self.aws("list-tables").stdout)["TableNames"])
        described = json.loads(self.aws("describe-table", "--table-name", name).stdout)["Table"]
        self.assertEqual(described["KeySchema"], [{"AttributeName": "pk", "KeyType": "HASH"}])
        self.assertEqual(self.aws("delete-table", "--table-name", name).returncode, 0)

    def test_errors_reach_the_cli_with_dynamodb_code_and_message(self):
        result = self.aws("describe-table", "--table-name", "no-such-table")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("An error occurred (ResourceNotFoundException) when calling the DescribeTable "
                      "operation: Requested resource not found: Table: no-such-table not found", result.stderr)

    def test_partiql_statements(self):
        name = unique_name("cli-ql")
        self.assertEqual(self.aws("create-table", "--table-name", name,
                                  "--attribute-definitions", "AttributeName=pk,AttributeType=S",
                                  "--key-schema", "AttributeName=pk,KeyType=HASH",
                                  "--billing-mode", "PAY_PER_REQUEST").returncode, 0)
        inserted = self.aws("execute-statement", "--statement",
                            "INSERT INTO \"%s\" VALUE {'pk': 'cli', 'n': 1}" % name)
        self.assertEqual(inserted.returncode, 0, inserted.stderr)
        selected = self.aws("execute-statement", "--statement", 'SELECT n FROM "%s" WHERE pk = ?' % name,
                            "--parameters", '[{"S": "cli"}]')
        self.assertEqual(json.loads(selected.stdout)["Items"], [{"n": {"N": "1"}}])
        again = self.aws("execute-statement", "--statement",
                         "INSERT INTO \"%s\" VALUE {'pk': 'cli'}" % name)
        self.assertIn("An error occurred (DuplicateItemException) when calling the ExecuteStatement "
                      "operation: Duplicate primary key exists in table", again.stderr)


if __name__ == "__main__":
    unittest.main()
