"""On-demand backups through boto3: CreateBackup, DescribeBackup, ListBackups, DeleteBackup and
RestoreTableFromBackup against the real ddbd, with what DynamoDB records, keeps and drops, its
listing rules and its refusals (texts as measured against DynamoDB where known)."""
import datetime
import time
import unittest

from ddbd_harness import ServerTestCase, across_restart, hash_table, unique_name

S = lambda v: {"S": v}
N = lambda v: {"N": str(v)}


def indexed_table(name, billing="PAY_PER_REQUEST"):
    """pk/sk with a GSI on g and an LSI on l."""
    args = dict(TableName=name,
                AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"} for a in ("pk", "sk", "g", "l")],
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                GlobalSecondaryIndexes=[{"IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                         "Projection": {"ProjectionType": "KEYS_ONLY"}}],
                LocalSecondaryIndexes=[{"IndexName": "by-l", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                                          {"AttributeName": "l", "KeyType": "RANGE"}],
                                        "Projection": {"ProjectionType": "ALL"}}])
    if billing == "PAY_PER_REQUEST":
        args["BillingMode"] = billing
    else:
        args["ProvisionedThroughput"] = {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}
        args["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"] = {"ReadCapacityUnits": 3, "WriteCapacityUnits": 2}
    return args


class Backups(ServerTestCase):
    def filled(self, count=20):
        """A new on-demand table keyed by pk, with `count` items."""
        name = unique_name("bk")
        self.ddb.create_table(**hash_table(name))
        for i in range(count):
            self.ddb.put_item(TableName=name, Item={"pk": S("p%02d" % i), "n": N(i)})
        return name

    def backup(self, table, name="nightly"):
        return self.ddb.create_backup(TableName=table, BackupName=name)["BackupDetails"]

    def test_create_describe_list_delete(self):
        table = self.filled()
        source = self.ddb.describe_table(TableName=table)["Table"]
        created = self.backup(table)
        arn = created["BackupArn"]
        self.assertRegex(arn, r"^%s/backup/\d{13}-[0-9a-f]{8}$" % source["TableArn"])
        # CREATING only in CreateBackup's own answer; AVAILABLE from then on.
        self.assertEqual((created["BackupName"], created["BackupStatus"], created["BackupType"]),
                         ("nightly", "CREATING", "USER"))
        self.assertEqual(created["BackupSizeBytes"], source["TableSizeBytes"])
        described = self.ddb.describe_backup(BackupArn=arn)["BackupDescription"]
        details = described["BackupDetails"]
        self.assertEqual(details["BackupStatus"], "AVAILABLE")
        self.assertEqual(details["BackupCreationDateTime"], created["BackupCreationDateTime"])
        self.assertNotIn("BackupExpiryDateTime", details)
        self.assertEqual(described["SourceTableDetails"], {
            "TableName": table, "TableId": source["TableId"], "TableArn": source["TableArn"],
            "TableSizeBytes": source["TableSizeBytes"], "KeySchema": source["KeySchema"],
            "TableCreationDateTime": source["CreationDateTime"],
            "ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 0},
            "ItemCount": 20, "BillingMode": "PAY_PER_REQUEST"})
        self.assertEqual(described["SourceTableFeatureDetails"], {})  # a plain table
        summaries = self.ddb.list_backups(TableName=table)["BackupSummaries"]
        self.assertEqual(summaries, [{
            "TableName": table, "TableId": source["TableId"], "TableArn": source["TableArn"],
            "BackupArn": arn, "BackupName": "nightly",
            "BackupCreationDateTime": created["BackupCreationDateTime"], "BackupStatus": "AVAILABLE",
            "BackupType": "USER", "BackupSizeBytes": source["TableSizeBytes"]}])
        deleted = self.ddb.delete_backup(BackupArn=arn)["BackupDescription"]
        self.assertEqual(deleted["BackupDetails"]["BackupStatus"], "DELETED")
        self.assertError(self.ddb.describe_backup, "BackupNotFoundException",
                         "Backup not found: " + arn, BackupArn=arn)
        self.assertEqual(self.ddb.list_backups(TableName=table)["BackupSummaries"], [])

    def test_a_backup_records_indexes_stream_ttl_and_sse(self):
        name = unique_name("bk")
        args = indexed_table(name)
        args.update(StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"},
                    SSESpecification={"Enabled": True, "SSEType": "KMS"})
        self.ddb.create_table(**args)
        self.ddb.update_time_to_live(TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"})
        arn = self.backup(name)["BackupArn"]
        features = self.ddb.describe_backup(BackupArn=arn)["BackupDescription"]["SourceTableFeatureDetails"]
        self.assertEqual(features["LocalSecondaryIndexes"], [{
            "IndexName": "by-l", "KeySchema": args["LocalSecondaryIndexes"][0]["KeySchema"],
            "Projection": {"ProjectionType": "ALL"}}])
        self.assertEqual(features["GlobalSecondaryIndexes"], [{
            "IndexName": "by-g", "KeySchema": args["GlobalSecondaryIndexes"][0]["KeySchema"],
            "Projection": {"ProjectionType": "KEYS_ONLY"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 0}}])
        self.assertEqual(features["StreamDescription"], {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
        self.assertEqual(features["TimeToLiveDescription"], {"TimeToLiveStatus": "ENABLED", "AttributeName": "ttl"})
        self.assertEqual((features["SSEDescription"]["Status"], features["SSEDescription"]["SSEType"]),
                         ("ENABLED", "KMS"))

    def test_listing(self):
        table, other = self.filled(2), self.filled(1)
        arns = []
        for i in range(5):
            arns.append(self.backup(table, "same-name")["BackupArn"])  # names need not differ
            time.sleep(0.002)  # distinct creation times
        other_arn = self.backup(other)["BackupArn"]
        listed = lambda **kw: [b["BackupArn"] for b in self.ddb.list_backups(**kw)["BackupSummaries"]]
        self.assertEqual(listed(TableName=table), arns)  # oldest first
        self.assertIn(other_arn, listed())
        self.assertEqual(listed(TableName=table, BackupType="ALL"), arns)
        self.assertEqual(listed(TableName=table, BackupType="SYSTEM"), [])
        self.assertEqual(listed(TableName=unique_name("never")), [])
        # Pages: Limit, then the cursor; exactly Limit left gives no LastEvaluatedBackupArn.
        page = self.ddb.list_backups(TableName=table, Limit=2)
        self.assertEqual(([b["BackupArn"] for b in page["BackupSummaries"]], page["LastEvaluatedBackupArn"]),
                         (arns[:2], arns[1]))
        page = self.ddb.list_backups(TableName=table, Limit=3, ExclusiveStartBackupArn=arns[1])
        self.assertEqual([b["BackupArn"] for b in page["BackupSummaries"]], arns[2:])
        self.assertNotIn("LastEvaluatedBackupArn", page)
        # The cursor need not name a backup that still exists.
        self.ddb.delete_backup(BackupArn=arns[2])
        self.assertEqual(listed(TableName=table, ExclusiveStartBackupArn=arns[2]), arns[3:])
        # Time range: [lower, upper). botocore sends whole seconds; the engine's test covers ms.
        past, future = datetime.datetime(2000, 1, 1), datetime.datetime(2100, 1, 1)
        self.assertEqual(listed(TableName=table, TimeRangeLowerBound=past), arns[:2] + arns[3:])
        self.assertEqual(listed(TableName=table, TimeRangeUpperBound=past), [])
        self.assertEqual(listed(TableName=table, TimeRangeLowerBound=future), [])
        self.assertError(self.ddb.list_backups, "ValidationException",
                         "One or more parameter values were invalid: Time range lower bound must be "
                         "less than or equal to upper bound",
                         TimeRangeLowerBound=future, TimeRangeUpperBound=past)
        self.assertError(self.raw.list_backups, "ValidationException",
                         "1 validation error detected: Value '101' at 'limit' failed to satisfy "
                         "constraint: Member must have value less than or equal to 100", Limit=101)

    def test_backups_outlive_their_table(self):
        table = self.filled(3)
        arn = self.backup(table)["BackupArn"]
        self.ddb.delete_table(TableName=table)
        self.assertEqual(self.ddb.describe_backup(BackupArn=arn)["BackupDescription"]["BackupDetails"]["BackupStatus"],
                         "AVAILABLE")
        self.assertEqual(len(self.ddb.list_backups(TableName=table)["BackupSummaries"]), 1)
        self.ddb.restore_table_from_backup(TargetTableName=table, BackupArn=arn)
        self.assertEqual(self.ddb.scan(TableName=table)["Count"], 3)

    def test_deleting_a_table_with_point_in_time_recovery_keeps_a_system_backup(self):
        table = self.filled(4)
        plain = self.filled(1)
        self.ddb.update_continuous_backups(TableName=table, PointInTimeRecoverySpecification={
            "PointInTimeRecoveryEnabled": True})
        self.ddb.delete_table(TableName=table)
        self.ddb.delete_table(TableName=plain)  # no point-in-time recovery: nothing kept
        self.assertEqual(self.ddb.list_backups(TableName=plain, BackupType="ALL")["BackupSummaries"], [])
        self.assertEqual(self.ddb.list_backups(TableName=table)["BackupSummaries"], [])  # USER only
        (summary,) = self.ddb.list_backups(TableName=table, BackupType="SYSTEM")["BackupSummaries"]
        self.assertEqual((summary["BackupName"], summary["BackupType"]), (table + "$DeletedTableBackup", "SYSTEM"))
        self.assertTrue(summary["BackupArn"].endswith("-00000000"))
        self.assertEqual(summary["BackupExpiryDateTime"] - summary["BackupCreationDateTime"],
                         datetime.timedelta(days=35))
        self.assertEqual(self.ddb.list_backups(TableName=table, BackupType="ALL")["BackupSummaries"], [summary])
        described = self.ddb.describe_backup(BackupArn=summary["BackupArn"])["BackupDescription"]
        self.assertEqual(described["SourceTableFeatureDetails"], {})
        self.assertEqual(described["SourceTableDetails"]["ItemCount"], 4)
        with self.assertRaises(Exception) as caught:
            self.ddb.delete_backup(BackupArn=summary["BackupArn"])
        error = caught.exception.response["Error"]
        self.assertEqual(error["Code"], "ValidationException")
        self.assertTrue(error["Message"].startswith(
            "Invalid Request: User is not allowed to delete the system backup with arn %s. It will "
            "automatically expire on " % summary["BackupArn"]), error["Message"])
        # The deleted table comes back from it.
        self.ddb.restore_table_from_backup(TargetTableName=table, BackupArn=summary["BackupArn"])
        self.assertEqual(self.ddb.scan(TableName=table)["Count"], 4)

    def test_refusals(self):
        missing = unique_name("missing")
        self.assertError(self.ddb.create_backup, "TableNotFoundException", "Table not found: " + missing,
                         TableName=missing, BackupName="b-1")
        table = self.filled(1)
        table_arn = self.ddb.describe_table(TableName=table)["Table"]["TableArn"]
        self.assertError(self.ddb.describe_backup, "ValidationException", "Invalid Backup ARN",
                         BackupArn=table_arn)
        self.assertError(self.ddb.delete_backup, "ValidationException", "Invalid Backup ARN",
                         BackupArn="x" * 48)
        gone = table_arn + "/backup/01700000000000-00000000"
        self.assertError(self.ddb.delete_backup, "BackupNotFoundException", "Backup not found: " + gone,
                         BackupArn=gone)
        self.assertError(self.raw.create_backup, "ValidationException",
                         "1 validation error detected: Value 'bad name!' at 'backupName' failed to "
                         "satisfy constraint: Member must satisfy regular expression pattern: "
                         "[a-zA-Z0-9_.-]+", TableName=table, BackupName="bad name!")

    def test_restore_keeps_items_indexes_billing_and_sse_and_drops_the_rest(self):
        name = unique_name("bk")
        args = indexed_table(name)
        args.update(StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"},
                    SSESpecification={"Enabled": True, "SSEType": "KMS"}, DeletionProtectionEnabled=True,
                    TableClass="STANDARD_INFREQUENT_ACCESS", OnDemandThroughput={"MaxReadRequestUnits": 100},
                    Tags=[{"Key": "team", "Value": "a"}])
        self.ddb.create_table(**args)
        self.ddb.update_time_to_live(TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"})
        self.ddb.update_continuous_backups(TableName=name, PointInTimeRecoverySpecification={
            "PointInTimeRecoveryEnabled": True})
        for i in range(30):
            self.ddb.put_item(TableName=name, Item={"pk": S("p%d" % i), "sk": S("s"), "g": S("g%d" % (i % 3)),
                                                    "l": S("l%02d" % i), "big": S("x" * i)})
        backup = self.backup(name)
        self.ddb.put_item(TableName=name, Item={"pk": S("later"), "sk": S("s")})  # not in the backup
        target = unique_name("restored")
        answer = self.ddb.restore_table_from_backup(TargetTableName=target, BackupArn=backup["BackupArn"])["TableDescription"]
        self.assertEqual(answer["RestoreSummary"]["SourceBackupArn"], backup["BackupArn"])
        self.assertEqual(answer["RestoreSummary"]["SourceTableArn"], self.ddb.describe_table(TableName=name)["Table"]["TableArn"])
        self.assertEqual(answer["RestoreSummary"]["RestoreDateTime"], backup["BackupCreationDateTime"])
        self.assertEqual(answer["ItemCount"], 30)
        restored = self.ddb.describe_table(TableName=target)["Table"]
        self.assertNotIn("RestoreSummary", restored)  # ACTIVE: DynamoDB no longer says
        self.assertEqual(restored["TableStatus"], "ACTIVE")
        self.assertEqual(restored["BillingModeSummary"]["BillingMode"], "PAY_PER_REQUEST")
        self.assertEqual(restored["OnDemandThroughput"], {"MaxReadRequestUnits": 100})
        self.assertEqual(restored["SSEDescription"]["SSEType"], "KMS")
        self.assertEqual([i["IndexName"] for i in restored["GlobalSecondaryIndexes"]], ["by-g"])
        self.assertEqual([i["IndexName"] for i in restored["LocalSecondaryIndexes"]], ["by-l"])
        for dropped in ("StreamSpecification", "LatestStreamArn", "TableClassSummary"):
            self.assertNotIn(dropped, restored)
        self.assertFalse(restored["DeletionProtectionEnabled"])
        self.assertEqual(self.ddb.describe_time_to_live(TableName=target)["TimeToLiveDescription"],
                         {"TimeToLiveStatus": "DISABLED"})
        self.assertEqual(self.ddb.list_tags_of_resource(ResourceArn=restored["TableArn"])["Tags"], [])
        self.assertEqual(self.ddb.describe_continuous_backups(TableName=target)["ContinuousBackupsDescription"]
                         ["PointInTimeRecoveryDescription"], {"PointInTimeRecoveryStatus": "DISABLED"})
        # Every item, with its index entries.
        self.assertEqual(self.ddb.scan(TableName=target)["Count"], 30)
        by_g = self.ddb.query(TableName=target, IndexName="by-g", KeyConditionExpression="g = :g",
                              ExpressionAttributeValues={":g": S("g1")})
        self.assertEqual(by_g["Count"], 10)
        by_l = self.ddb.query(TableName=target, IndexName="by-l", KeyConditionExpression="pk = :p AND l > :l",
                              ExpressionAttributeValues={":p": S("p7"), ":l": S("l")})
        self.assertEqual(by_l["Items"][0]["big"], S("x" * 7))
        self.assertError(self.ddb.restore_table_from_backup, "TableAlreadyExistsException",
                         "Table already exists: " + target, TargetTableName=target, BackupArn=backup["BackupArn"])

    def test_restore_overrides(self):
        name = unique_name("bk")
        self.ddb.create_table(**indexed_table(name))
        self.ddb.put_item(TableName=name, Item={"pk": S("a"), "sk": S("s"), "g": S("g"), "l": S("l")})
        arn = self.backup(name)["BackupArn"]
        restore = lambda **kw: self.ddb.restore_table_from_backup(
            TargetTableName=unique_name("restored"), BackupArn=arn, **kw)["TableDescription"]
        gsi = indexed_table(name)["GlobalSecondaryIndexes"][0]
        lsi = indexed_table(name)["LocalSecondaryIndexes"][0]
        # Empty lists drop the indexes (and the definitions only they used); absent keeps them.
        bare = restore(GlobalSecondaryIndexOverride=[], LocalSecondaryIndexOverride=[])
        self.assertNotIn("GlobalSecondaryIndexes", bare)
        self.assertEqual(sorted(d["AttributeName"] for d in bare["AttributeDefinitions"]), ["pk", "sk"])
        # An index may be renamed; it must match one of the backup's by keys and projection.
        renamed = restore(GlobalSecondaryIndexOverride=[dict(gsi, IndexName="by-g-2")], LocalSecondaryIndexOverride=[])
        self.assertEqual([i["IndexName"] for i in renamed["GlobalSecondaryIndexes"]], ["by-g-2"])
        self.assertEqual(renamed["GlobalSecondaryIndexes"][0]["ItemCount"], 1)
        other = dict(gsi, IndexName="new", Projection={"ProjectionType": "ALL"})
        self.assertError(restore, "ValidationException",
                         "Invalid Request: Index new does not match a secondary index that existed in "
                         "the source table and cannot be created during the restore operation",
                         GlobalSecondaryIndexOverride=[other])
        # Billing and throughput overrides follow the billing mode the table will have.
        provisioned = restore(BillingModeOverride="PROVISIONED",
                              ProvisionedThroughputOverride={"ReadCapacityUnits": 7, "WriteCapacityUnits": 3},
                              GlobalSecondaryIndexOverride=[dict(gsi, ProvisionedThroughput={
                                  "ReadCapacityUnits": 2, "WriteCapacityUnits": 2})])
        self.assertEqual(provisioned["ProvisionedThroughput"]["ReadCapacityUnits"], 7)
        self.assertEqual(provisioned["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]["ReadCapacityUnits"], 2)
        refusals = [
            (dict(BillingModeOverride="PROVISIONED"),
             "Invalid Request: Must override ProvisionedThroughput if BillingMode is overridden to PROVISIONED"),
            (dict(ProvisionedThroughputOverride={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}),
             "Invalid Request: Cannot override ProvisionedThroughput unless BillingMode is PROVISIONED"),
            (dict(BillingModeOverride="PAY_PER_REQUEST",
                  ProvisionedThroughputOverride={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}),
             "Invalid Request: Cannot override ProvisionedThroughput if BillingMode is overridden to "
             "PAY_PER_REQUEST"),
            (dict(BillingModeOverride="PROVISIONED",
                  ProvisionedThroughputOverride={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}),
             "Invalid Request: Must specify provisioned throughput for index by-g"),
        ]
        for kwargs, message in refusals:
            with self.subTest(kwargs):
                self.assertError(restore, "ValidationException", message, **kwargs)
        source = unique_name("bk")
        self.ddb.create_table(**indexed_table(source, billing="PROVISIONED"))
        provisioned_arn = self.backup(source)["BackupArn"]
        self.assertError(self.ddb.restore_table_from_backup, "ValidationException",
                         "Invalid Request: Cannot override MaxReadRequestUnits for OnDemandThroughput "
                         "unless BillingModeOverride is PAY_PER_REQUEST",
                         TargetTableName=unique_name("restored"), BackupArn=provisioned_arn,
                         OnDemandThroughputOverride={"MaxReadRequestUnits": 5})
        kept = self.ddb.restore_table_from_backup(TargetTableName=unique_name("restored"),
                                                  BackupArn=provisioned_arn)["TableDescription"]
        self.assertEqual(kept["ProvisionedThroughput"]["ReadCapacityUnits"], 5)
        self.assertEqual(kept["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]["ReadCapacityUnits"], 3)
        on_demand = self.ddb.restore_table_from_backup(TargetTableName=unique_name("restored"),
                                                       BackupArn=provisioned_arn,
                                                       BillingModeOverride="PAY_PER_REQUEST")["TableDescription"]
        self.assertEqual(on_demand["BillingModeSummary"]["BillingMode"], "PAY_PER_REQUEST")
        self.assertEqual(on_demand["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]["ReadCapacityUnits"], 0)
        gone = arn[:-8] + "00000000"
        self.assertError(self.ddb.restore_table_from_backup, "BackupNotFoundException", "Backup not found: " + gone,
                         TargetTableName=unique_name("restored"), BackupArn=gone)

    def test_backups_survive_a_restart(self):
        def write(ddb):
            table = unique_name("bk")
            ddb.create_table(**hash_table(table))
            for i in range(50):
                ddb.put_item(TableName=table, Item={"pk": S("p%d" % i), "blob": {"B": bytes([i]) * i}})
            arn = ddb.create_backup(TableName=table, BackupName="keep")["BackupDetails"]["BackupArn"]
            dropped = ddb.create_backup(TableName=table, BackupName="drop")["BackupDetails"]["BackupArn"]
            ddb.delete_backup(BackupArn=dropped)
            ddb.delete_table(TableName=table)
            return table, arn

        def read(ddb, written):
            table, arn = written
            self.assertEqual([b["BackupArn"] for b in ddb.list_backups()["BackupSummaries"]], [arn])
            ddb.restore_table_from_backup(TargetTableName=table, BackupArn=arn)
            items = {i["pk"]["S"]: i for i in ddb.scan(TableName=table)["Items"]}
            self.assertEqual(len(items), 50)
            self.assertEqual(items["p9"]["blob"], {"B": bytes([9]) * 9})

        across_restart(write, read)


class RestoreWhileCreating(ServerTestCase):
    server_args = ("--table-delay-ms", "2000")  # wide enough for a slow (sanitizer) build

    def test_restore_summary_while_creating(self):
        table = unique_name("bk")
        self.ddb.create_table(**hash_table(table))
        self.ddb.get_waiter("table_exists").wait(TableName=table, WaiterConfig={"Delay": 0.2})
        arn = self.ddb.create_backup(TableName=table, BackupName="bk1")["BackupDetails"]["BackupArn"]
        target = unique_name("restored")
        answer = self.ddb.restore_table_from_backup(TargetTableName=target, BackupArn=arn)["TableDescription"]
        self.assertEqual((answer["TableStatus"], answer["RestoreSummary"]["RestoreInProgress"]), ("CREATING", True))
        described = self.ddb.describe_table(TableName=target)["Table"]
        self.assertEqual(described["RestoreSummary"]["SourceBackupArn"], arn)
        # CreateBackup of a table still being created: not found, as DynamoDB answers.
        self.assertError(self.ddb.create_backup, "TableNotFoundException", "Table not found: " + target,
                         TableName=target, BackupName="bk1")
        self.ddb.get_waiter("table_exists").wait(TableName=target, WaiterConfig={"Delay": 0.2})
        self.assertNotIn("RestoreSummary", self.ddb.describe_table(TableName=target)["Table"])


if __name__ == "__main__":
    unittest.main()
