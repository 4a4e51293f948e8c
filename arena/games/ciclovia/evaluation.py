"""Ciclovia's evaluation for the house bots (arena.games.evaluation says
what an evaluation is; bots/greedy_bot.py describes what this one measures)."""

from __future__ import annotations

from collections import deque
from typing import Any

from arena.games.evaluation import softmax


class CicloviaEvaluation:
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
