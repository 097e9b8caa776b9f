"""--db-path with the real binary: a restart keeps tables (with their indexes, TTL and stream
settings), items, and streams with their shards and records (a consumer's iterator goes on); and a
crash loop: clients write concurrently (puts, overwrites, updates, deletes and two-item transactions)
while ddbd is killed with SIGKILL at random moments (small checkpoints are written meanwhile), and after each restart every acknowledged
write is there and no transaction is half there. DDBD_CRASH_CYCLES sets the cycles (default 20;
scripts run it longer)."""
import json
import os
import random
import subprocess
import resource
import signal
import tempfile
import threading
import time
import unittest

import boto3
from botocore.config import Config

from ddbd_harness import CREDENTIALS, DdbdServer, client, hash_table

S = lambda v: {"S": v}


def http_get(url):
    """(status, body) of a GET, error statuses included."""
    import urllib.error
    import urllib.request
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
N = lambda v: {"N": str(v)}


class Persistence(unittest.TestCase):
    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("starts its own ddbd")
        self.directory = tempfile.TemporaryDirectory()
        self.server = None

    def tearDown(self):
        if self.server:
            self.server.stop()
        self.directory.cleanup()

    def start(self, *options):
        self.server = DdbdServer("--db-path", self.directory.name, *options).start()
        return client(self.server.endpoint)

    def kill(self):
        self.server.process.send_signal(signal.SIGKILL)
        self.server.process.wait()
        self.server.log.close()
        self.server.directory.cleanup()
        self.server = None

    def output_of_failed_start(self, *options):
        import subprocess
        return subprocess.run([os.environ["DDBD_BIN"], "--port", "0", "--db-path", self.directory.name, *options],
                              capture_output=True, text=True, timeout=20)

    def test_a_store_written_by_release_0_1_0_opens_and_recovers_everything(self):
        """Issue 34: log format 2 reads what 0.1.0 wrote (tests/blackbox/fixtures/db-0.1.0, made by
        0.1.0's binary at commit c154bdd: two tables, a GSI, a stream, TTL, tags, every type, a
        transaction, a backup), then goes on in the new format."""
        import shutil
        fixture = os.path.join(os.path.dirname(__file__), "..", "fixtures", "db-0.1.0")
        shutil.copytree(fixture, self.directory.name, dirs_exist_ok=True)
        ddb = self.start("--log-level", "info")
        self.assertEqual(ddb.list_tables()["TableNames"], ["Music", "Plain"])
        music = ddb.scan(TableName="Music", ConsistentRead=True)["Items"]
        self.assertEqual(len(music), 21)  # 20 put, one deleted, two by a transaction
        song = ddb.get_item(TableName="Music", Key={"Artist": S("artist00"), "Song": S("song00")})["Item"]
        self.assertEqual(song["Plays"], N("12345678901234567890123456790"))
        self.assertEqual(song["Raw"], {"B": bytes([0, 255, 0])})
        self.assertEqual(song["Tags"]["SS"], ["a", "b0"])
        self.assertEqual(song["Nested"], {"M": {"L": {"L": [N(0), {"NULL": True}, {"BOOL": True}]}}})
        jazz = ddb.query(TableName="Music", IndexName="by-genre", KeyConditionExpression="Genre = :g",
                         ExpressionAttributeValues={":g": S("jazz")})["Items"]
        self.assertEqual(len(jazz), 9)
        described = ddb.describe_table(TableName="Music")["Table"]
        self.assertEqual(described["StreamSpecification"]["StreamViewType"], "NEW_AND_OLD_IMAGES")
        self.assertEqual(ddb.describe_time_to_live(TableName="Music")["TimeToLiveDescription"],
                         {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires"})
        self.assertEqual(ddb.list_tags_of_resource(ResourceArn=described["TableArn"])["Tags"],
                         [{"Key": "team", "Value": "audio"}])
        from decimal import Decimal
        self.assertEqual(Decimal(ddb.get_item(TableName="Plain", Key={"pk": S("only")})["Item"]["n"]["N"]),
                         Decimal("-1E-130"))
        backups = ddb.list_backups(TableName="Plain")["BackupSummaries"]
        self.assertEqual([b["BackupName"] for b in backups], ["plain-backup"])
        ddb.restore_table_from_backup(TargetTableName="Restored", BackupArn=backups[0]["BackupArn"])
        self.assertEqual(ddb.scan(TableName="Restored")["Count"], 1)
        self.assertIn("recovered %s: 27 records" % self.directory.name, self.server.output())
        ddb.put_item(TableName="Plain", Item={"pk": S("new")})
        self.kill()
        ddb = self.start()
        self.assertEqual(ddb.scan(TableName="Plain", ConsistentRead=True)["Count"], 2)
        self.assertEqual(ddb.scan(TableName="Music", ConsistentRead=True)["Count"], 21)
        self.assertEqual(ddb.scan(TableName="Restored", ConsistentRead=True)["Count"], 1)

    def check_orders_fixture(self, ddb, count, last, updated):
        """The Orders table of the fixtures made by earlier binaries: `count` items, (c00, o00)
        deleted, `last` there, `updated`'s total set to 1000, 9 items shipped in the index.
        Returns the items."""
        items = ddb.scan(TableName="Orders", ConsistentRead=True)["Items"]
        self.assertEqual(len(items), count)
        keys = {(i["pk"]["S"], i["sk"]["S"]) for i in items}
        self.assertNotIn(("c00", "o00"), keys)
        self.assertIn(last, keys)
        item = ddb.get_item(TableName="Orders", Key={"pk": S(updated[0]), "sk": S(updated[1])})["Item"]
        self.assertEqual(item["total"], N(1000))
        shipped = ddb.query(TableName="Orders", IndexName="by-status", KeyConditionExpression="#s = :s",
                            ExpressionAttributeNames={"#s": "status"},
                            ExpressionAttributeValues={":s": S("shipped")})["Items"]
        self.assertEqual(len(shipped), 9)
        return items

    def test_a_store_in_log_format_2_before_groups_opens_and_recovers_everything(self):
        """Issue 48: segments as ddbd wrote them before its log came in groups (format 2 without
        kLogGrouped; tests/blackbox/fixtures/db-format-2, made by the binary of commit 4d84536:
        a table with a global index, 30 items, a checkpoint written in the background, a delete
        and an update after it, then a restart, one put and kill -9), then it goes on in groups."""
        import shutil
        fixture = os.path.join(os.path.dirname(__file__), "..", "fixtures", "db-format-2")
        shutil.copytree(fixture, self.directory.name, dirs_exist_ok=True)
        ddb = self.start("--log-level", "info")
        self.assertEqual(ddb.list_tables()["TableNames"], ["Orders"])
        def check(ddb, count):
            self.check_orders_fixture(ddb, count, last=("c09", "o99"), updated=("c01", "o01"))
        check(ddb, 30)
        ddb.put_item(TableName="Orders", Item={"pk": S("c10"), "sk": S("o100"), "status": S("open")})
        self.kill()
        ddb = self.start()
        check(ddb, 31)
        # The new segment is in groups, the old ones as they were.
        with open(os.path.join(self.directory.name, "0000000005.log"), "rb") as segment:
            self.assertEqual(segment.read(16)[12], 4)  # flags: kLogGrouped
        with open(os.path.join(self.directory.name, "0000000003.log"), "rb") as segment:
            self.assertEqual(segment.read(16)[12], 0)

    def test_a_store_of_log_format_2_with_puts_after_its_checkpoint_opens_and_goes_on_in_7(self):
        """Issue 48: segments as ddbd wrote them before format 7 (records without zeros after
        them, puts as kItemPut; tests/blackbox/fixtures/db-format-2-puts, made by the binary of
        commit 5e8e911: a table with a global index, 30 items written four times, a checkpoint
        written in the background, kill -9, then a restart, a delete, an update and five new
        items, kill -9). Everything is there; later puts go to a format 7 segment as item images
        (kind 19), which a restart reads too."""
        import shutil
        import struct
        fixture = os.path.join(os.path.dirname(__file__), "..", "fixtures", "db-format-2-puts")
        shutil.copytree(fixture, self.directory.name, dirs_exist_ok=True)

        def check(ddb, count):
            items = self.check_orders_fixture(ddb, count, last=("c04", "o34"), updated=("c01", "o01"))
            self.assertEqual(sorted(len(i["note"]["S"]) for i in items)[0], 103)  # the 4th write's
        ddb = self.start()
        check(ddb, 34)
        for i in range(35, 40):
            ddb.put_item(TableName="Orders", Item={"pk": S("c%02d" % (i % 10)), "sk": S("o%02d" % i),
                                                   "status": S("open"), "total": N(i), "note": S("z" * 200)})
        self.kill()
        newest = max(n for n in os.listdir(self.directory.name) if n.endswith(".log"))
        with open(os.path.join(self.directory.name, newest), "rb") as segment:
            header = segment.read(32)
            records = segment.read()
        self.assertEqual(struct.unpack_from("<I", header, 8)[0], 7)
        self.assertEqual(records.count(b"z" * 200), 5)
        ddb = self.start()
        items = self.check_orders_fixture(ddb, 39, last=("c09", "o39"), updated=("c01", "o01"))
        self.assertEqual(sum(1 for i in items if i["note"]["S"] == "z" * 200), 5)

    def test_a_log_of_puts_naming_their_table_opens_and_goes_on_with_table_numbers(self):
        """Issue 48: a log whose puts each carry their table's 36-byte id (kind 17;
        tests/blackbox/fixtures/db-item-put-images, made by the binary of commit 2869de1: a table
        with a global index, 30 items, a delete and an update, kill -9; the segment cut to 8 KiB,
        only zeros after its last group). Everything is there; later puts name the table by a
        number bound once (kinds 18 and 19), which a restart reads too."""
        import shutil
        fixture = os.path.join(os.path.dirname(__file__), "..", "fixtures", "db-item-put-images")
        shutil.copytree(fixture, self.directory.name, dirs_exist_ok=True)
        ddb = self.start()
        self.check_orders_fixture(ddb, 29, last=("c09", "o29"), updated=("c01", "o01"))
        table_id = ddb.describe_table(TableName="Orders")["Table"]["TableId"].encode()
        for i in range(30, 35):
            ddb.put_item(TableName="Orders", Item={"pk": S("c%02d" % (i % 10)), "sk": S("o%02d" % i),
                                                   "status": S("open"), "note": S("n" * 150)})
        self.kill()
        newest = max(n for n in os.listdir(self.directory.name) if n.endswith(".log"))
        with open(os.path.join(self.directory.name, newest), "rb") as segment:
            records = segment.read()
        self.assertEqual(records.count(b"n" * 150), 5)
        self.assertEqual(records.count(table_id), 1)  # its number's binding, not each put
        ddb = self.start()
        items = self.check_orders_fixture(ddb, 34, last=("c04", "o34"), updated=("c01", "o01"))
        self.assertEqual(sum(1 for i in items if i.get("note") == S("n" * 150)), 5)

    def test_a_checkpoint_of_wide_item_images_opens_and_is_rewritten_packed(self):
        """Issue 48: a checkpoint whose items are images with the records' former 12-byte header
        (kind 15; tests/blackbox/fixtures/db-item-images-wide, made by the binary of commit
        100dde3: a table with a global index, 30 items written four times, a checkpoint written
        in the background, then a restart, a delete and an update, and kill -9). The items are
        copied into records of the 8-byte header; the next checkpoint writes kind 16."""
        import shutil
        import struct

        def kinds(path):  # the record kinds of a version 2 or 7 segment, in order
            with open(path, "rb") as segment:
                data = segment.read()
            padded = struct.unpack_from("<I", data, 8)[0] == 7  # zeros to a multiple of 4
            offset, found = 32, []
            while offset + 13 <= len(data):
                length = struct.unpack_from("<I", data, offset)[0]
                if length == 0 and data[offset + 12] == 0:
                    break  # zeros ahead of the writes
                found.append(data[offset + 12])
                offset += 13 + length
                if padded:
                    offset += -offset % 4
            return found
        fixture = os.path.join(os.path.dirname(__file__), "..", "fixtures", "db-item-images-wide")
        self.assertEqual(kinds(os.path.join(fixture, "0000000002.log")), [1, 15])
        shutil.copytree(fixture, self.directory.name, dirs_exist_ok=True)

        def check(ddb, count):
            items = self.check_orders_fixture(ddb, count, last=("c09", "o29"), updated=("c00", "o01"))
            self.assertEqual(sorted(len(i["note"]["S"]) for i in items if i["pk"]["S"] != "c99")[-1], 145)
        # A checkpoint once the log has grown 4 KB and past its data: the puts below (40 KB of
        # records over 9 KB of data) write it.
        ddb = self.start("--checkpoint-log-bytes", "4096")
        check(ddb, 29)
        for i in range(20):  # each a change (a put of the same item again logs nothing)
            ddb.put_item(TableName="Orders", Item={"pk": S("c99"), "sk": S("o99"), "status": S("open"),
                                                   "note": S("y" * 2000 + str(i))})
        deadline = time.time() + 30
        checkpoint = None  # the kinds of a segment with packed images
        while time.time() < deadline and checkpoint is None:
            for name in sorted(os.listdir(self.directory.name)):
                try:  # a later checkpoint may remove it meanwhile
                    found = kinds(os.path.join(self.directory.name, name)) if name.endswith(".log") else []
                except FileNotFoundError:
                    continue
                if 16 in found:
                    checkpoint = found
            time.sleep(0.1)
        self.assertIsNotNone(checkpoint, "no checkpoint with packed images")
        self.assertNotIn(15, checkpoint)
        self.kill()
        ddb = self.start()
        check(ddb, 30)

    def test_a_damaged_log_refuses_to_start_unless_told_point_in_time(self):
        """Issue 34: one flipped bit in a record's length used to start an empty database."""
        ddb = self.start()
        ddb.create_table(**hash_table("Damaged"))
        for i in range(10):
            ddb.put_item(TableName="Damaged", Item={"pk": S("k%d" % i)})
        self.server.stop()
        self.server = None
        path = os.path.join(self.directory.name, "0000000001.log")
        with open(path, "r+b") as log:
            data = bytearray(log.read())
            data[32] ^= 0x01  # the first record's length
            log.seek(0)
            log.write(data)
        refused = self.output_of_failed_start()
        self.assertEqual(refused.returncode, 1)
        self.assertIn("ddbd: --db-path %s: %s/0000000001.log: record length damaged at offset 32; starting "
                      "would lose " % (self.directory.name, self.directory.name), refused.stderr)
        # The ten puts and the table's number in the log (the table's own record is the damaged one).
        self.assertIn("(11 readable records)", refused.stderr)
        self.assertIn("--wal-recovery-mode point-in-time", refused.stderr)
        ddb = self.start("--wal-recovery-mode", "point-in-time")
        self.assertEqual(ddb.list_tables()["TableNames"], [])
        self.assertIn("point-in-time recovery: %s/0000000001.log: record length damaged at offset 32"
                      % self.directory.name, self.server.output())
        self.assertEqual(sorted(os.listdir(os.path.join(self.directory.name, "lost"))),
                         ["0000000001.log.from-32"])

    def test_a_restart_keeps_tables_and_items(self):
        ddb = self.start()
        ddb.create_table(
            TableName="Orders", BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "status", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            GlobalSecondaryIndexes=[{"IndexName": "by-status",
                                     "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"}}],
            StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
        ddb.update_time_to_live(TableName="Orders",
                                TimeToLiveSpecification={"AttributeName": "expires", "Enabled": True})
        ddb.create_table(**hash_table("Dropped"))
        for i in range(10):
            ddb.put_item(TableName="Orders", Item={"pk": S("o%d" % i), "status": S("open"), "n": N(i)})
        ddb.update_item(TableName="Orders", Key={"pk": S("o1")}, UpdateExpression="SET #s = :s",
                        ExpressionAttributeNames={"#s": "status"}, ExpressionAttributeValues={":s": S("done")})
        ddb.delete_item(TableName="Orders", Key={"pk": S("o2")})
        ddb.delete_table(TableName="Dropped")
        self.server.stop()  # a clean stop
        ddb = self.start()
        self.assertEqual(ddb.list_tables()["TableNames"], ["Orders"])
        table = ddb.describe_table(TableName="Orders")["Table"]
        self.assertEqual(table["ItemCount"], 9)
        self.assertEqual(table["StreamSpecification"], {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
        self.assertEqual(ddb.describe_time_to_live(TableName="Orders")["TimeToLiveDescription"],
                         {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires"})
        done = ddb.query(TableName="Orders", IndexName="by-status", KeyConditionExpression="#s = :s",
                         ExpressionAttributeNames={"#s": "status"}, ExpressionAttributeValues={":s": S("done")})
        self.assertEqual([i["pk"]["S"] for i in done["Items"]], ["o1"])
        self.assertNotIn("Item", ddb.get_item(TableName="Orders", Key={"pk": S("o2")}))
        self.assertEqual(ddb.get_item(TableName="Orders", Key={"pk": S("o9")})["Item"]["n"], N(9))
        # A second ddbd on the same directory is refused, with the reason.
        second = DdbdServer("--db-path", self.directory.name)
        with self.assertRaises(RuntimeError) as caught:
            second.start()
        self.assertIn("is locked by another process", str(caught.exception))
        second.stop()

    def test_random_damage_is_recovered_from_or_refused(self):
        """Issue 34, with the real binary: a store of several segments (restarts, and small
        checkpoints written meanwhile) is damaged at random (a byte flipped, or a segment cut
        short) and started again: it refuses, naming the file and an offset, or starts with every
        acknowledged item as written; only damage to the newest segment may lose items, and never
        alters one. DDBD_CORRUPT_CYCLES sets the cycles (default 20; scripts/corrupt-loop runs it
        longer)."""
        import shutil
        cycles = int(os.environ.get("DDBD_CORRUPT_CYCLES", "20"))
        written = {}
        for start in range(3):
            ddb = self.start("--checkpoint-log-bytes", "8192")
            if start == 0:
                ddb.create_table(**hash_table("Damage"))
            for i in range(40):
                key = "s%d-%d" % (start, i)
                written[key] = "v%d" % random.randrange(10 ** 9)
                ddb.put_item(TableName="Damage", Item={"pk": S(key), "v": S(written[key] + "x" * 200)})
            self.server.stop()
            self.server = None
        pristine = tempfile.TemporaryDirectory()
        shutil.copytree(self.directory.name, pristine.name, dirs_exist_ok=True)
        outcomes = {"refused": 0, "whole": 0, "newest lost some": 0}
        for cycle in range(cycles):
            shutil.rmtree(self.directory.name)
            shutil.copytree(pristine.name, self.directory.name)
            segments = sorted(n for n in os.listdir(self.directory.name) if n.endswith(".log"))
            name = random.choice(segments)
            path = os.path.join(self.directory.name, name)
            with open(path, "r+b") as segment:
                data = bytearray(segment.read())
                if random.random() < 0.5 and len(data) > 0:
                    at = random.randrange(len(data))
                    data[at] ^= 1 << random.randrange(8)
                    what = "byte %d flipped" % at
                else:
                    data = data[:random.randrange(len(data))]
                    what = "cut at %d" % len(data)
                segment.seek(0)
                segment.truncate()
                segment.write(data)
            label = "cycle %d: %s of %s (%s)" % (cycle, what, name, segments)
            try:
                ddb = self.start()
            except RuntimeError as refused:
                # Refused: the file and the offset are named.
                self.assertIn("offset", str(refused), label)
                self.assertRegex(str(refused), r"ddbd: --db-path .*\d{10}\.log", label)
                outcomes["refused"] += 1
                continue
            items = {}
            for page in ddb.get_paginator("scan").paginate(TableName="Damage", ConsistentRead=True):
                for item in page["Items"]:
                    items[item["pk"]["S"]] = item["v"]["S"][:-200]
            self.server.stop()
            self.server = None
            for key, value in items.items():
                self.assertEqual(value, written.get(key), label)
            if items == written:
                outcomes["whole"] += 1
            else:
                self.assertEqual(name, segments[-1], label + ": an older segment lost items")
                outcomes["newest lost some"] += 1
        print("random damage:", outcomes)
        self.assertGreater(outcomes["refused"], 0)
        pristine.cleanup()

    def test_acknowledged_writes_survive_kill_9(self):
        cycles = int(os.environ.get("DDBD_CRASH_CYCLES", "20"))
        # Small checkpoints: kills also land while one is written or its old segments removed.
        checkpoints = ("--checkpoint-log-bytes", "65536")
        ddb = self.start(*checkpoints)
        ddb.create_table(**hash_table("Crash"))
        acknowledged, pairs, hot, deleted = [], [], {}, set()
        # Per writer: increments of its counter sent, and acknowledged (updates, ADD).
        counted = {t: [0, 0] for t in range(4)}
        puts = [0]  # acknowledged puts of new keys, ever (the deletes take some back)
        lock = threading.Lock()
        for cycle in range(cycles):
            stop = threading.Event()

            def writer(thread):
                mine = client(self.server.endpoint)
                i = 0
                while not stop.is_set():
                    i += 1
                    key = "c%d-t%d-%d" % (cycle, thread, i)
                    try:
                        if i % 10 == 3:  # an update: ADD to this writer's counter
                            with lock:
                                counted[thread][0] += 1
                            mine.update_item(TableName="Crash", Key={"pk": S("counter-t%d" % thread)},
                                             UpdateExpression="ADD v :one", ExpressionAttributeValues={":one": N(1)})
                            with lock:
                                counted[thread][1] += 1
                            continue
                        if i % 10 == 4:  # a delete of an acknowledged put (no longer promised)
                            with lock:
                                victim = acknowledged.pop() if acknowledged else None
                            if victim:
                                mine.delete_item(TableName="Crash", Key={"pk": S(victim)})
                                with lock:
                                    deleted.add(victim)
                            continue
                        if i % 5 == 0:
                            mine.transact_write_items(TransactItems=[
                                {"Put": {"TableName": "Crash", "Item": {"pk": S(key + "-a"), "v": N(i)}}},
                                {"Put": {"TableName": "Crash", "Item": {"pk": S(key + "-b"), "v": N(i)}}}])
                            with lock:
                                pairs.append(key)
                        elif i % 5 in (1, 2):  # overwrites: the log outgrows the data
                            hot_key = "hot-t%d-%d" % (thread, i % 7)
                            mine.put_item(TableName="Crash", Item={"pk": S(hot_key), "v": N(cycle * 10**6 + i)})
                            with lock:
                                hot[hot_key] = cycle * 10**6 + i
                        else:
                            mine.put_item(TableName="Crash", Item={"pk": S(key), "v": N(i)})
                            with lock:
                                acknowledged.append(key)
                                puts[0] += 1
                    except Exception:
                        return  # the server went: this write was not acknowledged

            threads = [threading.Thread(target=writer, args=(t,)) for t in range(4)]
            [t.start() for t in threads]
            time.sleep(random.uniform(0.1, 0.4))
            self.kill()
            stop.set()
            [t.join() for t in threads]
            ddb = self.start(*checkpoints)
            present, values = set(), {}
            for page in ddb.get_paginator("scan").paginate(TableName="Crash"):
                present.update(item["pk"]["S"] for item in page["Items"])
                values.update((item["pk"]["S"], int(item["v"]["N"])) for item in page["Items"])
            older = {k: (v, values.get(k)) for k, v in hot.items() if values.get(k, -1) < v}
            self.assertEqual(older, {}, "cycle %d: an acknowledged overwrite lost" % cycle)
            missing = [key for key in acknowledged if key not in present]
            self.assertEqual(missing, [], "cycle %d: acknowledged puts lost" % cycle)
            back = [key for key in deleted if key in present]
            self.assertEqual(back, [], "cycle %d: acknowledged deletes undone" % cycle)
            for thread, (sent, acked) in counted.items():
                value = values.get("counter-t%d" % thread, 0)
                self.assertTrue(acked <= value <= sent, "cycle %d: counter %d not in [%d, %d]"
                                % (cycle, value, acked, sent))
            for key in pairs:
                self.assertIn(key + "-a", present, "cycle %d" % cycle)
                self.assertIn(key + "-b", present, "cycle %d" % cycle)
            halves = {k[:-2] for k in present if k.endswith("-a")} ^ {k[:-2] for k in present if k.endswith("-b")}
            self.assertEqual(halves, set(), "cycle %d: a transaction half there" % cycle)
        # The cycles did work: more acknowledged new keys than cycles (counted whole: under a
        # loaded machine's ASan, the deletes left too few in `acknowledged` once).
        self.assertGreater(puts[0], cycles)
        # Checkpoints replace the log before them: the first segment goes. The cycles' random
        # lengths may all have been too short to write one (CI saw that once), so the server the
        # last cycle started keeps taking overwrites, which grow the log and not the data, until
        # it does.
        deadline = time.monotonic() + 30
        i = 0
        while "0000000001.log" in os.listdir(self.directory.name):
            self.assertLess(time.monotonic(), deadline, "no checkpoint replaced the first segment")
            ddb.put_item(TableName="Crash", Item={"pk": S("hot-final-%d" % (i % 7)), "v": N(i),
                                                   "pad": S("x" * 2000)})
            i += 1

    def test_a_failing_disk_refuses_writes_keeps_reads_and_recovers(self):
        # The log's files limited to 64 bytes (RLIMIT_FSIZE, set from outside as a full disk
        # would come): every record's write fails with EFBIG, as a full disk fails with ENOSPC.
        ddb = self.start()
        ddb.create_table(**hash_table("Disk"))
        ddb.put_item(TableName="Disk", Item={"pk": S("before")})
        pid = self.server.process.pid
        _, hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (64, hard))
        # The write that meets the full disk: InternalServerError (and its retry too, refused
        # while the log cannot be written).
        with self.assertRaises(ddb.exceptions.InternalServerError) as caught:
            ddb.put_item(TableName="Disk", Item={"pk": S("during"), "pad": S("x" * 200)})
        self.assertEqual(caught.exception.response["Error"]["Message"], "Internal server error")
        with self.assertRaises(ddb.exceptions.InternalServerError):
            ddb.put_item(TableName="Disk", Item={"pk": S("refused")})
        with self.assertRaises(ddb.exceptions.InternalServerError):
            ddb.create_table(**hash_table("Another"))
        # Issue 34: the trouble is visible: /_ddbd/health answers 503 with the reason (and so
        # `ddbd health` fails), /metrics says so, the log says it once.
        status, body = http_get(self.server.endpoint + "/_ddbd/health")
        self.assertEqual(status, 503)
        self.assertEqual(json.loads(body)["status"], "failing")
        self.assertIn("write-ahead log: cannot write", json.loads(body)["reason"])
        self.assertIn("File too large", json.loads(body)["reason"])
        health = subprocess.run([os.environ["DDBD_BIN"], "health", "--port", str(self.server.port)],
                                capture_output=True, text=True, timeout=10)
        self.assertEqual(health.returncode, 1)
        self.assertIn("unhealthy: ", health.stderr)
        metrics = http_get(self.server.endpoint + "/metrics")[1].decode()
        self.assertIn("\nddbd_store_failing 1\n", metrics)
        self.assertRegex(metrics, r"\nddbd_store_write_failures_total [1-9]")
        # (The limit cuts ddbd's own log file too: the line is there, cut at 64 bytes.)
        self.assertEqual(self.server.output().count("] [error] write-ahead log: cannot write"), 1)
        # Reads go on.
        self.assertIn("Item", ddb.get_item(TableName="Disk", Key={"pk": S("before")}))
        self.assertEqual(ddb.describe_table(TableName="Disk")["Table"]["TableStatus"], "ACTIVE")
        # Room again: what waited is logged (within 100 ms) and writes are taken again.
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (hard, hard))
        deadline = time.time() + 5
        while True:
            try:
                ddb.put_item(TableName="Disk", Item={"pk": S("after")})
                break
            except ddb.exceptions.InternalServerError:
                self.assertLess(time.time(), deadline)
                time.sleep(0.05)
        self.assertEqual(http_get(self.server.endpoint + "/_ddbd/health"), (200, b'{"status":"healthy"}'))
        self.assertIn("\nddbd_store_failing 0\n", http_get(self.server.endpoint + "/metrics")[1].decode())
        self.assertEqual(self.server.output().count("write-ahead log: written again after"), 1)
        self.kill()
        ddb = self.start()
        keys = sorted(i["pk"]["S"] for i in ddb.scan(TableName="Disk")["Items"])
        # "during" was changed in memory before its record failed: it was logged once there
        # was room, so what readers saw survives; "refused" never happened.
        self.assertEqual(keys, ["after", "before", "during"])
        self.assertEqual(ddb.list_tables()["TableNames"], ["Disk"])

    def test_client_request_tokens_survive_a_restart(self):
        ddb = self.start()
        ddb.create_table(**hash_table("Tokens"))
        put = lambda v: [{"Put": {"TableName": "Tokens", "Item": {"pk": S("t"), "v": N(v)}}}]
        ddb.transact_write_items(TransactItems=put(1), ClientRequestToken="order-42")
        ddb.put_item(TableName="Tokens", Item={"pk": S("t"), "v": N(2)})  # changed since
        self.kill()
        ddb = self.start()
        # The same call again within ten minutes: answered, not applied again.
        ddb.transact_write_items(TransactItems=put(1), ClientRequestToken="order-42")
        self.assertEqual(ddb.get_item(TableName="Tokens", Key={"pk": S("t")})["Item"]["v"], N(2))
        with self.assertRaises(ddb.exceptions.IdempotentParameterMismatchException):
            ddb.transact_write_items(TransactItems=put(3), ClientRequestToken="order-42")

    def test_streams_survive_kill_9_and_checkpoints(self):
        options = ("--checkpoint-log-bytes", "20000", "--stream-shard-rollover-ms", "400")
        ddb = self.start(*options)
        streams = self.streams()
        ddb.create_table(StreamSpecification={"StreamEnabled": True,
                                              "StreamViewType": "NEW_AND_OLD_IMAGES"},
                         **hash_table("Events"))
        ddb.create_table(StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"},
                         **hash_table("Dropped"))
        ddb.put_item(TableName="Dropped", Item={"pk": S("gone")})
        ddb.delete_table(TableName="Dropped")
        for round in range(3):  # across shard rollovers, with checkpoints written meanwhile
            for i in range(20):
                ddb.put_item(TableName="Events", Item={"pk": S("k%d" % i), "round": N(round),
                                                       "pad": S("x" * 300)})
            ddb.delete_item(TableName="Events", Key={"pk": S("k%d" % round)})
            ddb.transact_write_items(TransactItems=[
                {"Put": {"TableName": "Events", "Item": {"pk": S("t%d" % round), "side": S(side)}}}
                for side in ("left",)] + [
                {"Update": {"TableName": "Events", "Key": {"pk": S("k19")},
                            "UpdateExpression": "SET tx = :r", "ExpressionAttributeValues": {":r": N(round)}}}])
            time.sleep(0.5)
        arn = ddb.describe_table(TableName="Events")["Table"]["LatestStreamArn"]
        before = self.everything_streamed(streams)
        shards = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
        self.assertGreaterEqual(len(shards), 3)
        self.assertEqual(sum(len(s["Records"]) for s in before if s["StreamArn"] == arn), 3 * 23)
        # A consumer's place at the end of the open shard, kept across the restart.
        iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shards[-1]["ShardId"],
                                              ShardIteratorType="LATEST")["ShardIterator"]
        self.kill()
        ddb = self.start(*options)
        streams = self.streams()
        self.assertEqual(ddb.describe_table(TableName="Events")["Table"]["LatestStreamArn"], arn)
        after = self.everything_streamed(streams)
        # The same streams and records; the same shards, and perhaps more (time went on).
        self.assertEqual([s["StreamArn"] for s in after], [s["StreamArn"] for s in before])
        for then, now in zip(before, after):
            self.assertEqual(now["Records"], then["Records"])
            self.assertEqual((now["StreamLabel"], now["StreamStatus"], now["KeySchema"]),
                             (then["StreamLabel"], then["StreamStatus"], then["KeySchema"]))
            ids = [shard["ShardId"] for shard in then["Shards"]]
            self.assertEqual([shard["ShardId"] for shard in now["Shards"]][:len(ids)], ids)
            self.assertEqual(now["Shards"][:len(ids) - 1], then["Shards"][:-1])
        ddb.put_item(TableName="Events", Item={"pk": S("after")})
        # Read on from there, following the shard's children as a consumer does (time went on).
        records, shard = [], shards[-1]["ShardId"]
        for _ in range(100):  # bounded: a lost record must fail, not hang
            if not iterator:
                break
            page = streams.get_records(ShardIterator=iterator)
            records += page["Records"]
            iterator = page.get("NextShardIterator")
            if not iterator:
                children = streams.describe_stream(StreamArn=arn, ShardFilter={
                    "Type": "CHILD_SHARDS", "ShardId": shard})["StreamDescription"]["Shards"]
                if children:
                    shard = children[0]["ShardId"]
                    iterator = streams.get_shard_iterator(
                        StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            elif not page["Records"] and records:
                break
        self.assertEqual([(r["eventName"], r["dynamodb"]["Keys"]) for r in records],
                         [("INSERT", {"pk": S("after")})])

    def streams(self):
        return boto3.client("dynamodbstreams", endpoint_url=self.server.endpoint,
                            config=Config(retries={"max_attempts": 1}), **CREDENTIALS)

    def everything_streamed(self, streams):
        """Every stream listed, with its description and every record of every shard."""
        seen = []
        for listed in streams.list_streams()["Streams"]:
            description = streams.describe_stream(StreamArn=listed["StreamArn"])["StreamDescription"]
            records = []
            for shard in description["Shards"]:
                iterator = streams.get_shard_iterator(
                    StreamArn=listed["StreamArn"], ShardId=shard["ShardId"],
                    ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
                while iterator:
                    page = streams.get_records(ShardIterator=iterator)
                    records += page["Records"]
                    if not page["Records"]:
                        break
                    iterator = page.get("NextShardIterator")
            seen.append(dict(description, Records=records))
        return seen

    def test_checkpoints_in_the_background_bound_the_log(self):
        ddb = self.start("--checkpoint-log-bytes", "100000")
        ddb.create_table(**hash_table("Hot"))
        for round in range(40):  # 25 items overwritten 40 times: ~1 MB of log for ~25 KB of items
            ddb.batch_write_item(RequestItems={"Hot": [
                {"PutRequest": {"Item": {"pk": S("k%d" % i), "round": N(round), "pad": S("x" * 900)}}}
                for i in range(25)]})
        def log_files():
            return sorted(f for f in os.listdir(self.directory.name) if f.endswith(".log"))
        def log_bytes():
            # What the files hold, without the room a segment is grown by ahead of its writes
            # (zeros after its last group).
            def held(name):
                with open(os.path.join(self.directory.name, name), "rb") as f:
                    return len(f.read().rstrip(b"\0"))
            return sum(held(f) for f in log_files())
        # Checkpoints come within 100 ms of the log outgrowing the setting and the data: once the
        # writes stop, the last one leaves the log near the data's size.
        deadline = time.time() + 10
        while (len(log_files()) > 2 or log_bytes() > 200000) and time.time() < deadline:
            time.sleep(0.05)
        self.assertNotIn("0000000001.log", log_files())
        self.assertEqual(len(log_files()), 2)  # the checkpoint and the segment after it
        self.assertLess(log_bytes(), 200000)  # from ~1 MB written
        ddb.put_item(TableName="Hot", Item={"pk": S("after"), "round": N(99)})
        self.kill()
        ddb = self.start()
        self.assertEqual(ddb.describe_table(TableName="Hot")["Table"]["ItemCount"], 26)
        self.assertEqual(ddb.get_item(TableName="Hot", Key={"pk": S("k7")})["Item"]["round"], N(39))
        self.assertEqual(ddb.get_item(TableName="Hot", Key={"pk": S("after")})["Item"]["round"], N(99))


if __name__ == "__main__":
    unittest.main()
