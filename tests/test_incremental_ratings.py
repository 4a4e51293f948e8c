"""Issue 29: the end of a run rates only the games that are new, and gives
what rating every game from the start gives (the reference), to the last
digit shown: in the ratings cache, in ``arena standings`` as text, JSON and
CSV, and on the site. Where the saved tally cannot be trusted (a game
deleted or changed, a game that comes before the last one rated, other
rating code, a migration) every game is rated again.

Synthetic plans (pairs, pods, draws and forfeits between several bots)
stored in a real SQLite file through the Store, as runs store them; one
test plays real tournaments through the command line."""

from __future__ import annotations

import dataclasses
import itertools
import json
import logging
import random
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from support import arena, random_bots

from arena import ratings_cache
from arena.model import BotSpec, Forfeit, GameRecord, Job, Termination
from arena.site import build as build_site
from arena.stats import units
from arena.stats.standings import json_rows, pairs_csv, text_table, to_csv
from arena.store import RatingsWriter, Store

SPECS = [BotSpec(name, ("true",), f"/bots/{name}", name * 16) for name in ("ann", "bob", "cat", "dan", "eve")]


def plan(name: str, bots: list[str], rounds: int, seed: int) -> list[GameRecord]:
    """A plan's games in plan order: every pair of ``bots`` seat-swapped on
    a seed (slyyde), and every three of them in their three rotations
    (ciclovia at three seats), ``rounds`` times; results drawn from ``seed``,
    with draws and forfeits."""
    chooser = random.Random(seed)
    ids = [spec.bot_id for spec in SPECS if spec.name in bots]
    games: list[tuple[str, tuple[str, ...], int]] = []
    for _ in range(rounds):
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                dice = chooser.randrange(1 << 30)
                games += [("slyyde", (a, b), dice), ("slyyde", (b, a), dice)]
        for i in range(len(ids) - 2):
            trio = (ids[i], ids[i + 1], ids[i + 2])
            dice = chooser.randrange(1 << 30)
            games += [("ciclovia", trio[k:] + trio[:k], dice) for k in range(3)]
    records = []
    for order, (game, seats, dice) in enumerate(games):
        places = [chooser.choice([1, 1, 2, 2, 3]) for _ in seats]
        placements = tuple(sorted(places).index(place) + 1 for place in places)
        forfeits: tuple[Forfeit, ...] = ()
        termination = Termination.NORMAL
        if chooser.random() < 0.1:
            loser = chooser.randrange(len(seats))
            termination = Termination.TIMEOUT
            placements = tuple(len(seats) if seat == loser else 1 for seat in range(len(seats)))
            forfeits = (Forfeit(loser, termination, "too slow"),)
        job = Job(f"{name}/{order}/{game}/{'-'.join(seats)}", game, seats, dice, 0, order)
        records.append(GameRecord(job, [], placements, termination, forfeits))
    return records


def store_run(db: Path, games: list[GameRecord], stored: list[GameRecord] | None = None,
              rate: bool = True) -> ratings_cache.Rated | None:
    """One run of a plan (``games``): store ``stored`` of them (all by
    default), then write the ratings as the end of a run does (unless
    ``rate`` is False: a run interrupted before its end)."""
    with Store(db, writer=True) as store:
        store.add_bots(SPECS)
        store.use_plan(record.job.key for record in games)
        for record in games if stored is None else stored:
            store.add_game(record)
        return ratings_cache.rewrite(store) if rate else None


def assert_as_rated_from_the_start(db: Path) -> None:
    """Everything the saved tally and the cache give equals what rating
    every game from the start gives: standings in every format, the
    ratings table and the whole rating history."""
    with Store(db) as store:
        full_history = HistoryKept()
        full = ratings_cache.rate(store, full=True, history=full_history)
        going_on = ratings_cache.rate(store)
        columns = list(store.db.table("ratings").columns_dict)
        cached = [dict(zip(columns, row)) for row in store.db.execute("SELECT * FROM ratings")]
        history = sorted(store.db.execute("SELECT table_name, bot_id, game_number, game_key, players, elo "
                                          "FROM rating_history"))
    assert json_rows(going_on.standings.rows) == json_rows(full.standings.rows)
    assert text_table(going_on.standings.rows) == text_table(full.standings.rows)
    assert to_csv(going_on.standings.rows) == to_csv(full.standings.rows)
    assert pairs_csv(going_on.standings.rows) == pairs_csv(full.standings.rows)
    assert going_on.standings.seats == full.standings.seats
    reference = {(row["table_name"], row["bot_id"]): row for row in json_rows(full.standings.rows)}
    assert len(cached) == len(reference)
    for row in cached:
        expected = reference[row["table_name"], row["bot_id"]]
        assert {name: value for name, value in row.items() if name in expected} == \
            {name: value for name, value in expected.items() if name in row}
    assert history == sorted(full_history.rows)


