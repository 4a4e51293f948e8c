"""The bundled bots as real processes through the real referee: every bot
plays every registered game legally, the search bot keeps to its time and
can replay a game exactly, the stronger bots beat the random one where the
game leaves room for skill, and the JavaScript and C++ helpers work."""

from __future__ import annotations

import importlib.util
import json
import math
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from support import arena

from arena import results
from arena.bots.discovery import discover
from arena.bots.protocol import BotSeat
from arena.games import GAMES, get_game
from arena.games.base import CHANCE
from arena.games.dice import DiceStreams
from arena.games.events import replay
from arena.model import FORFEITS, BotSpec, DiceKey, Job, Limits, Termination
from arena.play.match import play_match
from arena.play.plan import Entrant, plan_round_robin

REPO = Path(__file__).resolve().parent.parent
BOTS = REPO / "bots"
BUNDLED = ("greedy_bot", "random_bot", "random_bot_js", "search_bot")
# Where a test is about legal play or strength, not time: a deadline that
# holds on a loaded two-core machine, and the search bot on a fixed budget
# of samples (it answers in a fraction of the deadline whatever the load).
ROOMY = Limits(move_timeout=3.0)
SEARCH_SAMPLES = "8"

needs_node = pytest.mark.usefixtures("node")


@pytest.fixture(scope="module")
def specs() -> dict[str, BotSpec]:
    found = {spec.name: spec for spec in discover([BOTS])}
    assert set(BUNDLED) <= set(found), f"missing bundled bots: {set(BUNDLED) - set(found)}"
    return found


def fixed_budget(search: BotSpec, samples: str = SEARCH_SAMPLES) -> BotSpec:
    """The search bot thinking a fixed number of samples, not by the clock."""
    return BotSpec(search.name, (*search.command, "--samples", samples), search.path, search.content_hash)


def pairs(a: BotSpec, b: BotSpec, game: str, rounds: int, seed: int) -> list[Job]:
    entrants = [Entrant(a, frozenset([game])), Entrant(b, frozenset([game]))]
    return plan_round_robin(entrants, [game], rounds, DiceKey.from_seed(seed))


def play_all(matches: list[list[Job]], specs: list[BotSpec], limits: Limits) -> list:
    """Matches side by side (the bots are processes; threads only wait)."""
    by_id = {spec.bot_id: spec for spec in specs}
    with ThreadPoolExecutor(max_workers=2) as pool:
        played = pool.map(lambda jobs: list(play_match(jobs, by_id, limits, None)), matches)
        return [record for records in played for record in records]


def assert_legal(record) -> None:
    assert record.termination not in FORFEITS, (
        f"{record.job.key}: seat {record.forfeit_seat} forfeited: "
        f"{record.termination.value} ({record.detail})")
    game = get_game(record.job.game)
    *_, final = replay(game, len(record.job.seats), record.job.options, record.events)
    assert final.is_terminal()


def points(record, bot_id: str) -> float:
    return results.points(record.placements)[record.job.seats.index(bot_id)]


@needs_node
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_bundled_bot_plays_every_game_legally(game, specs):
    """Each bundled bot plays a seat-swapped pair, and all four share one
    table where the game takes four."""
    bot = {name: specs[name] for name in BUNDLED}
    bot["search_bot"] = fixed_budget(bot["search_bot"])
    matches = [pairs(bot["random_bot_js"], bot["greedy_bot"], game, 1, seed=11),
               pairs(bot["search_bot"], bot["random_bot"], game, 1, seed=12)]
    if get_game(game).max_players >= 4:
        seats = tuple(bot[name].bot_id for name in BUNDLED)
        matches.append([Job(f"four/{game}", game, seats, seed=13)])
    records = play_all(matches, list(bot.values()), ROOMY)
    assert len(records) == sum(len(m) for m in matches)
    for record in records:
        assert_legal(record)
        assert record.decisions > 0 or game == "slyyde"


