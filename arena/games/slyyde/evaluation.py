"""Slyyde's evaluation for the house bots (arena.games.evaluation says
what an evaluation is; bots/greedy_bot.py describes what this one measures)."""

from __future__ import annotations

from typing import Any

from arena.games.evaluation import order_offsets, softmax


class SlyydeEvaluation:
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
