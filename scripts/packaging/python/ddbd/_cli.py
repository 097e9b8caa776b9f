"""The `ddbd` command: the packaged binary, with the same arguments."""
import os
import sys

from ddbd import binary_path


def main():
    binary = binary_path()
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
