"""Writes outside its working folder where it can, then writes one file past
the file-size limit, at its second decision.

It tries to leave a marker file beside its own program and in the folder
above its working folder (the system's temporary folder), and says on stderr
which worked. Then it writes a file in its working folder a megabyte at a
time, for ever: the file-size limit stops it (SIGXFSZ).
"""

import os
import sys

from _zoo import run

MEGABYTE = b"w" * (1 << 20)


def write_everywhere(message):
    here = os.getcwd()
    for folder in (os.path.dirname(os.path.abspath(__file__)), os.path.dirname(here)):
        target = os.path.join(folder, f"zoo-file_writer-{os.getpid()}.txt")
        try:
            with open(target, "w") as handle:
                handle.write("the file writer was here\n")
            sys.stderr.write(f"wrote {target}\n")
        except OSError as exc:
            sys.stderr.write(f"could not write {target}: {exc.strerror}\n")
    sys.stderr.flush()
    with open(os.path.join(here, "big.bin"), "wb") as handle:
        while True:
            handle.write(MEGABYTE)
            handle.flush()


run("file_writer", write_everywhere)
