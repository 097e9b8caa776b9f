"""Contributor Insights' reports (issue 46) with the real binary and boto3: what ddbd computes for
the rules DynamoDB names, read from GET /_ddbd/contributor-insights/<table> and /metrics. Each
access weighs its ConsumedThroughputUnits (3 x write units + read units), a throttle counts 1, a
Query is one event of its partition, PartiQL and Scans count nothing (the Developer Guide's
"CloudWatch contributor insights for DynamoDB: How it works"); a hot key stands out among
thousands; the endpoint's refusals; under --auth-keys a signed request sees its own database."""
import json
import unittest
import urllib.error
import urllib.request

import botocore.auth
import botocore.awsrequest
import botocore.config
import botocore.credentials
import boto3

from ddbd_harness import DdbdServer, ServerTestCase, unique_name


def fetch(endpoint, path, headers=None, method="GET"):
    request = urllib.request.Request(endpoint + path, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def report(endpoint, table, top=None, headers=None):
    status, body = fetch(endpoint, "/_ddbd/contributor-insights/%s%s"
                         % (table, "?top=%d" % top if top else ""), headers)
    assert status == 200, (status, body)
    return body


def values(body, index=None, kind="PKC"):
    """The rule's contributors as {"key/key": value} for the table (or the index)."""
    for resource in body["Resources"]:
        if resource.get("IndexName") != index:
            continue
        for rule in resource["Rules"]:
            if "-%s-" % kind in rule["RuleName"]:
                return {"/".join(c["Keys"]): c["ApproximateAggregateValue"]
                        for c in rule["Contributors"]}
    raise AssertionError("no %s rule for %s in %s" % (kind, index, body))


def new_table(ddb):
    name = unique_name("hot")
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[{"IndexName": "by-g",
                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    return name


class Reports(ServerTestCase):
    def enable(self, name, index=None, mode=None):
        self.ddb.update_contributor_insights(
            TableName=name, ContributorInsightsAction="ENABLE",
            **({"IndexName": index} if index else {}),
            **({"ContributorInsightsMode": mode} if mode else {}))

    def test_each_call_weighs_its_consumed_throughput_units(self):
        name = new_table(self.ddb)
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "early"}, "sk": {"N": "1"}})
        self.assertEqual(report(self.endpoint, name),
                         {"TableName": name, "WindowMinutes": 5, "Resources": []})
        self.enable(name)
        self.enable(name, "by-g")
        key = {"pk": {"S": "a"}, "sk": {"N": "1"}}
        # Writes: 3 x their units. A put of 1 unit, an update, a 2 KB put (2 units).
        self.ddb.put_item(TableName=name, Item={**key, "g": {"S": "x"}})
        self.ddb.update_item(TableName=name, Key=key, UpdateExpression="SET v = :v",
                             ExpressionAttributeValues={":v": {"S": "y"}})
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "b"}, "sk": {"N": "2"},
                                                "v": {"S": "z" * 2000}})
        # Reads: eventually consistent 0.5, strongly 1, a transaction's twice a strong read.
        self.ddb.get_item(TableName=name, Key=key)
        self.ddb.get_item(TableName=name, Key=key, ConsistentRead=True)
        self.ddb.transact_get_items(TransactItems=[{"Get": {"TableName": name, "Key": key}}])
        # A batch counts each item; a transaction's write twice the units.
        self.ddb.batch_write_item(RequestItems={name: [
            {"PutRequest": {"Item": {"pk": {"S": "c"}, "sk": {"N": str(i)}}}} for i in range(3)]})
        self.ddb.batch_get_item(RequestItems={name: {"Keys": [
            {"pk": {"S": "c"}, "sk": {"N": str(i)}} for i in range(3)]}})
        self.ddb.transact_write_items(TransactItems=[{"Put": {"TableName": name, "Item": {
            "pk": {"S": "d"}, "sk": {"N": "1"}}}}])
        # A Query is one event of its partition; Scans and PartiQL count nothing.
        self.ddb.query(TableName=name, KeyConditionExpression="pk = :p",
                       ExpressionAttributeValues={":p": {"S": "c"}})
        self.ddb.scan(TableName=name)
        self.ddb.execute_statement(Statement='SELECT * FROM "%s" WHERE pk = \'a\' AND sk = 1' % name)
        self.ddb.execute_statement(Statement="INSERT INTO \"%s\" VALUE {'pk': 'e', 'sk': 1}" % name)
        # A deletion: 3 x 1 unit.
        self.ddb.delete_item(TableName=name, Key={"pk": {"S": "d"}, "sk": {"N": "1"}})
        body = report(self.endpoint, name)
        self.assertEqual(values(body), {
            "a": 3 + 3 + 0.5 + 1 + 2,
            "b": 6,
            "c": 3 * 3 + 3 * 0.5 + 0.5,
            "d": 6 + 3})
        self.assertEqual(values(body, kind="SKC"), {
            "a/1": 9.5, "b/2": 6, "c/0": 3.5, "c/1": 3.5, "c/2": 3.5, "d/1": 9})
        self.assertEqual(values(body, kind="PKT"), {})
        # The index: a's entry written once (1 unit); the Query of its partition 0.5.
        self.ddb.query(TableName=name, IndexName="by-g", KeyConditionExpression="g = :g",
                       ExpressionAttributeValues={":g": {"S": "x"}})
        self.assertEqual(values(report(self.endpoint, name), "by-g"), {"x": 3.5})
        # The ranking is heaviest first, and ?top bounds it.
        first = report(self.endpoint, name, top=2)["Resources"][0]
        self.assertEqual(first["ContributorInsightsMode"], "ACCESSED_AND_THROTTLED_KEYS")
        self.assertLessEqual(first["StartTime"], first["EndTime"])
        self.assertLessEqual(first["EndTime"] - first["StartTime"], 300)
        pkc = first["Rules"][0]
        self.assertEqual(pkc["MetricName"], "ConsumedThroughputUnits")
        self.assertEqual(pkc["KeyLabels"], ["pk"])
        self.assertEqual([c["Keys"] for c in pkc["Contributors"]], [["c"], ["a"]])
        self.assertEqual(first["Rules"][1]["KeyLabels"], ["pk", "sk"])
        described = self.ddb.describe_contributor_insights(TableName=name)
        self.assertEqual([rule["RuleName"] for rule in first["Rules"]],
                         described["ContributorInsightsRuleList"])

    def test_a_hot_key_stands_out_among_thousands(self):
        name = new_table(self.ddb)
        self.enable(name)
        with self.ddb_batch(name) as put:
            for i in range(3000):
                put({"pk": {"S": "cold%d" % i}, "sk": {"N": "1"}})
                if i % 10 == 0:
                    put({"pk": {"S": "hot"}, "sk": {"N": str(i)}})
        body = report(self.endpoint, name, top=3)
        pkc = values(body)
        self.assertEqual(list(pkc)[0], "hot")
        # 300 puts of 1 unit; the sketch may overstate a key, never understate it.
        self.assertGreaterEqual(pkc["hot"], 900)
        self.assertLess(pkc["hot"], 1000)

    def ddb_batch(self, name):
        ddb = self.ddb

        class Batch:
            def __enter__(self):
                self.items = []
                return self.put

            def put(self, item):
                self.items.append({"PutRequest": {"Item": item}})
                if len(self.items) == 25:
                    self.flush()

            def flush(self):
                if self.items:
                    ddb.batch_write_item(RequestItems={name: self.items})
                self.items = []

            def __exit__(self, *exc):
                self.flush()
        return Batch()

    def test_disabling_stops_counting_and_a_new_enabling_starts_anew(self):
        name = new_table(self.ddb)
        self.enable(name)
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "sk": {"N": "1"}})
        self.assertEqual(values(report(self.endpoint, name)), {"a": 3})
        self.ddb.update_contributor_insights(TableName=name, ContributorInsightsAction="DISABLE")
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "sk": {"N": "1"}})
        self.assertEqual(report(self.endpoint, name)["Resources"], [])
        self.enable(name, mode="THROTTLED_KEYS")
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "sk": {"N": "1"}})
        rules = report(self.endpoint, name)["Resources"][0]["Rules"]
        self.assertEqual([r["MetricName"] for r in rules], ["ThrottleCount", "ThrottleCount"])
        self.assertEqual([r["Contributors"] for r in rules], [[], []])

    def test_metrics_list_each_rule_s_heaviest_keys(self):
        name = new_table(self.ddb)
        self.enable(name)
        for i in range(12):
            self.ddb.put_item(TableName=name, Item={"pk": {"S": "k%02d" % i}, "sk": {"N": "1"},
                                                    "v": {"S": "x" * (1100 * (i % 3))}})
        with urllib.request.urlopen(self.endpoint + "/metrics", timeout=10) as answer:
            text = answer.read().decode()
        lines = [l for l in text.splitlines()
                 if l.startswith("ddbd_contributor_insights_value{") and 'table="%s"' % name in l]
        pkc = [l for l in lines if "-PKC-" in l]
        skc = [l for l in lines if "-SKC-" in l]
        self.assertEqual(len(pkc), 10)  # the heaviest ten of twelve
        self.assertEqual(len(skc), 10)
        self.assertIn('metric="ConsumedThroughputUnits",rank="1",partition_key="k02"} 9', pkc[0])
        self.assertTrue(any('partition_key="k02",sort_key="1"} 9' in l for l in skc))

    def test_the_endpoint_s_refusals(self):
        name = new_table(self.ddb)
        status, body = fetch(self.endpoint, "/_ddbd/contributor-insights/absent")
        self.assertEqual((status, body["__type"]),
                         (400, "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"))
        self.assertEqual(body["message"], "Requested resource not found: Table: absent not found")
        for query, message in (("top=0", "top must be a whole number from 1 to 64"),
                               ("top=65", "top must be a whole number from 1 to 64"),
                               ("top=x", "top must be a whole number from 1 to 64")):
            self.assertEqual(fetch(self.endpoint, "/_ddbd/contributor-insights/%s?%s"
                                   % (name, query)), (400, {"message": message}))
        self.assertEqual(fetch(self.endpoint, "/_ddbd/contributor-insights/")[0], 400)
        self.assertEqual(fetch(self.endpoint, "/_ddbd/contributor-insights/%s" % name,
                               method="POST")[0], 405)
        status, body = fetch(self.endpoint, "/_ddbd/contributor-insights/%s" % name,
                             {"Origin": "http://evil.example"})
        self.assertEqual(status, 403)
        self.assertIn("answer no page of another origin", body["message"])
        # The table's ARN names it too.
        arn = self.ddb.describe_table(TableName=name)["Table"]["TableArn"]
        self.assertEqual(report(self.endpoint, arn)["Resources"], [])


