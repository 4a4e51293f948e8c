"""arena from a built wheel, not from its checkout: the wheel is built from
this repository, installed into a fresh venv, and run from folders that
hold nothing of the repository, so every file arena needs (bundled bots,
templates, static files, the site's schema) must come from the package."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from contextlib import closing
from pathlib import Path

import pytest
from support import REPO

# A bot that plays only when game_start brought it what it is told about a
# game; otherwise it answers with an action no game offers, and forfeits.
PROBE_BOT = textwrap.dedent("""\
    import json, sys
    told = False
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            print(json.dumps({"type": "hello", "name": "probe", "games": ["detour"]}), flush=True)
        elif message["type"] == "game_start":
            told = all(message.get(key) for key in ("rules", "board", "state"))
            print("game_start fields:", sorted(message), file=sys.stderr)
        elif message["type"] == "decide":
            action = message["actions"][0] if told else "game_start lacked rules, board or state"
            print(json.dumps({"type": "action", "action": action}), flush=True)
        elif message["type"] == "bye":
            break
""")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The bin folder of a fresh venv holding the wheel built from this
    checkout. The venv reuses this environment's installed dependencies
    (through a .pth line, which does not run the checkout's editable
    install), so the wheel is installed alone, without its dependencies,
    and beside the checkout's (which pip sees, and must neither count as
    installed nor uninstall)."""
    root = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(root / "dist"),
                            str(REPO)], capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    ours = next(Path(sys.prefix).glob("lib/python3*/site-packages"))
    (next(venv.glob("lib/python3*/site-packages")) / "test-dependencies.pth").write_text(f"{ours}\n")
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
                              "-q", "--no-deps", "--ignore-installed", "--no-index", "--find-links", str(root / "dist"),
                              "dice-arena"],
                             capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr
    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import arena; print(arena.__file__)"],
                           cwd=root, env=_without_checkout(), capture_output=True, text=True, check=True)
    assert Path(where.stdout.strip()).is_relative_to(venv), f"arena is not the wheel's: {where.stdout}"
    return venv / "bin"


def _without_checkout() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


def _arena(bin_folder: Path, cwd: Path, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(bin_folder / "arena"), *arguments], cwd=cwd, env=_without_checkout(),
                          capture_output=True, text=True, timeout=900)


@pytest.mark.slow
def test_a_wheel_runs_a_tournament_of_its_bundled_bots_from_an_empty_folder(installed, tmp_path):
    run = _arena(installed, tmp_path, "tournament", "--rounds", "1", "--move-timeout", "0.2",
                 "--games", "detour", "--seed", "1")
    assert run.returncode == 0, run.stderr
    assert "no ./bots folder here, so using the bundled bots" in run.stderr
    with closing(sqlite3.connect(tmp_path / "arena.db")) as db:
        bots = dict(db.execute("SELECT name, path FROM bots"))
        games = db.execute("SELECT seats, termination FROM games").fetchall()
    assert sorted(bots) == ["greedy_bot", "random_bot", "random_bot_js", "search_bot"]
    assert all(Path(path).is_relative_to(installed.parent) for path in bots.values()), bots
    assert len(games) == 4 * 3, "every pair of the four bundled bots, seat-swapped, one round"
    assert {termination for _, termination in games} <= {"normal", "turn_cap", "stalemate"}, games
    site = tmp_path / "leaderboard"
    assert "greedy_bot" in (site / "index.html").read_text()
    assert (site / "static").is_dir() and (site / "data" / "games.js").is_file()


@pytest.mark.slow
def test_a_wheel_checks_a_bundled_bot_and_a_new_one_from_folders_without_the_repository(installed, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    bundled = _arena(installed, empty, "check", "random_bot", "--move-timeout", "0.5")
    assert bundled.returncode == 0, bundled.stdout + bundled.stderr
    assert "random_bot is fit for a tournament" in bundled.stdout
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "probe.py").write_text(PROBE_BOT)
    probe = _arena(installed, tmp_path, "check", "probe", "--move-timeout", "0.5")
    assert probe.returncode == 0, probe.stdout + probe.stderr
    assert "probe is fit for a tournament" in probe.stdout, "it forfeits when game_start lacks what bots read"
    assert "bundled bots" not in probe.stderr, "a ./bots folder is used as it is"
    assert "problem" not in probe.stdout
