"""Floods stderr at its second decision: a megabyte at a time, for ever."""

import sys

from _zoo import run

MEGABYTE = b"flood " * ((1 << 20) // 6)


def flood(message):
    err = sys.stderr.buffer
    while True:
        err.write(MEGABYTE)
        err.flush()


run("stderr_flood", flood)
