"""Benchmark: build the leaderboard site from a large results database.

Makes a database of GAMES games (100,000 by default) through the Store API,
then times a first build of the site, a second build with nothing new (which
must rewrite no replay), a build after adding 1,000 games, and a small
tournament onto that database and site, and prints the time and the size on
disk of the database and of the site, and the peak memory (resident set) of
each build and of the tournament (with its worker processes).

The games are real records: random playouts of every registered game
(arena.games.playout), each replayable by the engine (a sample is replayed
to make sure). To build the database quickly, a pool of distinct playouts
per game (--distinct) is stored many times under different keys and between
different pairs of bots, in one transaction, row for row as Store.add_game
writes them; every stored record still replays exactly (its seed and events
belong together). Each is stored with its replay, as the worker that plays a
game makes it (arena.games.replays.with_replay), unless --without-replays
stores them as a database written before replays were stored (the build
then makes every replay itself). Some games are stored as forfeits (the
record cut where the bot failed) and some as solo Slyyde games.

    .venv/bin/python bench/leaderboard.py                 # 100,000 games
    .venv/bin/python bench/leaderboard.py --games 5000 --keep /tmp/lb
"""

from __future__ import annotations

import argparse
import base64
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena import results  # noqa: E402
from arena.games import GAMES  # noqa: E402
from arena.games.events import replay  # noqa: E402
from arena.games.playout import random_playout  # noqa: E402
from arena.games.replays import with_replay  # noqa: E402
from arena.model import BotSpec, Forfeit, GameRecord, Job, Termination  # noqa: E402
from arena.store import Store  # noqa: E402

