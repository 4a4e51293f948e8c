"""Decisions per second through the referee, against the floor of a bare
JSON-lines echo between two processes carrying the same messages.

The referee side plays real games (real bot processes, the bundled random
bot, which answers at once) and records every decide message it sends. The
floor side replays exactly those messages to a process that answers each
line with one fixed line: what any JSON-lines protocol costs on this
machine. The ratio says what the referee adds (rules, validation, records,
deadlines) on top of the pipe itself.

    python bench/referee.py [--game roundabout] [--games 40]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.bots.discovery import discover
from arena.games import GAMES
from arena.games.playout import random_playout
from arena.model import Limits
from arena.play.events import replay
from arena.play.match import play_match
from arena.play.plan import Entrant, plan_round_robin

REPO = Path(__file__).resolve().parent.parent
# The floor's bot: parse each line as JSON and answer its first action.
ECHO = """import json, sys
for line in sys.stdin:
    message = json.loads(line)
    sys.stdout.write(json.dumps({"type": "action", "action": message["actions"][0]}) + "\\n")
    sys.stdout.flush()
"""


def busiest_game() -> str:
    """The registered game with the most decisions per event."""
    def share(name: str) -> float:
        events = [e for seed in range(5) for e in random_playout(GAMES[name], 2, seed)[1]]
        return sum(e["kind"] == "decision" for e in events) / len(events)
    return max(sorted(GAMES), key=share)


def through_referee(game: str, games: int) -> tuple[int, float, list[bytes]]:
    with tempfile.TemporaryDirectory() as folder:
        bots = Path(folder)
        source = (REPO / "bots" / "random_bot.py").read_text()
        for name in ("left", "right"):
            (bots / f"{name}.py").write_text(source)
        specs = discover([bots])
        entrants = [Entrant(spec, frozenset([game])) for spec in specs]
        jobs = plan_round_robin(entrants, [game], games // 2, seed=1)
        started = time.perf_counter()
        records = list(play_match(jobs, {s.bot_id: s for s in specs}, Limits(), None))
        elapsed = time.perf_counter() - started
    return len(messages := decide_messages(game, records)), elapsed, messages


def decide_messages(game: str, records) -> list[dict]:
    """The decide messages the referee sent, rebuilt from the records."""
    messages = []
    for record in records:
        states = replay(GAMES[game], len(record.job.seats), record.job.options, record.events)
        for state, event in zip(states, record.events):
            if event["kind"] == "decision":
                messages.append({"type": "decide", "state": state.to_json(),
                                 "actions": event["offered"], "timeout_ms": 1000})
    return messages


def through_echo(messages: list[dict]) -> float:
    """Send each message as a JSON line, read and parse each answer."""
    echo = subprocess.Popen([sys.executable, "-c", ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    started = time.perf_counter()
    for message in messages:
        os.write(echo.stdin.fileno(), (json.dumps(message, separators=(",", ":")) + "\n").encode())
        json.loads(echo.stdout.readline())
    elapsed = time.perf_counter() - started
    echo.stdin.close()
    echo.wait()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default=None)
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    game = args.game or busiest_game()
    count, referee_time, messages = through_referee(game, args.games)
    echo_time = through_echo(messages)
    referee_rate, echo_rate = count / referee_time, count / echo_time
    print(f"game: {game}, {args.games} games, {count} decisions")
    print(f"referee:   {referee_rate:9.0f} decisions/s  (whole games: dice, rules, validation, records)")
    print(f"echo floor:{echo_rate:9.0f} round trips/s (the same decide messages, bare JSON lines)")
    print(f"ratio referee/floor: {referee_rate / echo_rate:.2f}")


if __name__ == "__main__":
    main()
