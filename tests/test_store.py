"""The store: one transaction per game, each game once, records intact."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import datetime
from pathlib import Path

import pytest
import sqlite_utils
from support import (
    undo_schema_11,
    undo_schema_12,
    undo_schema_17,
    undo_schema_18,
    undo_schema_20,
    whole_events,
    without_browser_engine,
)

from arena import ratings_cache
from arena.errors import StoreError
from arena.games import get_game, get_spec
from arena.games.events import replay
from arena.games.playout import random_playout
from arena.games.replays import REPLAY_FORMAT, with_replay
from arena.luck.measure import game_luck, stored_luck
from arena.luck.stored import measure_missing
from arena.model import BotSpec, DecisionTimes, Event, Forfeit, GameRecord, Job, Termination, offered_digest
from arena.store import MIGRATIONS, SCHEMA_VERSION, Store, register_functions

SPECS = [BotSpec(name, ("true",), f"/bots/{name}", name * 16) for name in ("a", "b")]


def played(key: str, seed: int, order: int = 0) -> GameRecord:
    final, events = random_playout(get_game("slyyde"), 2, seed)
    outcome = final.outcome()
    job = Job(key, "slyyde", tuple(s.bot_id for s in SPECS), seed, 0, order)
    return GameRecord(job, events, outcome.placements, Termination.NORMAL, scores=outcome.scores)


def test_a_game_is_stored_once_with_its_whole_record(tmp_path):
    with Store(tmp_path / "r.db", writer=True) as store:
        store.add_bots(SPECS)
        record = played("k1", 4)
        assert store.add_game(record) is True
        assert store.add_game(record) is False
        assert len(list(store.games())) == 1
        assert whole_events(store, "k1") == record.events
        [row] = store.games()
        assert row.winners == record.winners and row.seats == record.job.seats
        points = dict(store.db.execute("SELECT seat, points FROM results WHERE game_key='k1'").fetchall())
        assert points == {s: (1.0 if s in record.winners else 0.0) for s in (0, 1)}
    with Store(tmp_path / "r.db") as reader:
        *_, final = replay(get_game("slyyde"), 2, {}, whole_events(reader, "k1"))
        assert final.outcome().winners == record.winners


def test_games_come_back_in_plan_order_not_finish_order(tmp_path):
    with Store(tmp_path / "r.db", writer=True) as store:
        store.add_bots(SPECS)
        for key, order in (("late", 5), ("early", 1), ("middle", 3)):
            store.add_game(played(key, order, order))
        assert [g.key for g in store.games()] == ["early", "middle", "late"]
        assert store.stored_keys() == {"early", "middle", "late"}


def test_a_draw_and_a_forfeit_are_stored_as_such(tmp_path):
    with Store(tmp_path / "r.db", writer=True) as store:
        store.add_bots(SPECS)
        job = Job("cap", "slyyde", tuple(s.bot_id for s in SPECS), 1)
        store.add_game(GameRecord(job, [], (1, 1), Termination.TURN_CAP))
        job = Job("ff", "slyyde", tuple(s.bot_id for s in SPECS), 1, order=1)
        store.add_game(GameRecord(job, [], (2, 1), Termination.TIMEOUT,
                                  (Forfeit(0, Termination.TIMEOUT, "no answer within 1 s"),)))
        draw, forfeit = store.games()
        assert draw.winners == () and draw.termination.value == "turn_cap"
        assert (forfeit.forfeit_seat, forfeit.termination.value, forfeit.detail) == (
            0, "timeout", "no answer within 1 s")
        points = store.db.execute("SELECT game_key, seat, points FROM results ORDER BY game_key, seat").fetchall()
        assert points == [("cap", 0, 0.5), ("cap", 1, 0.5), ("ff", 0, 0.0), ("ff", 1, 1.0)]


def test_a_referee_failure_is_stored_once_without_a_result_and_counted_nowhere(tmp_path):
    """A game the referee could not play (its worker hung or died twice):
    kept, with why, so a rerun does not play it again, but no result for
    any seat, so standings, ratings, the site and the gauntlet skip it."""
    job = Job("lost", "slyyde", tuple(s.bot_id for s in SPECS), 1, order=1)
    record = GameRecord.from_json(GameRecord.referee_failure(job, "worker died twice").to_json())
    assert (record.termination, record.placements, record.failure) == (
        Termination.REFEREE_FAILURE, (), "worker died twice")
    with Store(tmp_path / "r.db", writer=True) as store:
        store.add_bots(SPECS)
        store.add_game(played("ok", 4))
        assert store.add_game(record) is True
        assert store.add_game(record) is False
        assert store.stored_keys() == {"ok", "lost"} and store.count_games() == 2
        assert [game.key for game in store.games()] == ["ok"]
        assert store.placements(["ok", "lost"]).keys() == {"ok"}
        assert store.referee_failures() == [("lost", job.seats, "worker died twice")]
        assert store.db.execute("SELECT count(*) FROM results WHERE game_key = 'lost'").fetchone()[0] == 0


def test_decision_times_are_stored_beside_the_events_to_a_tenth_of_a_millisecond(tmp_path):
    record = played("k1", 4)
    decisions = sum(1 for event in record.events if event["kind"] == "decision")
    record.times = DecisionTimes(0.5, tuple(0.001 * n + 0.0000321 for n in range(decisions)))
    with Store(tmp_path / "r.db", writer=True) as store:
        store.add_bots(SPECS)
        store.add_game(record)
        assert store.decision_times("k1") == DecisionTimes(0.5, tuple(round(0.001 * n, 4) for n in range(decisions)))
        assert whole_events(store, "k1") == record.events


def test_a_database_from_before_decision_times_reads_none(tmp_path):
    """A database from before arena measured decisions gains the columns,
    left empty for the games it held: those games have no times."""
    before = next(n for n, migration in enumerate(MIGRATIONS) if "decision_times" in migration.__name__)
    path = tmp_path / "r.db"
    db = sqlite_utils.Database(path)
    db.table("meta").create({"key": str, "value": str}, pk="key")
    db["meta"].insert_all([{"key": "application", "value": "arena"}, {"key": "schema_version", "value": str(before)}])
    for migration in MIGRATIONS[:before]:
        migration(db)
    db.close()
    with Store(path, writer=True) as store:
        assert store._meta()["schema_version"] == str(SCHEMA_VERSION)
        assert {"move_timeout", "decision_times"} <= set(store.db["games"].columns_dict)
        store.add_bots(SPECS)
        store.add_game(played("k1", 4))
        store.db.execute("UPDATE games SET move_timeout = NULL, decision_times = NULL")  # as an older row reads
        assert store.decision_times("k1") == DecisionTimes()


def test_a_game_whose_page_replays_its_record_gets_no_replay_made():
    record = played("k1", 4)
    assert get_spec("slyyde").engine_js is not None and with_replay(record) is record


def test_a_replay_is_stored_with_its_game_and_read_back_only_in_its_format(tmp_path, monkeypatch):
    without_browser_engine(monkeypatch, "slyyde")
    record = with_replay(played("k1", 4))
    assert record.replay is not None
    with Store(tmp_path / "r.db", writer=True) as store:
        store.add_bots(SPECS)
        store.add_game(record)
        store.add_game(played("bare", 5, 1))
    with Store(tmp_path / "r.db") as reader:
        assert reader.replay("k1", REPLAY_FORMAT) == record.replay
        assert reader.replay("k1", REPLAY_FORMAT + 1) is None
        assert reader.replay("bare", REPLAY_FORMAT) is None


def test_a_database_from_before_replays_were_stored_is_upgraded_with_its_games_intact(tmp_path, monkeypatch):
    without_browser_engine(monkeypatch, "slyyde")
    before = next(n for n, migration in enumerate(MIGRATIONS) if "replays" in migration.__name__)
    db = tmp_path / "r.db"
    with Store(db, writer=True) as store:
        store.add_bots(SPECS)
        store.add_game(played("old", 4))
    with closing(sqlite3.connect(db)) as conn:  # as the schema before replays left it
        undo_schema_11(conn)
        conn.execute("ALTER TABLE games DROP COLUMN replay")
        conn.execute("ALTER TABLE games DROP COLUMN replay_format")
        conn.execute("ALTER TABLE ratings DROP COLUMN joint_group")  # and what later migrations add
        conn.execute("ALTER TABLE ratings DROP COLUMN first_place_share")
        conn.execute("DROP TABLE dice_key")
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", [str(before)])
        conn.commit()
    with pytest.raises(StoreError, match="older schema"):
        Store(db)
    with Store(db, writer=True) as store:
        assert store.replay("old", REPLAY_FORMAT) is None
        assert whole_events(store, "old") == played("old", 4).events
        store.add_game(with_replay(played("new", 5, 1)))
        assert store.replay("new", REPLAY_FORMAT) is not None


def test_the_luck_of_a_game_is_stored_per_seat_beside_its_points_and_per_roll_with_the_game(tmp_path):
    record = played("k1", 4)
    luck = stored_luck("slyyde", 2, {}, record.events, 4)
    assert luck == game_luck("slyyde", 2, {}, record.events, 4).to_json()
    with Store(tmp_path / "r.db", writer=True) as store:
        store.add_bots(SPECS)
        store.add_game(record)
        store.add_game(played("bare", 5, 1))
        assert store.unmeasured_luck() == ["k1", "bare"]
        store.add_luck({"k1": luck})
        store.add_luck({"k1": {"totals": [9.0, -9.0], "rolls": []}})  # measured once: kept as it is
        assert store.unmeasured_luck() == ["bare"]
    with Store(tmp_path / "r.db") as reader:
        assert reader.luck("k1") == luck
        assert reader.luck("bare") is None
        assert reader.game("k1").luck == tuple(luck["totals"]) and reader.game("bare").luck is None
        rows = reader.db.execute("SELECT game_key, seat, luck FROM results ORDER BY game_key, seat").fetchall()
    assert rows == [("bare", 0, None), ("bare", 1, None), ("k1", 0, luck["totals"][0]), ("k1", 1, luck["totals"][1])]


def test_a_game_whose_luck_cannot_be_measured_is_stored_with_why_and_not_tried_again(tmp_path):
    record = played("k1", 4)
    broken = [*record.events[:3], {"kind": "decision", "seat": 0, "offered": [{}], "chosen": 5}]
    luck = stored_luck("slyyde", 2, {}, broken, 4)
    assert set(luck) == {"problem"} and luck["problem"].startswith("the luck of this game cannot be measured")
    with Store(tmp_path / "r.db", writer=True) as store:
        store.add_bots(SPECS)
        store.add_game(record)
        store.add_luck({"k1": luck})
        assert store.unmeasured_luck() == [] and store.game("k1").luck is None
        assert store.db.execute("SELECT luck FROM results").fetchall() == [(None,), (None,)]


def test_a_database_from_before_luck_is_upgraded_and_its_games_luck_measured(tmp_path):
    db = tmp_path / "r.db"
    with Store(db, writer=True) as store:
        store.add_bots(SPECS)
        for n in range(3):
            store.add_game(played(f"old{n}", 4 + n, n))
    with closing(sqlite3.connect(db)) as conn:  # as schema 11 left it
        undo_schema_12(conn)
        conn.execute("UPDATE meta SET value = '11' WHERE key = 'schema_version'")
        conn.commit()
    with pytest.raises(StoreError, match="older schema"):
        Store(db)
    with Store(db, writer=True) as store:
        assert store.unmeasured_luck() == ["old0", "old1", "old2"]
        assert whole_events(store, "old1") == played("old1", 5, 1).events
        assert measure_missing(store, workers=2) == 3
        assert measure_missing(store) == 0
        for n in range(3):
            assert store.luck(f"old{n}") == game_luck("slyyde", 2, {}, played("old", 4 + n).events, 4 + n).to_json()


def test_a_database_of_schema_10_is_upgraded_in_place_and_reads_in_sql(tmp_path):
    """Issue 27: schema 11 adds ISO times, the player count in results,
    and the views events and moves over the compressed records; a file of
    schema 10 gets them with its games intact, and plain SQL reads them (the
    functions registered as arena's plugins register them)."""
    db = tmp_path / "r.db"
    with Store(db, writer=True) as store:
        store.add_bots(SPECS)
        store.add_game(played("old", 4))
    with closing(sqlite3.connect(db)) as conn:
        undo_schema_11(conn)
        conn.execute("UPDATE meta SET value = '10' WHERE key = 'schema_version'")
        conn.commit()
    with Store(db, writer=True) as store:
        store.add_game(played("new", 5, 1))
        events = {key: whole_events(store, key) for key in ("old", "new")}
    with closing(sqlite3.connect(db)) as conn:
        register_functions(conn)
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(SCHEMA_VERSION),)
        assert conn.execute("SELECT DISTINCT players FROM results").fetchall() == [(2,)]
        finished, iso = conn.execute("SELECT finished_at, finished_at_iso FROM games WHERE key = 'old'").fetchone()
        assert datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() == pytest.approx(finished, abs=1e-3)
        for key, game_events in events.items():
            decisions = [event for event in game_events if event["kind"] == "decision"]
            rows = conn.execute("SELECT seat, bot_id, action, offered, chosen FROM moves WHERE game_key = ? "
                                "ORDER BY event", [key]).fetchall()
            assert [(seat, json.loads(action), json.loads(offered), chosen) for seat, _, action, offered, chosen
                    in rows] == [(event["seat"], event["offered"][event["chosen"]], event["offered"],
                                  event["chosen"]) for event in decisions]
            seats = json.loads(conn.execute("SELECT seats FROM games WHERE key = ?", [key]).fetchone()[0])
            assert [bot_id for _, bot_id, *_ in rows] == [seats[event["seat"]] for event in decisions]
            kinds = conn.execute("SELECT kind, detail FROM events WHERE game_key = ? ORDER BY event", [key]).fetchall()
            assert [(kind, json.loads(detail)) for kind, detail in kinds] == \
                [(event["kind"], event) for event in game_events]


