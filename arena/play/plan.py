"""What to play: the deterministic plan of a tournament.

With two seats, every pair of bots plays every game both support, ``rounds``
times; each round is a seat-swapped pair of games on one seed, so both bots
meet the same dice from both seats. With three or four, a round is a set of
pods: a pod plays every rotation of its seats on one seed (plan_pods). The plan depends only on the bots, the games, the
rounds and the run's dice key (arena.model.DiceKey), so the same command on
the same database always plans the same jobs and a rerun can skip those
already stored. Every dice seed is a keyed hash of its pair's or pod's
label under the key: a bot that knows the label learns nothing from it.
Keys name games in the store and never reach a bot (Job.game_id does).
"""

from __future__ import annotations

import itertools
import json
import math
import random
from dataclasses import dataclass
from typing import Any

from arena.model import BotSpec, DiceKey, Job
from arena.plurals import plural


@dataclass(frozen=True)
class Entrant:
    """A bot that passed its handshake, with the games it says it plays."""

    spec: BotSpec
    games: frozenset[str]


def plan_round_robin(entrants: list[Entrant], games: list[str], rounds: int, key: DiceKey,
                     options: dict[str, dict[str, Any]] | None = None) -> list[Job]:
    """Every pair, every game both play, ``rounds`` seat-swapped pairs; a
    game's ``options`` (by game name) are part of its keys and seeds."""
    jobs: list[Job] = []
    for round_number in range(rounds):
        for game in games:
            chosen = (options or {}).get(game, {})
            players = [e for e in entrants if game in e.games]
            for a, b in itertools.combinations(players, 2):
                pair_seed = key.derive(f"{game}/{round_number}/{a.spec.name}/{b.spec.name}{option_text(chosen)}")
                for seats in ((a, b), (b, a)):
                    ids = tuple(e.spec.bot_id for e in seats)
                    game_key = f"t/{game}{option_text(chosen)}/r{round_number}/{ids[0]}/{ids[1]}"
                    jobs.append(Job(game_key, game, ids, pair_seed, round_number, len(jobs), chosen))
    return jobs


def plan_rotations(specs: list[BotSpec], game: str, rounds: int, key: DiceKey,
                   options: dict[str, Any] | None = None) -> list[Job]:
    """A match: these bots (2 to 4), every rotation of their seats on one
    seed a round, like one pod of a tournament (a seat-swapped pair for two)."""
    jobs: list[Job] = []
    count = len(specs)
    for round_number in range(rounds):
        round_seed = key.derive(f"match/{game}/{round_number}{option_text(options or {})}")
        for turn in range(count):
            seats = tuple(spec.bot_id for spec in specs[turn:] + specs[:turn])
            game_key = f"match/{game}{option_text(options or {})}/r{round_number}/{'/'.join(seats)}"
            jobs.append(Job(game_key, game, seats, round_seed, round_number, len(jobs), dict(options or {})))
    return jobs


def plan_solo_rounds(entrants: list[Entrant], games: list[str], rounds: int, key: DiceKey,
                     options: dict[str, dict[str, Any]] | None = None) -> list[Job]:
    """One-seat games in a tournament: each bot, each game it plays, once
    a round, on the round's seed (the same dice for every bot)."""
    jobs: list[Job] = []
    for round_number in range(rounds):
        for game in games:
            chosen = (options or {}).get(game, {})
            round_seed = key.derive(f"{game}/1p/{round_number}{option_text(chosen)}")
            for entrant in sorted((e for e in entrants if game in e.games), key=lambda e: e.spec.name):
                bot_id = entrant.spec.bot_id
                game_key = f"t/{game}{option_text(chosen)}/1p/r{round_number}/{bot_id}"
                jobs.append(Job(game_key, game, (bot_id,), round_seed, round_number, _ORDER_SPAN + len(jobs), chosen))
    return jobs


def plan_solo(spec: BotSpec, game: str, count: int, key: DiceKey) -> list[Job]:
    return [Job(f"solo/{game}/{n}/{spec.bot_id}", game, (spec.bot_id,),
                key.derive(f"solo/{game}/{n}"), n, n) for n in range(count)]


def group_into_matches(jobs: list[Job], workers: int) -> list[list[Job]]:
    """Split jobs into matches: runs of games between the same bots at the
    same game, played by one set of bot processes, no two on one seed.

    The games of a seat-swapped pair (a pod's rotations) share their dice,
    so a process that played one would know the dice of the next: each
    table of bots is split into lanes, the first game of every pair in one,
    the second in another, and so on, so each process meets a seed once and
    is still reused across the rounds. Matches are cut small enough to keep
    every worker busy."""
    lanes: dict[tuple[str, frozenset[str], int], list[Job]] = {}
    seen: dict[tuple[str, frozenset[str], int], int] = {}
    for job in jobs:
        seeded = (job.game, frozenset(job.seats), job.seed)
        lane = seen[seeded] = seen.get(seeded, -1) + 1
        lanes.setdefault((job.game, frozenset(job.seats), lane), []).append(job)
    size = max(1, math.ceil(len(jobs) / max(1, workers * 4)))
    return [lane[start:start + size] for lane in lanes.values() for start in range(0, len(lane), size)]


# Planning pods: rounds of k-seat games ------------------------------------------

# Rating order: games of k seats come after every game of fewer seats (two
# seats keep the orders they always had), so adding a player count or a
# round never reorders what is stored.
_ORDER_SPAN = 1_000_000_000


