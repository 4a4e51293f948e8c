"""Decisions per second through the referee, against the floor of a bare
JSON-lines echo carrying the same lines, for every game.

The referee side plays real games (``play_game``, real bot processes of the
bundled random bot, which answers at once) until at least ``--decisions``
decisions were made; the bots' processes are started and greeted before
any clock starts. Every line the referee sends to a bot is recorded, and
right after each game the floor sends that game's lines, in order, to one
process (started before its clock too) that parses each line as JSON and
answers each decide with a fixed action: what a JSON-lines protocol costs
on this machine for the same traffic. Timing each game and its replay back
to back means both sides see the same machine. The ratio (referee
decisions/s over floor decisions/s) says what the referee adds on top
(rules, dice, state JSON, validation, deadlines, records); the target is
0.5. Each figure is the fastest of ``--repeats`` runs: work of others on
the machine only ever slows a run down.

Two floors are printed. ``floor`` (the target's) encodes each line from
its message inside its loop, as the protocol does (``encode_line``, and
``game_start_line``: a game's board, the same in every game_start, encoded
once); the original floor of this bench encoded each decide message with
json.dumps in its loop likewise. ``bare`` writes the recorded bytes as they
are: the pipe and the bot alone, the referee charged for all encoding.
``cpu`` is this process's CPU time per decision on each side: the
referee's own work, which the machine's load disturbs least.

Slyyde is played with four seats by default: with two a game holds about
one decision, so what was measured was game starts and ends, not
decisions; with four there are about six a game.

    python bench/referee.py [--game roundabout] [--decisions 2000] [--seats slyyde=4] [--repeats 3]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from arena.bots.discovery import discover  # noqa: E402
from arena.bots.process import BotProcess, encode_line  # noqa: E402
from arena.bots.protocol import BotSeat, game_start_line  # noqa: E402
from arena.games import GAMES  # noqa: E402
from arena.model import DiceKey, Limits  # noqa: E402
from arena.play.plan import plan_rotations  # noqa: E402
from arena.play.referee import play_game  # noqa: E402

TARGET = 0.5
SEATS = {"slyyde": 4}  # two otherwise
# The floor's bot: parse every line as JSON, answer each decide with its first action.
ECHO = """import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "decide":
        sys.stdout.write(json.dumps({"type": "action", "action": message["actions"][0]}) + "\\n")
        sys.stdout.flush()
"""


class Recorder:
    """Every line the referee sends to any bot, in order, and whether the
    referee then waited for an answer (a decide)."""

    def __init__(self) -> None:
        self.lines: list[tuple[bytes, bool]] = []

    def watch(self, process: BotProcess) -> None:
        send_line = process.send_line

        def recording_send_line(data: bytes, timeout: float) -> None:
            self.lines.append((data, data.startswith(b'{"type":"decide"')))
            send_line(data, timeout)
        process.send_line = recording_send_line  # type: ignore[method-assign]


class Echo:
    """The floor: one process that parses every line as JSON and answers
    each decide, and the clock on this side of it."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", ECHO], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.fd, self.answers = self.process.stdin.fileno(), self.process.stdout

    def replay(self, lines: list[tuple[bytes, bool]], encode: bool) -> tuple[float, float]:
        """Send the lines; read and parse the answer to each decide. With
        ``encode``, each line is encoded from its message in the loop, as
        the protocol encodes it (a game's board, the same in every
        game_start, once); else the recorded bytes are written as they are
        (the pipe and the bot alone). Returns the wall and CPU time."""
        messages: list[Any] = [(_message(line) if encode else line, answered) for line, answered in lines]
        fd, answers = self.fd, self.answers
        started, cpu = time.perf_counter(), time.process_time()
        for message, answered in messages:
            if encode:
                os.write(fd, game_start_line(message) if message["type"] == "game_start" else encode_line(message))
            else:
                os.write(fd, message)
            if answered:
                json.loads(answers.readline())
        return time.perf_counter() - started, time.process_time() - cpu

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def measure(game: str, seats: int, decisions: int, limits: Limits) -> tuple[int, int, int, list[float]]:
    """Play rounds (every rotation of the seats on one seed) until
    ``decisions`` decisions were made, each game followed at once by the
    floor carrying the lines it sent (so that both sides see the same
    machine). Returns the games, the decisions, the lines sent, and the
    wall and CPU time of the referee, of the floor and of the bare floor."""
    recorder = Recorder()
    echo = Echo()
    with tempfile.TemporaryDirectory() as folder:
        bots = Path(folder)
        source = (REPO / "bots" / "random_bot.py").read_text()
        for number in range(seats):
            (bots / f"bot{number}.py").write_text(source)
        specs = discover([bots])
        players = {spec.bot_id: BotSeat(spec, limits) for spec in specs}
        try:
            for player in players.values():
                recorder.watch(player.start())
            made = games = sent = round_number = 0
            times = [0.0] * 6
            while made < decisions:
                key = DiceKey.from_seed(round_number)
                for rotation in plan_rotations(specs, game, 1, key):
                    # Dice of its own for each rotation: a bot process never plays two
                    # games on one seed, and these players are to stay the same processes.
                    job = dataclasses.replace(rotation, seed=key.derive(rotation.key))
                    recorder.lines.clear()
                    started, cpu_started = time.perf_counter(), time.process_time()
                    record = play_game(job, [players[bot_id] for bot_id in job.seats], limits.move_timeout)
                    spent = [time.perf_counter() - started, time.process_time() - cpu_started,
                             *echo.replay(recorder.lines, encode=True), *echo.replay(recorder.lines, encode=False)]
                    times = [total + more for total, more in zip(times, spent)]
                    if record.forfeits:
                        raise SystemExit(f"{game}: a bot forfeited: {record.forfeits}")
                    made += record.decisions
                    sent += len(recorder.lines)
                    games += 1
                round_number += 1
        finally:
            for player in players.values():
                player.close()
            echo.close()
    return games, made, sent, times


