"""Kinesis streaming destinations (issue 46, the settings) with the real binary, boto3 and the AWS
CLI: Enable, Update, Disable and Describe with DynamoDB's statuses, rules and recorded texts, the
statuses in transit under --table-delay-ms, and the settings kept across a restart. Started without
--kinesis-endpoint, ddbd sends no records and DescribeKinesisStreamingDestination says so
(test_kinesis_delivery.py delivers them)."""
import json
import os
import subprocess
import time
import unittest

from ddbd_harness import DdbdServer, ServerTestCase, across_restart, client, unique_name

STREAM = "arn:aws:kinesis:us-east-1:000000000000:stream/orders"
OTHER = "arn:aws:kinesis:us-east-1:000000000000:stream/audit"
NOT_DISABLED = ("Table is not in a valid state to enable Kinesis Streaming Destination: "
                "EnableKinesisStreamingDestination must be DISABLED or ENABLE_FAILED to perform "
                "ENABLE operation.")
NOT_ACTIVE = ("Table is not in a valid state to enable Kinesis Streaming Destination: "
              "KinesisStreamingDestination must be ACTIVE to perform DISABLE operation.")
NOT_DELIVERED = (
    "ddbd keeps this setting but does not deliver records to Kinesis: start it with "
    "--kinesis-endpoint URL to deliver them"
)


def new_table(ddb):
    name = unique_name("kds")
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    return name


def destinations(ddb, name):
    answer = ddb.describe_kinesis_streaming_destination(TableName=name)
    answer.pop("ResponseMetadata")
    return answer


