"""Contributor Insights settings (issue 46, part) with the real binary, boto3 and the AWS CLI:
UpdateContributorInsights, DescribeContributorInsights and ListContributorInsights for a table and
its global secondary indexes, with DynamoDB's statuses and rule names (the Developer Guide's
formats; PKC, SKC, PKT, SKT as the AWS CLI's example lists them), the statuses in transit under
--table-delay-ms, paging, refusals, and the settings kept across a restart."""
import json
import os
import re
import subprocess
import time
import unittest

from ddbd_harness import DdbdServer, ServerTestCase, across_restart, client, unique_name

RULE = re.compile(r"^DynamoDBContributorInsights-(PKC|SKC|PKT|SKT)-(.+)-(\d{13})$")


def new_table(ddb, sort=True):
    name = unique_name("ci")
    keys = [("pk", "HASH")] + ([("sk", "RANGE")] if sort else [])
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"}
                              for a in ["pk", "sk", "g", "h"][:len(keys)] + ["g", "h"]],
        KeySchema=[{"AttributeName": a, "KeyType": t} for a, t in keys],
        GlobalSecondaryIndexes=[
            {"IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}},
            {"IndexName": "by-g-h", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                                                  {"AttributeName": "h", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}}],
        **({"LocalSecondaryIndexes": [
            {"IndexName": "local", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                 {"AttributeName": "h", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}}]} if sort else {}))
    return name


def describe(ddb, name, index=None):
    answer = ddb.describe_contributor_insights(TableName=name, **({"IndexName": index} if index else {}))
    answer.pop("ResponseMetadata")
    return answer


class ContributorInsights(ServerTestCase):
    def test_enable_describe_and_disable_a_table_and_its_indexes(self):
        name = new_table(self.ddb)
        self.assertEqual(describe(self.ddb, name),
                         {"TableName": name, "ContributorInsightsStatus": "DISABLED"})
        before = time.time()
        updated = self.ddb.update_contributor_insights(TableName=name,
                                                       ContributorInsightsAction="ENABLE")
        updated.pop("ResponseMetadata")
        self.assertEqual(updated, {"TableName": name, "ContributorInsightsStatus": "ENABLING",
                                   "ContributorInsightsMode": "ACCESSED_AND_THROTTLED_KEYS"})
        described = describe(self.ddb, name)
        rules = described.pop("ContributorInsightsRuleList")
        updated_at = described.pop("LastUpdateDateTime").timestamp()
        self.assertEqual(described, {"TableName": name, "ContributorInsightsStatus": "ENABLED",
                                     "ContributorInsightsMode": "ACCESSED_AND_THROTTLED_KEYS"})
        self.assertTrue(before - 1 <= updated_at <= time.time() + 1)
        self.assertEqual([RULE.match(r).group(1) for r in rules], ["PKC", "SKC", "PKT", "SKT"])
        stamps = {RULE.match(r).group(3) for r in rules}
        self.assertEqual(len(stamps), 1)
        self.assertEqual({RULE.match(r).group(2) for r in rules}, {name})
        self.assertLess(abs(int(stamps.pop()) / 1000 - updated_at), 1)

        # A global index of a partition key alone has the partition key rules; THROTTLED_KEYS
        # keeps the throttled ones.
        self.ddb.update_contributor_insights(TableName=name, IndexName="by-g",
                                             ContributorInsightsAction="ENABLE")
        index = describe(self.ddb, name, "by-g")
        self.assertEqual(index["IndexName"], "by-g")
        self.assertEqual([RULE.match(r).group(1) for r in index["ContributorInsightsRuleList"]],
                         ["PKC", "PKT"])
        throttled = self.ddb.update_contributor_insights(
            TableName=name, IndexName="by-g-h", ContributorInsightsAction="ENABLE",
            ContributorInsightsMode="THROTTLED_KEYS")
        self.assertEqual((throttled["IndexName"], throttled["ContributorInsightsMode"]),
                         ("by-g-h", "THROTTLED_KEYS"))
        self.assertEqual([RULE.match(r).group(1) for r in
                          describe(self.ddb, name, "by-g-h")["ContributorInsightsRuleList"]],
                         ["PKT", "SKT"])

        # Enabled again, the rules stay the ones made; a mode change is kept.
        self.ddb.update_contributor_insights(TableName=name, ContributorInsightsAction="ENABLE",
                                             ContributorInsightsMode="THROTTLED_KEYS")
        again = describe(self.ddb, name)
        self.assertEqual(again["ContributorInsightsMode"], "THROTTLED_KEYS")
        self.assertEqual(again["ContributorInsightsRuleList"], [r for r in rules if "T-" in r])

        disabled = self.ddb.update_contributor_insights(TableName=name,
                                                        ContributorInsightsAction="DISABLE")
        self.assertEqual(disabled["ContributorInsightsStatus"], "DISABLING")
        gone = describe(self.ddb, name)
        self.assertEqual(gone["ContributorInsightsStatus"], "DISABLED")
        self.assertNotIn("ContributorInsightsRuleList", gone)
        # Enabled anew: new rules, named by the new enabling.
        time.sleep(0.01)
        self.ddb.update_contributor_insights(TableName=name, ContributorInsightsAction="ENABLE")
        fresh = describe(self.ddb, name)["ContributorInsightsRuleList"]
        self.assertEqual(len(fresh), 4)
        self.assertGreater(RULE.match(fresh[0]).group(3), RULE.match(rules[0]).group(3))

    def test_list_pages_through_every_table_and_index(self):
        names = sorted(new_table(self.ddb, sort=False) for _ in range(2))
        for name in names:
            for index in (None, "by-g"):
                self.ddb.update_contributor_insights(
                    TableName=name, ContributorInsightsAction="ENABLE",
                    **({"IndexName": index} if index else {}))
        listed = self.ddb.list_contributor_insights(TableName=names[0])
        self.assertEqual(listed["ContributorInsightsSummaries"], [
            {"TableName": names[0], "ContributorInsightsStatus": "ENABLED",
             "ContributorInsightsMode": "ACCESSED_AND_THROTTLED_KEYS"},
            {"TableName": names[0], "IndexName": "by-g", "ContributorInsightsStatus": "ENABLED",
             "ContributorInsightsMode": "ACCESSED_AND_THROTTLED_KEYS"}])
        self.assertNotIn("NextToken", listed)
        seen, token = [], None
        while True:
            page = self.ddb.list_contributor_insights(MaxResults=1,
                                                      **({"NextToken": token} if token else {}))
            self.assertLessEqual(len(page["ContributorInsightsSummaries"]), 1)
            seen += [(s["TableName"], s.get("IndexName")) for s in page["ContributorInsightsSummaries"]]
            token = page.get("NextToken")
            if not token:
                break
        mine = [entry for entry in seen if entry[0] in names]
        self.assertEqual(mine, [(names[0], None), (names[0], "by-g"),
                                (names[1], None), (names[1], "by-g")])
        self.assertEqual(len(seen), len(set(seen)))

    def test_refusals(self):
        name = new_table(self.ddb)
        missing = unique_name("missing")
        for call, args in ((self.ddb.describe_contributor_insights, {}),
                           (self.ddb.update_contributor_insights,
                            {"ContributorInsightsAction": "ENABLE"})):
            self.assertError(call, "ResourceNotFoundException",
                             "Requested resource not found: Table: %s not found" % missing,
                             TableName=missing, **args)
            # A local index has no Contributor Insights of its own.
            for index in ("nope", "local"):
                self.assertError(call, "ResourceNotFoundException",
                                 "Requested resource not found: Index: %s not found" % index,
                                 TableName=name, IndexName=index, **args)
        self.assertError(self.ddb.list_contributor_insights, "ResourceNotFoundException",
                         "Requested resource not found: Table: %s not found" % missing,
                         TableName=missing)
        self.assertError(self.raw.update_contributor_insights, "ValidationException",
                         "1 validation error detected: Value 'MAYBE' at "
                         "'contributorInsightsAction' failed to satisfy constraint: Member must "
                         "satisfy enum value set: [ENABLE, DISABLE]",
                         TableName=name, ContributorInsightsAction="MAYBE")

    def test_the_aws_cli(self):
        name = new_table(self.ddb, sort=False)
        env = dict(os.environ, AWS_ACCESS_KEY_ID="AKIDTEST", AWS_SECRET_ACCESS_KEY="secret",
                   AWS_DEFAULT_REGION="us-east-1")
        cli = ["aws", "--endpoint-url", self.endpoint, "dynamodb"]
        out = subprocess.run(cli + ["update-contributor-insights", "--table-name", name,
                                    "--contributor-insights-action", "ENABLE"],
                             env=env, capture_output=True, text=True, check=True)
        self.assertEqual(json.loads(out.stdout)["ContributorInsightsStatus"], "ENABLING")
        out = subprocess.run(cli + ["describe-contributor-insights", "--table-name", name],
                             env=env, capture_output=True, text=True, check=True)
        self.assertEqual(len(json.loads(out.stdout)["ContributorInsightsRuleList"]), 2)


