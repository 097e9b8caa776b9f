"""Time to Live through boto3: UpdateTimeToLive / DescribeTimeToLive with DynamoDB's answers,
validation and messages (the one-hour cooldown by default, --ttl-cooldown-ms to shorten it), and
the sweeper (--ttl-interval-ms) deleting expired items, and only those, from tables and indexes."""
import time
import unittest

from ddbd_harness import ServerTestCase, hash_table, unique_name

S = lambda v: {"S": v}
N = lambda v: {"N": str(v)}
SPEC = lambda name, enabled: {"AttributeName": name, "Enabled": enabled}
COOLDOWN = "Time to live has been modified multiple times within a fixed interval"


class TimeToLiveSettings(ServerTestCase):
    """The default server: DynamoDB's cooldown applies."""

    def test_describe_update_and_the_rules(self):
        table = unique_name("ttl")
        self.ddb.create_table(**hash_table(table))
        describe = lambda: self.ddb.describe_time_to_live(TableName=table)["TimeToLiveDescription"]
        self.assertEqual(describe(), {"TimeToLiveStatus": "DISABLED"})
        self.assertError(self.ddb.update_time_to_live, "ValidationException", "TimeToLive is already disabled",
                         TableName=table, TimeToLiveSpecification=SPEC("expires", False))
        answer = self.ddb.update_time_to_live(TableName=table, TimeToLiveSpecification=SPEC("expires", True))
        self.assertEqual(answer["TimeToLiveSpecification"], SPEC("expires", True))
        self.assertEqual(describe(), {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires"})
        self.assertError(self.ddb.update_time_to_live, "ValidationException", "TimeToLive is already enabled",
                         TableName=table, TimeToLiveSpecification=SPEC("expires", True))
        different = "TimeToLive is active on a different AttributeName: current AttributeName is expires"
        for enabled in (True, False):
            self.assertError(self.ddb.update_time_to_live, "ValidationException", different,
                             TableName=table, TimeToLiveSpecification=SPEC("other", enabled))
        self.assertError(self.ddb.update_time_to_live, "ValidationException", COOLDOWN,
                         TableName=table, TimeToLiveSpecification=SPEC("expires", False))
        # DescribeTable says nothing of TTL.
        self.assertNotIn("TimeToLiveDescription", self.ddb.describe_table(TableName=table)["Table"])

    def test_missing_table_and_request_shape(self):
        self.assertError(self.ddb.describe_time_to_live, "ResourceNotFoundException",
                         "Requested resource not found: Table: nope not found", TableName="nope")
        self.assertError(self.ddb.update_time_to_live, "ResourceNotFoundException",
                         "Requested resource not found: Table: nope not found",
                         TableName="nope", TimeToLiveSpecification=SPEC("a", True))
        table = unique_name("ttl")
        self.ddb.create_table(**hash_table(table))
        prefix = "1 validation error detected: Value '%s' at 'timeToLiveSpecification.attributeName' " \
                 "failed to satisfy constraint: Member must have length %s"
        self.assertError(self.raw.update_time_to_live, "ValidationException",
                         prefix % ("", "greater than or equal to 1"),
                         TableName=table, TimeToLiveSpecification=SPEC("", True))
        self.assertError(self.raw.update_time_to_live, "ValidationException",
                         prefix % ("x" * 256, "less than or equal to 255"),
                         TableName=table, TimeToLiveSpecification=SPEC("x" * 256, True))
        self.assertError(self.raw.update_time_to_live, "ValidationException",
                         "1 validation error detected: Value null at 'timeToLiveSpecification.enabled' "
                         "failed to satisfy constraint: Member must not be null",
                         TableName=table, TimeToLiveSpecification={"AttributeName": "a"})
        self.assertError(self.raw.update_time_to_live, "ValidationException",
                         "1 validation error detected: Value null at 'timeToLiveSpecification' "
                         "failed to satisfy constraint: Member must not be null", TableName=table)


class TimeToLiveSweeper(ServerTestCase):
    server_args = ("--ttl-interval-ms", "100", "--ttl-cooldown-ms", "0")

    def wait_until_gone(self, table, key, seconds=3):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if "Item" not in self.ddb.get_item(TableName=table, Key=key):
                return time.monotonic()
            time.sleep(0.02)
        self.fail("%s was not deleted within %s s" % (key, seconds))

    def test_expired_items_go_and_no_others(self):
        table = unique_name("ttl")
        self.ddb.create_table(
            TableName=table, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "sk", "AttributeType": "S"},
                                  {"AttributeName": "user", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
            GlobalSecondaryIndexes=[{"IndexName": "by-user",
                                     "KeySchema": [{"AttributeName": "user", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "KEYS_ONLY"}}])
        now = int(time.time())
        put = lambda sk, **extra: self.ddb.put_item(TableName=table, Item={"pk": S("p"), "sk": S(sk),
                                                                          "user": S("u"), **extra})
        put("before-enable", TTL=N(now - 60))  # written before TTL was enabled: expires too
        # "TTL" is a reserved word: the sweeper must not trip on it.
        self.ddb.update_time_to_live(TableName=table, TimeToLiveSpecification=SPEC("TTL", True))
        put("past", TTL=N(now - 1))
        put("fraction", TTL=N("%d.25" % (now - 1)))
        put("exponent", TTL=N("%dE0" % (now - 1)))
        put("soon", TTL=N(now + 1))
        put("later", TTL=N(now + 3600))
        put("ancient", TTL=N(162777600))  # over five years back: never deleted
        put("string", TTL=S(str(now - 60)))
        put("none")
        start = time.monotonic()
        for sk in ("before-enable", "past", "fraction", "exponent"):
            self.wait_until_gone(table, {"pk": S("p"), "sk": S(sk)})
        self.assertLess(time.monotonic() - start, 1.5)  # within the interval plus a margin
        self.wait_until_gone(table, {"pk": S("p"), "sk": S("soon")}, seconds=4)
        left = sorted(i["sk"]["S"] for i in self.ddb.scan(TableName=table)["Items"])
        self.assertEqual(left, ["ancient", "later", "none", "string"])
        index = self.ddb.query(TableName=table, IndexName="by-user", KeyConditionExpression="#u = :u",
                               ExpressionAttributeNames={"#u": "user"},
                               ExpressionAttributeValues={":u": S("u")})["Items"]
        self.assertEqual(sorted(i["sk"]["S"] for i in index), left)
        self.assertEqual(self.ddb.describe_table(TableName=table)["Table"]["ItemCount"], 4)

    def test_disabling_stops_the_sweeper_and_cooldown_zero_allows_toggling(self):
        table = unique_name("ttl")
        self.ddb.create_table(**hash_table(table))
        for enabled in (True, False, True, False):
            self.ddb.update_time_to_live(TableName=table, TimeToLiveSpecification=SPEC("exp", enabled))
        self.ddb.put_item(TableName=table, Item={"pk": S("a"), "exp": N(int(time.time()) - 5)})
        time.sleep(0.4)
        self.assertIn("Item", self.ddb.get_item(TableName=table, Key={"pk": S("a")}))
        self.ddb.update_time_to_live(TableName=table, TimeToLiveSpecification=SPEC("exp", True))
        self.wait_until_gone(table, {"pk": S("a")})


if __name__ == "__main__":
    unittest.main()