class ThrottledKeys(unittest.TestCase):
    def test_throttles_count_per_key_as_the_client_saw_them(self):
        server = DdbdServer("--enforce-throughput").start()
        try:
            ddb = boto3.client("dynamodb", endpoint_url=server.endpoint, region_name="us-east-1",
                               aws_access_key_id="a", aws_secret_access_key="b",
                               config=botocore.config.Config(retries={"total_max_attempts": 1,
                                                                      "mode": "standard"}))
            ddb.create_table(
                TableName="slow", BillingMode="PROVISIONED",
                ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
                AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
            ddb.update_contributor_insights(TableName="slow", ContributorInsightsAction="ENABLE",
                                            ContributorInsightsMode="THROTTLED_KEYS")
            refused = 0
            for _ in range(6):
                try:
                    ddb.put_item(TableName="slow",
                                 Item={"pk": {"S": "hot"}, "v": {"S": "x" * 5000}})
                except ddb.exceptions.ProvisionedThroughputExceededException:
                    refused += 1
            self.assertGreater(refused, 0)
            body = report(server.endpoint, "slow")
            rules = body["Resources"][0]["Rules"]
            self.assertEqual(len(rules), 1)  # THROTTLED_KEYS, no sort key: PKT alone
            self.assertEqual(rules[0]["MetricName"], "ThrottleCount")
            self.assertEqual(values(body, kind="PKT"), {"hot": refused})
        finally:
            server.stop()


class SignedReports(unittest.TestCase):
    def signed(self, port, path, key, secret):
        request = botocore.awsrequest.AWSRequest(method="GET",
                                                 url="http://127.0.0.1:%d%s" % (port, path))
        botocore.auth.SigV4Auth(botocore.credentials.Credentials(key, secret), "dynamodb",
                                "us-east-1").add_auth(request)
        return dict(request.headers.items())

    def test_under_auth_keys_a_signed_request_reads_its_own_database(self):
        server = DdbdServer("--auth-keys", "AKIDONE:one,AKIDTWO:two",
                            "--namespaces", "credentials").start()
        try:
            one = boto3.client("dynamodb", endpoint_url=server.endpoint, region_name="us-east-1",
                               aws_access_key_id="AKIDONE", aws_secret_access_key="one")
            one.create_table(TableName="mine", BillingMode="PAY_PER_REQUEST",
                             AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                             KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
            one.update_contributor_insights(TableName="mine", ContributorInsightsAction="ENABLE")
            one.put_item(TableName="mine", Item={"pk": {"S": "k"}})
            path = "/_ddbd/contributor-insights/mine"
            status, body = fetch(server.endpoint, path)
            self.assertEqual(status, 403)
            self.assertIn("signed with one of --auth-keys", body["message"])
            status, body = fetch(server.endpoint, path,
                                 self.signed(server.port, path, "AKIDONE", "wrong"))
            self.assertEqual(status, 403)
            status, body = fetch(server.endpoint, path,
                                 self.signed(server.port, path, "AKIDONE", "one"))
            self.assertEqual(status, 200)
            self.assertEqual(values(body), {"k": 3})
            status, body = fetch(server.endpoint, path,
                                 self.signed(server.port, path, "AKIDTWO", "two"))
            self.assertEqual(status, 400)  # the other key's database has no such table
            self.assertEqual(body["message"], "Requested resource not found: Table: mine not found")
            # An anonymous scrape of /metrics names no table, so no key either.
            with urllib.request.urlopen(server.endpoint + "/metrics", timeout=10) as answer:
                self.assertNotIn("ddbd_contributor_insights_value", answer.read().decode())
        finally:
            server.stop()


if __name__ == "__main__":
    unittest.main()
