"""ImportTable, DescribeImport and ListImports through boto3, with --s3-dir: ddbd's own export
imported back (both formats' round trip where the import reads it: DYNAMODB_JSON), a folder built
by hand in AWS's documented export layout, CSV with a header line or HeaderList, malformed lines
counted and skipped, a missing bucket, the refusals, and imports across a restart."""
import base64
import gzip
import json
import os
import tempfile
import time
import unittest

from ddbd_harness import DdbdServer, ServerTestCase, client, hash_table, unique_name
from test_exports import enable_pitr, sorted_sets, wait as wait_export

S = lambda v: {"S": v}


def wait(ddb, arn):
    deadline = time.monotonic() + 60
    while True:
        described = ddb.describe_import(ImportArn=arn)["ImportTableDescription"]
        if described["ImportStatus"] != "IN_PROGRESS" or time.monotonic() > deadline:
            return described
        time.sleep(0.02)


def creation(table, **extra):
    return dict({"TableName": table, "BillingMode": "PAY_PER_REQUEST",
                 "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                 "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}, **extra)


def scan(ddb, table):
    items = ddb.scan(TableName=table)["Items"]
    return sorted((sorted_sets(json.loads(json.dumps(i, default=lambda b: base64.b64encode(b).decode())))
                   for i in items), key=lambda i: json.dumps(i["pk"], sort_keys=True))


class ImportCase(ServerTestCase):
    @classmethod
    def setUpClass(cls):
        cls.s3 = tempfile.TemporaryDirectory()
        cls.bucket_dir = os.path.join(cls.s3.name, "bucket")
        os.mkdir(cls.bucket_dir)
        cls.server_args = ("--s3-dir", cls.s3.name, "--pitr-lag-ms", "0")
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.s3.cleanup()

    def put_object(self, key, data):
        path = os.path.join(self.bucket_dir, key)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


