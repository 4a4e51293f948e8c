"""An honest bot that needs CPU: it thinks for a fixed 0.1 CPU seconds at
every decision, then plays the first offered action. It loses no game by
timeout however its opponent behaves."""

import time

from _zoo import run


def never(message):
    pass


def think():
    started = time.process_time()
    while time.process_time() - started < 0.1:
        pass


run("needy", never, nth=0, think=think)