FORFEIT_RATE = 0.02
SOLO_RATE = 0.03
NEW_GAMES = 1000


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
         first_order: int = 0, replays: bool = True) -> None:
    """Store ``total`` games in one transaction, row for row as
    Store.add_game stores a GameRecord (which takes a transaction per game:
    too slow for 100,000), a batch of rows at a time (memory stays flat)."""
    store.add_bots(bots)
    rows = _rows(total, bots, pool, seed, prefix, first_order, replays)
    with store.db.conn:
        store.db.execute("BEGIN IMMEDIATE")
        while batch := list(itertools.islice(rows, 2000)):
            store.db.conn.executemany(f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) "
                                      f"VALUES ({', '.join('?' * len(GAME_COLUMNS))})", [game for game, _ in batch])
            store.db.conn.executemany("INSERT INTO results (game_key, seat, bot_id, game, points, placement, "
                                      "forfeit) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                      [result for _, results_of in batch for result in results_of])


def _rows(total: int, bots: list[BotSpec], pool, seed: int, prefix: str, first_order: int,
          replays: bool) -> Iterator[tuple[tuple, list[tuple]]]:
    """Each game's row and its results' rows."""
    chooser = random.Random(seed)
    names = sorted(GAMES)
    # Per distinct playout, made once: its compressed events and its replay
    # (the same events make the same replay).
    made: dict[tuple[str, int, int], tuple[bytes, bytes | None, int]] = {}
    now = time.time()
    for number in range(first_order, first_order + total):
        name = names[number % len(names)]
        solo = (name, 1) in pool and chooser.random() < SOLO_RATE
        players = 1 if solo else 2
        index = chooser.randrange(len(pool[name, players]))
        game_seed, events, final = pool[name, players][index]
        seats = tuple(b.bot_id for b in chooser.sample(bots, players))
        job = Job(f"{prefix}/{number}/{name}/{'/'.join(seats)}", name, seats, game_seed, number // 1000, number)
        if players > 1 and chooser.random() < FORFEIT_RATE and len(events) > 2:
            cut = chooser.randrange(1, len(events))
            loser = chooser.randrange(players)
            reason = chooser.choice([Termination.TIMEOUT, Termination.CRASH, Termination.BAD_OUTPUT])
            placements = tuple(players if s == loser else 1 for s in range(players))
            record = GameRecord(job, events[:cut], placements, reason,
                                (Forfeit(loser, reason, f"bench forfeit at event {cut}"),), duration=0.1)
            stored = _stored_parts(record, replays)
        else:
            outcome = final.outcome()
            termination = Termination.NORMAL if outcome.termination is Termination.NORMAL else Termination.TURN_CAP
            record = GameRecord(job, events, outcome.placements, termination, scores=outcome.scores,
                                duration=0.1)
            stored = made.get((name, players, index)) or made.setdefault(
                (name, players, index), _stored_parts(record, replays))
        points = results.points(record.placements)
        forfeited = {forfeit.seat: forfeit.termination.value for forfeit in record.forfeits}
        yield _game_row(record, now + number * 0.01, *stored), [
            (job.key, seat, bot_id, name, points[seat], record.placements[seat], forfeited.get(seat))
            for seat, bot_id in enumerate(seats)]


def _stored_parts(record: GameRecord, replays: bool) -> tuple[bytes, bytes | None, int]:
    """The record's events as the store compresses them, and its replay as
    the worker that played it makes it (or none)."""
    events = zlib.compress(json.dumps(record.events, separators=(",", ":")).encode())
    replayed = with_replay(record) if replays else record
    replay = None if replayed.replay is None else base64.b64decode(replayed.replay)
    return events, replay, replayed.replay_format


GAME_COLUMNS = ("key", "game", "round", "job_order", "seed", "players", "seats", "options", "winners",
                "placements", "termination", "forfeits", "forfeit_seat", "detail", "scores", "decisions",
                "duration", "logs", "finished_at", "record", "replay", "replay_format")


def _game_row(record: GameRecord, finished: float, events: bytes, replay: bytes | None, replay_format: int) -> tuple:
    job = record.job
    return (job.key, job.game, job.round, job.order, job.seed, len(job.seats), json.dumps(list(job.seats)),
            json.dumps(job.options), json.dumps(list(record.winners)), json.dumps(list(record.placements)),
            record.termination.value, json.dumps([forfeit.to_json() for forfeit in record.forfeits]),
            record.forfeit_seat, record.detail,
            None if record.scores is None else json.dumps(list(record.scores)), record.decisions,
            record.duration, json.dumps([None] * len(job.seats)), finished, events, replay,
            None if replay is None else replay_format)


def check_sample(db: Path, count: int = 50) -> None:
    """The stored records are real: a sample replays on the engines."""
    with Store(db) as store:
        games = list(store.games())
        for game in random.Random(0).sample(games, min(count, len(games))):
            for _ in replay(GAMES[game.game], game.players, game.options, store.events(game.key)):
                pass


def build_site(db: Path, out: Path) -> tuple[float, float, float]:
    """``arena leaderboard``, in a process of its own, the path a user
    takes. Returns its wall time, CPU time and peak resident set in MiB
    (of it or of the largest of its workers)."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-c", "import sys; from arena.cli import main; sys.exit(main())",
                                "leaderboard", "--db", str(db), "--out", str(out)], stdout=subprocess.DEVNULL,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    return _wait(process.pid, started)


def tournament_onto(db: Path, out: Path, work: Path, first_bot: int = 0) -> None:
    """``arena tournament`` (4 random bots, one round of Slyyde: 12 games)
    onto the big database and its site: the end of a run with that many
    games stored (the ratings, the site) and the run's peak resident set.
    The first run onto a database without a saved ratings tally rates every
    game; a second one (other bots, ``first_bot``) goes on from the tally."""
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
    parser.add_argument("--without-replays", action="store_true",
                        help="store no replays with the games, as a database written before they were")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="arena-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    db, out = work / "bench.db", work / "site"
    for stale in (db, db.with_name("bench.db-wal"), db.with_name("bench.db-shm")):
        stale.unlink(missing_ok=True)
    shutil.rmtree(out, ignore_errors=True)
    replays = not args.without_replays
    bots = make_bots(args.bots)

    def make(total: int, seed: int, prefix: str, first_order: int) -> Callable[[], None]:
        def task() -> None:
            started = time.perf_counter()
            pool = playout_pool(args.distinct, args.seed)
            made = time.perf_counter()
            with Store(db, writer=True) as store:
                fill(store, total, bots, pool, seed, prefix, first_order, replays)
                store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            print(f"database: {total} games stored ({'with' if replays else 'without'} replays); playouts "
                  f"{made - started:.1f} s, inserts {time.perf_counter() - made:.1f} s; size {disk_usage(db)}")
        return task

    try:
        *_, rss = in_child(make(args.games, args.seed, "bench", 0))
        check_sample(db)
        print(f"  {args.games} games of {', '.join(sorted(GAMES))}, {args.bots} bots; peak RSS {rss:.0f} MiB")
        for label in ("first build", "second build, nothing new"):
            wall, cpu, rss = build_site(db, out)
            print(f"{label}: {wall:.1f} s ({cpu:.0f} CPU s on {os.cpu_count()} cores); site {disk_usage(out)} "
                  f"in {count_files(out)} files; peak RSS {rss:.0f} MiB")
        in_child(make(NEW_GAMES, args.seed + 1, "bench-more", args.games))
        wall, cpu, rss = build_site(db, out)
        print(f"build after {NEW_GAMES} new games: {wall:.1f} s ({cpu:.0f} CPU s); site {disk_usage(out)}; "
              f"peak RSS {rss:.0f} MiB")
        tournament_onto(db, out, work)
        print("again, 4 other random bots (the ratings go on from the tally the first run saved):")
        tournament_onto(db, out, work, first_bot=4)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"kept in {work}")


if __name__ == "__main__":
    main()