def test_a_records_decision_times_are_told_apart_by_seat():
    events: list[Event] = [{"kind": "chance", "stream": "seat:0", "purpose": "roll", "values": [3]},
                           {"kind": "decision", "seat": 0, "offered": [{}], "chosen": 0},
                           {"kind": "decision", "seat": 1, "offered": [{}], "chosen": 0},
                           {"kind": "retire", "seat": 1, "reason": "timeout"},
                           {"kind": "decision", "seat": 0, "offered": [{}], "chosen": 0}]
    record = GameRecord(Job("k", "detour", ("a", "b"), 1), events, (1, 2), Termination.TIMEOUT,
                        times=DecisionTimes(1.0, (0.25, 0.5, 0.125)))
    assert record.decision_seconds(0) == [0.25, 0.125]
    assert record.decision_seconds(1) == [0.5]


def test_sqlite_utils_reads_the_moves_through_arenas_plugin(tmp_path):
    """sqlite-utils (a dependency, the tool docs/how-to/query-results.md names) loads arena's
    plugin, which gives its connections arena_json: the views read."""
    record = played("k1", 4)
    with Store(tmp_path / "r.db", writer=True) as store:
        store.add_bots(SPECS)
        store.add_game(record)
    done = subprocess.run([sys.executable, "-m", "sqlite_utils", "query", str(tmp_path / "r.db"),
                           "select seat, action from moves where game_key = 'k1' order by event"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    decisions = [event for event in record.events if event["kind"] == "decision"]
    assert [(row["seat"], json.loads(row["action"])) for row in json.loads(done.stdout)] == \
        [(event["seat"], event["offered"][event["chosen"]]) for event in decisions]


def _detour_played(key: str, seed: int, order: int) -> GameRecord:
    """A game with decisions, timed as the store keeps times (to 0.1 ms)."""
    final, events = random_playout(get_game("detour"), 2, seed)
    outcome = final.outcome()
    job = Job(key, "detour", tuple(s.bot_id for s in SPECS), seed, 0, order)
    decisions = sum(1 for event in events if event["kind"] == "decision")
    times = DecisionTimes(0.5, tuple(round(0.00123 * (n % 7 + 1), 4) for n in range(decisions)))
    return GameRecord(job, events, outcome.placements, Termination.NORMAL, scores=outcome.scores, times=times)


def _detour_forfeit(key: str, seed: int, order: int) -> GameRecord:
    """A game that seat 0 lost on time, its record cut where it did."""
    played = _detour_played(key, seed, order)
    return dataclasses.replace(played, events=played.events[:9], placements=(2, 1), termination=Termination.TIMEOUT,
                               scores=None, forfeits=(Forfeit(0, Termination.TIMEOUT, "no answer within 0.5 s"),))


def _store_and_rate(db: Path, records: list[GameRecord]) -> dict[str, object]:
    """Store the records and the ratings cache; what arena reads back of them (``_everything``)."""
    with Store(db, writer=True) as store:
        store.add_bots(SPECS)
        for record in records:
            store.add_game(record)
        ratings_cache.rewrite(store)
        return _everything(store)


def _everything(store: Store) -> dict[str, object]:
    """Every game's stored parts, as arena reads them, and every row of
    results and of the ratings cache."""
    games = {game.key: (game, whole_events(store, game.key), store.replay(game.key, REPLAY_FORMAT),
                        store.decision_times(game.key)) for game in store.games()}
    tables = {table: store.db.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3").fetchall()
              for table in ("results", "ratings", "rating_history")}
    events = store.db.execute("SELECT game_key, event, kind, seat, detail FROM events ORDER BY 1, 2").fetchall()
    return {"games": games, "failures": store.referee_failures(), "views": events, **tables}


def test_a_database_of_schema_11_is_compacted_in_place_with_every_game_intact(tmp_path, monkeypatch):
    """Issue 29: schema 14 keeps a game's events in its replay alone where
    the replay holds them, compresses the decision times, and makes results
    and rating_history WITHOUT ROWID. A file as arena 11 wrote it (games
    with and without replays, a forfeit cut short, a referee failure, the
    ratings cache) upgrades in place, and reads back exactly as before."""
    for game in ("detour", "slyyde"):  # games whose replays arena 11 stored
        without_browser_engine(monkeypatch, game)
    db = tmp_path / "r.db"
    forfeit = _detour_forfeit("ff", 8, 3)
    records = [with_replay(_detour_played("replayed", 4, 0)), _detour_played("bare", 5, 1),
               with_replay(played("slyyde", 6, 2)), with_replay(forfeit),
               GameRecord.referee_failure(Job("lost", "detour", tuple(s.bot_id for s in SPECS), 9, 0, 4), "died")]
    assert all(record.replay is not None for record in records if record.job.key not in ("bare", "lost"))
    before = _store_and_rate(db, records)
    assert before["games"]["replayed"][1:] == (records[0].events, records[0].replay, records[0].times)
    # A file of schema 11 knows no plans (schema 13): its games come back as
    # plan 0; and schema 17 keeps no replay (the site makes them).
    before["games"] = {key: (dataclasses.replace(game, plan=0), events, None, times)
                       for key, (game, events, _, times) in before["games"].items()}
    with closing(sqlite3.connect(db)) as conn:
        undo_schema_12(conn)
        assert conn.execute("SELECT count(*) FROM games WHERE record IS NULL OR typeof(decision_times) != 'text'"
                            ).fetchone() == (0,)
        conn.execute("UPDATE meta SET value = '11' WHERE key = 'schema_version'")
        conn.commit()
    with Store(db, writer=True) as store:
        assert store.db.execute("PRAGMA freelist_count").fetchone() == (0,)  # the pages freed given back
        ratings_cache.rewrite(store)  # schema 20 changed the ratings cache's columns: the next run rewrites it
        assert _everything(store) == before
        stored = dict(store.db.execute("SELECT key, record IS NULL OR replay IS NOT NULL FROM games").fetchall())
        assert stored == {"replayed": 0, "bare": 0, "slyyde": 0, "ff": 0, "lost": 0}
        assert {typeof for (typeof,) in store.db.execute("SELECT typeof(decision_times) FROM games")} == {"blob"}
        for table in ("results", "rating_history"):
            sql = store.db.execute("SELECT sql FROM sqlite_master WHERE name = ?", [table]).fetchone()[0]
            assert sql.endswith("WITHOUT ROWID")
        assert store.db.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'results'"
                                ).fetchall() == [("idx_results_bot_id_game",)]
        store.add_game(with_replay(_detour_played("new", 10, 5)))
        assert whole_events(store, "new") == _detour_played("new", 10, 5).events


def test_a_database_of_schema_16_keeps_its_records_without_the_offered_actions(tmp_path, monkeypatch):
    """Issue 29: schema 17 stores each decision's chosen action, not the
    actions offered (the engine makes them again, a digest checks them), and
    no replay. A file as arena 16 wrote it (records inside replays, one
    without, a forfeit cut short, a referee failure) upgrades in place, its
    games whole as before, the moves view showing every chosen action."""
    without_browser_engine(monkeypatch, "slyyde")  # a game whose replay arena 16 stored
    db = tmp_path / "r.db"
    forfeit = _detour_forfeit("ff", 8, 3)
    records = [_detour_played("bare", 5, 1), with_replay(played("slyyde", 6, 2)), forfeit,
               GameRecord.referee_failure(Job("lost", "detour", tuple(s.bot_id for s in SPECS), 9, 0, 4), "died")]
    before = _store_and_rate(db, records)
    with closing(sqlite3.connect(db)) as conn:
        undo_schema_17(conn)
        conn.execute("UPDATE meta SET value = '16' WHERE key = 'schema_version'")
        conn.commit()
        assert conn.execute("SELECT count(*) FROM games WHERE record LIKE '%offered%'").fetchone() == (0,)
    with Store(db, writer=True) as store:
        ratings_cache.rewrite(store)  # schema 20 changed the ratings cache's columns: the next run rewrites it
        after = _everything(store)
        assert after["games"] == {key: (game, events, None, times)
                                  for key, (game, events, _, times) in before["games"].items()}
        assert {key: value for key, value in after.items() if key != "games"} == \
               {key: value for key, value in before.items() if key != "games"}
        assert store.db.execute("PRAGMA freelist_count").fetchone() == (0,)
        for record in records[:3]:
            events, digest = store.record(record.job.key)
            assert not any("offered" in event for event in events)
            assert digest == offered_digest(event["offered"] for event in record.events if event["kind"] == "decision")
        moves = store.db.execute("SELECT game_key, action, offered FROM moves ORDER BY game_key, event").fetchall()
        assert [(key, json.loads(action)) for key, action, _ in moves] == [
            (record.job.key, event["offered"][event["chosen"]])
            for record in sorted(records[:3], key=lambda record: record.job.key)
            for event in record.events if event["kind"] == "decision"]
        assert {offered for *_, offered in moves} == {None}


def test_a_database_of_schema_17_stores_its_luck_compressed(tmp_path):
    """Issue 29: schema 18 stores the luck of every roll zlib-compressed (a
    third of its JSON text). A file as arena 17 wrote it (luck measured,
    luck that cannot be, luck not measured yet) upgrades in place, and every
    game's luck reads back equal, in Python and in SQL."""
    db = tmp_path / "r.db"
    records = [played(f"g{n}", 4 + n, n) for n in range(3)]
    _store_and_rate(db, records)
    broken = [*records[1].events[:3], {"kind": "decision", "seat": 0, "offered": [{}], "chosen": 5}]
    with Store(db, writer=True) as store:
        store.add_luck({"g0": stored_luck("slyyde", 2, {}, records[0].events, 4),
                        "g1": stored_luck("slyyde", 2, {}, broken, 5)})
        before = {key: (store.luck(key), store.replay_luck(key)) for key in ("g0", "g1", "g2")}
    with closing(sqlite3.connect(db)) as conn:
        undo_schema_18(conn)
        conn.execute("UPDATE meta SET value = '17' WHERE key = 'schema_version'")
        conn.commit()
        assert [type(luck) for (luck,) in conn.execute("SELECT luck FROM games ORDER BY key")] == [str, str, type(None)]
        text = conn.execute("SELECT luck FROM games WHERE key = 'g0'").fetchone()[0]
    with Store(db, writer=True) as store:
        assert {key: (store.luck(key), store.replay_luck(key)) for key in ("g0", "g1", "g2")} == before
        assert before["g0"][1] == text and before["g1"][1] is None and before["g2"] == (None, None)
        assert [game.luck for game in store.games()] == [tuple(before["g0"][0]["totals"]), None, None]
        stored, length = store.db.execute("SELECT arena_json(luck), length(luck) FROM games "
                                          "WHERE key = 'g0'").fetchone()
        assert stored == text and length < len(text) / 2
        assert store.unmeasured_luck() == ["g2"]


def test_a_ratings_cache_of_schema_19_is_rewritten_with_posterior_ratings(tmp_path):
    """Schema 20: the ratings cache loses ``joint_bound`` (every bot has a
    posterior rating) and gains each bot's tier and the prior's weight;
    the next rating of the games fills them."""
    db = tmp_path / "r.db"
    _store_and_rate(db, [played(f"g{n}", 4 + n, n) for n in range(3)])
    with closing(sqlite3.connect(db)) as conn:
        undo_schema_20(conn)
        conn.execute("UPDATE meta SET value = '19' WHERE key = 'schema_version'")
        conn.commit()
    with Store(db, writer=True) as store:
        columns = store.db.table("ratings").columns_dict
        assert "joint_bound" not in columns and {"joint_tier", "joint_prior_draws"} <= columns.keys()
        ratings_cache.rewrite(store)
        rows = list(store.db.table("ratings").rows)
    assert rows and all(row["joint"] is not None and row["joint_tier"] >= 1 and row["joint_prior_draws"] > 0
                        for row in rows)

