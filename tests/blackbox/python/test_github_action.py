"""The GitHub Action (issue 36), run here as a runner runs it: action.yml's main step (node
scripts/action/main.js, inputs as INPUT_* variables, the runner's RUNNER_TEMP, GITHUB_ENV,
GITHUB_PATH, GITHUB_OUTPUT and GITHUB_STATE files) with the release archive from dist/, then the
job's own step (boto3 at the exported AWS_ENDPOINT_URL_DYNAMODB), then the post step with the
saved state. Not run: the download from a published release (no release is published yet)."""
import glob
import os
import socket
import subprocess
import tempfile
import unittest

import boto3
import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DIST = os.environ.get("DDBD_DIST", os.path.join(ROOT, "dist"))


def read_pairs(path):
    with open(path) as f:
        return dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)


class GitHubAction(unittest.TestCase):
    def setUp(self):
        archives = glob.glob(os.path.join(DIST, "ddbd-*-linux-x86_64.tar.gz"))
        assert len(archives) == 1, "run scripts/release first (dist/ holds %s)" % archives
        self.archive = archives[0]
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)
        self.runner = {name: os.path.join(self.directory.name, name.lower())
                       for name in ("GITHUB_ENV", "GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STATE")}
        for path in self.runner.values():
            open(path, "w").close()
        os.mkdir(os.path.join(self.directory.name, "temp"))
        self.runner["RUNNER_TEMP"] = os.path.join(self.directory.name, "temp")
        with open(os.path.join(ROOT, "action.yml")) as f:
            self.action = yaml.safe_load(f)

    def step(self, script, inputs=None, state=None):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("INPUT_", "STATE_"))}
        env.update(self.runner)
        # The runner passes every declared input, its default when the workflow gives none.
        for name, spec in self.action["inputs"].items():
            env["INPUT_" + name.upper()] = (inputs or {}).get(name, spec.get("default", ""))
        for name, value in (state or {}).items():
            env["STATE_" + name] = value
        return subprocess.run(["node", os.path.join(ROOT, script)], env=env,
                              capture_output=True, text=True, timeout=60)

    def test_action_yml_runs_the_scripts_with_a_post_step(self):
        self.assertEqual(self.action["runs"]["using"], "node20")
        self.assertEqual(self.action["runs"]["main"], "scripts/action/main.js")
        self.assertEqual(self.action["runs"]["post"], "scripts/action/post.js")
        self.assertEqual(set(self.action["inputs"]),
                         {"version", "archive", "port", "db-path", "seed", "args"})
        with open(os.path.join(ROOT, "scripts", "action", "main.js")) as f:
            main = f.read()
        for name in self.action["inputs"]:  # every input is read
            self.assertIn("input('%s')" % name, main)

    def test_it_installs_starts_exports_the_endpoint_and_stops_in_the_post_step(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        fixtures = os.path.join(self.directory.name, "fixtures")
        os.mkdir(fixtures)
        with open(os.path.join(fixtures, "Music.table.json"), "w") as f:
            f.write('{"TableName": "Music", "BillingMode": "PAY_PER_REQUEST", '
                    '"AttributeDefinitions": [{"AttributeName": "Artist", "AttributeType": "S"}], '
                    '"KeySchema": [{"AttributeName": "Artist", "KeyType": "HASH"}]}')
        main = self.step("scripts/action/main.js", {
            "archive": self.archive, "port": str(port), "seed": fixtures,
            "db-path": os.path.join(self.directory.name, "data"),
            "args": "--region 'eu-west-1' --log-level warn"})
        self.assertEqual(main.returncode, 0, main.stdout + main.stderr)
        endpoint = "http://127.0.0.1:%d" % port
        self.assertEqual(read_pairs(self.runner["GITHUB_ENV"]),
                         {"AWS_ENDPOINT_URL_DYNAMODB": endpoint})
        self.assertEqual(read_pairs(self.runner["GITHUB_OUTPUT"]),
                         {"endpoint": endpoint, "port": str(port)})
        with open(self.runner["GITHUB_PATH"]) as f:
            path = f.read().strip()
        self.assertTrue(os.access(os.path.join(path, "ddbd"), os.X_OK))
        state = read_pairs(self.runner["GITHUB_STATE"])
        pid = int(state["pid"])
        # The job's own step: the SDK finds ddbd through the exported variable.
        ddb = boto3.client("dynamodb", region_name="us-east-1", aws_access_key_id="local",
                           aws_secret_access_key="local", endpoint_url=endpoint)
        self.assertEqual(ddb.list_tables()["TableNames"], ["Music"])
        arn = ddb.describe_table(TableName="Music")["Table"]["TableArn"]
        self.assertTrue(arn.startswith("arn:aws:dynamodb:eu-west-1:"), arn)
        self.assertTrue(os.path.isdir(os.path.join(self.directory.name, "data")))
        post = self.step("scripts/action/post.js", state=state)
        self.assertEqual(post.returncode, 0, post.stdout + post.stderr)
        self.assertIn("ddbd stopped", post.stdout)
        self.assertFalse(os.path.exists("/proc/%d" % pid) and
                         not open("/proc/%d/stat" % pid).read().split(") ")[1].startswith("Z"))

    def test_a_server_that_cannot_start_fails_the_step_with_its_log(self):
        main = self.step("scripts/action/main.js", {"archive": self.archive,
                                                    "args": "--no-such-flag"})
        self.assertNotEqual(main.returncode, 0)
        self.assertIn("unknown flag '--no-such-flag'", main.stdout + main.stderr)
        self.assertIn("::error::", main.stdout)


if __name__ == "__main__":
    unittest.main()
