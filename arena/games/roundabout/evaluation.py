"""Roundabout's evaluation for the house bots (arena.games.evaluation says
what an evaluation is; bots/greedy_bot.py describes what this one measures)."""

from __future__ import annotations

from typing import Any

from arena.games.evaluation import order_offsets, softmax


class RoundaboutEvaluation:
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
