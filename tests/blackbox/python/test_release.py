"""The release (issue 35): scripts/release's x86-64 archive and .deb in dist/ (scripts/test builds
them before the suites run). The archive holds one fully static binary, its licence and man page,
matches SHA256SUMS and stays under 8 MB; the binary needs no loader, no shared library and no
glibc symbol version, and it serves from an empty chroot holding nothing but the archive's files
(and the test's TLS certificate): CreateTable, PutItem, GetItem over HTTP and HTTPS, `ddbd
health`, and `ddbd dump` to an endpoint named "localhost" with no /etc/hosts. The .deb carries the
same binary and depends on nothing."""
import glob
import hashlib
import os
import re
import shutil
import socket
import subprocess
import tarfile
import tempfile
import time
import unittest

import boto3
from botocore.config import Config

from ddbd_harness import CREDENTIALS

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DIST = os.environ.get("DDBD_DIST", os.path.join(ROOT, "dist"))


def run(*args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs).stdout


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class Release(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        archives = glob.glob(os.path.join(DIST, "ddbd-*-linux-x86_64.tar.gz"))
        assert len(archives) == 1, "run scripts/release first (dist/ holds %s)" % archives
        cls.archive = archives[0]
        cls.version = re.search(r"ddbd-(\d+\.\d+\.\d+)-linux", cls.archive).group(1)
        cls.directory = tempfile.TemporaryDirectory()
        cls.root = os.path.join(cls.directory.name, "root")
        os.mkdir(cls.root)
        with tarfile.open(cls.archive) as archive:
            cls.members = sorted(archive.getnames())
            archive.extractall(cls.root)
        cls.top = "ddbd-%s-linux-x86_64" % cls.version
        cls.binary = os.path.join(cls.root, cls.top, "ddbd")

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def in_root(self, *args):
        enter = ["chroot"] if os.geteuid() == 0 else ["unshare", "--user", "--map-root-user",
                                                      "chroot"]
        return [*enter, self.root, "/%s/ddbd" % self.top, *args]

    def test_the_archive_holds_the_binary_its_licence_and_man_page_and_matches_its_sum(self):
        self.assertEqual(self.members, [self.top] + ["%s/%s" % (self.top, name) for name in
                                                     ("LICENSE", "ddbd", "ddbd.1.gz")])
        size = os.path.getsize(self.archive)
        print("\n%s: %.2f MB" % (os.path.basename(self.archive), size / 1e6))
        self.assertLess(size, 8 * 1000 * 1000)
        with open(os.path.join(DIST, "SHA256SUMS")) as f:
            sums = dict(reversed(line.split()) for line in f if line.strip())
        self.assertEqual(sums[os.path.basename(self.archive)], sha256(self.archive))
        man = run("zcat", os.path.join(self.root, self.top, "ddbd.1.gz")).replace("\\-", "-")
        self.assertIn("--seed", man)

    def test_the_binary_is_static_and_needs_no_glibc_version(self):
        headers = run("readelf", "--program-headers", "--dynamic", self.binary)
        self.assertNotIn("INTERP", headers)  # no dynamic loader
        self.assertNotIn("NEEDED", headers)  # no shared library
        versions = run("readelf", "--version-info", self.binary)
        needed = sorted(set(re.findall(r"GLIBC_[0-9.]+", versions)))
        print("\nGLIBC_ versions the binary needs: %s" % (needed or "none"))
        self.assertEqual(needed, [])
        # Nothing is left to strip (debug information stays in the build tree).
        self.assertNotIn(".debug_info", run("readelf", "--section-headers", self.binary))

    def test_it_serves_http_and_https_from_an_empty_chroot(self):
        # The only files besides the archive's: the certificate HTTPS is served with.
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                        "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                        os.path.join(self.root, "key.pem"), "-out",
                        os.path.join(self.root, "cert.pem"), "-days", "2", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
        self.addCleanup(lambda: [os.remove(os.path.join(self.root, name))
                                 for name in ("key.pem", "cert.pem")])
        names = sorted(os.path.relpath(os.path.join(d, f), self.root)
                       for d, _, files in os.walk(self.root) for f in files)
        self.assertEqual(names, sorted(["cert.pem", "key.pem"] + ["%s/%s" % (self.top, n) for n in
                                                                  ("LICENSE", "ddbd", "ddbd.1.gz")]))
        port, tls_port = free_port(), free_port()
        server = subprocess.Popen(self.in_root("--port", str(port), "--tls-port", str(tls_port),
                                               "--tls-cert", "/cert.pem", "--tls-key", "/key.pem",
                                               "--log-level", "warn"))
        try:
            deadline = time.monotonic() + 10
            while subprocess.run(self.in_root("health", "--port", str(port)),
                                 capture_output=True).returncode != 0:
                self.assertIsNone(server.poll(), "ddbd exited")
                self.assertLess(time.monotonic(), deadline, "never healthy")
                time.sleep(0.02)
            endpoints = [("http://127.0.0.1:%d" % port, True),
                         ("https://127.0.0.1:%d" % tls_port, os.path.join(self.root, "cert.pem"))]
            for endpoint, verify in endpoints:
                ddb = boto3.client("dynamodb", endpoint_url=endpoint, verify=verify,
                                   config=Config(retries={"max_attempts": 1}), **CREDENTIALS)
                table = "static" + endpoint.split(":")[0]
                ddb.create_table(TableName=table, BillingMode="PAY_PER_REQUEST",
                                 KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                                 AttributeDefinitions=[{"AttributeName": "pk",
                                                        "AttributeType": "S"}])
                # 100 KB: more than one TLS record each way.
                ddb.put_item(TableName=table, Item={"pk": {"S": "a"}, "v": {"S": "x" * 100_000}})
                item = ddb.get_item(TableName=table, Key={"pk": {"S": "a"}})["Item"]
                self.assertEqual(len(item["v"]["S"]), 100_000, endpoint)
            # "localhost" with no /etc/hosts in the root: looked up without NSS modules.
            self.assertFalse(os.path.exists(os.path.join(self.root, "etc")))
            dumped = subprocess.run(self.in_root("dump", "--endpoint", "http://localhost:%d" % port,
                                                 "--out", "/dumped"), capture_output=True, text=True)
            self.addCleanup(shutil.rmtree, os.path.join(self.root, "dumped"), True)
            self.assertEqual(dumped.returncode, 0, dumped.stderr)
            self.assertTrue(os.path.exists(os.path.join(self.root, "dumped",
                                                        "statichttp.items.jsonl")))
        finally:
            server.terminate()
            server.wait(timeout=15)

    def test_the_package_carries_the_same_binary_and_depends_on_nothing(self):
        deb = os.path.join(DIST, "ddbd_%s_amd64.deb" % self.version)
        with open(os.path.join(DIST, "SHA256SUMS")) as f:
            self.assertIn("%s  ddbd_%s_amd64.deb" % (sha256(deb), self.version), f.read())
        self.assertEqual(run("dpkg-deb", "-f", deb, "Depends").strip(), "")
        self.assertEqual(run("dpkg-deb", "-f", deb, "Architecture").strip(), "amd64")
        unpacked = os.path.join(self.directory.name, "deb")
        run("dpkg-deb", "-x", deb, unpacked)
        files = sorted(os.path.relpath(os.path.join(d, f), unpacked)
                       for d, _, names in os.walk(unpacked) for f in names)
        self.assertEqual(files, ["etc/default/ddbd", "lib/systemd/system/ddbd.service",
                                 "usr/bin/ddbd", "usr/share/doc/ddbd/copyright",
                                 "usr/share/man/man1/ddbd.1.gz"])
        # The unit runs the binary with the options file, as its own user, and is not enabled
        # (the package has no maintainer scripts to enable it).
        with open(os.path.join(unpacked, "lib/systemd/system/ddbd.service")) as f:
            unit = f.read()
        self.assertIn("ExecStart=/usr/bin/ddbd $DDBD_ARGS", unit)
        self.assertIn("EnvironmentFile=-/etc/default/ddbd", unit)
        self.assertIn("DynamicUser=yes", unit)
        with open(os.path.join(unpacked, "etc/default/ddbd")) as f:
            self.assertIn("DDBD_DB_PATH=/var/lib/ddbd", f.read())
        control = os.path.join(self.directory.name, "control")
        run("dpkg-deb", "-e", deb, control)
        self.assertEqual(sorted(os.listdir(control)), ["conffiles", "control"])
        self.assertEqual(sha256(os.path.join(unpacked, "usr/bin/ddbd")), sha256(self.binary))

    def test_it_names_its_version_and_commit(self):
        version = run(self.binary, "--version").strip()
        match = re.fullmatch(r"ddbd (\d+\.\d+\.\d+) \(git ([0-9a-f]{12})\)", version)
        self.assertIsNotNone(match, version)
        self.assertEqual(match.group(1), self.version)
        head = run("git", "rev-parse", "--short=12", "HEAD", cwd=ROOT).strip()
        self.assertEqual(match.group(2), head, "dist/ is older than HEAD: run scripts/release")


if __name__ == "__main__":
    unittest.main()
