"""What to play: the deterministic plan of a tournament.

Every pair of bots plays every game both support, ``rounds`` times; each
round is a seat-swapped pair of games on one seed, so both bots meet the same
dice from both seats. The plan depends only on the bots, the games, the
rounds and the tournament seed, so the same command always plans the same
jobs and a rerun can skip those already stored.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from arena.games.dice import stream_seed
from arena.model import BotSpec, Job


@dataclass(frozen=True)
class Entrant:
    """A bot that passed its handshake, with the games it says it plays."""

    spec: BotSpec
    games: frozenset[str]


def plan_round_robin(entrants: list[Entrant], games: list[str], rounds: int, seed: int) -> list[Job]:
    jobs: list[Job] = []
    for round_number in range(rounds):
        for game in games:
            players = [e for e in entrants if game in e.games]
            for a, b in itertools.combinations(players, 2):
                pair_seed = stream_seed(seed, f"{game}/{round_number}/{a.spec.name}/{b.spec.name}")
                for seats in ((a, b), (b, a)):
                    ids = tuple(e.spec.bot_id for e in seats)
                    key = f"t{seed}/{game}/r{round_number}/{ids[0]}/{ids[1]}"
                    jobs.append(Job(key, game, ids, pair_seed, round_number, len(jobs)))
    return jobs


def plan_solo(spec: BotSpec, game: str, count: int, seed: int) -> list[Job]:
    return [Job(f"solo{seed}/{game}/{n}/{spec.bot_id}", game, (spec.bot_id,),
                stream_seed(seed, f"solo/{game}/{n}"), n, n) for n in range(count)]


def group_into_matches(jobs: list[Job], workers: int) -> list[list[Job]]:
    """Split jobs into matches: runs of games between the same bots at the
    same game, played by one set of bot processes. Matches are cut small
    enough to keep every worker busy, never splitting a seat-swapped pair."""
    by_table: dict[tuple[str, frozenset[str]], list[Job]] = {}
    for job in jobs:
        by_table.setdefault((job.game, frozenset(job.seats)), []).append(job)
    size = max(2, 2 * math.ceil(len(jobs) / max(1, workers * 4) / 2))
    return [table[start:start + size] for table in by_table.values()
            for start in range(0, len(table), size)]
