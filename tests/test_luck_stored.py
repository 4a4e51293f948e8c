"""The luck of the dice stored with the games (issue 28): measured by
idle-priority workers while a tournament plays, what is left after the last
game, and by ``arena standings --luck`` or the next site build for games
stored without it; shown by ``arena standings --luck``. Real bot processes,
the real command line, a real SQLite file."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import sqlite3
import statistics
import zlib
from contextlib import closing

import pytest
from support import arena, random_bots, undo_schema_12
from test_leaderboard import loaded, numbers

from arena.games import replays
from arena.luck.measure import game_luck
from arena.site import pages, paths
from arena.stats.luck import LUCK_FIELDS, Moments
from arena.store import Store, register_functions


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A tournament of two random bots at Detour and Slyyde, two rounds, one
    game at a time and a luck worker measuring as they play."""
    root = tmp_path_factory.mktemp("luck")
    random_bots(root / "bots", ["alpha", "beta"])
    run = arena("tournament", "--games", "detour,slyyde", "--rounds", "2", "--seed", "5", "--move-timeout", "0.5",
                "--jobs", "1", "--luck-workers", "1", cwd=root, check=True)
    return root, run


def stored_luck(db) -> dict[str, tuple[str, list]]:
    with closing(sqlite3.connect(db)) as conn:
        return {key: (luck, [row[0] for row in conn.execute(
                    "SELECT luck FROM results WHERE game_key = ? ORDER BY seat", [key])])
                for key, luck in conn.execute("SELECT key, luck FROM games")}


def test_a_tournament_stores_each_games_luck_as_measured_from_its_record(played):
    root, run = played
    with closing(sqlite3.connect(root / "arena.db")) as db:
        register_functions(db)
        games = db.execute("SELECT key, game, players, seed, arena_events(record, replay), arena_json(luck) "
                           "FROM games").fetchall()
        assert len(games) == 8
        for key, name, players, seed, record, stored in games:
            events = json.loads(record)
            luck = json.loads(stored)
            assert luck == game_luck(name, players, {}, events, seed).to_json()
            assert [roll[0] for roll in luck["rolls"]] == [n for n, e in enumerate(events) if e["kind"] == "chance"]
            seats = db.execute("SELECT luck FROM results WHERE game_key = ? ORDER BY seat", [key]).fetchall()
            assert [row[0] for row in seats] == luck["totals"]
    log = (root / "logs" / "arena.log").read_text()
    playing, after = re.search(r"luck of (\d+) games measured while playing, of (\d+) after", log).groups()
    assert int(playing) + int(after) == 8


def test_standings_with_luck_shows_raw_and_adjusted_scores_and_luck_received(played):
    root, _ = played
    rows = json.loads(arena("standings", "--luck", "--format", "json", cwd=root, check=True).stdout)
    with closing(sqlite3.connect(root / "arena.db")) as db:
        for row in rows:
            if row["table_name"] == "overall":
                assert all(row[name] is None for name in LUCK_FIELDS)
                continue
            points, luck = zip(*db.execute("SELECT points, luck FROM results WHERE bot_id = ? AND game = ?",
                                           [row["bot_id"], row["game"]]))
            assert row["games"] == row["luck_games"] == len(points) == 4 and row["luck_unmeasured"] == 0
            assert row["luck_units"] == 2  # two rounds: two seat-swapped pairs
            assert row["raw_score"] == pytest.approx(row["score"]) == pytest.approx(statistics.fmean(points))
            assert row["luck"] == pytest.approx(statistics.fmean(luck), abs=1e-4)
            assert row["adjusted_score"] == pytest.approx(row["raw_score"] - row["luck"], abs=2e-4)
            for name in ("raw_score", "adjusted_score", "luck"):
                assert row[f"{name}_low"] <= row[name] <= row[f"{name}_high"]
    table = arena("standings", "--luck", cwd=root, check=True).stdout
    assert "luck of the dice: score, luck-adjusted score" in table
    detour = [line for line in table.splitlines() if line.startswith("detour ") and "(" in line]
    assert len(detour) == 4  # the standings' two rows and the luck table's two
    lines = list(csv.DictReader(io.StringIO(arena("standings", "--luck", "--format", "csv", cwd=root,
                                                  check=True).stdout)))
    assert len(lines) == len(rows) and set(LUCK_FIELDS) <= set(lines[0])
    for line, row in zip(lines, rows):
        assert (line["table_name"], line["bot_id"]) == (row["table_name"], row["bot_id"])
        for name in LUCK_FIELDS:
            assert line[name] == ("" if row[name] is None else str(row[name]))
    plain = arena("standings", "--format", "json", cwd=root, check=True).stdout
    assert "adjusted_score" not in json.loads(plain)[0]


def test_the_site_shows_each_games_luck_and_the_luck_each_bot_received(played):
    root, _ = played
    rows = json.loads(arena("standings", "--luck", "--format", "json", cwd=root, check=True).stdout)
    with Store(root / "arena.db") as store:
        for key, number in numbers(root / "arena.db").items():
            chunk = paths.replay_chunk(number)
            games = loaded(root / "leaderboard" / paths.replay_chunk_path(chunk), f"ArenaReplays.add({chunk}, ")
            assert json.loads(replays.decoded_text(games[str(number)]["payload"]))["luck"] == store.luck(key)
        bots = store.bots()
    for row in rows:
        if row["luck"] is None:
            continue
        info = paths.BotInfo(row["bot_id"], row["bot"], bots[row["bot_id"]]["content_hash"][:12])
        page = (root / "leaderboard" / info.page).read_text()
        record = page[page.index(f'id="record-{row["table_name"]}"'):]
        received = re.search(r'<dt>luck received</dt><dd>([^ ]+) <span class="muted">\(([^ ]+) to ([^)]+)\)', record)
        assert received.groups() == tuple(f"{row[name]:+.3f}" for name in ("luck", "luck_low", "luck_high"))
        assert "far from zero over many games points at an engine or dice problem" in record


