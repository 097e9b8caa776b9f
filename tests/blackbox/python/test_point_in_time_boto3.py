"""RestoreTableToPointInTime through boto3: a restore to a moment holds the items of that moment,
UseLatestRestorableTime, the restorable window as DescribeContinuousBackups shows it (DynamoDB's
five-minute lag, or --pitr-lag-ms 0), a history that starts anew after a restart, and the
refusals in DynamoDB's order with its texts."""
import datetime
import time
import unittest

from ddbd_harness import ServerTestCase, across_restart, hash_table, unique_name

S = lambda v: {"S": v}


def enable(ddb, table):
    return ddb.update_continuous_backups(TableName=table, PointInTimeRecoverySpecification={
        "PointInTimeRecoveryEnabled": True})["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]


def contents(ddb, table):
    return {i["pk"]["S"]: i["v"]["S"] for i in ddb.scan(TableName=table)["Items"]}


class PointInTime(ServerTestCase):
    server_args = ("--pitr-lag-ms", "0")

    def test_a_restore_holds_the_items_of_its_moment(self):
        table = unique_name("pit")
        self.ddb.create_table(**hash_table(table))
        self.ddb.put_item(TableName=table, Item={"pk": S("before"), "v": S("0")})
        enable(self.ddb, table)
        for key in ("a", "b", "c"):
            self.ddb.put_item(TableName=table, Item={"pk": S(key), "v": S("1")})
        # botocore sends whole seconds: the moment is a second boundary after these writes.
        time.sleep(1.2)
        moment = int(time.time())
        time.sleep(moment + 1.1 - time.time())
        self.ddb.put_item(TableName=table, Item={"pk": S("a"), "v": S("2")})
        self.ddb.delete_item(TableName=table, Key={"pk": S("b")})
        self.ddb.put_item(TableName=table, Item={"pk": S("d"), "v": S("2")})
        at = datetime.datetime.fromtimestamp(moment, datetime.timezone.utc)
        target = unique_name("pit-then")
        answer = self.ddb.restore_table_to_point_in_time(SourceTableName=table, TargetTableName=target,
                                                         RestoreDateTime=at)["TableDescription"]
        self.assertEqual(answer["RestoreSummary"]["RestoreDateTime"], at)
        self.assertNotIn("SourceBackupArn", answer["RestoreSummary"])
        self.assertEqual(contents(self.ddb, target), {"before": "0", "a": "1", "b": "1", "c": "1"})
        # The latest restorable time (no lag here: now) holds every change; by ARN too.
        arn = self.ddb.describe_table(TableName=table)["Table"]["TableArn"]
        latest = unique_name("pit-now")
        self.ddb.restore_table_to_point_in_time(SourceTableArn=arn, TargetTableName=latest,
                                                UseLatestRestorableTime=True)
        self.assertEqual(contents(self.ddb, latest), contents(self.ddb, table))
        # The restored table keeps no point-in-time recovery of its own.
        self.assertEqual(self.ddb.describe_continuous_backups(TableName=latest)["ContinuousBackupsDescription"]
                         ["PointInTimeRecoveryDescription"], {"PointInTimeRecoveryStatus": "DISABLED"})

    def test_refusals_in_dynamodb_order(self):
        table = unique_name("pit")
        taken = unique_name("pit-taken")
        self.ddb.create_table(**hash_table(table))
        self.ddb.create_table(**hash_table(taken))
        restore = self.ddb.restore_table_to_point_in_time
        self.assertError(restore, "ValidationException",
                         "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime "
                         "must be specified, but not both", SourceTableName=table, TargetTableName=taken)
        self.assertError(restore, "ValidationException",
                         "Invalid Request: Both RestoreDateTime and UseLatestRestorableTime cannot be "
                         "set for point-in-time restore request. Please specify either RestoreDateTime "
                         "time or UseLatestRestorableTime", SourceTableName=table, TargetTableName=taken,
                         UseLatestRestorableTime=True, RestoreDateTime=datetime.datetime(2026, 1, 1))
        self.assertError(restore, "ValidationException",
                         "The parameter 'TableName' is required but was not present in the request",
                         TargetTableName=taken, UseLatestRestorableTime=True)
        self.assertError(restore, "ValidationException",
                         "Must provide exactly one of: sourceTableArn, sourceTableName",
                         SourceTableName=table, SourceTableArn="arn:aws:dynamodb:us-east-1:000000000000:table/" + table,
                         TargetTableName=taken, UseLatestRestorableTime=True)
        missing = unique_name("missing")
        self.assertError(restore, "TableNotFoundException", "Table not found: " + missing,
                         SourceTableName=missing, TargetTableName=taken, UseLatestRestorableTime=True)
        self.assertError(restore, "PointInTimeRecoveryUnavailableException",
                         "Point in time recovery is not enabled for table '%s'" % table,
                         SourceTableName=table, TargetTableName=taken, UseLatestRestorableTime=True)
        window = enable(self.ddb, table)
        with self.assertRaises(Exception) as caught:
            restore(SourceTableName=table, TargetTableName=taken, RestoreDateTime=datetime.datetime(2020, 1, 1))
        error = caught.exception.response["Error"]
        self.assertEqual(error["Code"], "InvalidRestoreTimeException")
        earliest = window["EarliestRestorableDateTime"].astimezone(datetime.timezone.utc)
        expected = ("RestoreDateTime '2020-01-01T00:00:00Z' must be within EarliestRestorableDateTime '%s'"
                    % earliest.strftime("%Y-%m-%dT%H:%M:%SZ"))
        self.assertEqual(error["Message"][:len(expected)], expected)
        self.assertRegex(error["Message"][len(expected):], r"^ and LatestRestorableDateTime '[0-9T:-]+Z'$")
        self.assertError(restore, "TableAlreadyExistsException", "Table already exists: " + taken,
                         SourceTableName=table, TargetTableName=taken, UseLatestRestorableTime=True)


class DynamoDbLag(ServerTestCase):
    def test_right_after_enabling_the_window_is_the_enabling_moment(self):
        table = unique_name("pit")
        self.ddb.create_table(**hash_table(table))
        self.ddb.put_item(TableName=table, Item={"pk": S("kept"), "v": S("0")})
        window = enable(self.ddb, table)
        self.assertEqual(window["EarliestRestorableDateTime"], window["LatestRestorableDateTime"])
        time.sleep(0.01)  # a moment holds the changes of its millisecond: this one comes later
        self.ddb.put_item(TableName=table, Item={"pk": S("after"), "v": S("1")})
        target = unique_name("pit-latest")
        self.ddb.restore_table_to_point_in_time(SourceTableName=table, TargetTableName=target,
                                                UseLatestRestorableTime=True)
        self.assertEqual(contents(self.ddb, target), {"kept": "0"})


class AcrossRestarts(unittest.TestCase):
    def test_history_starts_anew_after_a_restart(self):
        def write(ddb):
            table = unique_name("pit")
            ddb.create_table(**hash_table(table))
            enable(ddb, table)
            ddb.put_item(TableName=table, Item={"pk": S("a"), "v": S("1")})
            return table, time.time()

        def read(ddb, written):
            table, stopped = written
            window = ddb.describe_continuous_backups(TableName=table)["ContinuousBackupsDescription"][
                "PointInTimeRecoveryDescription"]
            self.assertEqual(window["PointInTimeRecoveryStatus"], "ENABLED")
            self.assertGreaterEqual(window["EarliestRestorableDateTime"].timestamp(), stopped)
            target = unique_name("pit-after")
            ddb.restore_table_to_point_in_time(SourceTableName=table, TargetTableName=target,
                                               UseLatestRestorableTime=True)
            self.assertEqual(contents(ddb, target), {"a": "1"})

        across_restart(write, read)


if __name__ == "__main__":
    unittest.main()
