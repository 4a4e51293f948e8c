"""Closes its standard output at its second decision and keeps running."""

import os
import time

from _zoo import run


def close_and_stay(message):
    os.close(1)
    time.sleep(3600)


run("close_stdout", close_and_stay)
