"""A game from its own distribution (examples/pig) installed beside arena in
a fresh venv, with no line of arena changed: ``arena games`` lists it, a
real tournament plays it through the referee with the bundled bots (the
random bots play any game; the house bots, with no evaluation for it, sit
it out), the games are stored, rated, and the site shows its replays with
the generic board view."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sysconfig
import venv
from pathlib import Path

import pytest
from support import REPO, random_bots

from arena.games import replays

pytestmark = pytest.mark.slow


def _run(*command: str | Path, cwd: Path, timeout: float = 600, check: bool = True) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    result = subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True,
                            timeout=timeout)
    assert result.returncode == 0 or not check, \
        f"{command} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def pig_venv(tmp_path_factory) -> Path:
    """A venv with arena (editable, from this checkout) and arena-pig
    (built and installed from examples/pig), no network: the test venv's
    packages are reached through a .pth line, its build backend included."""
    root = tmp_path_factory.mktemp("pig-venv")
    venv.EnvBuilder(with_pip=False).create(root)
    python = root / "bin" / "python"
    purelib = _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=root).stdout.strip()
    (Path(purelib) / "test_venv.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip = [python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index"]
    _run(*pip, "-e", REPO, cwd=root)
    _run(*pip, REPO / "examples" / "pig", cwd=root)
    return root


def test_arena_games_lists_the_installed_plug_in(pig_venv, tmp_path):
    listing = _run(pig_venv / "bin" / "arena", "games", cwd=tmp_path).stdout
    [line] = [line for line in listing.splitlines() if line.startswith("pig ")]
    rules = Path(line.split("rules: ")[1])
    assert rules.is_relative_to(pig_venv) and rules.name == "rules.md"   # installed, not the checkout's
    assert "--option pig.target=VALUE" in listing
    assert _run(pig_venv / "bin" / "arena", "rules", "pig", cwd=tmp_path).stdout.startswith("# Pig, as arena plays it")


def test_a_tournament_plays_pig_from_its_own_distribution_and_the_site_shows_it(pig_venv, tmp_path):
    arena = pig_venv / "bin" / "arena"
    run = _run(arena, "tournament", "--games", "pig", "--rounds", "2", "--seed", "5",
               "--move-timeout", "2", "--jobs", "2", "--bots", REPO / "bots", "--db", "pig.db", "--out", "site",
               cwd=tmp_path)
    assert "Traceback" not in run.stderr
    with sqlite3.connect(tmp_path / "pig.db") as db:
        rows = db.execute("SELECT key, game, seats, termination FROM games").fetchall()
    assert rows and {game for _, game, _, _ in rows} == {"pig"}
    assert {termination for *_, termination in rows} <= {"normal", "turn_cap"}   # nobody forfeited
    seated = {bot for _, _, seats, _ in rows for bot in json.loads(seats)}
    assert seated and all(bot.startswith("random_bot") for bot in seated), seated  # the house bots sit it out
    standings = json.loads(_run(arena, "standings", "--db", "pig.db", "--format", "json", cwd=tmp_path).stdout)
    assert "pig" in json.dumps(standings)
    site = tmp_path / "site"
    drawing = (site / "data" / "drawing-pig.js").read_text()
    assert drawing == 'ArenaBoards["pig"] = ArenaBoards.generic;\n'
    assert (site / "static" / "boards" / "generic.js").is_file()
    chunk = (site / "data" / "replays" / "0.js").read_text()  # every game's replay, drawn by the generic view
    games = json.loads(chunk.removeprefix("ArenaReplays.add(0, ").removesuffix(");\n"))
    assert len(games) == len(rows) and {game["game"] for game in games.values()} == {"pig"}
    # pig brings no replay engine for the page: its replays carry every state and step's words, made in Python.
    assert (site / "data" / "engine-pig.js").read_text().startswith("/* pig brings no replay engine")
    assert all({"patches", "words"} <= json.loads(replays.decoded_text(game["payload"]))["replay"].keys()
               for game in games.values())
    assert all((site / "data" / f"{kind}-pig.{ext}").is_file() for kind, ext in (("board", "js"), ("drawing", "css")))


def test_a_luck_adjusted_gauntlet_refuses_a_game_without_an_evaluation(pig_venv, tmp_path):
    """Luck is measured with the house evaluation, which pig does not
    bring: one line, before any game, and no database."""
    random_bots(tmp_path / "bots", ["rand_a", "rand_b"])
    run = _run(pig_venv / "bin" / "arena", "gauntlet", "rand_a", "--vs", "rand_b", "--games", "pig", "--sprt", "0,50",
               "--luck-adjusted", "--bots", tmp_path / "bots", cwd=tmp_path, check=False)
    assert run.returncode == 1 and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert run.stderr.startswith("Error: --luck-adjusted cannot measure the luck of pig: pig brings no evaluation")
    assert not (tmp_path / "gauntlet.db").exists()


def test_the_plug_ins_own_tests_pass_beside_the_installed_arena(pig_venv, tmp_path):
    tests = REPO / "examples" / "pig"
    run = _run(pig_venv / "bin" / "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", tests, cwd=tests)
    assert " passed" in run.stdout and "failed" not in run.stdout
