"""Starts the real ddbd binary on a free port for black-box tests, or uses DDBD_ENDPOINT.

DDBD_BIN names the binary (ctest sets it). DDBD_ENDPOINT=http://host:port points the suite at
another implementation instead (tests that need their own server flags are then skipped).
"""
import os
import subprocess
import tempfile
import time
import unittest

import boto3
from botocore.config import Config

CREDENTIALS = dict(aws_access_key_id="AKIDTEST", aws_secret_access_key="secret",
                   region_name="us-east-1")


class DdbdServer:
    def __init__(self, *args, stack_kb=None):
        """stack_kb: run under `ulimit -s`, which also sizes every thread's stack."""
        self.args = list(args)
        self.stack_kb = stack_kb
        self.process = None
        self.endpoint = None
        self.port = None

    def start(self):
        binary = os.environ.get("DDBD_BIN")
        if not binary:
            raise RuntimeError("set DDBD_BIN to the ddbd binary (ctest does)")
        self.directory = tempfile.TemporaryDirectory()
        port_file = os.path.join(self.directory.name, "port")
        self.log = open(os.path.join(self.directory.name, "log"), "w+")
        self.process = subprocess.Popen(
            [binary, "--port", "0", "--port-file", port_file, "--log-level", "warn", *self.args],
            stdout=self.log, stderr=subprocess.STDOUT, preexec_fn=self._limit_stack)
        # Generous: an ASan build recovering 100k items (test_exports) took over 10 s on a slow VM.
        deadline = time.monotonic() + 60
        while not os.path.exists(port_file):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("ddbd did not start: " + self.output())
            time.sleep(0.005)
        with open(port_file) as f:
            self.port = int(f.read())
        self.endpoint = "http://127.0.0.1:%d" % self.port
        return self

    def _limit_stack(self):
        if self.stack_kb:
            import resource
            # AddressSanitizer's redzones around each local make a frame up to three times its
            # size (clang's at -O1 with the fuzzer's hooks: a 64-deep PartiQL condition needs
            # 384 KB where the release binary needs under 256): a sanitized binary gets twice
            # the stack, still far below the depth an unbounded recursion would reach.
            size = self.stack_kb * 1024 * (2 if os.environ.get("DDBD_SANITIZED") else 1)
            resource.setrlimit(resource.RLIMIT_STACK, (size, size))

    def output(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=15)
        if self.process:
            self.log.close()
            self.directory.cleanup()


def across_restart(write, read):
    """Runs write(client) on a ddbd with a fresh --db-path directory, stops it, then
    read(client) on a new ddbd over the same directory. Skips against DDBD_ENDPOINT."""
    if os.environ.get("DDBD_ENDPOINT"):
        raise unittest.SkipTest("starts its own ddbd")
    with tempfile.TemporaryDirectory() as directory:
        server = DdbdServer("--db-path", directory).start()
        try:
            written = write(client(server.endpoint))
        finally:
            server.stop()
        server = DdbdServer("--db-path", directory).start()
        try:
            read(client(server.endpoint), written)
        finally:
            server.stop()


def client(endpoint, validate=True):
    """A boto3 client; validate=False lets through what botocore would refuse to send."""
    config = Config(parameter_validation=validate, retries={"max_attempts": 1})
    return boto3.client("dynamodb", endpoint_url=endpoint, config=config, **CREDENTIALS)



def region_client(endpoint, region, access_key="global", service="dynamodb"):
    """A client of one region (--namespaces region keeps a database for each), no retries."""
    return boto3.client(service, endpoint_url=endpoint, region_name=region,
                        config=Config(retries={"max_attempts": 1}),
                        aws_access_key_id=access_key, aws_secret_access_key="secret")


def eventually(check, seconds=10):
    """Runs `check` until it stops raising AssertionError, for at most `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return check()
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)

class ServerTestCase(unittest.TestCase):
    """One ddbd for the whole class; self.ddb validates like a normal client, self.raw does not."""
    server_args = ()
    stack_kb = None

    @classmethod
    def setUpClass(cls):
        external = os.environ.get("DDBD_ENDPOINT")
        if external and (cls.server_args or cls.stack_kb):
            raise unittest.SkipTest("needs its own ddbd flags: %s" % (cls.server_args,))
        cls.server = None if external else DdbdServer(*cls.server_args,
                                                      stack_kb=cls.stack_kb).start()
        cls.endpoint = external or cls.server.endpoint
        cls.ddb = client(cls.endpoint)
        cls.raw = client(cls.endpoint, validate=False)

    @classmethod
    def tearDownClass(cls):
        if cls.server:
            cls.server.stop()

    def assertError(self, call, code, message, **kwargs):
        """Runs call(**kwargs) and checks DynamoDB's error code and exact message."""
        with self.assertRaises(Exception) as caught:
            call(**kwargs)
        error = getattr(caught.exception, "response", {}).get("Error", {})
        self.assertEqual((error.get("Code"), error.get("Message")), (code, message))


_names = iter(range(1, 1 << 30))


def unique_name(prefix="table"):
    return "%s-%d-%d" % (prefix, os.getpid(), next(_names))


def composite_table(name, sort_type="S"):
    """An on-demand table keyed by pk (S) and sk (`sort_type`)."""
    return dict(TableName=name, BillingMode="PAY_PER_REQUEST",
                AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                      {"AttributeName": "sk", "AttributeType": sort_type}],
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                           {"AttributeName": "sk", "KeyType": "RANGE"}])


def hash_table(name, billing="PAY_PER_REQUEST", **extra):
    args = dict(TableName=name,
                AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    if billing == "PAY_PER_REQUEST":
        args["BillingMode"] = billing
    else:
        args["ProvisionedThroughput"] = {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}
    args.update(extra)
    return args
