"""Table operations through boto3, against the real ddbd: results, waiters, paging, errors."""
import datetime
import re
import unittest

from ddbd_harness import ServerTestCase, hash_table, unique_name

NOT_NULL = "failed to satisfy constraint: Member must not be null"


class CreateAndDescribe(ServerTestCase):
    def test_composite_key_provisioned_table_is_described_in_full(self):
        name = unique_name()
        before = datetime.datetime.now(datetime.timezone.utc)
        created = self.ddb.create_table(
            TableName=name,
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "sk", "AttributeType": "N"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                       {"AttributeName": "sk", "KeyType": "RANGE"}],
            ProvisionedThroughput={"ReadCapacityUnits": 3, "WriteCapacityUnits": 4},
        )["TableDescription"]
        table = self.ddb.describe_table(TableName=name)["Table"]
        self.assertEqual(created, table)
        self.assertEqual(table["TableStatus"], "ACTIVE")
        self.assertEqual(table["TableArn"], "arn:aws:dynamodb:us-east-1:000000000000:table/" + name)
        self.assertRegex(table["TableId"], r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
        self.assertEqual(table["KeySchema"], [{"AttributeName": "pk", "KeyType": "HASH"},
                                              {"AttributeName": "sk", "KeyType": "RANGE"}])
        self.assertEqual(table["ProvisionedThroughput"],
                         {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 3, "WriteCapacityUnits": 4})
        self.assertEqual((table["ItemCount"], table["TableSizeBytes"]), (0, 0))
        self.assertFalse(table["DeletionProtectionEnabled"])
        # DynamoDB omits BillingModeSummary for a table created without BillingMode.
        self.assertNotIn("BillingModeSummary", table)
        self.assertLess(abs(table["CreationDateTime"] - before), datetime.timedelta(seconds=5))

    def test_on_demand_table_reports_billing_mode_and_zero_throughput(self):
        name = unique_name()
        table = self.ddb.create_table(**hash_table(name))["TableDescription"]
        self.assertEqual(table["BillingModeSummary"]["BillingMode"], "PAY_PER_REQUEST")
        self.assertIn("LastUpdateToPayPerRequestDateTime", table["BillingModeSummary"])
        self.assertEqual(table["ProvisionedThroughput"]["ReadCapacityUnits"], 0)

    def test_stream_encryption_and_table_class_are_stored_and_described(self):
        name = unique_name()
        self.ddb.create_table(**hash_table(
            name, StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
            SSESpecification={"Enabled": True, "SSEType": "KMS", "KMSMasterKeyId": "my-key"},
            TableClass="STANDARD_INFREQUENT_ACCESS", Tags=[{"Key": "team", "Value": "audio"}]))
        table = self.ddb.describe_table(TableName=name)["Table"]
        self.assertEqual(table["StreamSpecification"],
                         {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
        self.assertRegex(table["LatestStreamLabel"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$")
        self.assertEqual(table["LatestStreamArn"], table["TableArn"] + "/stream/" + table["LatestStreamLabel"])
        self.assertEqual(table["SSEDescription"], {
            "Status": "ENABLED", "SSEType": "KMS",
            "KMSMasterKeyArn": "arn:aws:kms:us-east-1:000000000000:key/my-key"})
        self.assertEqual(table["TableClassSummary"]["TableClass"], "STANDARD_INFREQUENT_ACCESS")

    def test_table_is_addressed_by_its_arn(self):
        name = unique_name()
        arn = self.ddb.create_table(**hash_table(name))["TableDescription"]["TableArn"]
        self.assertEqual(self.ddb.describe_table(TableName=arn)["Table"]["TableName"], name)

    def test_waiters_see_the_table_come_and_go(self):
        name = unique_name()
        self.ddb.create_table(**hash_table(name))
        self.ddb.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 1})
        self.assertEqual(self.ddb.delete_table(TableName=name)["TableDescription"]["TableStatus"], "DELETING")
        self.ddb.get_waiter("table_not_exists").wait(TableName=name, WaiterConfig={"Delay": 1})


class CreateTableErrors(ServerTestCase):
    def test_existing_table(self):
        name = unique_name()
        self.ddb.create_table(**hash_table(name))
        self.assertError(self.ddb.create_table, "ResourceInUseException",
                         "Table already exists: " + name, **hash_table(name))

    def test_missing_table_name(self):
        args = hash_table("x")
        del args["TableName"]
        self.assertError(self.raw.create_table, "ValidationException",
                         "The parameter 'TableName' is required but was not present in the request", **args)

    def test_table_name_constraints_are_listed_together(self):
        self.assertError(self.ddb.create_table, "ValidationException",
                         "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy "
                         "constraint: Member must have length greater than or equal to 3", **hash_table("ab"))
        self.assertError(self.raw.create_table, "ValidationException",
                         "2 validation errors detected: Value 'a;' at 'tableName' failed to satisfy "
                         "constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; "
                         "Value 'a;' at 'tableName' failed to satisfy constraint: Member must have "
                         "length greater than or equal to 3", **hash_table("a;"))
        long_name = "a" * 256
        self.assertError(self.ddb.create_table, "ValidationException",
                         "1 validation error detected: Value '%s' at 'tableName' failed to satisfy "
                         "constraint: Member must have length less than or equal to 255" % long_name,
                         **hash_table(long_name))

    def test_invalid_enums(self):
        args = hash_table(unique_name())
        args["KeySchema"] = [{"AttributeName": "pk", "KeyType": "INVALID"}]
        self.assertError(self.raw.create_table, "ValidationException",
                         "1 validation error detected: Value 'INVALID' at 'keySchema.1.member.keyType' "
                         "failed to satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]", **args)
        args = hash_table(unique_name())
        args["AttributeDefinitions"] = [{"AttributeName": "pk", "AttributeType": "INVALID"}]
        self.assertError(self.raw.create_table, "ValidationException",
                         "1 validation error detected: Value 'INVALID' at "
                         "'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: "
                         "Member must satisfy enum value set: [B, N, S]", **args)
        # DynamoDB's order (recorded against AWS; protocol/model/supplement.json has no entry:
        # the model's order).
        args = hash_table(unique_name())
        args["BillingMode"] = "INVALID_MODE"
        self.assertError(self.raw.create_table, "ValidationException",
                         "1 validation error detected: Value 'INVALID_MODE' at 'billingMode' failed to "
                         "satisfy constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]",
                         **args)

    def test_three_key_elements(self):
        args = hash_table(unique_name())
        args["AttributeDefinitions"] = [{"AttributeName": n, "AttributeType": "S"} for n in ("pk", "sk", "extra")]
        args["KeySchema"] = [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"},
                             {"AttributeName": "extra", "KeyType": "RANGE"}]
        self.assertError(self.raw.create_table, "ValidationException",
                         "1 validation error detected: Value '[KeySchemaElement(attributeName=pk, keyType=HASH), "
                         "KeySchemaElement(attributeName=sk, keyType=RANGE), KeySchemaElement(attributeName=extra, "
                         "keyType=RANGE)]' at 'keySchema' failed to satisfy constraint: Member must have length "
                         "less than or equal to 2", **args)

    def test_create_table_same_key_twice(self):
        args = hash_table(unique_name())
        args["KeySchema"] = [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "pk", "KeyType": "RANGE"}]
        self.assertError(self.ddb.create_table, "ValidationException",
                         "Invalid KeySchema: Some index key attribute have no definition", **args)

    def test_key_schema_and_definitions_must_agree(self):
        args = hash_table(unique_name())
        args["AttributeDefinitions"].append({"AttributeName": "extra", "AttributeType": "N"})
        self.assertError(self.ddb.create_table, "ValidationException",
                         "One or more parameter values were invalid: Number of attributes in KeySchema does "
                         "not exactly match number of attributes defined in AttributeDefinitions", **args)
        args = hash_table(unique_name())
        args["KeySchema"] = [{"AttributeName": "pk", "KeyType": "RANGE"}]
        self.assertError(self.ddb.create_table, "ValidationException",
                         "Invalid KeySchema: The first KeySchemaElement is not a HASH key type", **args)

    def test_billing_mode_and_throughput_must_agree(self):
        args = hash_table(unique_name(), ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
        self.assertError(self.ddb.create_table, "ValidationException",
                         "One or more parameter values were invalid: Neither ReadCapacityUnits nor "
                         "WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST", **args)
        args = hash_table(unique_name())
        del args["BillingMode"]
        self.assertError(self.ddb.create_table, "ValidationException",
                         "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits "
                         "must both be specified when BillingMode is PROVISIONED", **args)
        args = hash_table(unique_name(), billing="PROVISIONED")
        args["ProvisionedThroughput"]["ReadCapacityUnits"] = 0
        self.assertError(self.raw.create_table, "ValidationException",
                         "1 validation error detected: Value '0' at 'provisionedThroughput.readCapacityUnits' "
                         "failed to satisfy constraint: Member must have value greater than or equal to 1", **args)

    def test_stream_enabled_needs_a_view_type(self):
        args = hash_table(unique_name(), StreamSpecification={"StreamEnabled": True})
        self.assertError(self.ddb.create_table, "ValidationException",
                         "One or more parameter values were invalid: Table is being created with a stream "
                         "enabled, UpdateViewType is required", **args)


class ListTables(ServerTestCase):
    def test_paginator_walks_every_table_once_in_order(self):
        names = sorted(unique_name("list") for _ in range(7))
        for name in names:
            self.ddb.create_table(**hash_table(name))
        seen = []
        for page in self.ddb.get_paginator("list_tables").paginate(PaginationConfig={"PageSize": 3}):
            self.assertLessEqual(len(page["TableNames"]), 3)
            seen.extend(page["TableNames"])
        self.assertEqual(seen, sorted(seen))
        self.assertEqual([n for n in seen if n in names], names)
        first = self.ddb.list_tables(Limit=2)
        self.assertEqual(first["LastEvaluatedTableName"], first["TableNames"][-1])
        after = self.ddb.list_tables(ExclusiveStartTableName=names[0], Limit=100)["TableNames"]
        self.assertTrue(all(n > names[0] for n in after))

    def test_limit_bounds(self):
        self.assertError(self.raw.list_tables, "ValidationException",
                         "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: "
                         "Member must have value less than or equal to 100", Limit=101)


class UpdateTable(ServerTestCase):
    def test_throughput_changes_and_decreases_are_counted(self):
        name = unique_name()
        self.ddb.create_table(**hash_table(name, billing="PROVISIONED"))
        table = self.ddb.update_table(TableName=name, ProvisionedThroughput={
            "ReadCapacityUnits": 10, "WriteCapacityUnits": 1})["TableDescription"]
        throughput = table["ProvisionedThroughput"]
        self.assertEqual((throughput["ReadCapacityUnits"], throughput["WriteCapacityUnits"]), (10, 1))
        self.assertEqual(throughput["NumberOfDecreasesToday"], 1)
        self.assertIn("LastIncreaseDateTime", throughput)
        self.assertIn("LastDecreaseDateTime", throughput)
        self.assertEqual(self.ddb.describe_table(TableName=name)["Table"]["ProvisionedThroughput"], throughput)

    def test_unchanged_throughput_is_refused(self):
        name = unique_name()
        self.ddb.create_table(**hash_table(name, billing="PROVISIONED"))
        self.assertError(self.ddb.update_table, "ValidationException",
                         "The provisioned throughput for the table will not change. The requested value equals "
                         "the current value. Current ReadCapacityUnits provisioned for the table: 5. Requested "
                         "ReadCapacityUnits: 5. Current WriteCapacityUnits provisioned for the table: 5. "
                         "Requested WriteCapacityUnits: 5. Refer to the Amazon DynamoDB Developer Guide for "
                         "current limits and how to request higher limits.",
                         TableName=name, BillingMode="PROVISIONED",
                         ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5})

    def test_billing_mode_switches_both_ways(self):
        name = unique_name()
        self.ddb.create_table(**hash_table(name, billing="PROVISIONED"))
        table = self.ddb.update_table(TableName=name, BillingMode="PAY_PER_REQUEST")["TableDescription"]
        self.assertEqual(table["BillingModeSummary"]["BillingMode"], "PAY_PER_REQUEST")
        self.assertEqual(table["ProvisionedThroughput"]["ReadCapacityUnits"], 0)
        self.ddb.update_table(TableName=name, BillingMode="PAY_PER_REQUEST")  # accepted no-op
        self.assertError(self.ddb.update_table, "ValidationException",
                         "One or more parameter values were invalid: ProvisionedThroughput must be specified "
                         "when BillingMode is PROVISIONED", TableName=name, BillingMode="PROVISIONED")
        table = self.ddb.update_table(TableName=name, BillingMode="PROVISIONED", ProvisionedThroughput={
            "ReadCapacityUnits": 2, "WriteCapacityUnits": 2})["TableDescription"]
        self.assertEqual(table["BillingModeSummary"]["BillingMode"], "PROVISIONED")
        self.assertEqual(table["ProvisionedThroughput"]["ReadCapacityUnits"], 2)

    def test_empty_update_is_refused(self):
        name = unique_name()
        self.ddb.create_table(**hash_table(name))
        self.assertError(self.ddb.update_table, "ValidationException",
                         "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
                         "GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, "
                         "ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, "
                         "OnDemandThroughput, WarmThroughput or TableClass is required", TableName=name)

    def test_table_class_and_stream(self):
        name = unique_name()
        self.ddb.create_table(**hash_table(name))
        table = self.ddb.update_table(TableName=name, TableClass="STANDARD_INFREQUENT_ACCESS")["TableDescription"]
        self.assertEqual(table["TableClassSummary"]["TableClass"], "STANDARD_INFREQUENT_ACCESS")
        table = self.ddb.update_table(TableName=name, StreamSpecification={
            "StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})["TableDescription"]
        self.assertEqual(table["StreamSpecification"]["StreamViewType"], "KEYS_ONLY")
        self.assertError(self.ddb.update_table, "ValidationException",
                         "Table already has an enabled stream: TableName: " + name, TableName=name,
                         StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})

    def test_warm_throughput_alone_is_an_update(self):
        # Terraform sends UpdateTable with only WarmThroughput.
        name = unique_name()
        created = self.ddb.create_table(
            WarmThroughput={"ReadUnitsPerSecond": 15000, "WriteUnitsPerSecond": 5000},
            **hash_table(name))["TableDescription"]
        self.assertEqual(created["WarmThroughput"],
                         {"ReadUnitsPerSecond": 15000, "WriteUnitsPerSecond": 5000, "Status": "ACTIVE"})
        updated = self.ddb.update_table(TableName=name, WarmThroughput={"WriteUnitsPerSecond": 6000})
        self.assertEqual(updated["TableDescription"]["WarmThroughput"],
                         {"ReadUnitsPerSecond": 15000, "WriteUnitsPerSecond": 6000, "Status": "ACTIVE"})
        self.assertEqual(self.ddb.describe_table(TableName=name)["Table"]["WarmThroughput"]
                         ["WriteUnitsPerSecond"], 6000)

    def test_warm_throughput_minimums_and_no_decrease(self):
        # Texts as measured against DynamoDB (see docs/architecture.md, table settings).
        initial = ("One or more parameter values were invalid: Requested %s for WarmThroughput for "
                   "table is lower than initial throughput for OnDemand. See: https://docs.aws.amazon.com/"
                   "amazondynamodb/latest/developerguide/on-demand-capacity-mode.html"
                   "#on-demand-capacity-mode-initial")
        self.assertError(self.ddb.create_table, "ValidationException", initial % "ReadUnitsPerSecond",
                         WarmThroughput={"ReadUnitsPerSecond": 1, "WriteUnitsPerSecond": 1},
                         **hash_table(unique_name()))
        self.assertError(self.ddb.create_table, "ValidationException", initial % "WriteUnitsPerSecond",
                         WarmThroughput={"WriteUnitsPerSecond": 3999}, **hash_table(unique_name()))
        self.assertError(self.ddb.create_table, "ValidationException",
                         "One or more parameter values were invalid: Requested ReadUnitsPerSecond for "
                         "WarmThroughput for table is lower than ReadCapacityUnits of ProvisionedThroughput",
                         WarmThroughput={"ReadUnitsPerSecond": 4, "WriteUnitsPerSecond": 5},
                         **hash_table(unique_name(), billing="PROVISIONED"))
        # A member not given takes DynamoDB's initial on-demand throughput.
        name = unique_name()
        created = self.ddb.create_table(WarmThroughput={"ReadUnitsPerSecond": 12001},
                                        **hash_table(name))["TableDescription"]
        self.assertEqual(created["WarmThroughput"],
                         {"ReadUnitsPerSecond": 12001, "WriteUnitsPerSecond": 4000, "Status": "ACTIVE"})
        self.assertError(self.ddb.update_table, "ValidationException",
                         "One or more parameter values were invalid: Requested ReadUnitsPerSecond for "
                         "WarmThroughput for table is lower than current WarmThroughput, decreasing "
                         "WarmThroughput is not supported",
                         TableName=name, WarmThroughput={"ReadUnitsPerSecond": 12000})
        # A provisioned table is warm for its capacity until told more.
        provisioned = unique_name()
        self.ddb.create_table(**hash_table(provisioned, billing="PROVISIONED"))
        self.assertError(self.ddb.update_table, "ValidationException",
                         "One or more parameter values were invalid: Requested WriteUnitsPerSecond for "
                         "WarmThroughput for table is lower than current WarmThroughput, decreasing "
                         "WarmThroughput is not supported",
                         TableName=provisioned, WarmThroughput={"WriteUnitsPerSecond": 4})
        updated = self.ddb.update_table(TableName=provisioned, WarmThroughput={"ReadUnitsPerSecond": 50})
        self.assertEqual(updated["TableDescription"]["WarmThroughput"],
                         {"ReadUnitsPerSecond": 50, "WriteUnitsPerSecond": 5, "Status": "ACTIVE"})

    def test_global_index_warm_throughput(self):
        name = unique_name()
        gsi = lambda warm: {"IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                            "Projection": {"ProjectionType": "KEYS_ONLY"}, "WarmThroughput": warm}
        definitions = [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}]
        self.assertError(self.ddb.create_table, "ValidationException",
                         "One or more parameter values were invalid: Requested ReadUnitsPerSecond for "
                         "WarmThroughput for index by-g is lower than initial throughput for OnDemand. See: "
                         "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
                         "on-demand-capacity-mode.html#on-demand-capacity-mode-initial",
                         GlobalSecondaryIndexes=[gsi({"ReadUnitsPerSecond": 100})],
                         **dict(hash_table(name), AttributeDefinitions=definitions))
        self.ddb.create_table(GlobalSecondaryIndexes=[gsi({"ReadUnitsPerSecond": 13000})],
                              **dict(hash_table(name), AttributeDefinitions=definitions))
        warm = lambda: self.ddb.describe_table(TableName=name)["Table"]["GlobalSecondaryIndexes"][0]["WarmThroughput"]
        self.assertEqual(warm(), {"ReadUnitsPerSecond": 13000, "WriteUnitsPerSecond": 4000, "Status": "ACTIVE"})
        # WarmThroughput alone is an index update; it only rises.
        self.ddb.update_table(TableName=name, GlobalSecondaryIndexUpdates=[
            {"Update": {"IndexName": "by-g", "WarmThroughput": {"WriteUnitsPerSecond": 5000}}}])
        self.assertEqual(warm()["WriteUnitsPerSecond"], 5000)
        self.assertError(self.ddb.update_table, "ValidationException",
                         "One or more parameter values were invalid: Requested ReadUnitsPerSecond for "
                         "WarmThroughput for index by-g is lower than current WarmThroughput, decreasing "
                         "WarmThroughput is not supported", TableName=name, GlobalSecondaryIndexUpdates=[
                             {"Update": {"IndexName": "by-g", "WarmThroughput": {"ReadUnitsPerSecond": 12000}}}])

    def test_warm_throughput_is_always_described_and_never_drops(self):
        on_demand = unique_name()
        self.ddb.create_table(**hash_table(on_demand))
        self.assertEqual(self.ddb.describe_table(TableName=on_demand)["Table"]["WarmThroughput"],
                         {"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000, "Status": "ACTIVE"})
        provisioned = unique_name()
        self.ddb.create_table(**hash_table(provisioned, billing="PROVISIONED"))
        warm = lambda: self.ddb.describe_table(TableName=provisioned)["Table"]["WarmThroughput"]
        self.assertEqual(warm(), {"ReadUnitsPerSecond": 5, "WriteUnitsPerSecond": 5, "Status": "ACTIVE"})
        self.ddb.update_table(TableName=provisioned,
                              ProvisionedThroughput={"ReadCapacityUnits": 20, "WriteCapacityUnits": 10})
        self.assertEqual(warm()["ReadUnitsPerSecond"], 20)
        self.ddb.update_table(TableName=provisioned,
                              ProvisionedThroughput={"ReadCapacityUnits": 2, "WriteCapacityUnits": 2})
        self.assertEqual(warm(), {"ReadUnitsPerSecond": 20, "WriteUnitsPerSecond": 10, "Status": "ACTIVE"})

    def test_missing_table(self):
        self.assertError(self.ddb.update_table, "ResourceNotFoundException",
                         "Requested resource not found: Table: no-such-table not found",
                         TableName="no-such-table", BillingMode="PAY_PER_REQUEST")


class DeleteTable(ServerTestCase):
    def test_delete_returns_the_description_and_removes_the_table(self):
        name = unique_name()
        created = self.ddb.create_table(**hash_table(name))["TableDescription"]
        deleted = self.ddb.delete_table(TableName=name)["TableDescription"]
        self.assertEqual(deleted["TableStatus"], "DELETING")
        self.assertEqual(deleted["TableId"], created["TableId"])
        self.assertNotIn(name, self.ddb.list_tables()["TableNames"])
        self.assertError(self.ddb.describe_table, "ResourceNotFoundException",
                         "Requested resource not found: Table: %s not found" % name, TableName=name)
        self.assertError(self.ddb.delete_table, "ResourceNotFoundException",
                         "Requested resource not found: Table: %s not found" % name, TableName=name)


class TransientStatuses(ServerTestCase):
    server_args = ("--table-delay-ms", "300")

    def test_create_update_delete_pass_through_transient_statuses(self):
        name = unique_name()
        self.assertEqual(self.ddb.create_table(**hash_table(name))["TableDescription"]["TableStatus"], "CREATING")
        self.assertEqual(self.ddb.describe_table(TableName=name)["Table"]["TableStatus"], "CREATING")
        self.assertError(self.ddb.delete_table, "ResourceInUseException",
                         "Attempt to change a resource which is still in use: Table is being created: " + name,
                         TableName=name)
        self.ddb.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 0.1})
        self.assertEqual(self.ddb.describe_table(TableName=name)["Table"]["TableStatus"], "ACTIVE")
        updated = self.ddb.update_table(TableName=name, TableClass="STANDARD")["TableDescription"]
        self.assertEqual(updated["TableStatus"], "UPDATING")
        self.ddb.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 0.4})
        self.assertEqual(self.ddb.delete_table(TableName=name)["TableDescription"]["TableStatus"], "DELETING")
        self.assertEqual(self.ddb.describe_table(TableName=name)["Table"]["TableStatus"], "DELETING")
        self.ddb.get_waiter("table_not_exists").wait(TableName=name, WaiterConfig={"Delay": 0.1})


if __name__ == "__main__":
    unittest.main()
