"""Prints a single line of 100 MB with no newline at its second decision,
a megabyte at a time (the bot itself never holds it all)."""

import sys
import time

from _zoo import run

MEGABYTE = b"x" * (1 << 20)


def huge_line(message):
    out = sys.stdout.buffer
    out.write(b'{"type": "action", "action": "')
    for _ in range(100):
        out.write(MEGABYTE)
        out.flush()
    time.sleep(3600)


run("huge_line", huge_line)
