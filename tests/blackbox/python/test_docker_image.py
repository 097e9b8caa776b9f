"""The Docker image's runtime stage (issues 23 and 35), measured without a Docker engine: the file
set docker/runtime-root assembles from the release archive's static binary (what the
Dockerfile's last stage holds: the binary, CA certificates, a user) is under 15 MB, and ddbd runs
from it alone, chrooted into it, as the non-root user: it serves, answers a DynamoDB request, and
`ddbd health` (the image's HEALTHCHECK) says so, and says when it does not."""
import glob
import os
import tarfile
import shutil
import socket
import subprocess
import tempfile
import time
import unittest

import boto3

from ddbd_harness import CREDENTIALS

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def size_of(directory):
    return sum(os.lstat(os.path.join(d, f)).st_size for d, _, files in os.walk(directory)
               for f in files)


class RuntimeImage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("builds from DDBD_BIN")
        cls.directory = tempfile.TemporaryDirectory()
        cls.root = os.path.join(cls.directory.name, "root")
        # The image takes the release archive's binary, as the Dockerfile does.
        dist = os.environ.get("DDBD_DIST", os.path.join(ROOT, "dist"))
        archives = glob.glob(os.path.join(dist, "ddbd-*-linux-x86_64.tar.gz"))
        assert len(archives) == 1, "run scripts/release first (dist/ holds %s)" % archives
        with tarfile.open(archives[0]) as archive:
            archive.extractall(cls.directory.name)
        binary = glob.glob(os.path.join(cls.directory.name, "ddbd-*", "ddbd"))[0]
        subprocess.run([os.path.join(ROOT, "docker", "runtime-root"), binary, cls.root],
                       check=True)
        # chroot needs root; elsewhere a user namespace maps the caller to root inside it.
        cls.enter = ["chroot"] if os.geteuid() == 0 else ["unshare", "--user", "--map-root-user",
                                                          "chroot"]

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def run_in_image(self, *args, **kwargs):
        user = ["--userspec=10001:10001"] if os.geteuid() == 0 else []
        return [*self.enter, *user, self.root, "/usr/bin/ddbd", *args]

    def test_the_file_set_is_small_and_holds_only_the_binary_and_its_libraries(self):
        size = size_of(self.root)
        print("\nruntime file set: %.1f MB" % (size / 1e6))
        self.assertLess(size, 15 * 1000 * 1000)
        names = sorted(os.path.relpath(os.path.join(d, f), self.root)
                       for d, _, files in os.walk(self.root) for f in files)
        # No shell, no shared library: a static binary, its CA certificates and its user.
        self.assertEqual(names, ["etc/group", "etc/passwd", "etc/ssl/certs/ca-certificates.crt",
                                 "usr/bin/ddbd"])

    def test_ddbd_serves_from_it_alone_and_health_reports_it(self):
        with open(os.path.join(ROOT, "docker", "Dockerfile")) as f:
            dockerfile = f.read()
        self.assertIn("COPY dist/ /dist/", dockerfile)
        self.assertIn("RUN runtime-root /ddbd /runtime", dockerfile)
        self.assertIn('HEALTHCHECK', dockerfile)
        self.assertIn('CMD ["/usr/bin/ddbd", "health"]', dockerfile)
        port = free_port()
        env = dict(os.environ, DDBD_PORT=str(port), DDBD_HOST="0.0.0.0")
        # Nothing listens yet: unhealthy, with the reason.
        down = subprocess.run(self.run_in_image("health"), env=env, capture_output=True, text=True)
        self.assertEqual(down.returncode, 1)
        self.assertIn("cannot connect to 127.0.0.1:%d" % port, down.stderr)
        server = subprocess.Popen(self.run_in_image("--log-level", "warn"), env=env)
        try:
            deadline = time.monotonic() + 10
            while subprocess.run(self.run_in_image("health"), env=env,
                                 capture_output=True).returncode != 0:
                self.assertIsNone(server.poll(), "ddbd exited")
                self.assertLess(time.monotonic(), deadline, "never healthy")
                time.sleep(0.05)
            ddb = boto3.client("dynamodb", endpoint_url="http://127.0.0.1:%d" % port,
                               **CREDENTIALS)
            self.assertEqual(ddb.list_tables()["TableNames"], [])
        finally:
            server.terminate()
            server.wait(timeout=15)


if __name__ == "__main__":
    unittest.main()
