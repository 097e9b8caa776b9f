"""The ddbd process asks mimalloc for 2 MiB heap pages unless the environment says otherwise."""
import os
import subprocess
import tempfile
import time
import unittest


def allocator_log(extra_env):
    """Starts ddbd with mimalloc's start-up report on, waits until it serves, and returns stderr."""
    with tempfile.TemporaryDirectory() as directory:
        port_file = os.path.join(directory, "port")
        env = dict(os.environ, MIMALLOC_VERBOSE="1", **extra_env)
        process = subprocess.Popen([os.environ["DDBD_BIN"], "--port", "0", "--port-file", port_file,
                                    "--log-level", "warn"], env=env, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.time() + 10
            while not os.path.exists(port_file) and time.time() < deadline and process.poll() is None:
                time.sleep(0.01)
            assert os.path.exists(port_file), "ddbd did not start"
        finally:
            process.terminate()
            _, stderr = process.communicate(timeout=10)
        return stderr


class HeapPages(unittest.TestCase):
    def test_large_pages_by_default(self):
        log = allocator_log({})
        if os.environ["DDBD_HEAP"] == "mimalloc":
            self.assertIn("option 'large_os_pages': 1", log)
        else:  # a sanitizer build: the system allocator, which reports nothing
            self.assertNotIn("mimalloc:", log)

    def test_environment_setting_wins(self):
        log = allocator_log({"MIMALLOC_LARGE_OS_PAGES": "0"})
        if os.environ["DDBD_HEAP"] == "mimalloc":
            self.assertIn("option 'large_os_pages': 0", log)
        else:
            self.assertNotIn("mimalloc:", log)


if __name__ == "__main__":
    unittest.main()