class ContributorInsightsInTransit(ServerTestCase):
    server_args = ("--table-delay-ms", "400")

    def test_enabling_and_disabling_then_settled(self):
        name = new_table(self.ddb, sort=False)
        time.sleep(0.5)  # the table is ACTIVE
        self.ddb.update_contributor_insights(TableName=name, ContributorInsightsAction="ENABLE")
        self.assertEqual(describe(self.ddb, name)["ContributorInsightsStatus"], "ENABLING")
        time.sleep(0.5)
        self.assertEqual(describe(self.ddb, name)["ContributorInsightsStatus"], "ENABLED")
        self.ddb.update_contributor_insights(TableName=name, ContributorInsightsAction="DISABLE")
        self.assertEqual(describe(self.ddb, name)["ContributorInsightsStatus"], "DISABLING")
        time.sleep(0.5)
        self.assertEqual(describe(self.ddb, name)["ContributorInsightsStatus"], "DISABLED")


class ContributorInsightsAcrossRestarts(unittest.TestCase):
    def test_settings_survive_a_restart(self):
        def write(ddb):
            name = new_table(ddb)
            ddb.update_contributor_insights(TableName=name, ContributorInsightsAction="ENABLE")
            ddb.update_contributor_insights(TableName=name, IndexName="by-g",
                                            ContributorInsightsAction="ENABLE",
                                            ContributorInsightsMode="THROTTLED_KEYS")
            return name, describe(ddb, name), describe(ddb, name, "by-g")

        def read(ddb, written):
            name, table, index = written
            self.assertEqual(describe(ddb, name), table)
            self.assertEqual(describe(ddb, name, "by-g"), index)

        across_restart(write, read)


if __name__ == "__main__":
    unittest.main()
