"""--stop-when-stdin-closes (issue 36): a test harness starts ddbd with a pipe on its standard
input; when the harness closes it, or dies without closing it, ddbd stops as on SIGTERM."""
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest


def wait_for_port_file(path, process):
    deadline = time.monotonic() + 10
    while not (os.path.exists(path) and open(path).read().strip()):
        assert process.poll() is None and time.monotonic() < deadline, "ddbd did not start"
        time.sleep(0.01)


class StopWithStdin(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)
        self.port_file = os.path.join(self.directory.name, "port")

    def command(self):
        return [os.environ["DDBD_BIN"], "--port", "0", "--port-file", self.port_file,
                "--log-level", "info", "--stop-when-stdin-closes"]

    def test_it_stops_when_the_harness_closes_the_pipe(self):
        ddbd = subprocess.Popen(self.command(), stdin=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
        wait_for_port_file(self.port_file, ddbd)
        ddbd.stdin.write("anything written is ignored\n")
        ddbd.stdin.flush()
        time.sleep(0.2)
        self.assertIsNone(ddbd.poll())  # still serving while the pipe is open
        ddbd.stdin.close()
        self.assertEqual(ddbd.wait(timeout=10), 0)
        out = ddbd.stdout.read() + ddbd.stderr.read()
        ddbd.stdout.close()
        ddbd.stderr.close()
        self.assertIn("standard input closed: stopping", out)
        self.assertIn("ddbd stopped", out)

    def test_it_stops_when_the_harness_is_killed(self):
        # The harness: a process that starts ddbd with a pipe, prints its pid, then hangs.
        harness = subprocess.Popen([sys.executable, "-c", """
import subprocess, sys
ddbd = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL)
print(ddbd.pid, flush=True)
sys.stdin.read()
""", *self.command()], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        pid = int(harness.stdout.readline())
        wait_for_port_file(self.port_file, harness)
        harness.send_signal(signal.SIGKILL)
        harness.wait()
        deadline = time.monotonic() + 10
        while os.path.exists("/proc/%d" % pid) and \
                not open("/proc/%d/stat" % pid).read().split(") ")[1].startswith("Z"):
            self.assertLess(time.monotonic(), deadline, "ddbd outlived its harness")
            time.sleep(0.02)

    def test_without_the_flag_a_closed_stdin_changes_nothing(self):
        command = [arg for arg in self.command() if arg != "--stop-when-stdin-closes"]
        ddbd = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        try:
            wait_for_port_file(self.port_file, ddbd)
            time.sleep(0.3)
            self.assertIsNone(ddbd.poll())
        finally:
            ddbd.terminate()
            ddbd.wait(timeout=10)


if __name__ == "__main__":
    unittest.main()
