"""Forks without end at its second decision: every process forks as fast as
it can, and keeps trying when the process limit refuses."""

import os

from _zoo import run


def bomb(message):
    while True:
        try:
            os.fork()
        except OSError:
            pass


run("fork_bomb", bomb)
