"""ExportTableToPointInTime, DescribeExport and ListExports through boto3, with --s3-dir: the files
in DynamoDB's layout, read back by a reader written here from AWS's documentation of the export
format (manifests, their MD5s, gzip JSON lines, Ion text), the table as of ExportTime, incremental
exports of a window (the admin API's clock moves past DynamoDB's 15-minute minimum), exports
across a restart, and the refusals in DynamoDB's recorded words."""
import base64
import datetime
import gzip
import hashlib
import json
import os
import tempfile
import time
import unittest

from ddbd_harness import DdbdServer, ServerTestCase, client, composite_table, hash_table, unique_name
from test_admin_api import call

S = lambda v: {"S": v}


def enable_pitr(ddb, table):
    ddb.update_continuous_backups(TableName=table, PointInTimeRecoverySpecification={
        "PointInTimeRecoveryEnabled": True})


def wait(ddb, arn):
    deadline = time.monotonic() + 60
    while True:
        described = ddb.describe_export(ExportArn=arn)["ExportDescription"]
        if described["ExportStatus"] != "IN_PROGRESS" or time.monotonic() > deadline:
            return described
        time.sleep(0.02)


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def md5_base64(data):
    return base64.b64encode(hashlib.md5(data).digest()).decode()


def read_export(bucket_dir, described):
    """The export's items (the lines' parsed JSON, or Ion text) after checking every manifest,
    checksum and count against the files, as AWS documents them."""
    summary_key = described["ExportManifest"]
    folder = os.path.dirname(summary_key)
    root = os.path.join(bucket_dir, folder)
    names = set(os.listdir(root))
    assert names == {"_started", "data", "manifest-files.json", "manifest-files.md5",
                     "manifest-summary.json", "manifest-summary.md5"}, names
    assert os.path.getsize(os.path.join(root, "_started")) == 0
    for manifest in ("manifest-files", "manifest-summary"):
        data = read(os.path.join(root, manifest + ".json"), "rb")
        assert read(os.path.join(root, manifest + ".md5")).strip() == md5_base64(data)
    summary = json.loads(read(os.path.join(bucket_dir, summary_key)))
    lines = []
    total = 0
    listed = set()
    for entry in read(os.path.join(bucket_dir, summary["manifestFilesS3Key"])).splitlines():
        entry = json.loads(entry)
        raw = read(os.path.join(bucket_dir, entry["dataFileS3Key"]), "rb")
        assert entry["md5Checksum"] == md5_base64(raw)
        inner = hashlib.md5(hashlib.md5(raw).digest()).hexdigest()
        assert entry["etag"] == inner + "-1"
        text = gzip.decompress(raw).decode()
        file_lines = text.splitlines()
        assert entry["itemCount"] == len(file_lines)
        total += entry["itemCount"]
        lines += file_lines
        listed.add(os.path.basename(entry["dataFileS3Key"]))
    assert listed == set(os.listdir(os.path.join(root, "data")))
    assert summary["itemCount"] == total == described["ItemCount"]
    return summary, lines


def sorted_sets(value):
    """A DynamoDB JSON value with its sets in one order (set order is not an item's)."""
    if isinstance(value, dict):
        return {k: sorted(v) if k in ("SS", "NS", "BS") else sorted_sets(v) for k, v in value.items()}
    if isinstance(value, list):
        return [sorted_sets(v) for v in value]
    return value


class ExportCase(ServerTestCase):
    extra_args = ()

    @classmethod
    def setUpClass(cls):
        cls.s3 = tempfile.TemporaryDirectory()
        os.mkdir(os.path.join(cls.s3.name, "bucket"))
        cls.bucket_dir = os.path.join(cls.s3.name, "bucket")
        cls.server_args = ("--s3-dir", cls.s3.name, "--pitr-lag-ms", "0") + cls.extra_args
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.s3.cleanup()

    def table_with_pitr(self, items=()):
        table = unique_name("export")
        self.ddb.create_table(**hash_table(table))
        for item in items:
            self.ddb.put_item(TableName=table, Item=item)
        enable_pitr(self.ddb, table)
        return table, self.ddb.describe_table(TableName=table)["Table"]["TableArn"]


