"""Prints valid JSON of the wrong shape at its second decision."""

import time

from _zoo import run, say


def wrong_shape(message):
    say({"type": "move", "choice": 0})
    time.sleep(3600)


run("wrong_shape", wrong_shape)
