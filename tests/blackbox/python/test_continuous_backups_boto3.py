"""Point-in-time recovery settings through boto3 and the AWS CLI: DescribeContinuousBackups (which
Terraform's provider reads for every table) and UpdateContinuousBackups, with DynamoDB's answers
and TableNotFoundException."""
import datetime
import json
import os
import subprocess
import unittest

from ddbd_harness import ServerTestCase, across_restart, hash_table, unique_name


class ContinuousBackups(ServerTestCase):
    def describe(self, name):
        return self.ddb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"]

    def test_disabled_by_default_then_enabled_then_disabled(self):
        name = unique_name()
        self.ddb.create_table(**hash_table(name))
        self.assertEqual(self.describe(name), {
            "ContinuousBackupsStatus": "ENABLED",
            "PointInTimeRecoveryDescription": {"PointInTimeRecoveryStatus": "DISABLED"}})
        before = datetime.datetime.now(datetime.timezone.utc)
        enabled = self.ddb.update_continuous_backups(
            TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True}
        )["ContinuousBackupsDescription"]
        recovery = enabled["PointInTimeRecoveryDescription"]
        self.assertEqual((recovery["PointInTimeRecoveryStatus"], recovery["RecoveryPeriodInDays"]), ("ENABLED", 35))
        self.assertLess(abs(recovery["EarliestRestorableDateTime"] - before), datetime.timedelta(seconds=5))
        self.assertGreaterEqual(recovery["LatestRestorableDateTime"], recovery["EarliestRestorableDateTime"])
        self.assertEqual(self.describe(name), enabled)
        shorter = self.ddb.update_continuous_backups(
            TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True,
                                                              "RecoveryPeriodInDays": 7})
        self.assertEqual(shorter["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
                         ["RecoveryPeriodInDays"], 7)
        self.ddb.update_continuous_backups(
            TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": False})
        self.assertEqual(self.describe(name)["PointInTimeRecoveryDescription"],
                         {"PointInTimeRecoveryStatus": "DISABLED"})

    def test_errors(self):
        missing = unique_name()
        self.assertError(self.ddb.describe_continuous_backups, "TableNotFoundException",
                         "Table not found: " + missing, TableName=missing)
        self.assertError(self.ddb.update_continuous_backups, "TableNotFoundException",
                         "Table not found: " + missing, TableName=missing,
                         PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
        name = unique_name()
        self.ddb.create_table(**hash_table(name))
        self.assertError(self.raw.update_continuous_backups, "ValidationException",
                         "1 validation error detected: Value '36' at "
                         "'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed to satisfy "
                         "constraint: Member must have value less than or equal to 35",
                         TableName=name, PointInTimeRecoverySpecification={
                             "PointInTimeRecoveryEnabled": True, "RecoveryPeriodInDays": 36})
        self.assertError(self.raw.update_continuous_backups, "ValidationException",
                         "1 validation error detected: Value null at 'pointInTimeRecoverySpecification' "
                         "failed to satisfy constraint: Member must not be null", TableName=name)

    def test_the_cli_reads_them(self):
        name = unique_name()
        self.ddb.create_table(**hash_table(name))
        env = dict(os.environ, AWS_ACCESS_KEY_ID="x", AWS_SECRET_ACCESS_KEY="x", AWS_DEFAULT_REGION="us-east-1")
        out = subprocess.run(["aws", "dynamodb", "describe-continuous-backups", "--table-name", name,
                              "--endpoint-url", self.endpoint], env=env, capture_output=True, text=True,
                             check=True).stdout
        self.assertEqual(json.loads(out)["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"],
                         {"PointInTimeRecoveryStatus": "DISABLED"})


class ContinuousBackupsPersist(unittest.TestCase):
    def test_the_setting_survives_a_restart(self):
        def write(ddb):
            ddb.create_table(**hash_table("Recovered"))
            ddb.update_continuous_backups(TableName="Recovered", PointInTimeRecoverySpecification={
                "PointInTimeRecoveryEnabled": True, "RecoveryPeriodInDays": 3})

        def read(ddb, _):
            recovery = ddb.describe_continuous_backups(TableName="Recovered")[
                "ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
            self.assertEqual((recovery["PointInTimeRecoveryStatus"], recovery["RecoveryPeriodInDays"]),
                             ("ENABLED", 3))

        across_restart(write, read)


if __name__ == "__main__":
    unittest.main()
