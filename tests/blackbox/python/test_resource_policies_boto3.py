"""Resource-based policies through boto3: PutResourcePolicy, GetResourcePolicy,
DeleteResourcePolicy and CreateTable's ResourcePolicy, on a table and on its stream (each its own
slot), with revision ids and DynamoDB's errors as measured; never enforced."""
import json
import unittest

from ddbd_harness import ServerTestCase, hash_table, unique_name

ACCOUNT = "000000000000"
INVALID = "One or more parameter values were invalid: "
NOT_FOUND = "Resource-based policy not found for the provided ResourceArn: "


def policy(arn, action="dynamodb:GetItem"):
    return json.dumps({"Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::%s:root" % ACCOUNT},
        "Action": action, "Resource": arn}]})


class ResourcePolicies(ServerTestCase):
    def test_put_get_replace_and_delete(self):
        name = unique_name()
        arn = self.ddb.create_table(**hash_table(name))["TableDescription"]["TableArn"]
        self.assertError(self.ddb.get_resource_policy, "PolicyNotFoundException", NOT_FOUND + arn,
                         ResourceArn=arn)
        first = self.ddb.put_resource_policy(ResourceArn=arn, Policy=policy(arn),
                                             ExpectedRevisionId="NO_POLICY")["RevisionId"]
        self.assertRegex(first, r"^\d{13}$")
        got = self.ddb.get_resource_policy(ResourceArn=arn)
        self.assertEqual((got["Policy"], got["RevisionId"]), (policy(arn), first))
        # The same document again: the same revision.
        self.assertEqual(self.ddb.put_resource_policy(ResourceArn=arn, Policy=policy(arn))["RevisionId"], first)
        self.assertError(self.ddb.put_resource_policy, "PolicyNotFoundException",
                         NOT_FOUND + "Requested policy update expecting none to be present for table %s, but a "
                         "policy exists with revision id %s." % (name, first),
                         ResourceArn=arn, Policy=policy(arn, "dynamodb:*"), ExpectedRevisionId="NO_POLICY")
        self.assertError(self.ddb.put_resource_policy, "PolicyNotFoundException",
                         NOT_FOUND + "Requested update for policy with revision id 123, but the policy associated "
                         "to target table %s has revision id %s." % (name, first),
                         ResourceArn=arn, Policy=policy(arn, "dynamodb:*"), ExpectedRevisionId="123")
        second = self.ddb.put_resource_policy(ResourceArn=arn, Policy=policy(arn, "dynamodb:*"),
                                              ExpectedRevisionId=first)["RevisionId"]
        self.assertGreater(int(second), int(first))
        self.assertEqual(self.ddb.delete_resource_policy(ResourceArn=arn)["RevisionId"], second)
        self.assertError(self.ddb.delete_resource_policy, "PolicyNotFoundException", NOT_FOUND + arn,
                         ResourceArn=arn)

    def test_create_table_attaches_one_and_the_stream_has_its_own(self):
        name = unique_name()
        arn = "arn:aws:dynamodb:us-east-1:%s:table/%s" % (ACCOUNT, name)
        table = self.ddb.create_table(ResourcePolicy=policy(arn),
                                      StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"},
                                      **hash_table(name))["TableDescription"]
        self.assertEqual(self.ddb.get_resource_policy(ResourceArn=arn)["Policy"], policy(arn))
        stream = table["LatestStreamArn"]
        self.assertError(self.ddb.get_resource_policy, "PolicyNotFoundException", NOT_FOUND + stream,
                         ResourceArn=stream)
        self.ddb.put_resource_policy(ResourceArn=stream, Policy=policy(stream, "dynamodb:GetRecords"))
        self.assertEqual(self.ddb.get_resource_policy(ResourceArn=arn)["Policy"], policy(arn))
        self.assertEqual(self.ddb.get_resource_policy(ResourceArn=stream)["Policy"],
                         policy(stream, "dynamodb:GetRecords"))

    def test_arns_are_checked_as_dynamodb_does(self):
        name = unique_name()
        arn = self.ddb.create_table(**hash_table(name))["TableDescription"]["TableArn"]
        cases = [
            (name, "ValidationException", INVALID + "ARNs must start with 'arn:': " + name),
            (arn.replace("us-east-1", "eu-west-1"), "ValidationException",
             INVALID + "Invalid resource Arn: " + arn.replace("us-east-1", "eu-west-1")),
            (arn.replace("arn:aws:", "arn:aws-cn:"), "ValidationException",
             INVALID + "Invalid resource Arn: " + arn.replace("arn:aws:", "arn:aws-cn:")),
            (arn.replace(ACCOUNT, "111122223333"), "ValidationException",
             "This action is only supported by accounts that match the resource owner\u2019s account."),
            (arn + "/index/by-x", "ValidationException",
             INVALID + "Invalid resource arn provided, only table or stream is accepted. Provided resource arn: "
             "arn:aws:dynamodb:us-east-1:" + ACCOUNT),
            (arn + "/backup/0170", "ValidationException",
             INVALID + "Provided Arn is not a DynamoDB resource arn: " + arn + "/backup/0170"),
            # A resource with no '/' (found by request_fuzzer: it read past the ARN's parts).
            (arn[:arn.index(":table/")] + ":table", "ValidationException",
             INVALID + "Provided Arn is not a DynamoDB resource arn: " + arn[:arn.index(":table/")] + ":table"),
            (arn + "-missing", "ResourceNotFoundException",
             "Requested resource not found: Table: %s-missing not found" % name),
            (arn + "/stream/2000-01-01T00:00:00.000", "ResourceNotFoundException",
             "Requested resource not found: Stream: 2000-01-01T00:00:00.000 not found for Table: " + name),
        ]
        for resource, code, message in cases:
            with self.subTest(resource=resource):
                self.assertError(self.ddb.get_resource_policy, code, message, ResourceArn=resource)
                self.assertError(self.ddb.delete_resource_policy, code, message, ResourceArn=resource)

    def test_policies_go_with_their_table(self):
        name = unique_name()
        arn = self.ddb.create_table(**hash_table(name))["TableDescription"]["TableArn"]
        self.ddb.put_resource_policy(ResourceArn=arn, Policy=policy(arn))
        self.ddb.delete_table(TableName=name)
        self.ddb.create_table(**hash_table(name))
        self.assertError(self.ddb.get_resource_policy, "PolicyNotFoundException", NOT_FOUND + arn,
                         ResourceArn=arn)


if __name__ == "__main__":
    unittest.main()
