"""Pods: three- and four-seat games in tournaments, planned as every
rotation of a pod's seats on one seed, balanced, keyed and resumable; game
options; multiplayer ratings kept in SQLite."""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing

import pytest
from support import arena, random_bots

from arena.errors import ArenaError
from arena.games.dice import stream_seed
from arena.model import BotSpec
from arena.play.plan import Entrant, plan_pods, plan_round_robin
from arena.play.tournament import check_request


def entrants(count: int, games=("detour", "roundabout")) -> list[Entrant]:
    return [Entrant(BotSpec(f"bot{n:02d}", ("x",), "x", f"{n:064d}"), frozenset(games)) for n in range(count)]


def test_a_pod_plays_every_rotation_of_its_seats_on_one_seed():
    jobs, _ = plan_pods(entrants(3), ["roundabout"], 3, 1, seed=5)
    assert len(jobs) == 3
    assert len({job.seed for job in jobs}) == 1
    seats = [job.seats for job in jobs]
    assert seats[1] == seats[0][1:] + seats[0][:1] and seats[2] == seats[0][2:] + seats[0][:2]
    for seat in range(3):  # every bot sits in every seat once
        assert len({job.seats[seat] for job in jobs}) == 3


def test_the_plan_is_deterministic_and_more_rounds_only_add_games():
    first, _ = plan_pods(entrants(12), ["detour"], 4, 2, seed=9)
    again, _ = plan_pods(entrants(12), ["detour"], 4, 2, seed=9)
    more, _ = plan_pods(entrants(12), ["detour"], 4, 3, seed=9)
    assert first == again
    assert more[:len(first)] == first and len(more) > len(first)
    assert len({job.key for job in more}) == len(more)


@pytest.mark.parametrize("bots, seats", [(12, 3), (12, 4), (40, 4)])
def test_a_balanced_subset_gives_every_bot_the_same_number_of_pods(bots, seats):
    jobs, [balance] = plan_pods(entrants(bots), ["detour"], seats, 2, seed=3)
    assert not balance.all_combinations
    assert balance.per_bot[0] == balance.per_bot[1]
    per_bot: dict[str, int] = {}
    for job in jobs:
        for bot in job.seats:
            per_bot[bot] = per_bot.get(bot, 0) + 1
    assert len(set(per_bot.values())) == 1 and len(per_bot) == bots
    assert balance.per_pair[0] >= 1, "every pair meets within two rounds"


def test_few_bots_play_every_combination():
    jobs, [balance] = plan_pods(entrants(5), ["detour"], 3, 1, seed=3)
    assert balance.all_combinations and balance.pods == 10 and len(jobs) == 30
    assert balance.per_pair == (3, 3)


def test_two_seat_keys_are_unchanged_and_options_make_their_own_games():
    plain = plan_round_robin(entrants(2), ["detour"], 1, seed=4)
    assert plain[0].key == f"t4/detour/r0/{plain[0].seats[0]}/{plain[0].seats[1]}"
    assert plain[0].seed == stream_seed(4, "detour/0/bot00/bot01")
    four = plan_round_robin(entrants(2), ["detour"], 1, seed=4, options={"detour": {"pieces": 4}})
    assert four[0].key.startswith("t4/detour[pieces=4]/r0/") and four[0].options == {"pieces": 4}
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
def test_a_tournament_of_pods_stores_placements_and_its_ratings_table_matches_standings(tmp_path):
    random_bots(tmp_path / "bots", ["alpha", "beta", "gamma", "delta"])
    args = ["tournament", "--games", "roundabout,detour", "--players", "2,3,4", "--rounds", "1",
            "--option", "detour.pieces=2", "--move-timeout", "5", "--jobs", "2"]
    first = arena(*args, cwd=tmp_path, check=True)
    # 6 pairs x 2 seats, 4 pods of 3 x 3 rotations, 1 pod of 4 x 4 rotations; per game
    assert "64 games planned, 0 already stored, 64 to play" in first.stderr
    assert re.search(r"pods: roundabout with 3 players: 4 pods of 4 bots \(every combination\)", first.stderr)
    with closing(sqlite3.connect(tmp_path / "arena.db")) as conn:
        stored = conn.execute("SELECT players, placements, key FROM games").fetchall()
        assert sorted({players for players, _, _ in stored}) == [2, 3, 4]
        for players, placements, key in stored:
            places = json.loads(placements)
            assert len(places) == players and min(places) == 1, key
        ratings = conn.execute("SELECT table_name, bot_id, elo, joint, joint_low, joint_high, games, wins, draws, "
                               "losses, forfeits FROM ratings ORDER BY table_name, bot_id").fetchall()
    rows = json.loads(arena("standings", "--format", "json", cwd=tmp_path, check=True).stdout)
    assert {row["table"] for row in rows} == {"detour", "detour/3p", "detour/4p", "roundabout", "roundabout/3p",
                                             "roundabout/4p", "overall"}
    assert all({"game", "players", "elo", "joint", "joint_low", "joint_high", "games", "wins"} <= set(row)
               for row in rows)
    expected = sorted((row["table"], row["bot_id"], row["elo"], row["joint"], row["joint_low"], row["joint_high"],
                       row["games"], row["wins"], row["draws"], row["losses"], row["forfeits"]) for row in rows)
    assert ratings == expected
    again = arena(*args, cwd=tmp_path, check=True)
    assert "64 games planned, 64 already stored, 0 to play" in again.stderr
