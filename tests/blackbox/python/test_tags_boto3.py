"""Tags through boto3, against the real ddbd: Tags on CreateTable, TagResource, UntagResource and
ListTagsOfResource as a deployment tool (Terraform's provider, CDK) calls them, with DynamoDB's
limits and errors."""
import unittest

from ddbd_harness import ServerTestCase, across_restart, hash_table, unique_name

ACCOUNT_ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/"


class Tags(ServerTestCase):
    def tags(self, arn):
        return self.ddb.list_tags_of_resource(ResourceArn=arn)["Tags"]

    def test_a_deployment_tools_sequence(self):
        name = unique_name()
        created = self.ddb.create_table(Tags=[{"Key": "team", "Value": "audio"},
                                              {"Key": "env", "Value": ""}],
                                        DeletionProtectionEnabled=True, **hash_table(name))
        arn = created["TableDescription"]["TableArn"]
        self.assertEqual(arn, ACCOUNT_ARN + name)
        self.assertNotIn("Tags", created["TableDescription"])  # DescribeTable never shows them
        self.assertEqual(self.tags(arn), [{"Key": "team", "Value": "audio"},
                                          {"Key": "env", "Value": ""}])
        # Terraform's refresh of a table reads these too.
        self.ddb.describe_table(TableName=name)
        self.assertEqual(self.ddb.describe_time_to_live(TableName=name)["TimeToLiveDescription"],
                         {"TimeToLiveStatus": "DISABLED"})
        self.assertEqual(self.ddb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"]
                         ["PointInTimeRecoveryDescription"], {"PointInTimeRecoveryStatus": "DISABLED"})
        # Tagging a key again takes the new value; new keys are added.
        self.ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "team", "Value": "video"},
                                                     {"Key": "cost-center", "Value": "42"}])
        self.assertEqual(self.tags(arn), [{"Key": "team", "Value": "video"},
                                          {"Key": "env", "Value": ""},
                                          {"Key": "cost-center", "Value": "42"}])
        # Untagging a key the table does not have is not an error.
        self.ddb.untag_resource(ResourceArn=arn, TagKeys=["env", "never-set"])
        self.assertEqual([t["Key"] for t in self.tags(arn)], ["team", "cost-center"])
        # Deletion protection on, then off, then the table goes (and its tags with it).
        self.assertError(self.ddb.delete_table, "ValidationException",
                         "Resource cannot be deleted as it is currently protected against deletion. "
                         "Disable deletion protection first.", TableName=name)
        self.ddb.update_table(TableName=name, DeletionProtectionEnabled=False)
        self.assertEqual(len(self.tags(arn)), 2)  # an update keeps them
        self.ddb.delete_table(TableName=name)
        self.assertError(self.ddb.list_tags_of_resource, "ResourceNotFoundException",
                         "Requested resource not found: ResourcArn: %s not found" % arn,
                         ResourceArn=arn)
        self.ddb.create_table(**hash_table(name))  # the same name again starts untagged
        self.assertEqual(self.tags(arn), [])

    def test_fifty_tags_at_most_and_aws_keys_are_reserved(self):
        name = unique_name()
        arn = self.ddb.create_table(**hash_table(name))["TableDescription"]["TableArn"]
        self.ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "k%02d" % i, "Value": "v"} for i in range(49)])
        self.ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "k49", "Value": "v"}])
        self.ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "k00", "Value": "again"}])  # still 50
        too_many = ("One or more parameter values were invalid: The number of tags exceeds the "
                    "limit of 50 tags per resource")
        self.assertError(self.ddb.tag_resource, "ValidationException", too_many,
                         ResourceArn=arn, Tags=[{"Key": "k50", "Value": "v"}])
        self.assertEqual(len(self.tags(arn)), 50)
        self.assertError(self.ddb.tag_resource, "ValidationException",
                         "One or more parameter values were invalid: Tag keys starting with 'aws:' "
                         "are reserved for AWS use",
                         ResourceArn=arn, Tags=[{"Key": "aws:cloudformation:stack-name", "Value": "x"}])
        # CreateTable with too many creates nothing.
        other = unique_name()
        self.assertError(self.ddb.create_table, "ValidationException", too_many,
                         Tags=[{"Key": "k%d" % i, "Value": "v"} for i in range(51)], **hash_table(other))
        self.assertNotIn(other, self.ddb.list_tables()["TableNames"])

    def test_shapes_and_arns(self):
        name = unique_name()
        arn = self.ddb.create_table(**hash_table(name))["TableDescription"]["TableArn"]
        self.assertError(self.ddb.tag_resource, "ValidationException",
                         "Atleast one Tag needs to be provided as Input.", ResourceArn=arn, Tags=[])
        self.assertError(self.ddb.untag_resource, "ValidationException",
                         "Atleast one Tag Key needs to be provided as Input.", ResourceArn=arn, TagKeys=[])
        self.assertError(self.raw.list_tags_of_resource, "ValidationException", "Invalid TableArn")
        self.assertError(self.raw.tag_resource, "ValidationException",
                         "1 validation error detected: Value 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                         "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' at "
                         "'tags.1.member.key' failed to satisfy constraint: Member must have length less than "
                         "or equal to 128", ResourceArn=arn, Tags=[{"Key": "x" * 129, "Value": "v"}])
        # A list's string members are checked as one, the list quoted (Java's toString of [""] is
        # "[]") with every constraint of its members: the rule recorded for AttributesToGet and
        # NonKeyAttributes. (This test first pinned 'tagKeys.1.member', which no recording backs.)
        self.assertError(self.raw.untag_resource, "ValidationException",
                         "1 validation error detected: Value '[]' at 'tagKeys' failed to satisfy "
                         "constraint: Member must satisfy constraint: [Member must have length less than "
                         "or equal to 128, Member must have length greater than or equal to 1]",
                         ResourceArn=arn, TagKeys=[""])
        self.assertError(self.ddb.list_tags_of_resource, "ValidationException",
                         "ARNs must start with 'arn:'", ResourceArn=name)
        index_arn = arn + "/index/by-x"
        self.assertError(self.ddb.list_tags_of_resource, "ValidationException",
                         "Invalid TableArn: Invalid ResourceArn provided as input " + index_arn,
                         ResourceArn=index_arn)
        for missing in (arn + "-gone", "arn:aws:dynamodb:eu-west-1:000000000000:table/" + name):
            self.assertError(self.ddb.tag_resource, "ResourceNotFoundException",
                             "Requested resource not found: ResourcArn: %s not found" % missing,
                             ResourceArn=missing, Tags=[{"Key": "a", "Value": "b"}])


    def test_characters_lengths_bodies_and_other_accounts(self):
        # behaviours-to-match F4 (recorded against AWS; the texts inferred).
        name = unique_name()
        arn = self.ddb.create_table(**hash_table(name))["TableDescription"]["TableArn"]
        # Letters (any script), digits, white space and + - = . _ : / only.
        self.ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "a+-=._:/ \u00e9\u4e2d9", "Value": "x y:z/w"}])
        pattern = "[\\p{L}\\p{Z}\\p{N}_.:/=+\\-]*"
        for bad in ("a!", "%", '"', "#", "^", "$", "&", ";", ")", "]", "|", "\\", "<", ">", "@"):
            with self.subTest(bad=bad):
                self.assertError(self.ddb.tag_resource, "ValidationException",
                                 "1 validation error detected: Value '%s' at 'tags.1.member.key' failed to satisfy "
                                 "constraint: Member must satisfy regular expression pattern: %s" % (bad, pattern),
                                 ResourceArn=arn, Tags=[{"Key": bad, "Value": "v"}])
        self.assertError(self.ddb.tag_resource, "ValidationException",
                         "1 validation error detected: Value 'v!' at 'tags.2.member.value' failed to satisfy "
                         "constraint: Member must satisfy regular expression pattern: " + pattern,
                         ResourceArn=arn, Tags=[{"Key": "k", "Value": "v"}, {"Key": "k2", "Value": "v!"}])
        self.assertError(self.ddb.create_table, "ValidationException",
                         "1 validation error detected: Value 'a#b' at 'tags.1.member.key' failed to satisfy "
                         "constraint: Member must satisfy regular expression pattern: " + pattern,
                         Tags=[{"Key": "a#b", "Value": "v"}], **hash_table(unique_name()))
        # Lengths count characters: 128 and 256 two-byte characters are taken.
        self.ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "\u00e9" * 128, "Value": "\u00e9" * 256}])
        tags = self.ddb.list_tags_of_resource(ResourceArn=arn)["Tags"]
        self.assertIn({"Key": "\u00e9" * 128, "Value": "\u00e9" * 256}, tags)
        # TagResource and UntagResource answer 200 with an empty body.
        for answer in (self.ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "e", "Value": "f"}]),
                       self.ddb.untag_resource(ResourceArn=arn, TagKeys=["e"])):
            self.assertEqual(answer["ResponseMetadata"]["HTTPStatusCode"], 200)
            self.assertEqual(answer["ResponseMetadata"]["HTTPHeaders"].get("content-length"), "0")
        # A table of another account: AccessDenied; of another region in this account: not found.
        other = "arn:aws:dynamodb:us-east-1:111122223333:table/" + name
        for operation, call, kwargs in (("ListTagsOfResource", self.ddb.list_tags_of_resource, {}),
                                        ("TagResource", self.ddb.tag_resource, {"Tags": [{"Key": "a", "Value": "b"}]}),
                                        ("UntagResource", self.ddb.untag_resource, {"TagKeys": ["a"]})):
            self.assertError(call, "AccessDeniedException",
                             "User: arn:aws:iam::000000000000:root is not authorized to perform: dynamodb:%s on "
                             "resource: %s" % (operation, other), ResourceArn=other, **kwargs)


class TagsPersist(unittest.TestCase):
    def test_tags_survive_a_restart(self):
        def write(ddb):
            arn = ddb.create_table(Tags=[{"Key": "a", "Value": "1"}], **hash_table("Tagged"))["TableDescription"]["TableArn"]
            ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "b", "Value": "2"}])
            ddb.untag_resource(ResourceArn=arn, TagKeys=["a"])
            return arn

        def read(ddb, arn):
            self.assertEqual(ddb.list_tags_of_resource(ResourceArn=arn)["Tags"], [{"Key": "b", "Value": "2"}])

        across_restart(write, read)


if __name__ == "__main__":
    unittest.main()
