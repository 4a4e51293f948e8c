"""The house bots keep to the move time on a loaded machine: the search and
greedy bots through the real referee at 0.2 s a move (the README's first
command's setting) while every core is kept busy by CPU-burning processes."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest
from support import REPO, arena

# Alone, after the parallel tests: the load on the cores is the test's own.
pytestmark = pytest.mark.serial

BUNDLED = REPO / "arena" / "bundled_bots"

BURN = [sys.executable, "-c", "while True: pass"]


@pytest.mark.slow
def test_search_and_greedy_never_run_out_of_time_at_a_fifth_of_a_second_on_busy_cores(tmp_path):
    bots = tmp_path / "bots"
    bots.mkdir()
    for name in ("search_bot.py", "greedy_bot.py"):
        shutil.copy(BUNDLED / name, bots / name)
    burners = [subprocess.Popen(BURN) for _ in range(os.cpu_count() or 1)]
    try:
        result = arena("tournament", "--bots", "bots", "--rounds", "3", "--move-timeout", "0.2", cwd=tmp_path,
                       timeout=900)
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    assert result.returncode == 0, result.stderr
    with closing(sqlite3.connect(tmp_path / "arena.db")) as db:
        rows = db.execute("SELECT game, seats, forfeits FROM games").fetchall()
    assert len(rows) == 24 and {game for game, _, _ in rows} == {"ciclovia", "detour", "roundabout", "slyyde"}
    forfeits = [(game, json.loads(seats)[forfeit["seat"]], forfeit["detail"])
                for game, seats, text in rows for forfeit in json.loads(text)]
    assert forfeits == [], forfeits
