"""Pods: three- and four-seat games in tournaments, planned as every
rotation of a pod's seats on one seed, balanced, keyed and resumable; game
options; multiplayer ratings kept in SQLite."""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing

import pytest
from support import arena, random_bots, reference_standings, whole_events
from test_leaderboard import numbers

from arena.errors import ArenaError
from arena.games import GAMES
from arena.games.events import replay
from arena.model import BotSpec, DiceKey
from arena.play.plan import Entrant, plan_pods, plan_round_robin
from arena.play.tournament import check_request
from arena.store import Store


def entrants(count: int, games=("detour", "roundabout")) -> list[Entrant]:
    return [Entrant(BotSpec(f"bot{n:02d}", ("x",), "x", f"{n:064d}"), frozenset(games)) for n in range(count)]


def test_a_pod_plays_every_rotation_of_its_seats_on_one_seed():
    jobs, _ = plan_pods(entrants(3), ["roundabout"], 3, 1, DiceKey.from_seed(5))
    assert len(jobs) == 3
    assert len({job.seed for job in jobs}) == 1
    seats = [job.seats for job in jobs]
    assert seats[1] == seats[0][1:] + seats[0][:1] and seats[2] == seats[0][2:] + seats[0][:2]
    for seat in range(3):  # every bot sits in every seat once
        assert len({job.seats[seat] for job in jobs}) == 3


def test_the_plan_is_deterministic_and_more_rounds_only_add_games():
    first, _ = plan_pods(entrants(12), ["detour"], 4, 2, DiceKey.from_seed(9))
    again, _ = plan_pods(entrants(12), ["detour"], 4, 2, DiceKey.from_seed(9))
    more, _ = plan_pods(entrants(12), ["detour"], 4, 3, DiceKey.from_seed(9))
    assert first == again
    assert more[:len(first)] == first and len(more) > len(first)
    assert len({job.key for job in more}) == len(more)


@pytest.mark.parametrize("bots, seats", [(12, 3), (12, 4), (40, 4)])
def test_a_balanced_subset_gives_every_bot_the_same_number_of_pods(bots, seats):
    jobs, [balance] = plan_pods(entrants(bots), ["detour"], seats, 2, DiceKey.from_seed(3))
    assert not balance.all_combinations
    assert balance.per_bot[0] == balance.per_bot[1]
    per_bot: dict[str, int] = {}
    for job in jobs:
        for bot in job.seats:
            per_bot[bot] = per_bot.get(bot, 0) + 1
    assert len(set(per_bot.values())) == 1 and len(per_bot) == bots
    assert balance.per_pair[0] >= 1, "every pair meets within two rounds"


def test_few_bots_play_every_combination():
    jobs, [balance] = plan_pods(entrants(5), ["detour"], 3, 1, DiceKey.from_seed(3))
    assert balance.all_combinations and balance.pods == 10 and len(jobs) == 30
    assert balance.per_pair == (3, 3)


def test_two_seat_keys_name_the_game_and_options_make_their_own_games():
    key = DiceKey.from_seed(4)
    plain = plan_round_robin(entrants(2), ["detour"], 1, key)
    assert plain[0].key == f"t/detour/r0/{plain[0].seats[0]}/{plain[0].seats[1]}"
    assert plain[0].seed == key.derive("detour/0/bot00/bot01")
    four = plan_round_robin(entrants(2), ["detour"], 1, key, options={"detour": {"pieces": 4}})
    assert four[0].key.startswith("t/detour[pieces=4]/r0/") and four[0].options == {"pieces": 4}
    assert four[0].seed != plain[0].seed


