"""Probing bots before planning: start every bot once, concurrently, and
learn from its hello which games it plays, or why it cannot play."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from arena.bots.greeting import Greetings, greet
from arena.games import GAMES
from arena.model import BotSpec, Limits
from arena.play.plan import Entrant


@dataclass(frozen=True)
class Probe:
    """What a handshake told about a bot: an entrant, or why it is unusable."""

    spec: BotSpec
    entrant: Entrant | None
    problem: str | None
    hello_name: str | None = None  # the name the bot's hello answer gave, as it gave it


def probe_bots(specs: list[BotSpec], limits: Limits) -> list[Probe]:
    """Start every bot once, concurrently, and shake hands. Interrupted, it
    kills the bots it started instead of waiting out their start-up time."""
    running = Greetings()
    pool = ThreadPoolExecutor(max_workers=min(8, len(specs)))
    try:
        return list(pool.map(lambda spec: _probe(spec, limits, running), specs))
    except KeyboardInterrupt:
        running.kill_all()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _probe(spec: BotSpec, limits: Limits, running: Greetings) -> Probe:
    greeting = greet(spec, limits, running)
    if greeting.hello is None:
        problem = f"handshake failed: {greeting.error}" if greeting.started else str(greeting.error)
        return Probe(spec, None, problem)
    hello = greeting.hello
    games = frozenset(hello["games"]) & frozenset(GAMES)
    if not games:
        return Probe(spec, None, f"plays none of the registered games (said {hello['games']!r})", hello["name"])
    return Probe(spec, Entrant(spec, games), None, hello["name"])
