"""Position evaluations shared by the house bots.

Each game's evaluation turns a position into every seat's chance of winning:
a per-seat strength (fewer turns still needed in the races, more points in
Ciclovia), adjusted for who moves next, through a softmax. What each game's
strength measures is described in ``bots/greedy_bot.py``, the bot that plays
them one ply deep; ``bots/search_bot.py`` uses them at the leaves of its
search. They live in the package so that a bot shipped alone (to a Dask
worker, say) finds them beside the engines.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from typing import Any

from arena import results
from arena.games import get_game
from arena.games.base import TERMINAL, State

Evaluation = Callable[[dict[str, Any]], list[float]]


# ---------------------------------------------------------------- common parts

def softmax(strengths: list[float], scale: float) -> list[float]:
    """Chances of winning from strengths (higher is better)."""
    top = max(strengths)
    weights = [math.exp((s - top) / scale) for s in strengths]
    total = sum(weights)
    return [w / total for w in weights]


def terminal_values(state: State) -> list[float]:
    """What a finished game is worth to each seat: one first place, shared
    among the seats placed first (arena.results)."""
    return list(results.first_place_shares(state.outcome().placements))


def without_retired(chances: list[float], data: dict[str, Any]) -> list[float]:
    """A retired seat's chance is 0; the others share what it had."""
    retired = set(data.get("retired", ()))
    if not retired:
        return chances
    kept = [0.0 if seat in retired else chance for seat, chance in enumerate(chances)]
    total = sum(kept)
    if total <= 0.0:
        rest = len(chances) - len(retired)
        return [0.0 if seat in retired else 1.0 / rest for seat in range(len(chances))]
    return [chance / total for chance in kept]


def order_offsets(players: int, mover: int | None, left: float = 1.0) -> list[float]:
    """How far behind in the turn order each seat is, in turns: the seats
    after the mover wait their turn (a fraction each), and the mover, with
    ``left`` of its turn still to play (1 before its roll, 0 once its dice
    are used), waits for the rest of the round. This keeps a position in the
    middle of a turn comparable with one at its end."""
    if mover is None:
        return [0.0] * players
    return [1.0 - left if seat == mover else ((seat - mover) % players) / players
            for seat in range(players)]


# ---------------------------------------------------------------- Slyyde

class Slyyde:
    """Expected turns to the Centre, alone, for every square."""

    def __init__(self, board: dict[str, Any]) -> None:
        centre = board["centre"]
        triangles = {t["square"]: t["safe"] for t in board["triangles"]}
        diagonal = {b["square"]: b["diagonal"] for b in board["black"]}

        def land(square: int) -> int:
            return triangles.get(square, square)

        turns = [30.0] * (centre + 1)
        turns[centre] = 0.0
        for _ in range(400):
            change = 0.0
            for square in range(centre - 1, -1, -1):
                total = 0.0
                for die in range(1, 7):
                    target = square + die if square + die <= centre else square
                    options = [land(target)]
                    if square in diagonal and die in (1, 6):
                        options.append(land(diagonal[square]))
                    best = min(0.0 if o == centre else turns[o] + (die != 6) for o in options)
                    total += best
                new = total / 6
                change = max(change, abs(new - turns[square]))
                turns[square] = new
            if change < 1e-6:
                break
        self.turns = turns
        self.centre, self.diagonal, self.land = centre, diagonal, land

    def after_roll(self, here: int, die: int) -> float:
        target = here + die if here + die <= self.centre else here
        return self.turns[self.land(target)]

    def __call__(self, data: dict[str, Any]) -> list[float]:
        players, phase, mover = data["players"], data["phase"], data["turn"]
        need = [self.turns[square] for square in data["positions"]]
        left = 1.0
        if phase == "move":   # rolled on a black square: the better of the two moves
            here = data["positions"][mover]
            need[mover] = min(self.after_roll(here, data["die"]), self.turns[self.diagonal[here]])
            left = 0.0
        if phase in ("move", "back6"):
            left = 1.0 if data["die"] == 6 else 0.0
        offsets = order_offsets(players, mover, left)
        need = [n + o for n, o in zip(need, offsets)]
        scale = 1.0 + 0.12 * sum(need) / players
        return softmax([-n for n in need], scale)


# ---------------------------------------------------------------- Detour