def _message(line: bytes) -> dict[str, Any]:
    """A recorded line as its message again, a game_start holding its
    game's own board (as the referee's do)."""
    message = json.loads(line)
    if message["type"] == "game_start":
        message["board"] = GAMES[message["game"]].board
    return message


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), action="append",
                        help="a game to measure (repeatable; default: every game)")
    parser.add_argument("--decisions", type=int, default=2000, help="at least this many decisions per game")
    parser.add_argument("--seats", action="append", default=[], metavar="GAME=N",
                        help="seats for a game (default: slyyde=4, two for the others)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="measure this many times and keep each side's fastest "
                             "(other work on the machine only ever slows a run down)")
    parser.add_argument("--ponder", action="store_true",
                        help="let the bots run between their decisions: what freezing them costs is the difference")
    args = parser.parse_args()
    seats = dict(SEATS)
    for item in args.seats:
        name, _, count = item.partition("=")
        seats[name] = int(count)
    limits = Limits(ponder=args.ponder)
    print(f"referee against the echo floor, at least {args.decisions} decisions per game; target ratio {TARGET}")
    print("floor: the same lines, each encoded from its message in the loop as the protocol encodes it; "
          "bare: the recorded bytes as they are")
    print("cpu: this process's CPU time per decision (the referee's own work, whatever the machine's load)")
    print(f"{'game':11} {'seats':>5} {'games':>6} {'decisions':>9} {'lines':>6} {'referee/s':>9} "
          f"{'floor/s':>8} {'ratio':>5} {'':4} {'bare/s':>7} {'ratio':>5}  {'cpu us: referee':>15} "
          f"{'floor':>5} {'bare':>5}")
    failed = []
    for game in args.game or sorted(GAMES):
        count = seats.get(game, 2)
        runs = [measure(game, count, args.decisions, limits) for _ in range(args.repeats)]
        games, decisions, lines = runs[0][:3]
        referee_time, referee_cpu, floor_time, floor_cpu, bare_time, bare_cpu = (
            min(side) for side in zip(*(times for *_, times in runs)))
        referee_rate, floor_rate, bare_rate = (decisions / t for t in (referee_time, floor_time, bare_time))
        ratio = referee_rate / floor_rate
        mark = "pass" if ratio >= TARGET else "FAIL"
        if ratio < TARGET:
            failed.append(game)
        per = 1e6 / decisions
        print(f"{game:11} {count:5} {games:6} {decisions:9} {lines:6} {referee_rate:9.0f} "
              f"{floor_rate:8.0f} {ratio:5.2f} {mark:4} {bare_rate:7.0f} {referee_rate / bare_rate:5.2f}  "
              f"{referee_cpu * per:15.0f} {floor_cpu * per:5.0f} {bare_cpu * per:5.0f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of this process: {peak:.0f} MiB")
    print("every game at or above the target" if not failed else f"below the target: {', '.join(failed)}")


if __name__ == "__main__":
    main()
