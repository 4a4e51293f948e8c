"""Benchmark: build the leaderboard site from a large results database.

Makes a database of GAMES games (100,000 by default) through the Store API,
then times a first build of the site, a second build with nothing new (which
must rewrite no replay), and a build after adding a few games, and prints
the time and the size on disk of the database and of the site.

The games are real records: random playouts of every registered game
(arena.games.playout), each replayable by the engine (a sample is replayed
to make sure). To build the database quickly, a pool of distinct playouts
per game (--distinct) is stored many times under different keys and between
different pairs of bots, in one transaction, row for row as Store.add_game
writes them; every stored record still replays exactly (its seed and events
belong together). Some games are stored as forfeits (the record cut where
the bot failed) and some as solo Slyyde games.

    .venv/bin/python bench/leaderboard.py                 # 100,000 games
    .venv/bin/python bench/leaderboard.py --games 5000 --keep /tmp/lb
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena import results, site  # noqa: E402
from arena.games import GAMES  # noqa: E402
from arena.games.playout import random_playout  # noqa: E402
from arena.model import BotSpec, Forfeit, GameRecord, Job, Termination  # noqa: E402
from arena.play.events import replay  # noqa: E402
from arena.store import Store  # noqa: E402

FORFEIT_RATE = 0.02
SOLO_RATE = 0.03
NEW_GAMES = 100


def make_bots(count: int) -> list[BotSpec]:
    return [BotSpec(f"bench_bot_{n:02d}", (sys.executable, "bots/random_bot.py"), "bots/random_bot.py",
                    f"{n:02d}" + "ab" * 31) for n in range(count)]


def playout_pool(distinct: int, seed: int) -> dict[tuple[str, int], list[tuple[int, list, object]]]:
    """(game, players) -> [(seed, events, final state)] for 2-player games
    of every registered game, and solo games where a game allows them."""
    pool = {}
    for name, game in sorted(GAMES.items()):
        counts = [2] + ([1] if game.min_players == 1 else [])
        for players in counts:
            runs = []
            for n in range(distinct if players > 1 else max(1, distinct // 4)):
                game_seed = seed * 1_000_003 + n
                final, events = random_playout(game, players, game_seed)
                runs.append((game_seed, events, final))
            pool[name, players] = runs
    return pool


def fill(store: Store, total: int, bots: list[BotSpec], pool, seed: int, prefix: str = "bench",
         first_order: int = 0) -> None:
    """Store ``total`` games in one transaction, row for row as
    Store.add_game stores a GameRecord (which takes a transaction per game:
    too slow for 100,000)."""
    chooser = random.Random(seed)
    store.add_bots(bots)
    names = sorted(GAMES)
    games, result_rows = [], []
    blobs: dict[tuple[str, int, int], bytes] = {}
    now = time.time()
    for number in range(first_order, first_order + total):
        name = names[number % len(names)]
        solo = (name, 1) in pool and chooser.random() < SOLO_RATE
        players = 1 if solo else 2
        index = chooser.randrange(len(pool[name, players]))
        game_seed, events, final = pool[name, players][index]
        compressed = blobs.get((name, players, index))
        seats = tuple(b.bot_id for b in chooser.sample(bots, players))
        job = Job(f"{prefix}/{number}/{name}/{'/'.join(seats)}", name, seats, game_seed, number // 1000, number)
        if players > 1 and chooser.random() < FORFEIT_RATE and len(events) > 2:
            cut = chooser.randrange(1, len(events))
            loser = chooser.randrange(players)
            reason = chooser.choice([Termination.TIMEOUT, Termination.CRASH, Termination.BAD_OUTPUT])
            placements = tuple(players if s == loser else 1 for s in range(players))
            record = GameRecord(job, events[:cut], placements, reason,
                                (Forfeit(loser, reason, f"bench forfeit at event {cut}"),), duration=0.1)
            compressed = None
        else:
            outcome = final.outcome()
            termination = Termination.NORMAL if outcome.ending == "normal" else Termination.TURN_CAP
            record = GameRecord(job, events, outcome.placements, termination, scores=outcome.scores,
                                duration=0.1)
            if compressed is None:
                compressed = blobs[name, players, index] = _compress(events)
        games.append(_game_row(record, now + number * 0.01, compressed))
        points = results.points(record.placements)
        forfeited = {forfeit.seat: forfeit.termination.value for forfeit in record.forfeits}
        result_rows.extend((job.key, seat, bot_id, name, points[seat], record.placements[seat], forfeited.get(seat))
                           for seat, bot_id in enumerate(seats))
    with store.db.conn:
        store.db.execute("BEGIN IMMEDIATE")
        store.db.conn.executemany(f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) "
                                  f"VALUES ({', '.join('?' * len(GAME_COLUMNS))})", games)
        store.db.conn.executemany("INSERT INTO results (game_key, seat, bot_id, game, points, placement, forfeit) "
                                  "VALUES (?, ?, ?, ?, ?, ?, ?)", result_rows)


GAME_COLUMNS = ("key", "game", "round", "job_order", "seed", "players", "seats", "options", "winners",
                "placements", "termination", "forfeits", "forfeit_seat", "detail", "scores", "decisions",
                "duration", "logs", "finished_at", "record")


def _compress(events: list) -> bytes:
    return zlib.compress(json.dumps(events, separators=(",", ":")).encode())


def _game_row(record: GameRecord, finished: float, compressed: bytes | None) -> tuple:
    job = record.job
    return (job.key, job.game, job.round, job.order, job.seed, len(job.seats), json.dumps(list(job.seats)),
            json.dumps(job.options), json.dumps(list(record.winners)), json.dumps(list(record.placements)),
            record.termination.value, json.dumps([forfeit.to_json() for forfeit in record.forfeits]),
            record.forfeit_seat, record.detail,
            None if record.scores is None else json.dumps(list(record.scores)), record.decisions,
            record.duration, json.dumps([None] * len(job.seats)), finished,
            compressed if compressed is not None else _compress(record.events))


def check_sample(db: Path, count: int = 50) -> None:
    """The stored records are real: a sample replays on the engines."""
    with Store(db) as store:
        games = list(store.games())
        for game in random.Random(0).sample(games, min(count, len(games))):
            for _ in replay(GAMES[game.game], game.players, game.options, store.events(game.key)):
                pass


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (the workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def disk_usage(path: Path) -> str:
    return subprocess.run(["du", "-sh", str(path)], capture_output=True, text=True).stdout.split()[0]


def count_files(path: Path) -> int:
    return sum(1 for p in path.rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--bots", type=int, default=12)
    parser.add_argument("--distinct", type=int, default=400, help="distinct playouts per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, default=None, help="build here and keep the result")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="arena-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    db, out = work / "bench.db", work / "site"
    for stale in (db, db.with_name("bench.db-wal"), db.with_name("bench.db-shm")):
        stale.unlink(missing_ok=True)
    shutil.rmtree(out, ignore_errors=True)
    try:
        started = time.perf_counter()
        pool = playout_pool(args.distinct, args.seed)
        made = time.perf_counter()
        bots = make_bots(args.bots)
        with Store(db, writer=True) as store:
            fill(store, args.games, bots, pool, args.seed)
            store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        filled = time.perf_counter()
        check_sample(db)
        print(f"database: {args.games} games of {', '.join(sorted(GAMES))}, {args.bots} bots; "
              f"playouts {made - started:.1f} s, inserts {filled - made:.1f} s; "
              f"size {disk_usage(db)}")
        with Store(db) as store:
            for label in ("first build", "second build, nothing new"):
                t0, c0 = time.perf_counter(), cpu_seconds()
                site.build(store, out)
                print(f"{label}: {time.perf_counter() - t0:.1f} s ({cpu_seconds() - c0:.0f} CPU s on "
                      f"{os.cpu_count()} cores); site {disk_usage(out)} in {count_files(out)} files")
        with Store(db, writer=True) as store:
            fill(store, NEW_GAMES, bots, pool, args.seed + 1, prefix="bench-more", first_order=args.games)
        with Store(db) as store:
            t0, c0 = time.perf_counter(), cpu_seconds()
            site.build(store, out)
            print(f"build after {NEW_GAMES} new games: {time.perf_counter() - t0:.1f} s "
                  f"({cpu_seconds() - c0:.0f} CPU s); site {disk_usage(out)}")
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"kept in {work}")


if __name__ == "__main__":
    main()