class KinesisDestinations(ServerTestCase):
    def test_enable_update_disable_and_enable_again(self):
        name = new_table(self.ddb)
        self.assertEqual(destinations(self.ddb, name),
                         {"TableName": name, "KinesisDataStreamDestinations": []})
        enabled = self.ddb.enable_kinesis_streaming_destination(TableName=name, StreamArn=STREAM)
        enabled.pop("ResponseMetadata")
        self.assertEqual(enabled, {"TableName": name, "StreamArn": STREAM,
                                   "DestinationStatus": "ENABLING"})
        self.assertEqual(destinations(self.ddb, name)["KinesisDataStreamDestinations"], [{
            "StreamArn": STREAM, "DestinationStatus": "ACTIVE",
            "DestinationStatusDescription": NOT_DELIVERED,
            "ApproximateCreationDateTimePrecision": "MICROSECOND"}])
        # One stream at a time: the same one or another.
        for arn in (STREAM, OTHER):
            self.assertError(self.ddb.enable_kinesis_streaming_destination, "ValidationException",
                             NOT_DISABLED, TableName=name, StreamArn=arn)

        updated = self.ddb.update_kinesis_streaming_destination(
            TableName=name, StreamArn=STREAM,
            UpdateKinesisStreamingConfiguration={"ApproximateCreationDateTimePrecision": "MILLISECOND"})
        self.assertEqual((updated["DestinationStatus"], updated["UpdateKinesisStreamingConfiguration"]),
                         ("UPDATING", {"ApproximateCreationDateTimePrecision": "MILLISECOND"}))
        described = destinations(self.ddb, name)["KinesisDataStreamDestinations"][0]
        self.assertEqual((described["DestinationStatus"],
                          described["ApproximateCreationDateTimePrecision"]), ("ACTIVE", "MILLISECOND"))
        self.assertError(self.ddb.update_kinesis_streaming_destination, "ValidationException",
                         "The Kinesis streaming destination already has "
                         "ApproximateCreationDateTimePrecision MILLISECOND", TableName=name,
                         StreamArn=STREAM,
                         UpdateKinesisStreamingConfiguration={
                             "ApproximateCreationDateTimePrecision": "MILLISECOND"})

        disabled = self.ddb.disable_kinesis_streaming_destination(TableName=name, StreamArn=STREAM)
        self.assertEqual(disabled["DestinationStatus"], "DISABLING")
        self.assertNotIn("EnableKinesisStreamingConfiguration", disabled)
        self.assertEqual(destinations(self.ddb, name)["KinesisDataStreamDestinations"], [{
            "StreamArn": STREAM, "DestinationStatus": "DISABLED",
            "ApproximateCreationDateTimePrecision": "MILLISECOND"}])
        for arn in (STREAM, OTHER):
            self.assertError(self.ddb.disable_kinesis_streaming_destination, "ValidationException",
                             NOT_ACTIVE, TableName=name, StreamArn=arn)
        self.assertError(self.ddb.update_kinesis_streaming_destination, "ValidationException",
                         "Table is not in a valid state to update Kinesis Streaming Destination: "
                         "KinesisStreamingDestination must be ACTIVE to perform UPDATE operation.",
                         TableName=name, StreamArn=STREAM,
                         UpdateKinesisStreamingConfiguration={
                             "ApproximateCreationDateTimePrecision": "MICROSECOND"})

        # Another stream now, named by the table's ARN, with its precision echoed.
        arn = self.ddb.describe_table(TableName=name)["Table"]["TableArn"]
        again = self.ddb.enable_kinesis_streaming_destination(
            TableName=arn, StreamArn=OTHER,
            EnableKinesisStreamingConfiguration={"ApproximateCreationDateTimePrecision": "MILLISECOND"})
        self.assertEqual((again["TableName"], again["EnableKinesisStreamingConfiguration"]),
                         (name, {"ApproximateCreationDateTimePrecision": "MILLISECOND"}))
        statuses = {d["StreamArn"]: d["DestinationStatus"]
                    for d in destinations(self.ddb, name)["KinesisDataStreamDestinations"]}
        self.assertEqual(statuses, {STREAM: "DISABLED", OTHER: "ACTIVE"})

    def test_a_restored_table_starts_without_destinations(self):
        name = new_table(self.ddb)
        self.ddb.enable_kinesis_streaming_destination(TableName=name, StreamArn=STREAM)
        backup = self.ddb.create_backup(TableName=name, BackupName="kds-backup")["BackupDetails"]["BackupArn"]
        restored = name + "-restored"
        self.ddb.restore_table_from_backup(TargetTableName=restored, BackupArn=backup)
        self.assertEqual(destinations(self.ddb, restored)["KinesisDataStreamDestinations"], [])

    def test_refusals(self):
        name = new_table(self.ddb)
        self.assertError(self.ddb.enable_kinesis_streaming_destination,
                         "ResourceNotFoundException",
                         "Requested resource not found: Table: no-such-table not found",
                         TableName="no-such-table", StreamArn=STREAM)
        self.assertError(self.ddb.describe_kinesis_streaming_destination,
                         "ResourceNotFoundException",
                         "Requested resource not found: Table: no-such-table not found",
                         TableName="no-such-table")
        not_kinesis = "arn:aws:sqs:us-east-1:000000000000:queue-of-orders-x"
        self.assertError(self.ddb.enable_kinesis_streaming_destination, "ValidationException",
                         "Invalid StreamArn: %s (expected arn:aws:kinesis:<region>:<account>:"
                         "stream/<name>)" % not_kinesis, TableName=name, StreamArn=not_kinesis)
        elsewhere = "arn:aws:kinesis:eu-west-1:000000000000:stream/orders"
        self.assertError(self.ddb.enable_kinesis_streaming_destination, "ValidationException",
                         "The Kinesis data stream must be in the table's account and Region "
                         "(000000000000, us-east-1): " + elsewhere,
                         TableName=name, StreamArn=elsewhere)
        # The model's constraints, which boto3 would check itself: sent unvalidated.
        with self.assertRaises(Exception) as caught:
            self.raw.enable_kinesis_streaming_destination(
                TableName=name, StreamArn=STREAM,
                EnableKinesisStreamingConfiguration={"ApproximateCreationDateTimePrecision": "SECOND"})
        self.assertEqual(caught.exception.response["Error"]["Code"], "ValidationException")
        self.assertIn("Member must satisfy enum value set: [MILLISECOND, MICROSECOND]",
                      caught.exception.response["Error"]["Message"])
        with self.assertRaises(Exception) as caught:
            self.raw.enable_kinesis_streaming_destination(TableName=name, StreamArn="arn:aws:kinesis")
        self.assertIn("Member must have length greater than or equal to 37",
                      caught.exception.response["Error"]["Message"])
        self.assertEqual(destinations(self.ddb, name)["KinesisDataStreamDestinations"], [])

    def test_the_aws_cli(self):
        name = new_table(self.ddb)
        env = dict(os.environ, AWS_ACCESS_KEY_ID="AKIDTEST", AWS_SECRET_ACCESS_KEY="secret",
                   AWS_DEFAULT_REGION="us-east-1", AWS_PAGER="", AWS_CONFIG_FILE=os.devnull,
                   AWS_SHARED_CREDENTIALS_FILE=os.devnull)

        def aws(*args):
            done = subprocess.run(["aws", "dynamodb", *args, "--endpoint-url", self.endpoint,
                                   "--output", "json"], capture_output=True, text=True, env=env,
                                  timeout=60)
            self.assertEqual(done.returncode, 0, done.stderr)
            return json.loads(done.stdout)
        enabled = aws("enable-kinesis-streaming-destination", "--table-name", name,
                      "--stream-arn", STREAM)
        self.assertEqual(enabled["DestinationStatus"], "ENABLING")
        described = aws("describe-kinesis-streaming-destination", "--table-name", name)
        self.assertEqual(described["KinesisDataStreamDestinations"][0]["DestinationStatus"], "ACTIVE")