class Detour:
    """Expected own turns for each piece to land exactly on a FINISH."""

    LOOK = 48          # spaces walked ahead of a piece
    FAR = 14.0         # turns charged beyond the walk

    def __init__(self, board: dict[str, Any]) -> None:
        from arena.games.detour import step  # the board's one-step rule

        self.step = step
        self.finishes = frozenset(board["finishes"])
        self.centre = board["centre"]
        self.starts = [(s["space"], s["arrow"]) for s in board["starts"]]
        self._line: dict[tuple[int, ...], float] = {}
        self._walk: dict[tuple[int, int, tuple[int, ...]], float] = {}

    def line_turns(self, finishes: tuple[int, ...]) -> float:
        """Turns to land exactly on one of the ``finishes`` (distances along
        the path), one die per turn."""
        cached = self._line.get(finishes)
        if cached is None:
            look, hits = self.LOOK, set(finishes)
            expect = [0.0] * (look + 7)
            for i in range(look + 6, look, -1):
                expect[i] = self.FAR
            for i in range(look, -1, -1):
                expect[i] = 1.0 + sum(0.0 if i + k in hits else expect[i + k] for k in range(1, 7)) / 6
            cached = self._line[finishes] = expect[0]
        return cached

    def piece_turns(self, space: int, port: int, wheels: tuple[int, ...]) -> float:
        key = (space, port, wheels)
        cached = self._walk.get(key)
        if cached is None:
            if len(self._walk) > 200_000:
                self._walk.clear()
            if space == self.centre:
                cached = min(self._walk_from(self.centre, p, wheels) for p in range(4))
            else:
                cached = self._walk_from(space, port, wheels)
            self._walk[key] = cached
        return cached

    def _walk_from(self, space: int, port: int, wheels: tuple[int, ...]) -> float:
        hits = []
        wheel_list = list(wheels)
        for distance in range(1, self.LOOK + 1):
            space, port = self.step(space, port, wheel_list)
            if space in self.finishes:
                hits.append(distance)
        return self.line_turns(tuple(hits))

    def seat_needs(self, data: dict[str, Any], places: list[tuple[int, int] | None]) -> list[float]:
        wheels = tuple(data["wheels"])
        per_seat: list[list[float]] = [[] for _ in range(data["players"])]
        for piece, place in zip(data["pieces"], places):
            per_seat[piece["seat"]].append(0.0 if place is None else self.piece_turns(*place, wheels))
        needs = []
        for turns in per_seat:
            turns.sort(reverse=True)
            needs.append(turns[0] + 0.35 * sum(turns[1:]))
        return needs

    def __call__(self, data: dict[str, Any]) -> list[float]:
        # off the board: finished, or a retired seat's (whose chance is then set to 0)
        places = [None if p["finished"] or p["space"] is None else (p["space"], p["port"])
                  for p in data["pieces"]]
        popoff = data["popoff"]
        if popoff is not None and data["phase"] in ("popoff", "popoff_start"):
            # A pending pop-off: either piece may go back to a START.
            losers = [popoff["loser"]] if popoff["loser"] is not None else \
                [popoff["mover"], popoff["defender"]]
            chances = [0.0] * data["players"]
            for loser in losers:
                trial = list(places)
                trial[loser] = self.starts[0]
                for seat, value in enumerate(self._chances(data, trial)):
                    chances[seat] += value / len(losers)
            return chances
        return self._chances(data, places)

    def _chances(self, data: dict[str, Any], places: list[tuple[int, int] | None]) -> list[float]:
        players, phase = data["players"], data["phase"]
        if phase in ("roll", "choose"):
            left = 1.0
        elif phase == "own_start":
            left = 0.0
        else:  # moves of this roll still queued
            left = len(data["queue"]) / max(1, len(data["dice"]))
        offsets = order_offsets(players, data["seat"], left)
        needs = [n + o for n, o in zip(self.seat_needs(data, places), offsets)]
        scale = 1.0 + 0.12 * sum(needs) / players
        return softmax([-n for n in needs], scale)


# ---------------------------------------------------------------- Ciclovia