class ExportTest(ExportCase):
    ITEMS = [
        {"pk": S("k%d" % i), "s": S("line\n\"quoted\" é"), "n": {"N": str(i * 100)},
         "f": {"N": "-1.5"}, "b": {"B": b"\x00\xffbin"}, "ss": {"SS": ["b", "a"]},
         "ns": {"NS": ["1", "2.5"]}, "bs": {"BS": [b"x", b"y"]}, "bool": {"BOOL": i % 2 == 0},
         "null": {"NULL": True}, "l": {"L": [{"N": "1"}, S("two"), {"M": {}}]},
         "m": {"M": {"weird name": {"M": {"x": {"L": []}}}}}}
        for i in range(25)
    ]

    def test_a_full_export_in_dynamodb_json_holds_every_item(self):
        table, arn = self.table_with_pitr(self.ITEMS)
        started = self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket",
                                                         S3Prefix="exports/one")["ExportDescription"]
        self.assertEqual(started["ExportStatus"], "IN_PROGRESS")
        self.assertEqual(started["ExportFormat"], "DYNAMODB_JSON")
        self.assertNotIn("ExportType", started)  # DynamoDB describes it only when asked
        self.assertTrue(started["ClientToken"])
        self.assertTrue(started["ExportArn"].startswith(arn + "/export/"))
        described = wait(self.ddb, started["ExportArn"])
        self.assertEqual(described["ExportStatus"], "COMPLETED")
        self.assertEqual(described["ItemCount"], len(self.ITEMS))
        self.assertTrue(described["ExportManifest"].startswith("exports/one/AWSDynamoDB/"))
        summary, lines = read_export(self.bucket_dir, described)
        self.assertEqual(summary["version"], "2020-06-30")
        self.assertEqual(summary["exportArn"], started["ExportArn"])
        self.assertEqual(summary["tableArn"], arn)
        self.assertEqual(summary["s3Bucket"], "bucket")
        self.assertEqual(summary["s3Prefix"], "exports/one")
        self.assertEqual(summary["outputFormat"], "DYNAMODB_JSON")
        self.assertEqual(summary["billedSizeBytes"], described["BilledSizeBytes"])
        self.assertGreater(summary["billedSizeBytes"], 0)
        exported = sorted((sorted_sets(json.loads(line)["Item"]) for line in lines),
                          key=lambda item: item["pk"]["S"])
        scanned = self.raw.scan(TableName=table)["Items"]
        expected = sorted((sorted_sets(json.loads(json.dumps(item, default=lambda b: base64.b64encode(b).decode())))
                           for item in scanned), key=lambda item: item["pk"]["S"])
        self.assertEqual(exported, expected)

    def test_an_ion_export_writes_ion_text(self):
        item = {"pk": S("a"), "n": {"N": "600"}, "i": {"N": "103"}, "z": {"N": "0"},
                "f": {"N": "1.5"}, "b": {"B": b"xy"}, "ss": {"SS": ["one"]}, "l": {"L": [{"NULL": True}]},
                "m": {"M": {"two words": {"BOOL": False}}}}
        table, arn = self.table_with_pitr([item])
        started = self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket",
                                                         ExportFormat="ION")["ExportDescription"]
        described = wait(self.ddb, started["ExportArn"])
        summary, lines = read_export(self.bucket_dir, described)
        self.assertEqual(summary["outputFormat"], "ION")
        self.assertEqual(lines, ['$ion_1_0 {Item:{pk:"a",n:6d2,i:103.,z:0.,f:1.5,b:{{eHk=}},'
                                 'ss:$dynamodb_SS::["one"],l:[null],m:{"two words":false}}}'])
        data = os.listdir(os.path.join(self.bucket_dir, os.path.dirname(described["ExportManifest"]), "data"))
        self.assertTrue(all(name.endswith(".ion.gz") for name in data))

    def test_an_export_is_the_table_at_its_export_time(self):
        table, arn = self.table_with_pitr([{"pk": S(k), "v": S("old")} for k in "abc"])
        time.sleep(1.1)
        moment = int(time.time())
        time.sleep(moment + 1.1 - time.time())
        self.ddb.put_item(TableName=table, Item={"pk": S("a"), "v": S("new")})
        self.ddb.delete_item(TableName=table, Key={"pk": S("b")})
        self.ddb.put_item(TableName=table, Item={"pk": S("d"), "v": S("new")})
        at = datetime.datetime.fromtimestamp(moment, datetime.timezone.utc)
        started = self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket",
                                                         ExportTime=at)["ExportDescription"]
        self.assertEqual(started["ExportTime"], at)
        described = wait(self.ddb, started["ExportArn"])
        _, lines = read_export(self.bucket_dir, described)
        self.assertEqual(sorted((i["Item"]["pk"]["S"], i["Item"]["v"]["S"]) for i in map(json.loads, lines)),
                         [("a", "old"), ("b", "old"), ("c", "old")])

    def test_an_empty_table_exports_one_empty_file(self):
        table, arn = self.table_with_pitr()
        started = self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket")["ExportDescription"]
        described = wait(self.ddb, started["ExportArn"])
        _, lines = read_export(self.bucket_dir, described)
        self.assertEqual((described["ItemCount"], lines), (0, []))

    def test_a_missing_bucket_fails_the_export(self):
        table, arn = self.table_with_pitr()
        started = self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="no-such-bucket")
        described = wait(self.ddb, started["ExportDescription"]["ExportArn"])
        self.assertEqual((described["ExportStatus"], described["FailureCode"], described["FailureMessage"]),
                         ("FAILED", "S3NoSuchBucket", "The specified bucket does not exist: no-such-bucket"))
        self.assertNotIn("ItemCount", described)

    def test_client_tokens(self):
        table, arn = self.table_with_pitr()
        first = self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket", ClientToken="tok-1")
        again = self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket", ClientToken="tok-1")
        self.assertEqual(first["ExportDescription"]["ExportArn"], again["ExportDescription"]["ExportArn"])
        self.assertEqual(again["ExportDescription"]["ClientToken"], "tok-1")
        self.assertError(self.ddb.export_table_to_point_in_time, "ExportConflictException",
                         "Export conflict: Duplicate request detected with conflicting parameters",
                         TableArn=arn, S3Bucket="bucket", ClientToken="tok-1", ExportFormat="ION")
        other = self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket")
        self.assertNotEqual(other["ExportDescription"]["ExportArn"], first["ExportDescription"]["ExportArn"])

    def test_refusals(self):
        table = unique_name("export")
        self.ddb.create_table(**hash_table(table))
        arn = self.ddb.describe_table(TableName=table)["Table"]["TableArn"]
        export = self.ddb.export_table_to_point_in_time
        self.assertError(export, "PointInTimeRecoveryUnavailableException",
                         "Point in time recovery is not enabled for table '%s'" % table,
                         TableArn=arn, S3Bucket="bucket")
        missing = arn + "-missing"
        self.assertError(export, "TableNotFoundException", "Table not found: " + missing,
                         TableArn=missing, S3Bucket="bucket")
        self.assertError(export, "ValidationException",
                         "One or more parameter values were invalid: tableArn is not a valid ARN",
                         TableArn=table, S3Bucket="bucket")
        self.assertError(export, "ValidationException", "Invalid Request: Table ARN is invalid.",
                         TableArn=arn + "/index/gsi", S3Bucket="bucket")
        self.assertError(export, "AccessDeniedException", "Access is denied",
                         TableArn=arn.replace(":000000000000:", ":111111111111:"), S3Bucket="bucket")
        self.assertError(export, "ValidationException",
                         "Invalid Request: KMS Key Id is not supported for this encryption type",
                         TableArn=arn, S3Bucket="bucket", S3SseKmsKeyId="alias/aws/s3")
        enable_pitr(self.ddb, table)
        now = datetime.datetime.now(datetime.timezone.utc)
        for when in (now + datetime.timedelta(hours=1), now - datetime.timedelta(hours=1)):
            self.assertError(export, "InvalidExportTimeException", "Export Time is invalid",
                             TableArn=arn, S3Bucket="bucket", ExportTime=when)
        self.assertError(self.ddb.describe_export, "ValidationException", "Invalid Export ARN",
                         ExportArn=arn + "/backup/01234567890123-abcdefab")
        unknown = arn + "/export/01234567890123-abcdefab"
        self.assertError(self.ddb.describe_export, "ExportNotFoundException",
                         "Export not found: Export not found: " + unknown, ExportArn=unknown)
        token = "0123456789abcdef" * 4
        self.assertError(self.ddb.list_exports, "ValidationException",
                         "Invalid Request: Provided nextToken is invalid: " + token, NextToken=token)

    def test_list_exports_newest_first_in_pages(self):
        table, arn = self.table_with_pitr()
        arns = [self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket")
                ["ExportDescription"]["ExportArn"] for _ in range(3)]
        for one in arns:
            wait(self.ddb, one)
        first = self.ddb.list_exports(TableArn=arn, MaxResults=2)
        self.assertEqual([s["ExportArn"] for s in first["ExportSummaries"]], arns[::-1][:2])
        self.assertEqual({s["ExportType"] for s in first["ExportSummaries"]}, {"FULL_EXPORT"})
        rest = self.ddb.list_exports(TableArn=arn, MaxResults=2, NextToken=first["NextToken"])
        self.assertEqual([s["ExportArn"] for s in rest["ExportSummaries"]], arns[::-1][2:])
        self.assertNotIn("NextToken", rest)
        everything = [s["ExportArn"] for s in self.ddb.list_exports()["ExportSummaries"]]
        self.assertTrue(set(arns) <= set(everything))
        # A deleted table's exports are described, not listed by its ARN.
        self.ddb.delete_table(TableName=table)
        self.assertEqual(self.ddb.list_exports(TableArn=arn)["ExportSummaries"], [])
        self.assertEqual(self.ddb.describe_export(ExportArn=arns[0])["ExportDescription"]["ExportStatus"],
                         "COMPLETED")


