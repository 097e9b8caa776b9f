"""ImportTable, DescribeImport and ListImports through boto3, with --s3-dir: ddbd's own export
imported back from its data/ folder, and, as AWS answers (recorded 2026-10-09), FAILED with the
manifests counted as errors from the export's root or uncompressed; bad lines FAILED with the valid
items kept; a raw key prefix; CSV with a header line or HeaderList; a missing bucket; the refusals
and ClientTokens; and imports across a restart."""
import base64
import gzip
import json
import os
import subprocess
import tempfile
import time
import unittest

from ddbd_harness import DdbdServer, ServerTestCase, client, hash_table, unique_name
from test_exports import enable_pitr, sorted_sets, wait as wait_export

S = lambda v: {"S": v}
ITEM_VALIDATION = ("Some of the items failed validation checks and were not imported. Please check "
                   "CloudWatch error logs for more details.")


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
        data_files = len(os.listdir(os.path.join(self.bucket_dir, folder, "data")))

        def import_from(prefix, compression):
            target = unique_name("imported")
            started = self.ddb.import_table(
                S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": prefix}, InputFormat="DYNAMODB_JSON",
                InputCompressionType=compression, TableCreationParameters=creation(target))["ImportTableDescription"]
            self.assertEqual(started["ImportStatus"], "IN_PROGRESS")
            self.assertTrue(started["ImportArn"].startswith(started["TableArn"] + "/import/"))
            self.assertEqual(started["TableCreationParameters"]["TableName"], target)
            done = wait(self.ddb, started["ImportArn"])
            self.assertEqual(self.ddb.describe_table(TableName=target)["Table"]["TableStatus"], "ACTIVE")
            return target, done

        counts = lambda done: (done["ImportStatus"], done.get("FailureCode"), done["ImportedItemCount"],
                               done["ProcessedItemCount"], done["ErrorCount"])
        target, done = import_from(folder + "data/", "GZIP")
        self.assertEqual(counts(done), ("COMPLETED", None, 300, 300, 0), done)
        self.assertGreater(done["ProcessedSizeBytes"], 0)
        self.assertEqual(scan(self.raw, target), scan(self.raw, source))
        # From the export's root: the four manifests are no gzip, an error each; the items go in.
        target, done = import_from(folder, "GZIP")
        self.assertEqual(counts(done), ("FAILED", "ItemValidationError", 300, 304, 4), done)
        self.assertEqual(done["FailureMessage"], ITEM_VALIDATION)
        self.assertEqual(scan(self.raw, target), scan(self.raw, source))
        # Gzip read as text: each data file's first line does not read, and the rest is skipped.
        target, done = import_from(folder + "data/", "NONE")
        self.assertEqual(counts(done), ("FAILED", "ItemValidationError", 0, data_files, data_files), done)

    def test_an_ion_export_imports_back_as_ion(self):
        source = unique_name("source")
        self.ddb.create_table(**hash_table(source))
        for i in range(50):
            self.ddb.put_item(TableName=source, Item={
                "pk": S("k%02d \"q\" é" % i), "n": {"N": str(i * 100)}, "f": {"N": "-0.5"}, "b": {"B": b"\x00\xff"},
                "ss": {"SS": ["x", "y"]}, "ns": {"NS": ["1", "20"]}, "bs": {"BS": [b"a"]},
                "m": {"M": {"weird name": {"L": [{"NULL": True}, {"BOOL": False}]}}}})
        enable_pitr(self.ddb, source)
        arn = self.ddb.describe_table(TableName=source)["Table"]["TableArn"]
        export = wait_export(self.ddb, self.ddb.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="bucket", S3Prefix="ion", ExportFormat="ION")["ExportDescription"]["ExportArn"])
        target = unique_name("imported")
        started = self.ddb.import_table(
            S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": os.path.dirname(export["ExportManifest"]) + "/data/"},
            InputFormat="ION", InputCompressionType="GZIP", TableCreationParameters=creation(target))
        done = wait(self.ddb, started["ImportTableDescription"]["ImportArn"])
        self.assertEqual((done["ImportStatus"], done["InputFormat"], done["ImportedItemCount"], done["ErrorCount"]),
                         ("COMPLETED", "ION", 50, 0), done)
        self.assertEqual(scan(self.raw, target), scan(self.raw, source))

    def test_aws_layout_built_by_hand_from_the_guide(self):
        # The Developer Guide's export output page: its DynamoDB JSON and Ion examples of one item
        # (on one line each, as the files hold them), gzip, under AWSDynamoDB/<id>/data/, beside
        # the manifests and _started.
        folder = "guide/AWSDynamoDB/01234567890123-a1b2c3d4/"
        json_item = {"Item": {"Authors": {"SS": ["Author1", "Author2"]}, "Dimensions": S("8.5 x 11.0 x 1.5"),
                              "ISBN": S("333-3333333333"), "Id": {"N": "103"}, "InPublication": {"BOOL": False},
                              "PageCount": {"N": "600"}, "Price": {"N": "2000"}, "ProductCategory": S("Book"),
                              "Title": S("Book 103 Title")}}
        ion_line = ('$ion_1_0 {Item:{Authors:$dynamodb_SS::["Author1","Author2"],Dimensions:"8.5 x 11.0 x 1.5",'
                    'ISBN:"333-3333333333",Id:103.,InPublication:false,PageCount:6d2,Price:2d3,'
                    'ProductCategory:"Book",Title:"Book 103 Title"}}')
        self.put_object(folder + "_started", b"")
        self.put_object(folder + "manifest-summary.json", b'{"version":"2020-06-30","itemCount":1}')
        self.put_object(folder + "data/bafybeiczss3yxay3o4abnabbb.json.gz",
                        gzip.compress((json.dumps(json_item) + "\n").encode()))
        self.put_object("guide-ion/AWSDynamoDB/01234567890123-a1b2c3d4/data/gkes5o3lnrhoznhnkyax3hxvya.ion.gz",
                        gzip.compress((ion_line + "\n").encode()))
        tables = {}
        for prefix, input_format in ((folder + "data/", "DYNAMODB_JSON"),
                                     ("guide-ion/AWSDynamoDB/01234567890123-a1b2c3d4/data/", "ION")):
            target = unique_name("guide")
            started = self.ddb.import_table(
                S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": prefix}, InputFormat=input_format,
                InputCompressionType="GZIP", TableCreationParameters=creation(target, AttributeDefinitions=[
                    {"AttributeName": "Id", "AttributeType": "N"}], KeySchema=[
                    {"AttributeName": "Id", "KeyType": "HASH"}]))["ImportTableDescription"]
            done = wait(self.ddb, started["ImportArn"])
            self.assertEqual((done["ImportStatus"], done["ImportedItemCount"]), ("COMPLETED", 1), done)
            tables[input_format] = [sorted_sets(i) for i in self.raw.scan(TableName=target)["Items"]]
        self.assertEqual(tables["DYNAMODB_JSON"], tables["ION"])
        self.assertEqual(tables["ION"], [sorted_sets(json_item["Item"])])

    def test_bad_lines_fail_the_import_and_the_valid_items_stay(self):
        lines = [json.dumps({"Item": {"pk": S("a"), "v": {"N": "1"}}}),
                 json.dumps({"Item": {"other": S("no key")}}),
                 json.dumps({"Item": {"pk": {"N": "5"}}}),  # the key's type is wrong
                 "",
                 json.dumps({"Item": {"pk": S("b"), "set": {"NS": ["1", "2"]}}}),
                 "not json at all",  # the rest of this file is skipped
                 json.dumps({"Item": {"pk": S("c")}})]
        self.put_object("hand/part1.json.gz", gzip.compress(("\n".join(lines) + "\n").encode()))
        self.put_object("hand/part2.json.gz", gzip.compress(json.dumps({"Item": {"pk": S("d")}}).encode()))
        self.put_object("hand/_started", b"")
        target = unique_name("hand")
        started = self.ddb.import_table(
            S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "hand/"},
            InputFormat="DYNAMODB_JSON", InputCompressionType="GZIP",
            TableCreationParameters=creation(target))["ImportTableDescription"]
        done = wait(self.ddb, started["ImportArn"])
        self.assertEqual((done["ImportStatus"], done["FailureCode"], done["FailureMessage"],
                          done["ImportedItemCount"], done["ProcessedItemCount"], done["ErrorCount"]),
                         ("FAILED", "ItemValidationError", ITEM_VALIDATION, 3, 6, 3), done)
        self.assertEqual(self.ddb.describe_table(TableName=target)["Table"]["TableStatus"], "ACTIVE")
        self.assertEqual(sorted(i["pk"]["S"] for i in self.ddb.scan(TableName=target)["Items"]), ["a", "b", "d"])

    def test_the_key_prefix_is_a_raw_prefix(self):
        self.put_object("raw/data/1.json", json.dumps({"Item": {"pk": S("one")}}).encode())
        self.put_object("raw/data2/x.json", b"garbage")
        self.put_object("raw/data.bak", b"garbage")
        for prefix, expected in (("raw/data", ("FAILED", 1, 3, 2)), ("raw/data/1.json", ("COMPLETED", 1, 1, 0))):
            started = self.ddb.import_table(
                S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": prefix}, InputFormat="DYNAMODB_JSON",
                TableCreationParameters=creation(unique_name("raw")))["ImportTableDescription"]
            self.assertEqual(started["S3BucketSource"]["S3KeyPrefix"], prefix)
            done = wait(self.ddb, started["ImportArn"])
            self.assertEqual((done["ImportStatus"], done["ImportedItemCount"], done["ProcessedItemCount"],
                              done["ErrorCount"]), expected, done)

    def test_zstd_files(self):
        lines = "".join(json.dumps({"Item": {"pk": S("z%d" % i)}}) + "\n" for i in range(1000)).encode()
        # Two frames in one file, as a multi-part upload of zstd data has them.
        data = b"".join(subprocess.run(["zstd", "-q", "-c"], input=half, check=True,
                                       stdout=subprocess.PIPE).stdout
                        for half in (lines[:len(lines) // 2], lines[len(lines) // 2:]))
        self.put_object("zstd/items.json.zst", data)
        target = unique_name("zstd")
        started = self.ddb.import_table(
            S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "zstd/"}, InputFormat="DYNAMODB_JSON",
            InputCompressionType="ZSTD", TableCreationParameters=creation(target))["ImportTableDescription"]
        self.assertEqual(started["InputCompressionType"], "ZSTD")
        done = wait(self.ddb, started["ImportArn"])
        self.assertEqual((done["ImportStatus"], done["ImportedItemCount"], done["ErrorCount"]),
                         ("COMPLETED", 1000, 0), done)
        self.assertEqual(self.ddb.scan(TableName=target, Select="COUNT")["Count"], 1000)

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
        self.assertEqual((done["ImportStatus"], done["ImportedItemCount"], done["ErrorCount"]),
                         ("FAILED", 2, 1))  # no key: an error
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
        # Imports run one at a time: a big one first keeps the token's import waiting (IN_PROGRESS)
        # while it is replayed.
        self.put_object("slow/items.json", "".join(
            '{"Item":{"pk":{"S":"k%d"}}}\n' % i for i in range(200_000)).encode())
        slow = self.ddb.import_table(S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "slow/"},
                                     InputFormat="DYNAMODB_JSON",
                                     TableCreationParameters=creation(unique_name("slow")))
        target = unique_name("token")
        first = self.ddb.import_table(S3BucketSource=source, InputFormat="DYNAMODB_JSON", ClientToken="imp-1",
                                      TableCreationParameters=creation(target))["ImportTableDescription"]
        again = self.ddb.import_table(S3BucketSource=source, InputFormat="DYNAMODB_JSON", ClientToken="imp-1",
                                      TableCreationParameters=creation(target))["ImportTableDescription"]
        self.assertEqual(first["ImportArn"], again["ImportArn"])
        # Another S3KeyPrefix under the token is ignored, as DynamoDB ignores it; another table is a
        # conflict.
        moved = self.ddb.import_table(S3BucketSource=dict(source, S3KeyPrefix="elsewhere/"),
                                      InputFormat="DYNAMODB_JSON", ClientToken="imp-1",
                                      TableCreationParameters=creation(target))["ImportTableDescription"]
        self.assertEqual(moved["ImportArn"], first["ImportArn"])
        self.assertError(self.ddb.import_table, "ImportConflictException",
                         "Import conflict: Duplicate request detected with conflicting parameters",
                         S3BucketSource=source, InputFormat="DYNAMODB_JSON", ClientToken="imp-1",
                         TableCreationParameters=creation(target + "-other"))
        self.assertEqual(again["ImportStatus"], "IN_PROGRESS")
        done = wait(self.ddb, first["ImportArn"])
        self.assertEqual((done["ImportStatus"], done["ImportedItemCount"]), ("COMPLETED", 0))
        self.assertEqual(wait(self.ddb, slow["ImportTableDescription"]["ImportArn"])["ImportedItemCount"], 200_000)
        # Done, its table there: the replay is the table's ResourceInUseException; once the table is
        # deleted, the replay answers the old import and makes nothing.
        self.assertError(self.ddb.import_table, "ResourceInUseException", "Table already exists: " + target,
                         S3BucketSource=source, InputFormat="DYNAMODB_JSON", ClientToken="imp-1",
                         TableCreationParameters=creation(target))
        self.ddb.delete_table(TableName=target)
        replay = self.ddb.import_table(S3BucketSource=source, InputFormat="DYNAMODB_JSON", ClientToken="imp-1",
                                       TableCreationParameters=creation(target))["ImportTableDescription"]
        self.assertEqual(replay["ImportArn"], first["ImportArn"])
        self.assertError(self.ddb.describe_table, "ResourceNotFoundException",
                         "Requested resource not found: Table: %s not found" % target, TableName=target)
        token = "0123456789abcdef" * 8  # the model's least: 112 characters
        self.assertError(self.ddb.list_imports, "ValidationException",
                         "Invalid Request: Provided nextToken is invalid: " + token, NextToken=token)
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
