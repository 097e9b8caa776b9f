"""The Debian package (issue 24): CPack builds it from the tested build tree (scripts/package does
the same from the release build); unpacked into a scratch root with dpkg -x, it holds the binary,
its man page and the licence, the unpacked binary starts and answers, prints its version with
the commit, and the package's declared dependencies are exactly the Debian packages that own the
libraries the binary links."""
import os
import re
import subprocess
import tempfile
import unittest

import boto3

from ddbd_harness import CREDENTIALS

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def run(*args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs).stdout


class Package(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if os.environ.get("DDBD_ENDPOINT"):
            raise unittest.SkipTest("packages DDBD_BIN's build")
        build = os.path.dirname(os.path.dirname(os.path.abspath(os.environ["DDBD_BIN"])))
        cls.directory = tempfile.TemporaryDirectory()
        out = os.path.join(cls.directory.name, "out")
        run("cpack", "-G", "DEB", "--config", os.path.join(build, "CPackConfig.cmake"), "-B", out)
        debs = [f for f in os.listdir(out) if f.endswith(".deb")]
        assert len(debs) == 1, debs
        cls.deb = os.path.join(out, debs[0])
        cls.root = os.path.join(cls.directory.name, "root")
        run("dpkg", "-x", cls.deb, cls.root)
        cls.binary = os.path.join(cls.root, "usr", "bin", "ddbd")
        print("\npackage %s: %.1f MB" % (debs[0], os.path.getsize(cls.deb) / 1e6))

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def test_it_holds_the_binary_the_man_page_and_the_licence(self):
        self.assertRegex(os.path.basename(self.deb), r"^ddbd_\d+\.\d+\.\d+_[a-z0-9]+\.deb$")
        files = sorted(os.path.relpath(os.path.join(d, f), self.root)
                       for d, _, names in os.walk(self.root) for f in names)
        self.assertEqual(files, ["usr/bin/ddbd", "usr/share/doc/ddbd/copyright",
                                 "usr/share/man/man1/ddbd.1.gz"])
        with open(os.path.join(self.root, "usr/share/doc/ddbd/copyright")) as f:
            self.assertIn("Apache License", f.read())
        man = run("zcat", os.path.join(self.root, "usr/share/man/man1/ddbd.1.gz"))
        self.assertIn("--seed", man.replace("\\-", "-"))
        self.assertEqual(run("dpkg-deb", "-f", self.deb, "Package").strip(), "ddbd")

    def test_the_unpacked_binary_starts_answers_and_names_its_commit(self):
        version = run(self.binary, "--version").strip()
        match = re.fullmatch(r"ddbd (\d+\.\d+\.\d+) \(git ([0-9a-f]{12}|unknown)\)", version)
        self.assertIsNotNone(match, version)
        commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT,
                                capture_output=True, text=True)
        if commit.returncode == 0:
            self.assertEqual(match.group(2), commit.stdout.strip())
        port_file = os.path.join(self.directory.name, "port")
        server = subprocess.Popen([self.binary, "--port", "0", "--port-file", port_file,
                                   "--log-level", "warn"])
        try:
            for _ in range(500):
                if os.path.exists(port_file):
                    break
                self.assertIsNone(server.poll())
                subprocess.run(["sleep", "0.01"])
            with open(port_file) as f:
                endpoint = "http://127.0.0.1:%s" % f.read().strip()
            ddb = boto3.client("dynamodb", endpoint_url=endpoint, **CREDENTIALS)
            self.assertEqual(ddb.list_tables()["TableNames"], [])
        finally:
            server.terminate()
            server.wait(timeout=15)

    def test_its_dependencies_are_the_packages_of_the_libraries_it_links(self):
        depends = run("dpkg-deb", "-f", self.deb, "Depends").strip()
        declared = {part.strip().split(" ")[0] for part in depends.split(",")}
        # The libraries the binary names (not those they bring), where ldd finds them, and the
        # Debian package each belongs to.
        needed = re.findall(r"NEEDED\s+(\S+)", run("objdump", "-p", self.binary))
        paths = dict(re.findall(r"^\s*(\S+) => (\S+)", run("ldd", self.binary), re.M))
        owners = set()
        for soname in needed:
            self.assertIn(soname, paths, "ldd cannot find %s" % soname)
            owner = subprocess.run(["dpkg", "-S", paths[soname]], capture_output=True, text=True)
            if owner.returncode != 0:  # a merged-/usr path dpkg knows under the other name
                other = (paths[soname][4:] if paths[soname].startswith("/usr/")
                         else "/usr" + paths[soname])
                owner = subprocess.run(["dpkg", "-S", other], capture_output=True, text=True)
            self.assertEqual(owner.returncode, 0, "no package owns %s" % paths[soname])
            owners.add(owner.stdout.split(":")[0])
        # A dependency may name what the owner provides (libspdlog1.10 provides
        # libspdlog1.10-fmt9, the name its shlibs file gives).
        names = {}
        for owner in owners:
            provides = run("dpkg-query", "-W", "-f=${Provides}", owner)
            names[owner] = {owner} | {p.strip().split(" ")[0] for p in provides.split(",") if p.strip()}
        for owner, aliases in names.items():
            self.assertTrue(aliases & declared, "%s is not declared: %s" % (owner, depends))
        for package in declared:
            self.assertTrue(any(package in aliases for aliases in names.values()),
                            "%s is declared but owns nothing the binary links" % package)
        for owner in owners:  # each a Debian package apt can install on a fresh Debian 12
            self.assertEqual(subprocess.run(["apt-cache", "show", owner],
                                            capture_output=True).returncode, 0, owner)


if __name__ == "__main__":
    unittest.main()