@dataclass(frozen=True)
class PodBalance:
    """How evenly a pod design spreads the bots over one game and player
    count, over all its rounds: pods per bot and meetings per pair of bots
    (least and most)."""

    game: str
    players: int
    bots: int
    pods: int
    all_combinations: bool
    per_bot: tuple[int, int]
    per_pair: tuple[int, int]

    def describe(self) -> str:
        design = "every combination" if self.all_combinations else "a balanced subset"
        return (f"{self.game} with {self.players} players: {plural(self.pods, 'pod')} of {self.bots} bots "
                f"({design}); pods per bot {self.per_bot[0]}-{self.per_bot[1]}, "
                f"meetings per pair {self.per_pair[0]}-{self.per_pair[1]}")


def plan_pods(entrants: list[Entrant], games: list[str], players: int, rounds: int, key: DiceKey,
              options: dict[str, dict[str, Any]] | None = None) -> tuple[list[Job], list[PodBalance]]:
    """Every game at ``players`` seats (three or four), ``rounds`` times.

    A round is a set of pods; a pod is ``players`` bots playing all
    ``players`` rotations of their seats on one seed, so each meets the same
    dice from every seat (the seat-swapped pair, for more seats). Where every
    combination of bots is affordable (at most three times the pods a
    balanced round needs) a round holds them all; otherwise a balanced subset
    chosen from the seed: every bot in the same number of pods, and pairs of
    bots meeting as evenly as can be, counting the rounds before. The plan
    depends only on the bots, the games, the rounds, the options and the key."""
    jobs: list[Job] = []
    balances = []
    for game in games:
        chosen = (options or {}).get(game, {})
        names = sorted((e for e in entrants if game in e.games), key=lambda e: e.spec.name)
        if len(names) < players:
            continue
        design = _PodSchedule([e.spec.name for e in names], players)
        ids = {e.spec.name: e.spec.bot_id for e in names}
        for round_number in range(rounds):
            for pod in design.round(key.derive(f"pods/{game}/{players}p/{round_number}")):
                label = "/".join(pod)
                pod_seed = key.derive(f"{game}/{players}p/{round_number}/{label}{option_text(chosen)}")
                for turn in range(players):
                    seats = tuple(ids[name] for name in pod[turn:] + pod[:turn])
                    game_key = f"t/{game}{option_text(chosen)}/{players}p/r{round_number}/{'/'.join(seats)}"
                    jobs.append(Job(game_key, game, seats, pod_seed, round_number,
                                    players * _ORDER_SPAN + len(jobs), chosen))
        balances.append(design.balance(game))
    return jobs, balances


def option_text(options: dict[str, Any]) -> str:
    """Options as part of a key: nothing for none, so keys without options
    stay what they always were."""
    if not options:
        return ""
    return "[" + ",".join(f"{name}={json.dumps(value)}" for name, value in sorted(options.items())) + "]"


class _PodSchedule:
    """The pods of each round, for one game and player count, remembering
    how often each bot and each pair has met so far."""

    def __init__(self, names: list[str], seats: int) -> None:
        self.names, self.seats = names, seats
        self.per_bot = dict.fromkeys(names, 0)
        self.per_pair: dict[tuple[str, str], int] = dict.fromkeys(itertools.combinations(names, 2), 0)
        self.pods = 0
        count = len(names)
        # Pods a round needs for each bot to meet each other about once: r
        # pods per bot, rounded up so that every bot can have the same number.
        per_bot = math.ceil((count - 1) / (seats - 1))
        step = seats // math.gcd(count, seats)
        self.per_bot_per_round = math.ceil(per_bot / step) * step
        self.per_round = count * self.per_bot_per_round // seats
        self.everything = math.comb(count, seats) <= 3 * self.per_round

    def round(self, seed: int) -> list[tuple[str, ...]]:
        if self.everything:
            pods = list(itertools.combinations(self.names, self.seats))
            for pod in pods:
                self._count(pod)
            return pods
        chooser = random.Random(seed)
        left = dict.fromkeys(self.names, self.per_bot_per_round)
        pods = []
        for _ in range(self.per_round):
            pod = self._pick(chooser, left)
            for name in pod:
                left[name] -= 1
            self._count(pod)
            pods.append(pod)
        return pods

    def _pick(self, chooser: random.Random, left: dict[str, int]) -> tuple[str, ...]:
        """One pod, greedily: bots with the most pods still to play this
        round first (so every bot plays the same number), then the one that
        has met those already chosen least, then the one with the fewest
        pods so far, the seeded generator breaking what ties remain."""
        pod: list[str] = []
        while len(pod) < self.seats:
            def cost(name: str) -> tuple[int, int, int, float]:
                met = sum(self.per_pair[min(name, other), max(name, other)] for other in pod)
                return (-left[name], met, self.per_bot[name], chooser.random())
            pod.append(min((name for name in self.names if name not in pod and left[name] > 0), key=cost))
        return tuple(sorted(pod))

    def _count(self, pod: tuple[str, ...]) -> None:
        self.pods += 1
        for name in pod:
            self.per_bot[name] += 1
        for pair in itertools.combinations(pod, 2):
            self.per_pair[pair] += 1

    def balance(self, game: str) -> PodBalance:
        bots, pairs = self.per_bot.values(), self.per_pair.values()
        return PodBalance(game, self.seats, len(self.names), self.pods, self.everything,
                       (min(bots), max(bots)), (min(pairs), max(pairs)))