class ImportTest(ImportCase):
    def test_an_export_of_ddbd_imports_back_whole(self):
        source = unique_name("source")
        self.ddb.create_table(**hash_table(source))
        for i in range(300):
            self.ddb.put_item(TableName=source, Item={
                "pk": S("k%03d" % i), "n": {"N": str(i)}, "b": {"B": b"\x00\x01"},
                "ss": {"SS": ["x", "y"]}, "m": {"M": {"l": {"L": [{"NULL": True}, {"BOOL": True}]}}}})
        enable_pitr(self.ddb, source)
        arn = self.ddb.describe_table(TableName=source)["Table"]["TableArn"]
        export = wait_export(self.ddb, self.ddb.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="bucket", S3Prefix="round")["ExportDescription"]["ExportArn"])
        folder = os.path.dirname(export["ExportManifest"]) + "/"
        for prefix in (folder, folder + "data/"):  # the export's folder (by its manifest), or its data
            target = unique_name("imported")
            started = self.ddb.import_table(
                S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": prefix}, InputFormat="DYNAMODB_JSON",
                InputCompressionType="GZIP", TableCreationParameters=creation(target))["ImportTableDescription"]
            self.assertEqual(started["ImportStatus"], "IN_PROGRESS")
            self.assertTrue(started["ImportArn"].startswith(started["TableArn"] + "/import/"))
            self.assertEqual(started["TableCreationParameters"]["TableName"], target)
            self.assertEqual(self.ddb.describe_table(TableName=target)["Table"]["TableStatus"] in
                             ("CREATING", "ACTIVE"), True)
            done = wait(self.ddb, started["ImportArn"])
            self.assertEqual((done["ImportStatus"], done["ImportedItemCount"], done["ProcessedItemCount"],
                              done["ErrorCount"]), ("COMPLETED", 300, 300, 0), done)
            self.assertGreater(done["ProcessedSizeBytes"], 0)
            self.assertEqual(self.ddb.describe_table(TableName=target)["Table"]["TableStatus"], "ACTIVE")
            self.assertEqual(scan(self.raw, target), scan(self.raw, source))

    def test_a_folder_in_aws_layout_with_bad_lines(self):
        # Built by hand from AWS's documentation of the export format: JSON lines of {"Item": ...},
        # gzip, under AWSDynamoDB/<id>/data/, with a manifest listing them.
        lines = [json.dumps({"Item": {"pk": S("a"), "v": {"N": "1"}}}),
                 "not json at all",
                 json.dumps({"Item": {"other": S("no key")}}),
                 json.dumps({"Item": {"pk": {"N": "5"}}}),  # the key's type is wrong
                 "",
                 json.dumps({"Item": {"pk": S("b"), "set": {"NS": ["1", "2"]}}})]
        data = gzip.compress(("\n".join(lines) + "\n").encode())
        self.put_object("hand/AWSDynamoDB/01700000000000-abcdef01/data/part1.json.gz", data)
        self.put_object("hand/AWSDynamoDB/01700000000000-abcdef01/manifest-files.json",
                        (json.dumps({"itemCount": 5, "md5Checksum": "x", "etag": "y",
                                     "dataFileS3Key": "hand/AWSDynamoDB/01700000000000-abcdef01/data/part1.json.gz"})
                         + "\n").encode())
        self.put_object("hand/AWSDynamoDB/01700000000000-abcdef01/_started", b"")
        target = unique_name("hand")
        started = self.ddb.import_table(
            S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "hand/AWSDynamoDB/01700000000000-abcdef01/"},
            InputFormat="DYNAMODB_JSON", InputCompressionType="GZIP",
            TableCreationParameters=creation(target))["ImportTableDescription"]
        done = wait(self.ddb, started["ImportArn"])
        self.assertEqual((done["ImportStatus"], done["ImportedItemCount"], done["ProcessedItemCount"],
                          done["ErrorCount"]), ("COMPLETED", 2, 5, 3), done)
        self.assertEqual(sorted(i["pk"]["S"] for i in self.ddb.scan(TableName=target)["Items"]), ["a", "b"])

    def test_csv_with_a_header_line_or_a_header_list(self):
        self.put_object("csv1/items.csv", b'pk;n;note\n1;one;"semi;colon"\n2;two;"say ""hi"""\n3;;\n')
        target = unique_name("csv")
        started = self.ddb.import_table(
            S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "csv1/"}, InputFormat="CSV",
            InputFormatOptions={"Csv": {"Delimiter": ";"}},
            TableCreationParameters=creation(target, AttributeDefinitions=[
                {"AttributeName": "pk", "AttributeType": "N"}]))["ImportTableDescription"]
        self.assertEqual(started["InputFormatOptions"], {"Csv": {"Delimiter": ";"}})
        self.assertEqual(started["InputCompressionType"], "NONE")
        done = wait(self.ddb, started["ImportArn"])
        self.assertEqual((done["ImportedItemCount"], done["ErrorCount"]), (3, 0))
        items = {i["pk"]["N"]: i for i in self.ddb.scan(TableName=target)["Items"]}
        self.assertEqual(items["1"], {"pk": {"N": "1"}, "n": S("one"), "note": S("semi;colon")})
        self.assertEqual(items["2"]["note"], S('say "hi"'))
        self.assertEqual(items["3"], {"pk": {"N": "3"}})  # empty fields are no attributes

        self.put_object("csv2/a.csv.gz", gzip.compress(b"x,1\ny,2\n,3\n"))
        target = unique_name("csv")
        started = self.ddb.import_table(
            S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "csv2/"}, InputFormat="CSV",
            InputCompressionType="GZIP", InputFormatOptions={"Csv": {"HeaderList": ["pk", "v"]}},
            TableCreationParameters=creation(target))["ImportTableDescription"]
        done = wait(self.ddb, started["ImportArn"])
        self.assertEqual((done["ImportedItemCount"], done["ErrorCount"]), (2, 1))  # no key: an error
        self.assertEqual(sorted(i["v"]["S"] for i in self.ddb.scan(TableName=target)["Items"]), ["1", "2"])

    def test_a_missing_bucket_fails_the_import_and_its_table_goes(self):
        target = unique_name("nobucket")
        started = self.ddb.import_table(
            S3BucketSource={"S3Bucket": "no-such-bucket"}, InputFormat="DYNAMODB_JSON",
            TableCreationParameters=creation(target))["ImportTableDescription"]
        done = wait(self.ddb, started["ImportArn"])
        self.assertEqual((done["ImportStatus"], done["FailureCode"], done["FailureMessage"]),
                         ("FAILED", "S3NoSuchBucket", "The specified bucket does not exist: no-such-bucket"))
        self.assertError(self.ddb.describe_table, "ResourceNotFoundException",
                         "Requested resource not found: Table: %s not found" % target, TableName=target)

    def test_refusals_and_client_tokens(self):
        taken = unique_name("taken")
        self.ddb.create_table(**hash_table(taken))
        source = {"S3Bucket": "bucket", "S3KeyPrefix": "nothing/"}
        self.assertError(self.ddb.import_table, "ResourceInUseException", "Table already exists: " + taken,
                         S3BucketSource=source, InputFormat="DYNAMODB_JSON",
                         TableCreationParameters=creation(taken))
        self.assertError(self.ddb.import_table, "ValidationException",
                         "ddbd does not yet import InputFormat ION: use DYNAMODB_JSON or CSV",
                         S3BucketSource=source, InputFormat="ION",
                         TableCreationParameters=creation(unique_name("ion")))
        target = unique_name("token")
        first = self.ddb.import_table(S3BucketSource=source, InputFormat="DYNAMODB_JSON", ClientToken="imp-1",
                                      TableCreationParameters=creation(target))["ImportTableDescription"]
        again = self.ddb.import_table(S3BucketSource=source, InputFormat="DYNAMODB_JSON", ClientToken="imp-1",
                                      TableCreationParameters=creation(target))["ImportTableDescription"]
        self.assertEqual(first["ImportArn"], again["ImportArn"])
        self.assertError(self.ddb.import_table, "ImportConflictException",
                         "Duplicate request detected: ClientToken imp-1 was used for an import with other "
                         "parameters", S3BucketSource=source, InputFormat="CSV", ClientToken="imp-1",
                         TableCreationParameters=creation(target))
        done = wait(self.ddb, first["ImportArn"])
        self.assertEqual((done["ImportStatus"], done["ImportedItemCount"]), ("COMPLETED", 0))
        self.assertError(self.ddb.describe_import, "ValidationException", "Invalid Import ARN",
                         ImportArn=first["TableArn"] + "/export/01700000000000-00000000")
        unknown = first["TableArn"] + "/import/01700000000000-00000000"
        self.assertError(self.ddb.describe_import, "ImportNotFoundException", "Import not found: " + unknown,
                         ImportArn=unknown)
        listed = self.ddb.list_imports(TableArn=first["TableArn"])["ImportSummaryList"]
        self.assertEqual([(s["ImportArn"], s["ImportStatus"], s["InputFormat"]) for s in listed],
                         [(first["ImportArn"], "COMPLETED", "DYNAMODB_JSON")])
        self.assertEqual(listed[0]["S3BucketSource"], source)


