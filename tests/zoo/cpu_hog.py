"""Attack: starve the opponent of CPU. At its second decision it starts 40
children in sessions of their own that spin for ever; the bot plays on."""

import os

from _zoo import run


def spin():
    os.setsid()
    while True:
        pass


def hog(message):
    for _ in range(40):
        try:
            if os.fork() == 0:
                spin()
        except OSError:
            break


run("cpu_hog", hog)