@pytest.mark.parametrize("games, players, options, message", [
    (["detour"], [5], [], "detour is for 2 to 4 players, not 5"),
    (["detour"], [1], [], "detour is for 2 to 4 players, not 1"),
    (["detour"], [2], ["detour.wheels=3"], "detour has no option 'wheels' (available: pieces)"),
    (["detour"], [3], ["detour.pieces=4"], "four pieces"),
    (["slyyde"], [2], ["detour.pieces=4"], "which this run does not play"),
    (["slyyde"], [2], ["pieces=4"], "an option is GAME.NAME=VALUE"),
])
def test_a_request_a_game_cannot_play_is_refused_with_one_line(games, players, options, message):
    with pytest.raises(ArenaError, match=re.escape(message)):
        check_request(games, players, options)


def test_bad_pod_input_is_one_line_and_stores_nothing(tmp_path):
    random_bots(tmp_path / "bots", ["alpha", "beta", "gamma"])
    for args, message in [(["--players", "5"], "is for 2 to 4 players, not 5"),
                          (["--players", "4", "--games", "roundabout"], "needs 4 usable bots, found 3"),
                          (["--option", "detour.colour=red"], "detour has no option 'colour'"),
                          (["--players", "two"], "expected player counts such as 2,3,4")]:
        result = arena("tournament", *args, cwd=tmp_path)
        assert result.returncode != 0 and message in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert not (tmp_path / "arena.db").exists()


@pytest.mark.slow
def test_a_tournament_of_pods_stores_placements_and_the_elo_and_counts_the_rules_give(tmp_path):
    random_bots(tmp_path / "bots", ["alpha", "beta", "gamma", "delta"])
    args = ["tournament", "--games", "roundabout,detour", "--players", "2,3,4", "--rounds", "1",
            "--option", "detour.pieces=2", "--move-timeout", "5", "--jobs", "2"]
    first = arena(*args, cwd=tmp_path, check=True)
    # per game: 6 pairs x 2 seats, 4 pods of 3 x 3 rotations, 1 pod of 4 x 4 rotations: 28
    assert "56 games planned, 0 already stored, 56 to play" in first.stderr
    assert re.search(r"pods: roundabout with 3 players: 4 pods of 4 bots \(every combination\)", first.stderr)
    with closing(sqlite3.connect(tmp_path / "arena.db")) as conn:
        stored = conn.execute("SELECT players, placements, key FROM games").fetchall()
        assert sorted({players for players, _, _ in stored}) == [2, 3, 4]
        for players, placements, key in stored:
            places = json.loads(placements)
            assert len(places) == players and min(places) == 1, key
        stored_ratings = conn.execute("SELECT table_name, bot_id, elo, games, wins, draws, losses, forfeits, score, "
                                      "first_place_share, joint, joint_low, joint_high, joint_group FROM ratings"
                                      ).fetchall()
    rows = json.loads(arena("standings", "--format", "json", cwd=tmp_path, check=True).stdout)
    assert {row["table_name"] for row in rows} == {"detour", "detour/3p", "detour/4p", "roundabout", "roundabout/3p",
                                             "roundabout/4p", "overall"}
    reference = reference_standings(tmp_path / "arena.db")
    fields = ("elo", "games", "wins", "draws", "losses", "forfeits", "score", "first_place_share")
    printed = {(row["table_name"], row["bot_id"]): [row[name] for name in fields] for row in rows}
    stored = {(table, bot): list(values[:len(fields)]) for table, bot, *values in stored_ratings}
    assert set(printed) == set(stored) == set(reference)
    for key, values in reference.items():
        # Elo is printed to 0.1, score and first-place share to 1e-4.
        expected = pytest.approx([values[name] for name in fields], abs=0.051)
        assert printed[key] == expected and stored[key] == expected, key
    # The joint rating is a fit of its own (tests/test_joint.py, test_plackett.py); here: every bot is
    # rated (the posterior's prior makes each rating finite) and each interval holds its rating.
    for table, _, *values in stored_ratings:
        joint, low, high, group = values[len(fields):]
        assert joint is not None and low < joint < high, table
    again = arena(*args, cwd=tmp_path, check=True)
    assert "56 games planned, 56 already stored, 0 to play" in again.stderr