def read_incremental(bucket_dir, described):
    """An incremental export's summary and lines: manifests under AWSDynamoDB/<id>/, data files in
    the prefix's shared AWSDynamoDB/data/, each checked against the files manifest."""
    root = os.path.join(bucket_dir, os.path.dirname(described["ExportManifest"]))
    assert set(os.listdir(root)) == {"_started", "manifest-files.json", "manifest-files.md5",
                                     "manifest-summary.json", "manifest-summary.md5"}
    summary = json.loads(read(os.path.join(bucket_dir, described["ExportManifest"])))
    lines = []
    for entry in map(json.loads, read(os.path.join(bucket_dir, summary["manifestFilesS3Key"])).splitlines()):
        assert "/AWSDynamoDB/data/" in "/" + entry["dataFileS3Key"], entry
        raw = read(os.path.join(bucket_dir, entry["dataFileS3Key"]), "rb")
        assert entry["md5Checksum"] == md5_base64(raw)
        file_lines = gzip.decompress(raw).decode().splitlines()
        assert entry["itemCount"] == len(file_lines)
        lines += file_lines
    assert summary["itemCount"] == len(lines) == described["ItemCount"]
    return summary, lines


class ExportIncrementalTest(ExportCase):
    extra_args = ("--admin-api",)

    def now_ms(self):
        return call(self.server.port, "GET", "/_ddbd/clock")[2]["epochMillis"]

    def advance(self, seconds):
        status, _, _ = call(self.server.port, "POST", "/_ddbd/clock", json.dumps({"advanceSeconds": seconds}))
        self.assertEqual(status, 200)

    def next_second(self):
        """A whole second of the server's clock just ahead, then the clock moved past it."""
        second = self.now_ms() // 1000 + 1
        self.advance(2)
        return second

    def test_an_incremental_export_holds_each_changed_item_once(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("moves its own ddbd's clock")
        table = unique_name("incremental")
        self.ddb.create_table(**composite_table(table))
        for pk in "abcf":
            self.ddb.put_item(TableName=table, Item={"pk": S(pk), "sk": S("1"), "v": S("v1")})
        enable_pitr(self.ddb, table)
        arn = self.ddb.describe_table(TableName=table)["Table"]["TableArn"]
        start = self.next_second()
        self.ddb.put_item(TableName=table, Item={"pk": S("a"), "sk": S("1"), "v": S("v2")})
        self.ddb.delete_item(TableName=table, Key={"pk": S("b"), "sk": S("1")})
        self.ddb.put_item(TableName=table, Item={"pk": S("d"), "sk": S("1"), "v": S("v1")})
        self.ddb.put_item(TableName=table, Item={"pk": S("e"), "sk": S("1"), "v": S("v1")})
        self.ddb.delete_item(TableName=table, Key={"pk": S("e"), "sk": S("1")})
        self.advance(16 * 60)
        end = self.next_second()
        self.ddb.put_item(TableName=table, Item={"pk": S("a"), "sk": S("1"), "v": S("v3")})
        self.ddb.put_item(TableName=table, Item={"pk": S("f"), "sk": S("1"), "v": S("v2")})
        window = {"ExportFromTime": start, "ExportToTime": end}
        started = self.ddb.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="bucket", S3Prefix="inc", ExportType="INCREMENTAL_EXPORT",
            IncrementalExportSpecification=window)["ExportDescription"]
        self.assertNotIn("ExportTime", started)
        self.assertEqual(started["ExportType"], "INCREMENTAL_EXPORT")
        utc = lambda second: datetime.datetime.fromtimestamp(second, datetime.timezone.utc)
        self.assertEqual(started["IncrementalExportSpecification"],
                         {"ExportFromTime": utc(start), "ExportToTime": utc(end),
                          "ExportViewType": "NEW_AND_OLD_IMAGES"})
        described = wait(self.ddb, started["ExportArn"])
        self.assertEqual((described["ExportStatus"], described["ItemCount"], described["BilledSizeBytes"]),
                         ("COMPLETED", 3, 10_000_000))
        summary, lines = read_incremental(self.bucket_dir, described)
        self.assertEqual((summary["version"], summary["exportType"], summary["outputView"],
                          summary["outputFormat"]),
                         ("2023-08-01", "INCREMENTAL_EXPORT", "NEW_AND_OLD_IMAGES", "DYNAMODB_JSON"))
        self.assertNotIn("exportTime", summary)
        self.assertEqual((summary["exportFromTime"], summary["exportToTime"]),
                         (utc(start).strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                          utc(end).strftime("%Y-%m-%dT%H:%M:%S.000Z")))
        records = {}
        for line in map(json.loads, lines):
            micros = int(line["Metadata"]["WriteTimestampMicros"]["N"])
            self.assertTrue(start * 1_000_000 <= micros < end * 1_000_000, micros)
            records[line["Keys"]["pk"]["S"]] = line
        self.assertEqual(sorted(records), ["a", "b", "d"])
        self.assertEqual(records["a"]["Keys"], {"pk": S("a"), "sk": S("1")})
        self.assertEqual((records["a"]["OldImage"]["v"], records["a"]["NewImage"]["v"]), (S("v1"), S("v2")))
        self.assertEqual(set(records["b"]), {"Metadata", "Keys", "OldImage"})
        self.assertEqual(set(records["d"]), {"Metadata", "Keys", "NewImage"})

        # NEW_IMAGE: no old images; a deleted item is its keys alone. ION lines.
        started = self.ddb.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="bucket", S3Prefix="inc", ExportType="INCREMENTAL_EXPORT",
            ExportFormat="ION", IncrementalExportSpecification=dict(window, ExportViewType="NEW_IMAGE"))
        described = wait(self.ddb, started["ExportDescription"]["ExportArn"])
        summary, lines = read_incremental(self.bucket_dir, described)
        self.assertEqual(summary["outputView"], "NEW_IMAGE")
        self.assertEqual(sorted(lines), sorted([
            '$ion_1_0 {Metadata:{WriteTimestampMicros:%s},Keys:{pk:"a",sk:"1"},NewImage:{pk:"a",sk:"1",v:"v2"}}'
            % ion_micros(records["a"]),
            '$ion_1_0 {Metadata:{WriteTimestampMicros:%s},Keys:{pk:"b",sk:"1"}}' % ion_micros(records["b"]),
            '$ion_1_0 {Metadata:{WriteTimestampMicros:%s},Keys:{pk:"d",sk:"1"},NewImage:{pk:"d",sk:"1",v:"v1"}}'
            % ion_micros(records["d"]),
        ]))
        # Both exports' data files share one folder.
        self.assertEqual(len(os.listdir(os.path.join(self.bucket_dir, "inc", "AWSDynamoDB", "data"))), 2)

    def test_incremental_refusals(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("moves its own ddbd's clock")
        table = unique_name("incremental")
        self.ddb.create_table(**hash_table(table))
        arn = self.ddb.describe_table(TableName=table)["Table"]["TableArn"]
        export = self.ddb.export_table_to_point_in_time
        now = self.now_ms() // 1000
        spec = {"ExportFromTime": now - 3600}
        self.assertError(export, "ValidationException",
                         "Invalid Request: Export Type expected to be Incremental Export when incremental "
                         "export specification is provided",
                         TableArn=arn, S3Bucket="bucket", IncrementalExportSpecification=spec)
        self.assertError(export, "ValidationException",
                         "Invalid Request: When Export Type is Full Export , Incremental Export "
                         "Specification should not be provided",
                         TableArn=arn, S3Bucket="bucket", ExportType="FULL_EXPORT",
                         IncrementalExportSpecification=spec)
        self.assertError(export, "ValidationException",
                         "Invalid Request: Incremental Export Specification expected when export type is "
                         "set as Incremental Export",
                         TableArn=arn, S3Bucket="bucket", ExportType="INCREMENTAL_EXPORT")
        self.assertError(export, "ValidationException",
                         "Invalid Request: ExportFromTime must be provided in IncrementalExportSpecification",
                         TableArn=arn, S3Bucket="bucket", ExportType="INCREMENTAL_EXPORT",
                         IncrementalExportSpecification={"ExportViewType": "NEW_IMAGE"})
        iso = lambda second: datetime.datetime.fromtimestamp(second, datetime.timezone.utc).strftime(
            "%Y-%m-%dT%H:%M:%SZ")
        incremental = lambda **window: export(TableArn=arn, S3Bucket="bucket", ExportType="INCREMENTAL_EXPORT",
                                              IncrementalExportSpecification=window)
        # Without point-in-time recovery, every from time is before "the table creation time".
        self.assertError(incremental, "InvalidExportTimeException",
                         "Incremental export period from time cannot be less than the table creation "
                         "time : " + iso(now - 3600), ExportFromTime=now - 3600)
        enable_pitr(self.ddb, table)
        start = self.next_second()
        self.assertError(incremental, "InvalidExportTimeException",
                         "Incremental export period from time cannot be less than the table creation "
                         "time : " + iso(start - 60), ExportFromTime=start - 60)
        self.assertError(incremental, "InvalidExportTimeException",
                         "Difference between export period from time and export period to time is less "
                         "than 15 minutes", ExportFromTime=start)
        self.advance(25 * 3600)
        future = self.now_ms() // 1000 + 3600
        self.assertError(incremental, "InvalidExportTimeException",
                         "Incremental export period to time cannot be greater than the current time : "
                         + iso(future), ExportFromTime=start, ExportToTime=future)
        self.assertError(incremental, "InvalidExportTimeException",
                         "Difference between export period from time and export period to time is more "
                         "than 24 hours", ExportFromTime=start, ExportToTime=start + 25 * 3600)
        fine = incremental(ExportFromTime=start, ExportToTime=start + 3600)["ExportDescription"]
        self.assertEqual(wait(self.ddb, fine["ExportArn"])["ExportStatus"], "COMPLETED")
        summaries = self.ddb.list_exports(TableArn=arn)["ExportSummaries"]
        self.assertEqual([(s["ExportArn"], s["ExportType"]) for s in summaries],
                         [(fine["ExportArn"], "INCREMENTAL_EXPORT")])


def ion_micros(record):
    """An incremental line's WriteTimestampMicros as Ion writes the number: trailing zeros as an
    exponent."""
    digits = record["Metadata"]["WriteTimestampMicros"]["N"]
    stripped = digits.rstrip("0")
    return "%sd%d" % (stripped, len(digits) - len(stripped))


class ExportWithoutBucketsTest(ServerTestCase):
    def test_without_s3_dir_an_export_fails_naming_the_option(self):
        table = unique_name("export")
        self.ddb.create_table(**hash_table(table))
        enable_pitr(self.ddb, table)
        arn = self.ddb.describe_table(TableName=table)["Table"]["TableArn"]
        started = self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket")
        described = wait(self.ddb, started["ExportDescription"]["ExportArn"])
        self.assertEqual(described["FailureCode"], "S3NoSuchBucket")
        self.assertIn("--s3-dir", described["FailureMessage"])


class ExportRestartTest(unittest.TestCase):
    def test_exports_are_described_after_a_restart(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        with tempfile.TemporaryDirectory() as db, tempfile.TemporaryDirectory() as s3:
            os.mkdir(os.path.join(s3, "bucket"))
            args = ("--db-path", db, "--s3-dir", s3)
            server = DdbdServer(*args).start()
            try:
                ddb = client(server.endpoint)
                table = unique_name("export")
                ddb.create_table(**hash_table(table))
                ddb.put_item(TableName=table, Item={"pk": S("a")})
                enable_pitr(ddb, table)
                arn = ddb.describe_table(TableName=table)["Table"]["TableArn"]
                export_arn = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket")[
                    "ExportDescription"]["ExportArn"]
                before = wait(ddb, export_arn)
            finally:
                server.stop()
            server = DdbdServer(*args).start()
            try:
                ddb = client(server.endpoint)
                self.assertEqual(ddb.describe_export(ExportArn=export_arn)["ExportDescription"], before)
                self.assertEqual([s["ExportArn"] for s in ddb.list_exports(TableArn=arn)["ExportSummaries"]],
                                 [export_arn])
            finally:
                server.stop()


class KilledMidJobTest(unittest.TestCase):
    """kill -9 while an export or an import runs: after the restart the job is FAILED
    (ExportInterrupted, ImportInterrupted), an export's folder has no summary manifest (no reader
    takes its files for a whole export), an import's table is gone; a job that had finished
    before the kill is whole."""

    ITEMS = 100_000

    def test_a_killed_export_or_import_fails_cleanly(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        with tempfile.TemporaryDirectory() as db, tempfile.TemporaryDirectory() as s3:
            bucket = os.path.join(s3, "bucket")
            os.makedirs(os.path.join(bucket, "big"))
            with open(os.path.join(bucket, "big", "items.json"), "w") as f:
                for i in range(self.ITEMS):
                    f.write('{"Item":{"pk":{"S":"k%d"},"v":{"S":"%s"}}}\n' % (i, "x" * 100))
            args = ("--db-path", db, "--s3-dir", s3)
            source = {"S3Bucket": "bucket", "S3KeyPrefix": "big/"}
            server = DdbdServer(*args).start()
            try:
                ddb = client(server.endpoint)
                table = unique_name("big")
                import_arn = ddb.import_table(S3BucketSource=source, InputFormat="DYNAMODB_JSON",
                                              TableCreationParameters=dict(hash_table(table)))[
                    "ImportTableDescription"]["ImportArn"]
                deadline = time.monotonic() + 120
                while ddb.describe_import(ImportArn=import_arn)["ImportTableDescription"]["ImportStatus"] \
                        == "IN_PROGRESS" and time.monotonic() < deadline:
                    time.sleep(0.05)
                enable_pitr(ddb, table)
                arn = ddb.describe_table(TableName=table)["Table"]["TableArn"]
                export_arn = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket")[
                    "ExportDescription"]["ExportArn"]
                server.process.kill()
                server.process.wait()
            finally:
                server.stop()
            server = DdbdServer(*args).start()
            try:
                ddb = client(server.endpoint)
                described = ddb.describe_export(ExportArn=export_arn)["ExportDescription"]
                folder = os.path.join(bucket, "AWSDynamoDB", export_arn.rsplit("/", 1)[1])
                if described["ExportStatus"] == "FAILED":
                    self.assertEqual(described["FailureCode"], "ExportInterrupted")
                    self.assertFalse(os.path.exists(os.path.join(folder, "manifest-summary.json")))
                else:
                    _, lines = read_export(bucket, described)
                    self.assertEqual(len(lines), self.ITEMS)
                # An import killed as it starts: FAILED, its table gone.
                target = unique_name("killed")
                import_arn = ddb.import_table(S3BucketSource=source, InputFormat="DYNAMODB_JSON",
                                              TableCreationParameters=dict(hash_table(target)))[
                    "ImportTableDescription"]["ImportArn"]
                server.process.kill()
                server.process.wait()
            finally:
                server.stop()
            server = DdbdServer(*args).start()
            try:
                ddb = client(server.endpoint)
                described = ddb.describe_import(ImportArn=import_arn)["ImportTableDescription"]
                if described["ImportStatus"] == "FAILED":
                    self.assertEqual(described["FailureCode"], "ImportInterrupted")
                    self.assertNotIn(target, ddb.list_tables()["TableNames"])
                else:
                    self.assertEqual(ddb.scan(TableName=target, Select="COUNT")["Count"], self.ITEMS)
            finally:
                server.stop()


if __name__ == "__main__":
    unittest.main()