def test_a_replay_chunk_holds_the_stored_luck_as_parsing_and_writing_it_again_would(played, tmp_path):
    """A replay chunk takes each game's luck as the store holds it, JSON
    text, without parsing it and writing it again (a million games' rolls
    take minutes to): a game's payload holds what writing the parsed luck
    gives, for the luck a tournament measured and for luck written by hand
    in other ways (spaces, escapes, another alphabet), which are parsed;
    luck without totals (not measured) is drawn as none."""
    db = tmp_path / "arena.db"
    shutil.copy(played[0] / "arena.db", db)
    by_hand = {"spaced": '{"totals": [0.5, -0.5], "rolls": [[1, [0.5, -0.5]]]}',
               "escaped": '{"totals":[0.5,-0.5],"rolls":[],"note":"caf\\u00e9"}',
               "another alphabet": '{"totals":[0.5,-0.5],"rolls":[],"note":"été"}',
               "not measured": '{"problem":"the luck of this game cannot be measured: no evaluation"}'}
    with closing(sqlite3.connect(db)) as conn:
        keys = [key for (key,) in conn.execute("SELECT key FROM games ORDER BY rowid")]
        for key, text in zip(keys, by_hand.values()):
            conn.execute("UPDATE games SET luck = ? WHERE key = ?", [zlib.compress(text.encode()), key])
        conn.commit()
    with Store(db) as store:
        texts = [store.replay_luck(key) for key in keys]
        shown = [json.loads(replays.decoded_text(pages.chunked_game(store.game(key), [], "{}", None, {}, text)
                                                  ["payload"]))["luck"] for key, text in zip(keys, texts)]
        parsed = [luck if (luck := store.luck(key)) and "totals" in luck else None for key in keys]
    assert [text is None for text in texts] == [False] * 3 + [True] + [False] * (len(keys) - 4)
    assert shown == parsed


def test_games_stored_without_luck_are_measured_by_standings_and_an_old_database_upgraded(played, tmp_path):
    root, _ = played
    before = stored_luck(root / "arena.db")
    db = tmp_path / "arena.db"
    with closing(sqlite3.connect(root / "arena.db")) as source, closing(sqlite3.connect(db)) as copy:
        source.backup(copy)
    with closing(sqlite3.connect(db)) as conn:  # as arena left it before it stored luck (schema 11)
        undo_schema_12(conn)
        conn.execute("UPDATE meta SET value = '11' WHERE key = 'schema_version'")
        conn.commit()
    assert "older schema" in arena("standings", cwd=tmp_path).stderr
    run = arena("standings", "--luck", cwd=tmp_path, check=True)
    assert "measuring the luck of 8 games stored without it" in run.stderr
    assert stored_luck(db) == before
    again = arena("standings", "--luck", cwd=tmp_path, check=True)
    assert "measuring" not in again.stderr and again.stdout == run.stdout


def test_standings_while_another_process_writes_show_what_is_stored(played, tmp_path):
    root, _ = played
    db = tmp_path / "arena.db"
    with closing(sqlite3.connect(root / "arena.db")) as source, closing(sqlite3.connect(db)) as copy:
        source.backup(copy)
    with closing(sqlite3.connect(db)) as conn:  # an interrupted run: games stored, their luck not yet
        conn.execute("UPDATE games SET luck = NULL WHERE game = 'detour'")
        conn.execute("UPDATE results SET luck = NULL WHERE game = 'detour'")
        conn.commit()
    with Store(db, writer=True):
        run = arena("standings", "--luck", "--format", "json", cwd=tmp_path, check=True)
    assert "is not measured now" in run.stderr and "in use by another arena process" in run.stderr
    detour = [row for row in json.loads(run.stdout) if row["table_name"] == "detour"]
    assert detour and all(row["luck_games"] == 0 and row["luck_unmeasured"] == 4 and row["adjusted_score"] is None
                          for row in detour)


def clustered_mean(units: list[tuple[int, float]]) -> tuple[float | None, float | None, float | None]:
    """The luck measure's mean and interval over units of (games, total),
    each unit's games coming in one at a time as a build counts them."""
    moments = Moments()
    for count, total in units:
        before = [0.0, 0.0, 0.0, 0.0]
        for _ in range(count):
            moments.add(before, (0.0, 0.0, total / count))
            before = [before[0] + 1, 0.0, 0.0, before[3] + total / count]
    return moments.clustered_mean(2)


def test_the_interval_is_normal_over_units_of_games_on_the_same_dice():
    mean, low, high = clustered_mean([(2, 1.0), (2, 2.0), (2, 0.0), (2, 1.0)])
    assert mean == pytest.approx(0.5)
    # unit means 0.5, 1, 0, 0.5: deviations of totals from 2 * mean are 0, 1, -1, 0
    half = 1.959963984540054 * (4 / 3 * 2) ** 0.5 / 8
    assert (low, high) == pytest.approx((0.5 - half, 0.5 + half))
    assert clustered_mean([(2, 1.0)]) == (0.5, None, None)
    assert clustered_mean([]) == (None, None, None)
