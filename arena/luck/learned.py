"""A learned value estimate for the games whose house evaluation does not
see what the dice in hand are worth (Roundabout: each die in hand counts as
half a turn whatever it shows).

Each pair of seats ``(i, j)`` is scored as ``sigmoid(w . x(i, j))``, the
chance that ``i`` places ahead of ``j``; ``x`` are features of the position
for the pair, each antisymmetric (``x(j, i) = -x(i, j)``, so the two
chances sum to 1), and a seat's value is the mean over its opponents, as its
points are the mean of its pairwise results (``arena.results.points``). The
weights ``w`` are fitted per game and player count by maximum likelihood to
the pairwise results of self-play games on seeds of their own
(bench/fit_luck_learned.py writes ``learned.json``, package data beside this
module, with the games they were fitted on and the held-out log-loss
against the calibrated house evaluation's). Evaluation is pure Python: it
runs some forty times for every roll of every game measured.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections.abc import Callable
from importlib import resources
from typing import Any, NamedTuple

from arena import results
from arena.games import get_game
from arena.games.base import TERMINAL, State
from arena.games.roundabout.board import BARS, BARS_PER_TERRITORY, RINGS
from arena.games.roundabout.evaluation import RoundaboutEvaluation

MODELS = "learned.json"


class SeatSummary(NamedTuple):
    """What a Roundabout position holds for one seat (``RoundaboutFeatures``)."""

    left: float   # turns still to go: need - hand + wait
    end: float    # the same, but at least half a turn per Dart the dice in hand leave on the board
    hand: float   # the pips of the dice the seat holds, in turns of eight pips
    wait: float   # the share of a round before the seat rolls again
    now: float    # 1 if the dice in hand can bring every Dart home
    later: float  # the chance to bring every Dart home with the seat's next roll (after the best use of any in hand)


class RoundaboutFeatures:
    """Roundabout's pair features. Its game is decided by the last rolls:
    the first seat whose dice bring its last Darts home wins, and a pip
    count says little of that (a Dart comes home only on a die that lands it
    in its home quarter; a larger one sends it round again). So beside the
    race (the house evaluation's pips, ``need``, in turns of eight pips, less
    the dice in hand, plus the wait for the next roll; its difference over
    the square root of the sum, as a race's spread grows with its length),
    each seat's chance of finishing with its next roll is worked out from its
    Darts' distances home once it has four or fewer, after the best use of
    the dice it holds (``best_use``), with who rolls first (``duel``)."""

    NAMES = ("race", "end", "hand", "wait", "now", "later", "duel")

    def __init__(self) -> None:
        self.evaluation = RoundaboutEvaluation(get_game("roundabout").board)

    def seats(self, data: dict[str, Any]) -> list[SeatSummary]:
        players = data["players"]
        captured = set(data["captured"])
        distances: list[list[int]] = [[] for _ in range(players)]
        for dart in data["darts"]:
            if dart["space"] is not None:
                owner = dart["owner"]
                distances[owner].append(self.evaluation.distance_home(dart["bar"], dart["dir"], data["homes"][owner]))
        phase, first = data["phase"], data["turn_player"]
        holder = data["mover"] if phase == "play" else first if phase == "offer" else None
        summaries = []
        for seat in range(players):
            need = self.evaluation.need(data, seat, captured)
            in_hand = tuple(data["dice_left"]) if seat == holder else ()
            hand = sum(in_hand) / 8.0
            if first is None or first < 0:
                wait = 0.0
            elif phase in ("play", "offer"):
                wait = ((seat - first - 1) % players + 1) / players
            else:
                wait = ((seat - first) % players) / players
            mine = tuple(sorted(distances[seat]))
            homes = homes_in_hand(mine, in_hand)
            if in_hand and len(mine) <= 4:
                later = best_use(mine, in_hand)
            elif len(mine) <= 2:
                later = finish_chance(mine)
            else:
                later = 0.0
            summaries.append(SeatSummary(
                left=max(need - hand + wait, 0.0), end=max(need - hand, (len(mine) - homes) / 2.0) + wait,
                hand=hand, wait=wait, now=float(bool(in_hand) and (homes >= len(mine) or later == 1.0)), later=later))
        return summaries

    @staticmethod
    def pair(a: SeatSummary, b: SeatSummary) -> tuple[float, ...]:
        return ((b.left - a.left) / math.sqrt(a.left + b.left + 1.0), (b.end - a.end) / math.sqrt(a.end + b.end + 1.0),
                a.hand - b.hand, b.wait - a.wait, a.now - b.now, a.later - b.later, duel(a, b) - 0.5)


def duel(a: SeatSummary, b: SeatSummary) -> float:
    """The chance that ``a`` brings its last Darts home first if from now on
    every roll of each seat does with its ``later`` chance, the seat that
    waits less rolling first (``now``: the dice in hand do)."""
    if a.now:
        return 1.0
    if b.now:
        return 0.0
    either = a.later + b.later - a.later * b.later
    if either <= 0.0:
        return 0.5
    return a.later / either if a.wait <= b.wait else (1.0 - b.later) * a.later / either


ROLLS = [(first, second) for first in range(1, 7) for second in range(1, 7)]


@functools.cache
def finish_chance(distances: tuple[int, ...]) -> float:
    """The share of rolls that bring every one of these Darts home."""
    return sum(homes_in_hand(distances, roll) >= len(distances) for roll in ROLLS) / len(ROLLS)


@functools.cache
def best_use(distances: tuple[int, ...], dice: tuple[int, ...]) -> float:
    """The best the dice in hand can do for these Darts: 1 if they bring
    them all home, else the best ``finish_chance`` (at most two Darts left)
    of where the dice can leave them. Each die moves one Dart round its
    ring (a Dart lands home when the die takes it 0 to 3 bars into its home
    quarter, and goes round again past it), or is spent along a bar if it is
    at most 4; spaces taken and blocks are not looked at."""
    best = 0.0
    count = len(distances)
    for assignment in itertools.product(range(count + 1), repeat=len(dice)):
        moved, home = list(distances), [False] * count
        for die, dart in zip(dice, assignment):
            if dart == count:
                if die >= RINGS:
                    break
                continue
            if home[dart]:
                break
            left = moved[dart] - die
            if 1 - BARS_PER_TERRITORY <= left <= 0:
                home[dart] = True
            else:
                moved[dart] = left + BARS if left < 0 else left
        else:
            rest = tuple(sorted(d for d, done in zip(moved, home) if not done))
            best = max(best, 1.0 if not rest else finish_chance(rest) if len(rest) <= 2 else 0.0)
    return best


def homes_in_hand(distances: tuple[int, ...], dice: tuple[int, ...]) -> int:
    """How many Darts the dice in hand could bring home, each die landing a
    Dart in its home quarter (``distance <= die < distance + 4``), or both
    dice one Dart (spaces taken and blocks aside)."""
    fits = [[d <= die < d + BARS_PER_TERRITORY for d in distances] for die in dice]
    if len(dice) == 2 and any(fits[0][k] and fits[1][m] for k in range(len(distances))
                              for m in range(len(distances)) if k != m):
        return 2
    if any(any(row) for row in fits):
        return 1
    return int(len(dice) == 2 and any(d <= dice[0] + dice[1] < d + BARS_PER_TERRITORY for d in distances))


FEATURES: dict[str, Callable[[], RoundaboutFeatures]] = {"roundabout": RoundaboutFeatures}


@functools.cache
def load_models() -> dict[str, dict[str, Any]]:
    """The fitted weights, ``{game: {players: {"weights": {name: w}, ...}}}``."""
    text = resources.files(__package__).joinpath(MODELS).read_text(encoding="utf-8")
    data: dict[str, dict[str, Any]] = json.loads(text)["games"]
    return data


@functools.cache
def features_for(game_name: str) -> RoundaboutFeatures:
    return FEATURES[game_name]()


def has_model(game_name: str, players: int) -> bool:
    return str(players) in load_models().get(game_name, {})


def pair_chance(weights: tuple[float, ...], x: tuple[float, ...]) -> float:
    """``sigmoid(w . x)``, without overflow."""
    score = sum(w * v for w, v in zip(weights, x))
    if score >= 0.0:
        return 1.0 / (1.0 + math.exp(-score))
    lift = math.exp(score)
    return lift / (1.0 + lift)


def seat_values(summaries: list[SeatSummary], retired: set[int], weights: tuple[float, ...],
                pair: Callable[[SeatSummary, SeatSummary], tuple[float, ...]]) -> list[float]:
    """Each seat's expected points: the mean of its pairs' chances. A retired
    seat places behind every seat still playing (``race_placements``)."""
    players = len(summaries)
    totals = [0.0] * players
    for i in range(players):
        for j in range(i + 1, players):
            if i in retired or j in retired:
                chance = 0.5 if i in retired and j in retired else 0.0 if i in retired else 1.0
            else:
                chance = pair_chance(weights, pair(summaries[i], summaries[j]))
            totals[i] += chance
            totals[j] += 1.0 - chance
    return [total / (players - 1) for total in totals]


def learned_values(game_name: str, players: int,
                   weights: tuple[float, ...] | None = None) -> Callable[[State], list[float]]:
    """The learned value estimate of a game at a player count: the shipped
    weights unless ``weights`` are given (the fitting script tries its own)."""
    features = features_for(game_name)
    if weights is None:
        stored = load_models()[game_name][str(players)]["weights"]
        weights = tuple(float(stored[name]) for name in features.NAMES)

    def value(state: State) -> list[float]:
        if state.current_player() == TERMINAL:
            return list(results.points(state.outcome().placements))
        data = state.to_json()
        return seat_values(features.seats(data), set(data.get("retired", ())), weights, features.pair)
    return value