class KinesisDestinationsInTransit(unittest.TestCase):
    def test_statuses_in_transit_and_a_restart(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        server = DdbdServer("--table-delay-ms", "400").start()
        try:
            ddb = client(server.endpoint)
            name = new_table(ddb)
            time.sleep(0.5)  # the table's own CREATING
            ddb.enable_kinesis_streaming_destination(TableName=name, StreamArn=STREAM)
            status = lambda: destinations(ddb, name)["KinesisDataStreamDestinations"][0]["DestinationStatus"]
            self.assertEqual(status(), "ENABLING")
            with self.assertRaises(ddb.exceptions.ClientError) as caught:  # not ACTIVE yet
                ddb.disable_kinesis_streaming_destination(TableName=name, StreamArn=STREAM)
            self.assertEqual(caught.exception.response["Error"]["Message"], NOT_ACTIVE)
            time.sleep(0.5)
            self.assertEqual(status(), "ACTIVE")
            ddb.disable_kinesis_streaming_destination(TableName=name, StreamArn=STREAM)
            self.assertEqual(status(), "DISABLING")
            with self.assertRaises(ddb.exceptions.ClientError) as caught:  # on its way out
                ddb.enable_kinesis_streaming_destination(TableName=name, StreamArn=OTHER)
            self.assertEqual(caught.exception.response["Error"]["Message"], NOT_DISABLED)
            time.sleep(0.5)
            self.assertEqual(status(), "DISABLED")
        finally:
            server.stop()

    def test_kept_across_a_restart(self):
        def write(ddb):
            name = new_table(ddb)
            ddb.enable_kinesis_streaming_destination(
                TableName=name, StreamArn=STREAM,
                EnableKinesisStreamingConfiguration={"ApproximateCreationDateTimePrecision": "MILLISECOND"})
            return name

        def read(ddb, name):
            self.assertEqual(destinations(ddb, name)["KinesisDataStreamDestinations"], [{
                "StreamArn": STREAM, "DestinationStatus": "ACTIVE",
                "DestinationStatusDescription": NOT_DELIVERED,
                "ApproximateCreationDateTimePrecision": "MILLISECOND"}])
        across_restart(write, read)


if __name__ == "__main__":
    unittest.main()
