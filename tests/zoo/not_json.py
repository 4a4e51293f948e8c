"""Prints a line that is not JSON at its second decision."""

import sys
import time

from _zoo import run


def garbage(message):
    sys.stdout.write("I'll take the second one, please\n")
    sys.stdout.flush()
    time.sleep(3600)


run("not_json", garbage)
