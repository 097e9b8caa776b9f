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

    def test_the_dynamodb_local_variant_runs_its_command_lines(self):
        """The stand-in for amazon/dynamodb-local (issue 37): `java` on the PATH is ddbd, its
        default command runs, and without -inMemory the data stays in /home/dynamodblocal."""
        with open(os.path.join(ROOT, "docker", "Dockerfile")) as f:
            dockerfile = f.read()
        self.assertIn("FROM scratch AS dynamodb-local", dockerfile)
        self.assertIn('ENTRYPOINT ["java"]\nCMD ["-jar", "DynamoDBLocal.jar", "-inMemory"]',
                      dockerfile)
        self.assertIn("WORKDIR /home/dynamodblocal", dockerfile)
        root = os.path.join(self.directory.name, "dynamodb-local")
        binary = os.path.join(self.root, "usr", "bin", "ddbd")
        subprocess.run([os.path.join(ROOT, "docker", "runtime-root"), "--dynamodb-local", binary,
                        root], check=True)
        self.assertEqual(os.readlink(os.path.join(root, "usr", "bin", "java")), "ddbd")
        home = os.path.join(root, "home", "dynamodblocal")
        if os.geteuid() != 0:
            self.skipTest("needs root to chroot as the image's user")
        os.chown(home, 10001, 10001)  # as the Dockerfile's COPY --chown does

        def inside():  # as the image runs: chrooted, in its WORKDIR, as its user
            os.chroot(root)
            os.chdir("/home/dynamodblocal")
            if os.getuid() == 0:
                os.setgid(10001)
                os.setuid(10001)

        for command, persists in ((["-jar", "DynamoDBLocal.jar", "-inMemory"], False),
                                  (["-jar", "DynamoDBLocal.jar", "-sharedDb"], True)):
            port = free_port()
            server = subprocess.Popen(["/usr/bin/java", *command, "-port", str(port)],
                                      preexec_fn=inside, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True)
            try:
                deadline = time.monotonic() + 10
                while True:
                    try:
                        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                            s.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
                            self.assertTrue(s.recv(100).startswith(b"HTTP/1.1 400 "))
                        break
                    except ConnectionRefusedError:
                        self.assertIsNone(server.poll(), "ddbd exited")
                        self.assertLess(time.monotonic(), deadline)
                        time.sleep(0.02)
            finally:
                server.terminate()
                output, _ = server.communicate(timeout=15)
            self.assertIn("Initializing DynamoDB Local with the following configuration:", output)
            self.assertEqual(bool(os.listdir(home)), persists, os.listdir(home))


if __name__ == "__main__":
    unittest.main()
