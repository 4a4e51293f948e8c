"""Detour's evaluation for the house bots (arena.games.evaluation says
what an evaluation is; bots/greedy_bot.py describes what this one measures)."""

from __future__ import annotations

from typing import Any

from arena.games.detour.engine import step
from arena.games.evaluation import order_offsets, softmax


class DetourEvaluation:
    """Expected own turns for each piece to land exactly on a FINISH."""

    LOOK = 48          # spaces walked ahead of a piece
    FAR = 14.0         # turns charged beyond the walk

    def __init__(self, board: dict[str, Any]) -> None:
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
