"""docs/ci.md's runnable snippets (issue 24): the shell script and the compose file it quotes
(checked to be quoted exactly) run here: two test processes each start their own seeded ddbd
with docs/examples/start-ddbd.sh, and the compose service's command and health check run against
the binary as the image runs them."""
import os
import shutil
import subprocess
import tempfile
import time
import unittest

import boto3
import yaml

from ddbd_harness import CREDENTIALS
from test_seed import seed_directory

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
EXAMPLES = os.path.join(ROOT, "docs", "examples")


def read(path):
    with open(path) as f:
        return f.read()


class CiExamples(unittest.TestCase):
    def setUp(self):
        if os.environ.get("DDBD_ENDPOINT"):
            self.skipTest("starts its own ddbd")
        self.directory = tempfile.TemporaryDirectory()
        self.fixtures = os.path.join(self.directory.name, "fixtures")
        seed_directory(self.fixtures)

    def tearDown(self):
        self.directory.cleanup()

    def test_the_page_quotes_the_files_the_tests_run(self):
        page = read(os.path.join(ROOT, "docs", "ci.md"))
        self.assertIn("```sh\n" + read(os.path.join(EXAMPLES, "start-ddbd.sh")) + "```", page)
        self.assertIn("```yaml\n" + read(os.path.join(EXAMPLES, "compose.yaml")) + "```", page)

    def test_parallel_processes_each_get_their_own_seeded_ddbd(self):
        started = []
        try:
            for name in ("one", "two"):
                state = os.path.join(self.directory.name, name)
                os.makedirs(state)
                env = dict(os.environ, DDBD=os.environ["DDBD_BIN"], SEED=self.fixtures,
                           DDBD_DIR=state)
                process = subprocess.Popen([os.path.join(EXAMPLES, "start-ddbd.sh")], env=env,
                                           stdout=subprocess.PIPE, text=True)
                started.append((process, state))
            endpoints = []
            for process, state in started:
                endpoint = process.stdout.readline().strip()
                process.stdout.close()
                self.assertEqual(process.wait(timeout=60), 0)
                self.assertRegex(endpoint, r"^http://127\.0\.0\.1:\d+$")
                endpoints.append(endpoint)
            self.assertNotEqual(endpoints[0], endpoints[1])
            for endpoint in endpoints:
                ddb = boto3.client("dynamodb", endpoint_url=endpoint, **CREDENTIALS)
                self.assertEqual(ddb.describe_table(TableName="Users")["Table"]["ItemCount"], 50)
            # Each has a database of its own.
            first = boto3.client("dynamodb", endpoint_url=endpoints[0], **CREDENTIALS)
            first.delete_table(TableName="Users")
            second = boto3.client("dynamodb", endpoint_url=endpoints[1], **CREDENTIALS)
            self.assertIn("Users", second.list_tables()["TableNames"])
        finally:
            for _, state in started:
                pid_file = os.path.join(state, "pid")
                if os.path.exists(pid_file):
                    subprocess.run(["kill", read(pid_file).strip()])

    def test_a_bad_fixture_fails_the_start_script(self):
        with open(os.path.join(self.fixtures, "Orders.items.jsonl"), "a") as f:
            f.write("{broken\n")
        env = dict(os.environ, DDBD=os.environ["DDBD_BIN"], SEED=self.fixtures,
                   DDBD_DIR=self.directory.name)
        result = subprocess.run([os.path.join(EXAMPLES, "start-ddbd.sh")], env=env,
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 1)
        self.assertIn("Orders.items.jsonl:201: not JSON", result.stderr)

    def test_the_compose_service_runs_as_the_image_runs_it(self):
        service = yaml.safe_load(read(os.path.join(EXAMPLES, "compose.yaml")))["services"]["dynamodb"]
        # The image's environment (docker/Dockerfile) and the volume's mount point.
        port = "18%03d" % (os.getpid() % 1000)
        env = dict(os.environ, DDBD_HOST="0.0.0.0", DDBD_PORT=port)
        mounted = {volume.split(":")[1]: volume.split(":")[0] for volume in service["volumes"]}
        self.assertEqual(mounted, {"/fixtures": "./fixtures"})
        command = [self.fixtures if arg == "/fixtures" else arg for arg in service["command"]]
        health = service["healthcheck"]["test"]
        self.assertEqual(health[:2], ["CMD", "/usr/bin/ddbd"])
        check = [os.environ["DDBD_BIN"], *health[2:]]
        server = subprocess.Popen([os.environ["DDBD_BIN"], *command, "--log-level", "warn"], env=env)
        try:
            deadline = time.monotonic() + 30
            while subprocess.run(check, env=env, capture_output=True).returncode != 0:
                self.assertIsNone(server.poll(), "ddbd exited")
                self.assertLess(time.monotonic(), deadline)
                time.sleep(0.05)
            ddb = boto3.client("dynamodb", endpoint_url="http://127.0.0.1:" + port, **CREDENTIALS)
            self.assertEqual(sorted(ddb.list_tables()["TableNames"]), ["Orders", "Users"])
        finally:
            server.terminate()
            server.wait(timeout=15)


if __name__ == "__main__":
    unittest.main()
