"""Hangs mid-game: at its second decision it stops answering."""

import time

from _zoo import run

run("hang_mid_game", lambda message: time.sleep(3600))
