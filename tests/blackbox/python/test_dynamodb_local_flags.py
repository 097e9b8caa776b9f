"""Swapping DynamoDB Local for ddbd (issue 37): DynamoDB Local's documented command line runs
unchanged (`-Djava.library.path=... -jar DynamoDBLocal.jar`, set aside with one log line), its
flags keep their meanings (without -inMemory data persists in -dbPath or the working directory;
-inMemory with -dbPath and -optimizeDbBeforeStartup without -dbPath are refused in its words),
its configuration banner is printed, GET and HEAD / answer as DynamoDB Local does, and
/_ddbd/health (`ddbd health`) works in that mode too. The texts are DynamoDB Local 3.3.1's, read
off the real one."""
import http.client
import os
import socket
import subprocess
import tempfile
import time
import unittest

import boto3

from ddbd_harness import CREDENTIALS

JAVA = ["-Djava.library.path=./DynamoDBLocal_lib", "-jar", "DynamoDBLocal.jar"]
ROOT_BODY = (b'{"__type":"com.amazonaws.dynamodb.v20120810#MissingAuthenticationToken",'
             b'"Message":"Request must contain either a valid (registered) AWS access key ID or '
             b'X.509 certificate."}')


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DynamoDbLocalCommandLines(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)
        self.cwd = os.path.join(self.directory.name, "work")
        os.mkdir(self.cwd)

    def start(self, *flags):
        """ddbd with `flags` in self.cwd; (process, port) once it answers."""
        port = free_port()
        log = open(os.path.join(self.directory.name, "out-%d" % port), "w+")
        process = subprocess.Popen([os.environ["DDBD_BIN"], *flags, "-port", str(port)],
                                   cwd=self.cwd, stdout=log, stderr=subprocess.STDOUT)
        self.addCleanup(log.close)
        deadline = time.monotonic() + 10
        while subprocess.run([os.environ["DDBD_BIN"], "health", "--port", str(port)],
                             capture_output=True).returncode != 0:
            self.assertIsNone(process.poll(), "ddbd exited")
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.02)
        process.log = log
        return process, port

    def stop(self, process):
        process.terminate()
        process.wait(timeout=15)
        process.log.seek(0)
        return process.log.read()

    def test_the_documented_command_line_persists_in_the_working_directory(self):
        process, port = self.start(*JAVA, "-sharedDb")
        ddb = boto3.client("dynamodb", endpoint_url="http://127.0.0.1:%d" % port, **CREDENTIALS)
        ddb.create_table(TableName="Music", BillingMode="PAY_PER_REQUEST",
                         KeySchema=[{"AttributeName": "Artist", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "Artist", "AttributeType": "S"}])
        ddb.put_item(TableName="Music", Item={"Artist": {"S": "Nina"}})
        output = self.stop(process)
        # DynamoDB Local's banner, one line for Java's arguments, and where the data is.
        self.assertIn("Initializing DynamoDB Local with the following configuration:\nPort:\t%d\n"
                      "InMemory:\tfalse\nVersion:\t" % port, output)
        self.assertIn("\nDbPath:\tnull\nSharedDb:\ttrue\nshouldDelayTransientStatuses:\tfalse\n"
                      "CorsParams:\tnull\n\n", output)
        self.assertIn("ignoring Java's arguments of a DynamoDB Local command line: "
                      "-Djava.library.path=./DynamoDBLocal_lib -jar DynamoDBLocal.jar", output)
        self.assertIn("(data in %s, " % os.path.realpath(self.cwd), output)
        self.assertTrue(os.listdir(self.cwd), "nothing was written to the working directory")
        # Started again the same way: the item is there.
        process, port = self.start(*JAVA, "-sharedDb")
        ddb = boto3.client("dynamodb", endpoint_url="http://127.0.0.1:%d" % port, **CREDENTIALS)
        self.assertEqual(ddb.get_item(TableName="Music", Key={"Artist": {"S": "Nina"}})["Item"],
                         {"Artist": {"S": "Nina"}})
        self.stop(process)

    def test_in_memory_writes_nothing_and_db_path_is_where_data_goes(self):
        process, _ = self.start("-inMemory", "-sharedDb")
        output = self.stop(process)
        self.assertIn("InMemory:\ttrue\n", output)
        self.assertIn("(data in memory", output)
        self.assertEqual(os.listdir(self.cwd), [])
        data = os.path.join(self.directory.name, "data")
        process, _ = self.start("-dbPath", data, "-cors", "*", "-delayTransientStatuses")
        output = self.stop(process)
        self.assertIn("DbPath:\t%s\nSharedDb:\tfalse\nshouldDelayTransientStatuses:\ttrue\n"
                      "CorsParams:\t*\n" % data, output)
        self.assertTrue(os.listdir(data))
        self.assertEqual(os.listdir(self.cwd), [])

    def test_get_and_head_of_the_root_answer_as_dynamodb_local_does(self):
        process, port = self.start("-inMemory")
        try:
            for method in ("GET", "HEAD"):
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                connection.request(method, "/")
                answer = connection.getresponse()
                body = answer.read()
                self.assertEqual(answer.status, 400, method)
                self.assertEqual(answer.getheader("Content-Type"), "application/x-amz-json-1.0")
                self.assertEqual(int(answer.getheader("Content-Length")), len(ROOT_BODY))
                self.assertTrue(answer.getheader("x-amzn-RequestId"))
                self.assertEqual(body, ROOT_BODY if method == "GET" else b"")
                connection.close()
        finally:
            self.stop(process)
        # Started with ddbd's own flags, the root answers as DynamoDB does.
        port = free_port()
        own = subprocess.Popen([os.environ["DDBD_BIN"], "--port", str(port), "--log-level", "warn"])
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                    connection.request("GET", "/")
                    answer = connection.getresponse()
                    break
                except OSError:
                    self.assertLess(time.monotonic(), deadline)
                    time.sleep(0.02)
            self.assertEqual(answer.status, 200)
            self.assertTrue(answer.read().startswith(b"healthy: "))
        finally:
            own.terminate()
            own.wait(timeout=15)

    def test_refusals_are_dynamodb_locals(self):
        for flags, message in (
                (["-inMemory", "-dbPath", self.directory.name],
                 "dbPath and inMemory cannot be set at the same time."),
                (["-optimizeDbBeforeStartup", "-sharedDb"],
                 "optimizeDbBeforeStartup option must be used with dbPath to determine the "
                 "location of database files to optimize.")):
            run = subprocess.run([os.environ["DDBD_BIN"], *JAVA, *flags], cwd=self.cwd,
                                 capture_output=True, text=True, timeout=10)
            self.assertEqual(run.returncode, 2)
            self.assertEqual(run.stderr, "ddbd: %s\n" % message)
        help_text = subprocess.run([os.environ["DDBD_BIN"], *JAVA, "-help"], capture_output=True,
                                   text=True, timeout=10)
        self.assertEqual(help_text.returncode, 0)
        self.assertIn("--db-path", help_text.stdout)


if __name__ == "__main__":
    unittest.main()
