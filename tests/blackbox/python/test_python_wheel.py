"""The Python wheel (issue 36), from dist/python/ (scripts/packaging/python/build): installed with
pip from the file alone (--no-index) into a virtual environment of Debian's Python, its `ddbd`
command serves, and a pytest run in a fresh folder uses the plugin's fixtures (the shared
`ddbd_endpoint` with flags from the ini file, and `ddbd_factory`) with boto3."""
import glob
import os
import re
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DIST = os.environ.get("DDBD_DIST", os.path.join(ROOT, "dist"))
PYTHON = "/usr/bin/python3"  # Debian's, with python3-pytest and python3-boto3

TESTS = '''
import boto3
import pytest


def client(endpoint):
    return boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                        aws_access_key_id="local", aws_secret_access_key="local")


def test_the_shared_server_has_the_seed(ddbd_endpoint):
    ddb = client(ddbd_endpoint)
    assert ddb.list_tables()["TableNames"] == ["Music"]
    ddb.put_item(TableName="Music", Item={"Artist": {"S": "Ella"}})
    assert ddb.get_item(TableName="Music", Key={"Artist": {"S": "Ella"}})["Item"] == {
        "Artist": {"S": "Ella"}}


def test_the_shared_server_is_shared(ddbd_server, ddbd_endpoint):
    assert ddbd_server.endpoint == ddbd_endpoint
    names = [item["Artist"]["S"] for item in client(ddbd_endpoint).scan(TableName="Music")["Items"]]
    assert sorted(names) == ["Ella", "Nina"]


def test_a_server_of_its_own(ddbd_factory, ddbd_endpoint):
    own = ddbd_factory(args=["--region", "eu-west-1"])
    assert own.endpoint != ddbd_endpoint
    assert client(own.endpoint).list_tables()["TableNames"] == []
    pytest.own_pid = own.process.pid


def test_the_factory_stopped_it():
    import os
    assert not os.path.exists("/proc/%d" % pytest.own_pid) or \\
        open("/proc/%d/stat" % pytest.own_pid).read().split(") ")[1].startswith("Z")
'''


def healthy(port):
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d/_ddbd/health" % port, timeout=1) as answer:
            return answer.status == 200
    except OSError:
        return False


class Wheel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        wheels = glob.glob(os.path.join(DIST, "python", "ddbd-*-py3-none-*x86_64*.whl"))
        assert len(wheels) == 1, "run scripts/release, then scripts/packaging/python/build (%s)" % wheels
        cls.wheel = wheels[0]
        cls.directory = tempfile.TemporaryDirectory()
        cls.venv = os.path.join(cls.directory.name, "venv")
        started = time.monotonic()
        subprocess.run([PYTHON, "-m", "venv", "--system-site-packages", cls.venv], check=True)
        subprocess.run([os.path.join(cls.venv, "bin", "pip"), "install", "--quiet", "--no-index",
                        cls.wheel], check=True)
        cls.installed = time.monotonic() - started

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def test_its_ddbd_command_serves_seconds_after_the_install(self):
        ddbd = os.path.join(self.venv, "bin", "ddbd")
        version = subprocess.run([ddbd, "--version"], capture_output=True, text=True, check=True)
        self.assertRegex(version.stdout, r"^ddbd \d+\.\d+\.\d+ \(git ")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        launched = time.monotonic()
        server = subprocess.Popen([ddbd, "--port", str(port), "--log-level", "warn"])
        try:
            while not healthy(port):
                self.assertIsNone(server.poll())
                self.assertLess(time.monotonic() - launched, 30)
                time.sleep(0.005)
            serving = time.monotonic() - launched
            print("\nvenv and pip install from the wheel: %.2f s; then serving in %.3f s: %.2f s "
                  "from the wheel file to serving" % (self.installed, serving, self.installed + serving))
        finally:
            server.terminate()
            server.wait(timeout=15)

    def test_a_pytest_run_uses_the_plugins_fixtures(self):
        project = os.path.join(self.directory.name, "project")
        os.makedirs(os.path.join(project, "fixtures"))
        with open(os.path.join(project, "fixtures", "Music.table.json"), "w") as f:
            f.write('{"TableName": "Music", "BillingMode": "PAY_PER_REQUEST", '
                    '"AttributeDefinitions": [{"AttributeName": "Artist", "AttributeType": "S"}], '
                    '"KeySchema": [{"AttributeName": "Artist", "KeyType": "HASH"}]}')
        with open(os.path.join(project, "fixtures", "Music.items.jsonl"), "w") as f:
            f.write('{"Artist": {"S": "Nina"}}\n')
        with open(os.path.join(project, "pytest.ini"), "w") as f:
            f.write("[pytest]\nddbd_args = --seed fixtures\n")
        with open(os.path.join(project, "test_with_ddbd.py"), "w") as f:
            f.write(TESTS)
        run = subprocess.run([os.path.join(self.venv, "bin", "python"), "-m", "pytest", "-q",
                              "-p", "no:cacheprovider"], cwd=project, capture_output=True,
                             text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertRegex(run.stdout, r"4 passed")
        # Every server the run started has stopped with it.
        left = subprocess.run(["pgrep", "-f", re.escape(os.path.join(self.venv, "lib"))],
                              capture_output=True, text=True)
        self.assertEqual(left.stdout, "")


if __name__ == "__main__":
    unittest.main()
