"""An honest bot that needs CPU: it thinks for a fixed 0.1 CPU seconds at
each of its first 30 decisions (under a CPU hog, whose spinners start at the
hog's second decision, that is time enough to be starved), then plays the
first offered action at once, so that long games stay short. It loses no
game by timeout however its opponent behaves."""

import itertools
import time

from _zoo import run

THOUGHTFUL = 30
decisions = itertools.count()


def never(message):
    pass


def think():
    if next(decisions) >= THOUGHTFUL:
        return
    started = time.process_time()
    while time.process_time() - started < 0.1:
        pass


run("needy", never, nth=0, think=think)