class ImportRestartTest(unittest.TestCase):
    def test_imports_are_described_after_a_restart(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        with tempfile.TemporaryDirectory() as db, tempfile.TemporaryDirectory() as s3:
            os.makedirs(os.path.join(s3, "bucket", "in"))
            with open(os.path.join(s3, "bucket", "in", "items.json"), "w") as f:
                f.write(json.dumps({"Item": {"pk": S("a")}}) + "\n")
            args = ("--db-path", db, "--s3-dir", s3)
            server = DdbdServer(*args).start()
            try:
                ddb = client(server.endpoint)
                table = unique_name("imported")
                arn = ddb.import_table(S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "in/"},
                                       InputFormat="DYNAMODB_JSON",
                                       TableCreationParameters=creation(table))["ImportTableDescription"]["ImportArn"]
                before = wait(ddb, arn)
                self.assertEqual(before["ImportedItemCount"], 1)
            finally:
                server.stop()
            server = DdbdServer(*args).start()
            try:
                ddb = client(server.endpoint)
                self.assertEqual(ddb.describe_import(ImportArn=arn)["ImportTableDescription"], before)
                self.assertEqual(ddb.describe_table(TableName=table)["Table"]["TableStatus"], "ACTIVE")
                self.assertEqual(ddb.scan(TableName=table)["Count"], 1)
            finally:
                server.stop()


if __name__ == "__main__":
    unittest.main()
