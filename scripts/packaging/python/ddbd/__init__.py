"""ddbd, a server that speaks Amazon DynamoDB's wire protocol: the packaged binary, and start()
for test suites (the pytest plugin's fixtures use it)."""
import os
import shutil
import stat
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

from ddbd._version import VERSION as __version__  # noqa: F401

__all__ = ["binary_path", "start", "Server"]


def binary_path():
    """The ddbd binary in this package, or DDBD_BINARY's."""
    if os.environ.get("DDBD_BINARY"):
        return os.environ["DDBD_BINARY"]
    binary = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "ddbd")
    mode = os.stat(binary).st_mode
    if not mode & stat.S_IXUSR:  # an installer that dropped the mode
        os.chmod(binary, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return binary


class Server:
    """A running ddbd: `endpoint` (http://127.0.0.1:PORT), `port`, `process`; stop() ends it.
    Also a context manager."""

    def __init__(self, process, port, host, directory):
        self.process = process
        self.port = port
        self.endpoint = "http://%s:%d" % ("[%s]" % host if ":" in host else host, port)
        self._directory = directory

    def stop(self, timeout=15):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdin:
            self.process.stdin.close()
        shutil.rmtree(self._directory, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def _healthy(host, port):
    try:
        with urllib.request.urlopen("http://%s:%d/_ddbd/health" % (host, port), timeout=1) as answer:
            return answer.status == 200
    except (OSError, urllib.error.URLError):
        return False


def start(port=0, host="127.0.0.1", seed=None, db_path=None, args=(), log_level="warn",
          binary=None, timeout=10.0):
    """Starts ddbd and returns a Server once GET /_ddbd/health answers 200.

    port 0 (the default) picks a free port; seed is a path or a list of them (--seed); db_path
    keeps data there (--db-path; in memory without); args are more flags as `ddbd --help` lists
    them. ddbd gets a pipe on its standard input and --stop-when-stdin-closes: when this process
    ends, even killed, the pipe closes and ddbd stops."""
    directory = tempfile.mkdtemp(prefix="ddbd-")
    port_file = os.path.join(directory, "port")
    command = [binary or binary_path(), "--host", host, "--port", str(port), "--port-file",
               port_file, "--log-level", log_level, "--stop-when-stdin-closes"]
    for path in [seed] if isinstance(seed, (str, os.PathLike)) else (seed or []):
        command += ["--seed", os.fspath(path)]
    if db_path:
        command += ["--db-path", os.fspath(db_path)]
    command += list(args)
    process = subprocess.Popen(command, stdin=subprocess.PIPE)
    deadline = time.monotonic() + timeout
    bound = 0
    while True:
        if process.poll() is not None:
            shutil.rmtree(directory, ignore_errors=True)
            raise RuntimeError("ddbd exited with status %d before it was healthy" % process.returncode)
        if time.monotonic() > deadline:
            Server(process, bound, host, directory).stop()
            raise RuntimeError("ddbd was not healthy within %s s" % timeout)
        if not bound and os.path.exists(port_file):
            with open(port_file) as f:
                bound = int(f.read().strip() or 0)
        if bound and _healthy(host, bound):
            return Server(process, bound, host, directory)
        time.sleep(0.005)
