"""Multi-account global tables (issue 44), with the real binary and boto3 clients of three
accounts: under --namespaces credentials a 12-digit access key id is its own account, so ARNs name
it; CreateTable with GlobalTableSourceArn and GlobalTableSettingsReplicationMode ENABLED makes a
replica of another account's table, which takes the source's schema, gets its items, and then
replicates both ways; every member describes the others' ReplicaArn; settings stay alike; a member
leaves by DeleteTable in its own account; the refusals; kept across a restart."""
import os
import tempfile
import unittest

from ddbd_harness import DdbdServer, eventually, hash_table, region_client

A, B, C = "111111111111", "222222222222", "333333333333"
REGION = {A: "us-east-2", B: "us-east-1", C: "us-west-2"}


def arn(account, name="Music"):
    return "arn:aws:dynamodb:%s:%s:table/%s" % (REGION[account], account, name)


class MultiAccountGlobalTables(unittest.TestCase):
    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        self.server = None

    def tearDown(self):
        if self.server:
            self.server.stop()

    def start(self, *extra, namespaces="credentials"):
        self.server = DdbdServer("--namespaces", namespaces, "--replication-delay-ms", "100",
                                 *extra).start()
        self.clients = {account: region_client(self.server.endpoint, REGION[account], account)
                        for account in (A, B, C)}

    def refused(self, call, **kwargs):
        with self.assertRaises(Exception) as caught:
            call(**kwargs)
        error = caught.exception.response["Error"]
        return error["Code"], error["Message"]

    def refused_join(self, client, source, name="Music"):
        return self.refused(client.create_table, TableName=name, GlobalTableSourceArn=arn(source),
                            GlobalTableSettingsReplicationMode="ENABLED")

    def join(self, account, source):
        return self.clients[account].create_table(
            TableName="Music", GlobalTableSourceArn=arn(source),
            GlobalTableSettingsReplicationMode="ENABLED")["TableDescription"]

    def item(self, account, key):
        found = self.clients[account].get_item(TableName="Music", Key={"pk": {"S": key}},
                                               ConsistentRead=True).get("Item")
        return found and found["v"]["S"]

    def put(self, account, key, value):
        self.clients[account].put_item(TableName="Music",
                                       Item={"pk": {"S": key}, "v": {"S": value}})

    def settled(self, account, members):
        def check():
            table = self.clients[account].describe_table(TableName="Music")["Table"]
            self.assertEqual({r["RegionName"]: r["ReplicaStatus"] for r in table["Replicas"]},
                             {REGION[m]: "ACTIVE" for m in members})
            return table
        return eventually(check)

    def test_a_replica_in_another_account_copies_and_replicates_both_ways(self):
        self.start()
        a, b = self.clients[A], self.clients[B]
        a.create_table(**hash_table("Music", GlobalSecondaryIndexes=[{
            "IndexName": "byV", "KeySchema": [{"AttributeName": "v", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "v", "AttributeType": "S"}]))
        self.assertEqual(a.describe_table(TableName="Music")["Table"]["TableArn"], arn(A))
        self.put(A, "before", "made in A before B joined")

        made = self.join(B, A)
        self.assertEqual(made["TableArn"], arn(B))
        self.assertEqual(made["KeySchema"], [{"AttributeName": "pk", "KeyType": "HASH"}])
        self.assertEqual(made["GlobalSecondaryIndexes"][0]["IndexName"], "byV")
        self.assertEqual(made["BillingModeSummary"]["BillingMode"], "PAY_PER_REQUEST")
        self.assertEqual(made["GlobalTableSettingsReplicationMode"], "ENABLED")
        self.assertEqual({r["RegionName"] for r in made["Replicas"]}, {REGION[A], REGION[B]})

        for account in (A, B):
            table = self.settled(account, (A, B))
            self.assertEqual(table["GlobalTableVersion"], "2019.11.21")
            self.assertEqual(table["GlobalTableSettingsReplicationMode"], "ENABLED")
            self.assertEqual(table["StreamSpecification"]["StreamViewType"], "NEW_AND_OLD_IMAGES")
            self.assertEqual(
                {(r["RegionName"], r["ReplicaArn"], r["GlobalTableSettingsReplicationMode"])
                 for r in table["Replicas"]},
                {(REGION[A], arn(A), "ENABLED"), (REGION[B], arn(B), "ENABLED")})

        # The copy, then writes both ways.
        eventually(lambda: self.assertEqual(self.item(B, "before"), "made in A before B joined"))
        self.put(B, "b", "from B")
        self.put(A, "a", "from A")
        eventually(lambda: self.assertEqual(self.item(A, "b"), "from B"))
        eventually(lambda: self.assertEqual(self.item(B, "a"), "from A"))
        query = b.query(TableName="Music", IndexName="byV",
                        KeyConditionExpression="v = :v",
                        ExpressionAttributeValues={":v": {"S": "from A"}})
        self.assertEqual(query["Count"], 1)

        # Settings DynamoDB keeps alike reach the other account's replica.
        b.update_time_to_live(TableName="Music", TimeToLiveSpecification={
            "Enabled": True, "AttributeName": "expires"})
        self.assertEqual(a.describe_time_to_live(TableName="Music")["TimeToLiveDescription"],
                         {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires"})
        a.update_table(TableName="Music", OnDemandThroughput={"MaxWriteRequestUnits": 500})
        self.assertEqual(b.describe_table(TableName="Music")["Table"]["OnDemandThroughput"]
                         ["MaxWriteRequestUnits"], 500)

        # A third account joins through B; its writes reach both.
        self.join(C, B)
        for account in (A, B, C):
            self.settled(account, (A, B, C))
        eventually(lambda: self.assertEqual(self.item(C, "a"), "from A"))
        self.assertEqual(self.clients[C].describe_time_to_live(TableName="Music")
                         ["TimeToLiveDescription"]["TimeToLiveStatus"], "ENABLED")
        self.put(C, "c", "from C")
        eventually(lambda: self.assertEqual(self.item(A, "c"), "from C"))
        eventually(lambda: self.assertEqual(self.item(B, "c"), "from C"))

        # A member leaves by DeleteTable in its own account; the others carry on. B was C's
        # source within 24 hours, which keeps it, as in a same-account global table.
        self.assertEqual(self.refused(b.delete_table, TableName="Music"),
                         ("ValidationException", "Replica cannot be deleted because it has acted "
                          "as a source region for new replica(s) being added to the table in the "
                          "last 24 hours."))
        self.clients[C].delete_table(TableName="Music")
        for account in (A, B):
            self.settled(account, (A, B))
        self.put(B, "after", "C left")
        eventually(lambda: self.assertEqual(self.item(A, "after"), "C left"))
        code, _ = self.refused(self.clients[C].describe_table, TableName="Music")
        self.assertEqual(code, "ResourceNotFoundException")

    def test_refusals(self):
        self.start()
        a, b = self.clients[A], self.clients[B]
        a.create_table(**hash_table("Music"))
        invalid = "One or more parameter values were invalid: "
        self.assertEqual(self.refused(b.create_table, TableName="Music",
                                      GlobalTableSourceArn=arn(A)),
                         ("ValidationException", invalid + "GlobalTableSettingsReplicationMode "
                          "must be ENABLED for a replica of a multi-account global table"))
        self.assertEqual(self.refused(b.create_table, TableName="Music",
                                      GlobalTableSourceArn=arn(A),
                                      GlobalTableSettingsReplicationMode="DISABLED")[0],
                         "ValidationException")
        self.assertEqual(self.refused(b.create_table, GlobalTableSourceArn=arn(A),
                                      GlobalTableSettingsReplicationMode="ENABLED",
                                      **hash_table("Music")),
                         ("ValidationException", invalid + "AttributeDefinitions cannot be given "
                          "with GlobalTableSourceArn: a replica takes its source table's"))
        self.assertEqual(self.refused_join(b, A, name="Other"),
                         ("ValidationException",
                          invalid + "a replica has its global table's name: Music"))
        # A source in the caller's own account: UpdateTable's ReplicaUpdates makes that one.
        same = region_client(self.server.endpoint, "us-west-2", A)
        self.assertEqual(self.refused_join(same, A),
                         ("ValidationException", invalid + "the source table is in this account: "
                          "UpdateTable's ReplicaUpdates adds a replica in this account"))
        self.assertEqual(self.refused_join(b, C),
                         ("ResourceNotFoundException",
                          "Requested resource not found: Table: Music not found"))
        # The source must not be a same-account global table.
        a.update_table(TableName="Music", ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}])
        eventually(lambda: self.assertEqual(
            {r["ReplicaStatus"] for r in a.describe_table(TableName="Music")["Table"]["Replicas"]},
            {"ACTIVE"}))
        self.assertEqual(self.refused_join(b, A),
                         ("ValidationException", invalid + "the source table is a same-account "
                          "global table: delete its other replicas before it takes replicas in "
                          "other accounts"))
        # A same-account global table's mode is ENABLED_WITH_OVERRIDES (the API reference).
        self.assertEqual(a.describe_table(TableName="Music")["Table"]
                         ["GlobalTableSettingsReplicationMode"], "ENABLED_WITH_OVERRIDES")
        # Nothing was left behind by the refusals.
        self.assertEqual(b.list_tables()["TableNames"], [])
        # A table of the name in the caller's account: CreateTable's own answer.
        b.create_table(**hash_table("Music"))
        self.assertEqual(self.refused_join(b, C),
                         ("ResourceNotFoundException",
                          "Requested resource not found: Table: Music not found"))
        c = self.clients[C]
        c.create_table(**hash_table("Music"))
        self.assertEqual(self.refused_join(b, C),
                         ("ResourceInUseException", "Table already exists: Music"))
        # Without the source ARN, CreateTable still needs a key schema.
        code, message = self.refused(b.create_table, TableName="Music",
                                     GlobalTableSettingsReplicationMode="ENABLED")
        self.assertEqual(code, "ValidationException")
        self.assertIn("Value null at 'keySchema' failed to satisfy constraint: Member must not be "
                      "null", message)

    def test_an_accounts_table_takes_no_replicas_in_its_own_account_once_multi_account(self):
        self.start()
        self.clients[A].create_table(**hash_table("Music"))
        self.join(B, A)
        self.settled(A, (A, B))
        code, message = self.refused(self.clients[A].update_table, TableName="Music",
                                     ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}])
        self.assertEqual(code, "ValidationException")
        self.assertIn("a replica of a multi-account global table", message)

    def test_a_server_without_namespaces_per_key_refuses(self):
        self.start(namespaces="region")
        self.clients[A].create_table(**hash_table("Music"))
        self.assertEqual(self.refused(self.clients[B].create_table, TableName="Music",
                                      GlobalTableSourceArn=arn(A),
                                      GlobalTableSettingsReplicationMode="ENABLED"),
                         ("ValidationException", "Replicas in other accounts need a database per "
                          "access key id: start ddbd with --namespaces credentials, where a "
                          "12-digit access key id is its own account"))

    def test_the_settings_mode_of_a_table_of_one_region_is_kept(self):
        self.start()
        made = self.clients[A].create_table(**hash_table(
            "Music", GlobalTableSettingsReplicationMode="ENABLED"))["TableDescription"]
        self.assertEqual(made["GlobalTableSettingsReplicationMode"], "ENABLED")
        plain = self.clients[A].create_table(**hash_table("Plain"))["TableDescription"]
        self.assertNotIn("GlobalTableSettingsReplicationMode", plain)
        # UpdateTable takes it beside another change; alone it is no change DynamoDB lists.
        code, message = self.refused(self.clients[A].update_table, TableName="Plain",
                                     GlobalTableSettingsReplicationMode="DISABLED")
        self.assertEqual(code, "ValidationException")
        self.assertTrue(message.startswith("At least one of ProvisionedThroughput"), message)
        self.clients[A].update_table(TableName="Plain", GlobalTableSettingsReplicationMode="DISABLED",
                                     DeletionProtectionEnabled=False)
        self.assertEqual(self.clients[A].describe_table(TableName="Plain")["Table"]
                         ["GlobalTableSettingsReplicationMode"], "DISABLED")
        # A key that is not 12 digits stands for the server's --account-id.
        other = region_client(self.server.endpoint, "us-east-1", "AKIDOTHER")
        made = other.create_table(**hash_table("Mine"))["TableDescription"]
        self.assertEqual(made["TableArn"], "arn:aws:dynamodb:us-east-1:000000000000:table/Mine")

    def test_kept_across_a_restart(self):
        with tempfile.TemporaryDirectory() as directory:
            self.start("--db-path", directory)
            self.clients[A].create_table(**hash_table("Music"))
            self.join(B, A)
            self.settled(B, (A, B))
            self.put(A, "a", "from A")
            eventually(lambda: self.assertEqual(self.item(B, "a"), "from A"))
            self.server.stop()
            self.start("--db-path", directory)
            for account in (A, B):
                table = self.settled(account, (A, B))
                self.assertEqual({r["ReplicaArn"] for r in table["Replicas"]}, {arn(A), arn(B)})
            self.put(B, "b", "from B after the restart")
            eventually(lambda: self.assertEqual(self.item(A, "b"), "from B after the restart"))


if __name__ == "__main__":
    unittest.main()
