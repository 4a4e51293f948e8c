"""Burns CPU in a busy loop at its second decision, for ever."""

from _zoo import run


def spin(message):
    while True:
        pass


run("busy_loop", spin)