class HistoryKept:
    """A rating history sink (ratings_cache.HistorySink) that keeps every
    row handed to it, and each batch's size."""

    def __init__(self) -> None:
        self.rows: list[tuple] = []
        self.batches: list[int] = []

    def clear_history(self) -> None:
        self.rows.clear()

    def add_history(self, history: list[tuple]) -> None:
        self.rows += history
        self.batches.append(len(history))


def test_runs_onto_a_database_rate_only_their_games_and_equal_the_full_computation(tmp_path, caplog):
    db = tmp_path / "arena.db"
    caplog.set_level(logging.INFO, logger="arena.ratings_cache")
    first = store_run(db, plan("p1", ["ann", "bob", "cat"], 3, 1))
    assert first is not None and not first.added  # nothing saved yet: every game
    assert_as_rated_from_the_start(db)
    for number, bots in enumerate((["ann", "bob", "cat", "dan"], ["bob", "dan", "eve"], ["ann", "eve"]), 2):
        run = plan(f"p{number}", bots, 2, number)
        rated = store_run(db, run)
        assert rated is not None and rated.added, "the run went on from the saved tally"
        assert f"ratings: {len(run)} new games rated onto the saved tally" \
            in caplog.text
        assert_as_rated_from_the_start(db)


def test_an_interrupted_run_resumed_rates_as_the_whole_run_and_goes_on_from_the_tally(tmp_path):
    """A run stopped before its end stores some of its games and no
    ratings; the same command resumes it under the same plan number, and
    its games rate in plan order: as one uninterrupted run rates them."""
    db, whole = tmp_path / "arena.db", tmp_path / "whole.db"
    before, games = plan("p1", ["ann", "bob", "cat"], 2, 1), plan("p2", ["ann", "bob", "cat", "dan"], 3, 2)
    for path in (db, whole):
        store_run(path, before)
    cut = random.Random(5).sample(games, len(games) // 2)
    store_run(db, games, cut, rate=False)
    resumed = store_run(db, games, [record for record in games if record not in cut])
    assert resumed is not None and resumed.added
    assert_as_rated_from_the_start(db)
    store_run(whole, games)
    with Store(db) as interrupted, Store(whole) as uninterrupted:
        assert json_rows(ratings_cache.rate(interrupted).standings.rows) == \
            json_rows(ratings_cache.rate(uninterrupted).standings.rows)


def test_a_run_resumed_after_its_first_games_were_rated_goes_on_from_them(tmp_path):
    """The rated part ends between the two games of a seat-swapped pair and
    inside a pod: the tally keeps the game waiting for its partner, and
    the pair is counted when the partner comes."""
    db = tmp_path / "arena.db"
    games = plan("p1", ["ann", "bob", "cat", "dan"], 3, 1)
    for cut in (7, 13, 27):
        assert games[cut - 1].job.seed == games[cut].job.seed  # a pair or pod cut in two
    start = 0
    for cut in (7, 13, 27, len(games)):
        rated = store_run(db, games, games[start:cut])
        assert rated is not None and rated.added == (start > 0)
        assert_as_rated_from_the_start(db)
        start = cut


def test_games_stored_before_the_last_rated_one_are_rated_again_from_the_start(tmp_path, caplog):
    """A run that resumes a plan whose later games were rated already (its
    missing games come before them in rating order): Elo cannot go on, so
    every game is rated again, and the result is still the reference."""
    db = tmp_path / "arena.db"
    caplog.set_level(logging.INFO, logger="arena.ratings_cache")
    games = plan("p1", ["ann", "bob", "cat", "dan"], 3, 1)
    store_run(db, games, games[::2])
    rated = store_run(db, games, games[1::2])
    assert rated is not None and not rated.added
    assert "comes before it in rating order: every game rated again" in caplog.text
    assert_as_rated_from_the_start(db)
    more = store_run(db, plan("p2", ["bob", "cat", "eve"], 2, 2))
    assert more is not None and more.added  # and the tally written then is gone on from
    assert_as_rated_from_the_start(db)


def test_the_rating_history_goes_to_the_store_a_batch_at_a_time_as_games_are_rated(tmp_path, monkeypatch):
    """A million games' rating history is hundreds of MB: rating every game
    hands it to the store (in the transaction that rewrites the cache) a
    batch of HISTORY_BATCH rows at a time, as games are rated, never whole
    at the end; what is stored is the whole history all the same."""
    db = tmp_path / "arena.db"
    games = plan("p1", ["ann", "bob", "cat", "dan"], 3, 1)
    store_run(db, games, rate=False)
    batches: list[int] = []
    add_history = RatingsWriter.add_history

    def counted(writer: RatingsWriter, history: list[tuple]) -> None:
        batches.append(len(history))
        add_history(writer, history)

    monkeypatch.setattr(RatingsWriter, "add_history", counted)
    monkeypatch.setattr(ratings_cache, "HISTORY_BATCH", 10)
    with Store(db, writer=True) as store:
        rated = ratings_cache.rewrite(store)
    assert not rated.added
    most = 2 * 3  # rows of one game: two tables (its own and overall), three seats at most
    assert max(batches) < 10 + most
    assert len(batches) >= sum(batches) // (10 + most) > 10
    assert_as_rated_from_the_start(db)


def test_seat_swapped_pairs_found_again_from_the_store_give_the_same_standings(tmp_path, monkeypatch):
    """Rating every game holds the games waiting for their seat-swapped
    partner of only so many pairs of bots on a seed (a store of a million
    unpaired games would not fit); a pair's waiting games let go are found
    again among its earlier games in the store: the same standings. A pair
    never let go has no earlier games, and nothing is looked for."""
    db = tmp_path / "arena.db"
    games = plan("p1", ["ann", "bob", "cat", "dan", "eve"], 4, 1)
    # Played in another order: a pair's games far apart, other pairs' between them.
    store_run(db, [dataclasses.replace(record, job=dataclasses.replace(record.job, order=order)) for order, record
                   in enumerate(random.Random(3).sample(games, len(games)))], rate=False)
    looked_for = []
    games_on_seed_before = Store.games_on_seed_before

    def spied(store: Store, *args: object) -> object:
        looked_for.append(args)
        return games_on_seed_before(store, *args)

    monkeypatch.setattr(Store, "games_on_seed_before", spied)
    with Store(db) as store:
        every_pair_held = ratings_cache.rate(store, full=True)
        assert looked_for == []
        monkeypatch.setattr(units, "UNITS_KEPT", 1)
        few_held = ratings_cache.rate(store, full=True)
    assert looked_for
    assert len(few_held.tally.pairs._waiting) <= 1
    assert json_rows(few_held.standings.rows) == json_rows(every_pair_held.standings.rows)
    assert pairs_csv(few_held.standings.rows) == pairs_csv(every_pair_held.standings.rows)


def test_the_end_of_a_run_reads_what_is_new_not_every_stored_game(tmp_path):
    """Saying which games are referee failures and rating a run onto the
    saved tally, as the end of every run does, costs what the run stored:
    SQLite does the same work (counted in its virtual machine's steps,
    not timed) after ten times as many games stored before. (Finding the
    referee failures read every game's row: seconds at a million games
    not in the page cache.)"""
    steps = []
    for rounds in (2, 20):
        db = tmp_path / f"{rounds}.db"
        store_run(db, plan("before", ["ann", "bob", "cat", "dan", "eve"], rounds, 1))
        run = plan("run", ["ann", "bob", "cat"], 1, 2)
        run[4] = GameRecord.referee_failure(run[4].job, "its worker died twice")
        store_run(db, run, rate=False)
        with Store(db, writer=True) as store:
            counted = itertools.count()
            store.db.conn.set_progress_handler(lambda counted=counted: next(counted) and 0, 10)
            assert [key for key, _, _ in store.referee_failures()] == [run[4].job.key]
            assert ratings_cache.rewrite(store).added
            steps.append(next(counted))
    assert steps[1] < 1.2 * steps[0], steps


def _delete_a_game(db: Path) -> None:
    with closing(sqlite3.connect(db)) as conn:
        key = conn.execute("SELECT key FROM games WHERE players = 2 LIMIT 1 OFFSET 3").fetchone()[0]
        conn.execute("DELETE FROM results WHERE game_key = ?", [key])
        conn.execute("DELETE FROM games WHERE key = ?", [key])
        conn.commit()


def _change_a_result(db: Path) -> None:
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("UPDATE games SET placements = '[2, 1]' WHERE key = "
                     "(SELECT key FROM games WHERE players = 2 AND placements = '[1, 2]' LIMIT 1)")
        conn.commit()


def _insert_a_game_below(db: Path) -> None:
    with closing(sqlite3.connect(db)) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(games)") if row[1] not in ("finished_at_iso",)]
        row = conn.execute(f"SELECT {', '.join(columns)} FROM games WHERE players = 2 LIMIT 1").fetchone()
        values = dict(zip(columns, row)) | {"key": "inserted/by/hand", "job_order": 10**6}
        conn.execute(f"INSERT INTO games (rowid, {', '.join(columns)}) VALUES (-1, {', '.join('?' * len(columns))})",
                     [values[name] for name in columns])
        conn.commit()


def _triggers_lost(db: Path) -> None:
    """As a later migration that rebuilds the games table would leave them
    (a writer makes them again, and drops the tally: games may have changed
    unseen)."""
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("DROP TRIGGER rating_state_game_deleted")
        conn.commit()


def _older_schema_tally(db: Path) -> None:
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("UPDATE rating_state SET schema_version = schema_version - 1")
        conn.commit()


def _other_rating_code(db: Path) -> None:
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("UPDATE rating_state SET version = 'another arena'")
        conn.commit()


@pytest.mark.parametrize("change", [_delete_a_game, _change_a_result, _insert_a_game_below, _triggers_lost,
                                    _older_schema_tally, _other_rating_code])
def test_a_tally_that_cannot_be_trusted_is_not_gone_on_from(change, tmp_path):
    db = tmp_path / "arena.db"
    store_run(db, plan("p1", ["ann", "bob", "cat"], 3, 1))
    with Store(db) as store:
        assert ratings_cache.rate(store).added
    change(db)
    with Store(db) as store:
        assert not ratings_cache.rate(store).added
    rated = store_run(db, plan("p2", ["ann", "dan"], 2, 2))
    assert rated is not None and not rated.added
    assert_as_rated_from_the_start(db)
    rated = store_run(db, plan("p3", ["bob", "eve"], 2, 3))
    assert rated is not None and rated.added  # the tally rewritten then is gone on from
    assert_as_rated_from_the_start(db)


def test_tournaments_through_the_command_line_give_the_full_computation_in_text_json_and_on_the_site(tmp_path):
    """Real tournaments (random bots in their sandboxes) onto one database:
    the second and third go on from the saved tally (their log says so),
    and ``arena standings`` in every format, the ratings cache and the
    site's Elo equal rating every game from the start."""
    random_bots(tmp_path / "bots", ["alpha", "beta"])
    arena("tournament", "--games", "slyyde", "--rounds", "2", "--seed", "1", cwd=tmp_path, check=True)
    random_bots(tmp_path / "bots", ["gamma"])
    arena("tournament", "--games", "slyyde", "--rounds", "2", "--seed", "1", cwd=tmp_path, check=True)
    arena("tournament", "--games", "slyyde", "--players", "3", "--rounds", "1", "--seed", "1", cwd=tmp_path,
          check=True)
    log = (tmp_path / "logs" / "arena.log").read_text()
    assert re.findall(r"ratings: (\d+) new games rated onto the saved tally", log) == ["8", "3"]
    db = tmp_path / "arena.db"
    assert_as_rated_from_the_start(db)
    with Store(db) as store:
        full = ratings_cache.rate(store, full=True).standings.rows
    shown = json.loads(arena("standings", "--format", "json", cwd=tmp_path, check=True).stdout)
    assert shown == json_rows(full)
    text = arena("standings", cwd=tmp_path, check=True).stdout
    table = text_table(full)
    assert text.splitlines()[:len(table)] == table
    with Store(db) as store:
        index = build_site(store, tmp_path / "site").read_text()
    cells = re.findall(r'data-value="(-?\d+\.\d{3})">(-?\d+)<', index)
    shown_elo = {(round(float(value), 1), text) for value, text in cells}
    for row in full:
        assert (row.elo, f"{row.elo:.0f}") in shown_elo, row