def a_position(game_name: str, least_actions: int, seed: int = 3, players: int = 2):
    """A position with at least ``least_actions`` choices, reached by
    random play."""
    import random

    game = get_game(game_name)
    state = game.new_state(players)
    dice, chooser = DiceStreams(seed), random.Random(seed)
    while True:
        if state.current_player() == CHANCE:
            state.apply_chance(dice.draw(state.chance_request()))
            continue
        if len(state.legal_actions()) >= least_actions:
            return state
        state.apply_action(chooser.choice(state.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_search_plays_on_to_its_own_next_turn_at_every_seat_count(players):
    """Ciclovia's simulations play every other seat's turn and then the
    searcher's own next one, at any seat count: a horizon counted in turn
    changes as at two seats stopped short of it at four."""
    spec = importlib.util.spec_from_file_location("search_bot_module", BOTS / "search_bot.py")
    assert spec is not None and spec.loader is not None
    search_bot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(search_bot)
    state = a_position("ciclovia", least_actions=2, players=players)
    seat = state.current_player()
    search = search_bot.Search("ciclovia", players, seed=1)
    deciders: list[int] = []
    decide = search.one_step
    search.one_step = lambda here: deciders.append(here.current_player()) or decide(here)
    plan = search.plans(state, seat, deadline=math.inf)[0]
    assert search.simulate(plan.state, seat, sample=7, deadline=math.inf) is not None
    turns = [who for index, who in enumerate(deciders) if index == 0 or deciders[index - 1] != who]
    assert turns[:players] == [(seat + step) % players for step in range(1, players + 1)], deciders


@pytest.mark.parametrize("timeout", [0.5, 1.5])
def test_search_bot_answers_in_time_and_uses_it(timeout, specs):
    """Asked directly through a bot seat, the search bot answers before the
    deadline and spends a good part of it searching (it is anytime)."""
    state = a_position("roundabout", least_actions=8)
    seat_number = state.current_player()
    seat = BotSeat(specs["search_bot"], Limits(move_timeout=timeout))
    job = Job("timing", "roundabout", ("a", "b"), seed=5)
    try:
        seat.start_game(job, seat_number, state)
        for _ in range(3):
            started = time.perf_counter()
            chosen = seat.decide(state, state.legal_actions(), timeout)  # raises BotTimeout if late
            elapsed = time.perf_counter() - started
            assert 0 <= chosen < len(state.legal_actions())
            assert 0.3 * timeout < elapsed < timeout
    finally:
        seat.close()


def test_search_bot_with_a_fixed_budget_replays_a_game_exactly(specs):
    search = specs["search_bot"]
    fixed = BotSpec("search_fixed", (*search.command, "--samples", "20"), search.path, search.content_hash)
    jobs = pairs(fixed, specs["greedy_bot"], "detour", 1, seed=21)
    first = play_all([jobs], [fixed, specs["greedy_bot"]], Limits(move_timeout=2.0))
    second = play_all([jobs], [fixed, specs["greedy_bot"]], Limits(move_timeout=2.0))
    assert [r.events for r in first] == [r.events for r in second]
    for record in first:
        assert_legal(record)


@needs_node
def test_random_js_bot_replays_a_game_exactly(specs):
    jobs = pairs(specs["random_bot_js"], specs["random_bot"], "roundabout", 1, seed=31)
    bots = [specs["random_bot_js"], specs["random_bot"]]
    first, second = play_all([jobs], bots, ROOMY), play_all([jobs], bots, ROOMY)
    assert [r.events for r in first] == [r.events for r in second]


@pytest.mark.parametrize("game, strong, rounds", [
    ("roundabout", "greedy_bot", 2), ("ciclovia", "greedy_bot", 1), ("roundabout", "search_bot", 1)])
def test_stronger_bots_beat_random(game, strong, rounds, specs):
    """Where skill dominates the dice (see bench/ladder.py for the full
    ladder), a small sample is enough."""
    player = fixed_budget(specs[strong], "20") if strong == "search_bot" else specs[strong]
    matches = [pairs(player, specs["random_bot"], game, 1, seed=41 + n) for n in range(rounds)]
    records = play_all(matches, [player, specs["random_bot"]], ROOMY)
    score = sum(points(r, specs[strong].bot_id) for r in records) / len(records)
    for record in records:
        assert_legal(record)
    assert score >= 0.75, f"{strong} scored only {score:.2f} against random_bot at {game}"


HELPER_BOT = """
const { run } = require("./arena_bot.js");
let events = 0;
run("helper_bot", ["slyyde", "detour"],
    (state, actions, timeoutMs, random) => {
      if (typeof timeoutMs !== "number" || events === 0) throw new Error("no updates seen");
      return actions[Math.floor(random() * actions.length)];
    },
    (event) => { events += 1; });
"""


@needs_node
def test_javascript_helper_runs_a_bot(tmp_path, specs):
    """A folder bot built on protocol/helpers/arena_bot.js, asking for
    updates, plays legally through the referee."""
    folder = tmp_path / "bots" / "helper_bot"
    folder.mkdir(parents=True)
    shutil.copy(REPO / "protocol" / "helpers" / "arena_bot.js", folder / "arena_bot.js")
    (folder / "bot.js").write_text(HELPER_BOT)
    (folder / "bot.json").write_text(json.dumps({"command": ["node", "bot.js"]}))
    helper = discover([tmp_path / "bots"])[0]
    records = play_all([pairs(helper, specs["random_bot"], "detour", 1, seed=51)],
                       [helper, specs["random_bot"]], ROOMY)
    assert len(records) == 2
    for record in records:
        assert_legal(record)
        assert record.termination == Termination.NORMAL or record.termination == Termination.TURN_CAP


HELPERS = REPO / "protocol" / "helpers"


@pytest.fixture(scope="module")
def cpp_bots(tmp_path_factory, gpp) -> Path:
    """A bots folder holding protocol/helpers/example_bot.cpp built as its
    comment says: a folder bot with the helper, the source, the program and
    bot.json naming it."""
    bots = tmp_path_factory.mktemp("cpp") / "bots"
    folder = bots / "example_bot"
    folder.mkdir(parents=True)
    for name in ("arena_bot.hpp", "example_bot.cpp"):
        shutil.copy(HELPERS / name, folder / name)
    subprocess.run([gpp, "-std=c++17", "-O2", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-o", "example_bot",
                    "example_bot.cpp"], cwd=folder, check=True, capture_output=True, timeout=300)
    (folder / "bot.json").write_text(json.dumps({"command": ["./example_bot"]}))
    return bots


def test_cpp_helper_runs_a_bot(cpp_bots, specs):
    """The C++ example bot plays legally through the referee, in its box:
    Slyyde, where it reads the actions, and Detour, where it picks at
    random from the generator seeded by the game."""
    [example] = discover([cpp_bots])
    assert example.command == (str(cpp_bots / "example_bot" / "example_bot"),)
    matches = [pairs(example, specs["random_bot"], game, 1, seed=52) for game in ("slyyde", "detour")]
    records = play_all(matches, [example, specs["random_bot"]], ROOMY)
    assert len(records) == 4
    for record in records:
        assert_legal(record)


@pytest.mark.slow  # a whole check: dozens of games at every game and count
def test_cpp_example_bot_is_fit_for_a_tournament(cpp_bots, tmp_path):
    run = arena("check", "example_bot", "--bots", str(cpp_bots), "--move-timeout", "0.5", cwd=tmp_path,
                tmpdir=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[-1] == "example_bot is fit for a tournament"
    assert all(line.startswith("ok ") for line in lines[:-1]), lines  # no problem, no note
    for game in GAMES:
        for count in range(max(2, get_game(game).min_players), get_game(game).max_players + 1):
            assert any(line.startswith(f"ok       {game} with {count} players: finished") for line in lines)


def test_search_bot_refuses_bad_arguments():
    import subprocess

    result = subprocess.run([sys.executable, str(BOTS / "search_bot.py"), "--samples", "0"],
                            capture_output=True, text=True, input="", timeout=60)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "--samples" in lines[0]


def test_a_bot_that_is_a_symlink_is_the_file_it_points_to(tmp_path):
    """A bot kept elsewhere and linked into a bots folder keeps the link's
    name, and its command, path (what the box binds) and version are the
    real file's, wherever it is linked from."""
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "linked.py").symlink_to(REPO / "arena" / "bundled_bots" / "random_bot.py")
    linked, = discover([tmp_path / "bots"])
    bundled = next(spec for spec in discover([REPO / "arena" / "bundled_bots"]) if spec.name == "random_bot")
    assert linked.name == "linked" and linked.path == bundled.path == str(REPO / "arena" / "bundled_bots" /
                                                                          "random_bot.py")
    assert linked.command == bundled.command and linked.content_hash == bundled.content_hash


def test_the_checkouts_bots_are_the_bundled_bots_as_real_files():
    """bots/ holds copies of arena/bundled_bots/ (what the package, and so a
    wheel, carries), not links into it: a copy of the folder made any way
    (cp -r, an archive, a checkout without symlinks) has working bots."""
    bundled = REPO / "arena" / "bundled_bots"
    assert sorted(path.name for path in BOTS.iterdir()) == sorted(path.name for path in bundled.iterdir())
    for path in BOTS.iterdir():
        original = bundled / path.name
        assert not path.is_symlink(), f"{path} is a link: bots/ holds real files"
        assert path.read_bytes() == original.read_bytes() and path.stat().st_mode == original.stat().st_mode, (
            f"bots/{path.name} differs from arena/bundled_bots/{path.name}: edit the bundled one, then "
            f"cp -p arena/bundled_bots/{path.name} bots/")


@needs_node
def test_a_copy_of_the_checkouts_bots_folder_plays(tmp_path):
    """cp -r of bots/ (the way a user starts a folder of their own) gives
    bots that all play a tournament."""
    subprocess.run(["cp", "-r", str(BOTS), str(tmp_path / "mine")], check=True)
    listed = arena("bots", "--bots", "mine", cwd=tmp_path)
    assert listed.returncode == 0 and "UNUSABLE" not in listed.stdout, listed.stdout + listed.stderr
    played = arena("tournament", "--bots", "mine", "--games", "slyyde", "--rounds", "1", cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "skipping" not in played.stderr and "12 games planned" in played.stderr, played.stderr