@pytest.fixture(scope="module")
def pods_site(tmp_path_factory, zoo_dir):
    """A real tournament of pods: three random bots and one that crashes at
    its second decision, Roundabout and Detour at three and four seats."""
    folder = tmp_path_factory.mktemp("pods")
    bots = random_bots(folder / "bots", ["alpha", "beta", "gamma"])
    for name in ("crash_mid_game.py", "_zoo.py"):
        (bots / name).write_bytes((zoo_dir / name).read_bytes())
    arena("tournament", "--games", "roundabout,detour", "--players", "3,4", "--rounds", "1", "--seed", "3",
          "--move-timeout", "5", "--jobs", "2", cwd=folder, check=True)
    return folder


@pytest.mark.slow
def test_pods_play_on_after_a_forfeit_and_the_golden_rule_is_played(pods_site):
    with Store(pods_site / "arena.db") as store:
        names = {bot_id: row["name"] for bot_id, row in store.bots().items()}
        games = list(store.games())
        accepted = []
        for game in games:
            crasher = [seat for seat, bot in enumerate(game.seats) if names[bot] == "crash_mid_game"]
            if crasher:
                assert [f.seat for f in game.forfeits] == crasher and game.forfeits[0].termination.value == "crash"
                assert game.placements[crasher[0]] == max(game.placements)
                assert game.termination.value == "normal", "the others played on to the end"
                events = whole_events(store, game.key)
                assert {"kind": "retire", "seat": crasher[0], "reason": "crash"} in events
            if game.game == "roundabout":
                accepted += [game.key for event in whole_events(store, game.key) if event["kind"] == "decision"
                             and event["offered"][event["chosen"]] == {"accept": True}]
    assert {game.players for game in games} == {3, 4}
    assert accepted, "a Golden Rule offer accepted in a stored three- or four-player Roundabout game"


@pytest.mark.slow
def test_the_site_shows_pod_tables_and_replays_a_forfeit(pods_site, browser):
    out = pods_site / "leaderboard"
    index = (out / "index.html").read_text()
    assert "Roundabout, 3 players" in index and "Detour, 4 players" in index
    with Store(pods_site / "arena.db") as store:
        game = next(g for g in store.games(game="roundabout") if g.players == 4 and g.forfeits)
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        page.goto((out / "tables" / "roundabout-4p.html").resolve().as_uri())
        assert page.inner_text("h1") == "Roundabout, 4 players"
        assert "First places won from each seat" in page.inner_text("body")
        page.goto((out / "replay.html").resolve().as_uri() + "#game=" + str(numbers(pods_site / "arena.db")[game.key]))
        page.wait_for_selector("#replay[data-ready='1']")
        assert "forfeit: crash" in page.inner_text(".seats")
        step = next(n for n, event in enumerate(whole_events(Store(pods_site / "arena.db"), game.key), 1)
                    if event["kind"] == "retire")
        page.fill("#r-jump", str(step))
        page.press("#r-jump", "Enter")
        assert "forfeits (crash) and is out of the game" in page.inner_text("#r-event")
        page.click("#r-last")
        page.wait_for_function("document.getElementById('replay').dataset.animating === '0'")
    finally:
        context.close()
    assert problems == []


def test_a_detour_tournament_plays_the_four_piece_option(tmp_path):
    random_bots(tmp_path / "bots", ["alpha", "beta"])
    arena("tournament", "--games", "detour", "--option", "detour.pieces=4", "--rounds", "1", "--move-timeout", "5",
          cwd=tmp_path, check=True)
    with Store(tmp_path / "arena.db") as store:
        games = list(store.games())
        assert len(games) == 2 and all(game.options == {"pieces": 4} for game in games)
        assert all("[pieces=4]" in game.key for game in games)
        *_, final = replay(GAMES["detour"], 2, games[0].options, whole_events(store, games[0].key))
    assert len(final.to_json()["pieces"]) == 8
