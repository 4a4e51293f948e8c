"""Benchmark: build the leaderboard site from a large results database.

Makes a database of GAMES games (100,000 by default), then times a first
build of the site, a second build with nothing new (which must rewrite no
replay), a build after adding 1,000 games, and the end of a 12-game
tournament onto that database and site, and prints the time, the size on
disk of the database and of the site (whole, per game, files per game),
the peak memory (resident set) of each step and of them all, and where the
database's bytes go (each table and index, SQLite's dbstat).

The games are real records: random playouts of every registered game
(arena.games.playout), each replayable by the engine (a sample is replayed
to make sure), with decision times as random bots take. To build a million
quickly, distinct games (--distinct per game; by default 2% of all games)
are made once, on every core, and each is stored many times under different
keys and between different pairs of bots, in one transaction, row for row
as Store.add_game writes them (its columns compressed by
arena.store.game_blobs), with the luck of its dice as a tournament stores
it (arena.luck.stored; measured once per distinct game, so that the build
does not measure a million games' luck); every stored record still
replays exactly (its seed and events belong together). How many are distinct changes no stored
byte per game (each game's columns are compressed on their own), only the
mix of game lengths sampled. Each is stored as the worker that plays a game
hands it over (arena.games.replays.with_replay: the record alone, for a
game whose replay page runs its engine; with its replay made in Python,
for one without). Some games are stored as
forfeits (the record cut where the bot failed) and some as solo Slyyde
games.

    .venv/bin/python bench/leaderboard.py                 # 100,000 games
    .venv/bin/python bench/leaderboard.py --games 1000000       # a million
    .venv/bin/python bench/leaderboard.py --games 5000 --keep /tmp/lb
    .venv/bin/python bench/leaderboard.py --games 1000000 --filled /data/1m.db   # fill once, time again

--filled FILE keeps a copy of the database as filled (before any build)
in FILE, and a later run given the same FILE (and the same --games, --bots
and --seed) starts from a copy of it instead of filling again (upgraded in
place first, where an older arena filled it): the fill of a million games
takes minutes and times nothing arena does.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena import results  # noqa: E402
from arena.games import GAMES  # noqa: E402
from arena.games.events import full_events  # noqa: E402
from arena.games.playout import random_playout  # noqa: E402
from arena.games.replays import with_replay  # noqa: E402
from arena.luck.measure import stored_luck  # noqa: E402
from arena.model import BotSpec, DecisionTimes, Forfeit, GameRecord, Job, Termination  # noqa: E402
from arena.store import Store, game_blobs, luck_blob  # noqa: E402

FORFEIT_RATE = 0.02
SOLO_RATE = 0.03
NEW_GAMES = 1000


def make_bots(count: int) -> list[BotSpec]:
    return [BotSpec(f"bench_bot_{n:02d}", (sys.executable, "bots/random_bot.py"), "bots/random_bot.py",
                    f"{n:02d}" + "ab" * 31) for n in range(count)]


@dataclass(frozen=True)
class Distinct:
    """One distinct game as stored: what its rows need, compressed as the
    store compresses it (arena.store.game_blobs), without its events in
    memory (a million games' pool fits in a few hundred MB)."""

    game: str
    players: int
    seed: int
    placements: tuple[int, ...]
    termination: Termination
    forfeits: tuple[Forfeit, ...]
    scores: tuple[float, ...] | None
    decisions: int
    blobs: dict[str, bytes | str | None]
    replay_format: int | None
    luck: dict[str, Any] | None


def distinct_games(per_game: int, seed: int) -> dict[tuple[str, int], list[Distinct]]:
    """(game, players) -> distinct games: 2-player games of every
    registered game and solo games where a game allows them (a quarter as
    many), some of them forfeits (the record cut where the bot failed),
    each made once on every core (a playout and its replay)."""
    tasks = []
    for name, game in sorted(GAMES.items()):
        for players in [2] + ([1] if game.min_players == 1 else []):
            tasks += [(name, players, seed * 1_000_003 + n)
                      for n in range(per_game if players > 1 else max(1, per_game // 4))]
    pool: dict[tuple[str, int], list[Distinct]] = {}
    with ProcessPoolExecutor(os.cpu_count()) as executor:
        for made in executor.map(_distinct, tasks, chunksize=16):
            pool.setdefault((made.game, made.players), []).append(made)
    return pool


def _distinct(task: tuple[str, int, int]) -> Distinct:
    name, players, game_seed = task
    chooser = random.Random(game_seed)
    final, events = random_playout(GAMES[name], players, game_seed)
    seats = tuple(f"bench_bot_{seat:02d}" for seat in range(players))
    job = Job(f"distinct/{game_seed}", name, seats, game_seed, 0, 0)
    if players > 1 and chooser.random() < FORFEIT_RATE and len(events) > 2:
        events = events[:chooser.randrange(1, len(events))]
        loser = chooser.randrange(players)
        reason = chooser.choice([Termination.TIMEOUT, Termination.CRASH, Termination.BAD_OUTPUT])
        placements = tuple(players if seat == loser else 1 for seat in range(players))
        record = GameRecord(job, events, placements, reason, (Forfeit(loser, reason, "bench forfeit"),))
    else:
        outcome = final.outcome()
        termination = Termination.NORMAL if outcome.termination is Termination.NORMAL else Termination.TURN_CAP
        record = GameRecord(job, events, outcome.placements, termination, scores=outcome.scores)
    # Answer times as random bots take (about a millisecond, a long tail; stored to 0.1 ms, game_blobs).
    record = dataclasses.replace(record, times=DecisionTimes(1.0, tuple(
        chooser.lognormvariate(-7, 0.7) for _ in range(record.decisions))))
    record = with_replay(record)
    luck = stored_luck(name, players, {}, record.events, game_seed) if players > 1 else None
    return Distinct(name, players, game_seed, record.placements, record.termination, record.forfeits,
                    record.scores, record.decisions, game_blobs(record.events, record.replay, record.times),
                    record.replay_format if record.replay is not None else None, luck)


def fill(store: Store, total: int, bots: list[BotSpec], pool: dict[tuple[str, int], list[Distinct]], seed: int,
         prefix: str = "bench", first_order: int = 0) -> None:
    """Store ``total`` games in one transaction, row for row as
    Store.add_game stores a GameRecord (which takes a transaction per game:
    too slow for a million), a batch of rows at a time (memory stays flat)."""
    store.add_bots(bots)
    rows = _rows(total, bots, pool, seed, prefix, first_order)
    with store.db.conn:
        store.db.execute("BEGIN IMMEDIATE")
        while batch := list(itertools.islice(rows, 2000)):
            store.db.conn.executemany(f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) "
                                      f"VALUES ({', '.join('?' * len(GAME_COLUMNS))})", [game for game, _ in batch])
            store.db.conn.executemany("INSERT INTO results (game_key, seat, bot_id, game, players, points, "
                                      "placement, forfeit, luck) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                      [result for _, results_of in batch for result in results_of])


def _rows(total: int, bots: list[BotSpec], pool: dict[tuple[str, int], list[Distinct]], seed: int, prefix: str,
          first_order: int) -> Iterator[tuple[tuple, list[tuple]]]:
    """Each game's row and its results' rows: a distinct game stored again
    under its own key, between its own bots."""
    chooser = random.Random(seed)
    names = sorted(GAMES)
    now = time.time()
    for number in range(first_order, first_order + total):
        name = names[number % len(names)]
        players = 1 if (name, 1) in pool and chooser.random() < SOLO_RATE else 2
        made = chooser.choice(pool[name, players])
        seats = tuple(bot.bot_id for bot in chooser.sample(bots, players))
        key = f"{prefix}/{number}/{name}/{'/'.join(seats)}"
        points = results.points(made.placements)
        forfeited = {forfeit.seat: forfeit.termination.value for forfeit in made.forfeits}
        totals = (made.luck or {}).get("totals") or [None] * players
        yield (key, name, number // 1000, number, made.seed, players, json.dumps(list(seats)), "{}",
               json.dumps(list(results.winners(made.placements))), json.dumps(list(made.placements)),
               made.termination.value, json.dumps([forfeit.to_json() for forfeit in made.forfeits]),
               made.forfeits[0].seat if made.forfeits else None, made.forfeits[0].detail if made.forfeits else None,
               None if made.scores is None else json.dumps(list(made.scores)), made.decisions, 0.1,
               json.dumps([None] * players), now + number * 0.01, 1.0, made.blobs["record"], made.blobs["offered"],
               made.blobs["replay"], made.replay_format, made.blobs["decision_times"],
               None if made.luck is None else luck_blob(made.luck)), [
            (key, seat, bot_id, name, players, points[seat], made.placements[seat], forfeited.get(seat), totals[seat])
            for seat, bot_id in enumerate(seats)]


GAME_COLUMNS = ("key", "game", "round", "job_order", "seed", "players", "seats", "options", "winners",
                "placements", "termination", "forfeits", "forfeit_seat", "detail", "scores", "decisions",
                "duration", "logs", "finished_at", "move_timeout", "record", "offered", "replay", "replay_format",
                "decision_times", "luck")


def count_games(db: Path) -> int:
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])


def check_sample(db: Path, count: int = 50) -> None:
    """The stored records are real: a sample replays on the engines, which
    offer the actions their digests say (read
    by rowid: a million games' rows would not fit in memory)."""
    with Store(db) as store:
        last = store.db.execute("SELECT max(rowid) FROM games").fetchone()[0]
        for rowid in random.Random(0).sample(range(1, last + 1), min(count, last)):
            game = store.game(store.db.execute("SELECT key FROM games WHERE rowid = ?", [rowid]).fetchone()[0])
            full_events(GAMES[game.game], game.players, game.options, *store.record(game.key))


def build_site(db: Path, out: Path) -> tuple[float, float, float]:
    """``arena leaderboard``, in a process of its own, the path a user
    takes. Returns its wall time, CPU time and peak resident set in MiB
    (of it or of the largest of its workers)."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-c", "import sys; from arena.cli import main; sys.exit(main())",
                                "leaderboard", "--db", str(db), "--out", str(out)], stdout=subprocess.DEVNULL,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    return _wait(process.pid, started)


def tournament_onto(db: Path, out: Path, work: Path, first_bot: int = 0) -> float:
    """``arena tournament`` (4 random bots, one round of Slyyde: 12 games)
    onto the big database and its site: the end of a run with that many
    games stored (the ratings, the site) and the run's peak resident set,
    which it returns. It goes on from the ratings tally saved before it (by
    the builds, or by a first run: a second one plays other bots,
    ``first_bot``)."""
    bots = work / f"bots{first_bot}"
    bots.mkdir(exist_ok=True)
    for n in range(first_bot, first_bot + 4):
        shutil.copy(ROOT / "bots" / "random_bot.py", bots / f"random{n}.py")
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-c", "import sys; from arena.cli import main; sys.exit(main())",
                                "tournament", "--bots", str(bots), "--games", "slyyde", "--rounds", "1",
                                "--db", str(db), "--out", str(out), "--log-dir", str(work / "logs")],
                               cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    wall, _, rss = _wait(process.pid, started)
    ends = re.findall(r"end of run: .*", (work / "logs" / "arena.log").read_text())
    print(f"arena tournament onto it (4 random bots, one round of slyyde): {wall:.1f} s, peak RSS {rss:.0f} MiB; "
          f"{ends[-1] if ends else 'no end of run logged'}")
    return rss


def in_child(task: Callable[[], None]) -> tuple[float, float, float]:
    """Run ``task`` in a forked process, so that what it holds never counts
    toward this process's size, which every build process starts from
    (Linux counts the image a child had before exec in its peak)."""
    started = time.perf_counter()
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        try:
            task()
        except BaseException:
            traceback.print_exc()
            os._exit(1)
        sys.stdout.flush()
        os._exit(0)
    return _wait(pid, started)


def _wait(pid: int, started: float) -> tuple[float, float, float]:
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"process {pid} failed (status {status})")
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def disk_usage(path: Path) -> int:
    """Bytes on disk (blocks used) of a file or a folder's files."""
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    return sum(p.stat().st_blocks * 512 for p in files)


def count_files(path: Path) -> int:
    return sum(1 for p in path.rglob("*") if p.is_file())


def size(path: Path, games: int) -> str:
    """A database's or a site's size, whole and per game (and per file)."""
    used = disk_usage(path)
    files = f" in {count_files(path)} files ({count_files(path) / games:.4f} per game)" if path.is_dir() else ""
    return f"{used / 2**20:.0f} MiB{files}, {used / games:,.0f} bytes per game"


def where_the_bytes_go(db: Path, games: int) -> None:
    """Each table's and index's bytes per game (SQLite's dbstat), and the
    compressed columns' payload bytes per game."""
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        parts = conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC").fetchall()
        columns = conn.execute("SELECT total(length(record)), total(length(replay)), total(length(decision_times)), "
                               "total(length(luck)), count(record) FROM games").fetchone()
        free = conn.execute("PRAGMA freelist_count").fetchone()[0] * conn.execute("PRAGMA page_size").fetchone()[0]
    print("  where the bytes go (per game): " + ", ".join(f"{name} {used / games:,.0f}" for name, used in parts
                                                          if used / games >= 1)
          + (f", free pages {free / games:,.0f}" if free else ""))
    print(f"  in games: record {columns[0] / games:,.0f} ({columns[4]} records kept), "
          f"replay {columns[1] / games:,.0f}, decision_times {columns[2] / games:,.0f}, luck {columns[3] / games:,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--bots", type=int, default=12)
    parser.add_argument("--distinct", type=int, default=None,
                        help="distinct games per game (default: 2%% of the games, at least 400)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, default=None, help="build here and keep the result")
    parser.add_argument("--filled", type=Path, default=None,
                        help="a copy of the filled database: made here if missing, else started from")
    args = parser.parse_args()
    if args.games < 1 or (args.distinct is not None and args.distinct < 1):
        parser.error("--games and --distinct must be at least 1")
    distinct = args.distinct or max(400, args.games // 50 // len(GAMES))
    work = args.keep or Path(tempfile.mkdtemp(prefix="arena-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    db, out = work / "bench.db", work / "site"
    for stale in (db, db.with_name("bench.db-wal"), db.with_name("bench.db-shm")):
        stale.unlink(missing_ok=True)
    shutil.rmtree(out, ignore_errors=True)
    bots = make_bots(args.bots)
    peak = 0.0

    def make(total: int, seed: int, prefix: str, first_order: int) -> Callable[[], None]:
        def task() -> None:
            started = time.perf_counter()
            pool = distinct_games(min(distinct, max(1, total // len(GAMES))), args.seed)
            made = time.perf_counter()
            with Store(db, writer=True) as store:
                fill(store, total, bots, pool, seed, prefix, first_order)
                store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            print(f"fill: {total} games stored from "
                  f"{sum(map(len, pool.values()))} distinct games; distinct games {made - started:.1f} s, "
                  f"inserts {time.perf_counter() - made:.1f} s")
        return task

    try:
        if args.filled is not None and args.filled.is_file():
            shutil.copyfile(args.filled, db)
            wall, _, rss = in_child(lambda: Store(db, writer=True).close())
            print(f"fill: a copy of {args.filled}, upgraded to this arena's schema in {wall:.1f} s "
                  f"(peak RSS {rss:.0f} MiB)")
        else:
            *_, rss = in_child(make(args.games, args.seed, "bench", 0))
            peak = max(peak, rss)
            if args.filled is not None:
                shutil.copyfile(db, args.filled)
        if count_games(db) != args.games:
            raise SystemExit(f"{db} holds {count_games(db)} games, not --games {args.games}")
        check_sample(db)
        print(f"  {args.games} games of {', '.join(sorted(GAMES))}, {args.bots} bots; "
              + (f"peak RSS {peak:.0f} MiB; " if peak else "") + f"database {size(db, args.games)}")
        for label in ("first build", "second build, nothing new"):
            wall, cpu, rss = build_site(db, out)
            peak = max(peak, rss)
            print(f"{label}: {wall:.1f} s ({cpu:.0f} CPU s on {os.cpu_count()} cores); site {size(out, args.games)}; "
                  f"peak RSS {rss:.0f} MiB")
        *_, rss = in_child(make(NEW_GAMES, args.seed + 1, "bench-more", args.games))
        peak = max(peak, rss)
        wall, cpu, rss = build_site(db, out)
        peak = max(peak, rss)
        total = args.games + NEW_GAMES
        print(f"build after {NEW_GAMES} new games: {wall:.1f} s ({cpu:.0f} CPU s); site {size(out, total)}; "
              f"peak RSS {rss:.0f} MiB")
        peak = max(peak, tournament_onto(db, out, work))
        print("again, 4 other random bots (the ratings go on from the tally the first run saved):")
        peak = max(peak, tournament_onto(db, out, work, first_bot=4))
        total += 24
        print(f"at the end: database {size(db, total)}; site {size(out, total)}; peak RSS of all {peak:.0f} MiB")
        where_the_bytes_go(db, total)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"kept in {work}")


if __name__ == "__main__":
    main()