class Ciclovia:
    """Points held plus the promise of the position."""

    COLOUR_BONUS = {"blue": 1, "red": -1, "green": 0, "orange": 0}

    def __init__(self, board: dict[str, Any]) -> None:
        spaces = board["spaces"]
        self.count = len(spaces)
        self.exits = [[to for _, to in space["exits"]] for space in spaces]
        self.distance = [self._bfs(source) for source in range(self.count)]
        arrivals = board["arrivals"]
        self.to_arrival = [min(self.distance[s][a] for a in arrivals) for s in range(self.count)]
        # doors[block][number]: the spaces where a die of that value on that block is taken
        self.doors: list[dict[int, list[int]]] = []
        for block in board["blocks"]:
            by_number: dict[int, list[int]] = {}
            for door in block["doors"]:
                by_number.setdefault(door["number"], []).append(door["space"])
            self.doors.append(by_number)

    def _bfs(self, source: int) -> list[int]:
        far = 99
        distance = [far] * self.count
        distance[source] = 0
        queue = deque([source])
        while queue:
            here = queue.popleft()
            for there in self.exits[here]:
                if distance[there] == far:
                    distance[there] = distance[here] + 1
                    queue.append(there)
        return distance

    def strength(self, data: dict[str, Any], seat: int) -> float:
        rider = data["riders"][seat]
        value = float(rider["score"])
        if rider["arrived"]:
            return value
        missing = rider["missing"]
        doubled = rider["double_next"]
        if doubled:
            value += 2.0
        value -= 2.5 * len(missing)
        here = self.distance[rider["space"]]
        # Without every colour a rider cannot win against one that has them
        # (decision 20): charge the steps to the nearest die of a missing
        # colour, and heavily each missing colour none is left of in stage 2.
        nearest = {colour: 99 for colour in missing}
        best = 0.0
        for block, die in enumerate(data["blocks"]):
            if die is None:
                continue
            doors = self.doors[block].get(die["value"], ())
            if die["colour"] in nearest:
                nearest[die["colour"]] = min(nearest[die["colour"]],
                                             min((here[s] for s in doors), default=99))
            points = die["value"] + self.COLOUR_BONUS[die["colour"]]
            if doubled:
                points *= 2
            if die["colour"] in missing and not doubled:   # a doubled die fills no colour
                points += 2.5
            steps = min((here[s] for s in doors), default=99)
            best = max(best, points - 0.9 * steps)
        value += 0.5 * best
        # One target at a time (the nearest missing colour), so that a step
        # towards it always pays, even out of the garage, next to every entry.
        findable = [steps for steps in nearest.values() if steps < 99]
        if findable:
            value -= 0.25 * min(min(findable), 24)
        if data["stage"] == 2 and data["phase"] not in ("deal", "roll"):
            # (while stage 2 is being dealt its blocks are still empty)
            value -= 8.0 * (len(nearest) - len(findable))
        value -= 0.05 * self.to_arrival[rider["space"]]
        return value

    def __call__(self, data: dict[str, Any]) -> list[float]:
        return softmax([self.strength(data, seat) for seat in range(data["players"])], 3.0)


# ---------------------------------------------------------------- Roundabout

class Roundabout:
    """Pips to come home, in turns."""

    def __init__(self, board: dict[str, Any]) -> None:
        self.bars = board["bars"]
        self.territory_bars = [t["bars"] for t in board["territories"]]

    def distance_home(self, bar: int, direction: int, home: int) -> int:
        bars = self.territory_bars[home]
        if direction > 0:
            steps = (bars[0] - bar) % self.bars
        else:
            steps = (bar - bars[-1]) % self.bars
        return steps or self.bars

    def need(self, data: dict[str, Any], seat: int, captured: set[int]) -> float:
        home, target = data["homes"][seat], data["targets"][seat]
        target_bars = set(self.territory_bars[target])
        pips = 0.0
        lined: dict[int, set[int]] = {}
        for dart in data["darts"]:
            if dart["owner"] != seat or dart["space"] is None:
                continue
            pips += self.distance_home(dart["bar"], dart["dir"], home)
            if dart["id"] in captured:
                pips += 5.0
            if dart["bar"] in target_bars:
                lined.setdefault(dart["ring"], set()).add(dart["bar"])
        for bars in lined.values():
            if len(bars) >= 2:
                pips -= 2.0 * (len(bars) - 1) ** 2
        return pips / 8.0

    def __call__(self, data: dict[str, Any]) -> list[float]:
        players = data["players"]
        captured = set(data["captured"])
        if data["phase"] == "play":
            offsets = order_offsets(players, data["mover"], len(data["dice_left"]) / 2)
        else:
            offsets = order_offsets(players, data["turn_player"])
        needs = [self.need(data, seat, captured) + offsets[seat] for seat in range(players)]
        scale = 1.0 + 0.1 * sum(needs) / players
        return softmax([-n for n in needs], scale)


# ---------------------------------------------------------------- evaluation

HEURISTICS: dict[str, Callable[[dict[str, Any]], Evaluation]] = {
    "slyyde": Slyyde, "detour": Detour, "ciclovia": Ciclovia, "roundabout": Roundabout}
_evaluators: dict[str, Evaluation] = {}


def evaluator(game_name: str) -> Callable[[State], list[float]]:
    """The evaluation of a game: a state to each seat's chance of winning."""
    if game_name not in _evaluators:
        _evaluators[game_name] = HEURISTICS[game_name](get_game(game_name).board)
    heuristic = _evaluators[game_name]

    def evaluate(state: State) -> list[float]:
        if state.current_player() == TERMINAL:
            return terminal_values(state)
        data = state.to_json()
        return without_retired(heuristic(data), data)
    return evaluate
