"""Crashes mid-game: an uncaught exception at its second decision (exit code 1)."""

from _zoo import run


def crash(message):
    raise RuntimeError("the zoo's crashing bot crashes, as it should")


run("crash_mid_game", crash)
