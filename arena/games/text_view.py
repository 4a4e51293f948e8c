"""A game in words, for a person at the terminal: the position, each
offered action's meaning, and what each step did.

Everything is read from a state's ``to_json()`` (what a bot sees, described
in the game's rules document), the board data and the action dicts, so the
terminal shows exactly what the referee plays. Seats are named by the
names given (``you`` and the bots) and marked A, B, C, D on the boards.

This class is the frame every game shares, and on its own it is the view
of a game that brings no words of its own: the state's fields one a line,
actions and effects as JSON. A game's package subclasses it
(``position``, ``describe_action``, ``describe_effect``, ``score_unit``) and
names the subclass in its ``GameSpec``.
"""

from __future__ import annotations

import json
from typing import Any

from arena.games.base import Game
from arena.results import first_place_words, ordinal

Json = dict[str, Any]
MARKS = "ABCD"


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class TextView:
    """One game's words. ``names[seat]`` names each seat."""

    score_unit = "points"  # what Outcome.scores count, in the result line

    def __init__(self, game: Game, names: list[str]) -> None:
        self.game = game.name
        # The same bot may play several seats: then its seat tells them apart.
        self.names = [f"{name} (seat {seat})" if names.count(name) > 1 else name for seat, name in enumerate(names)]
        self.board = game.board

    # -- who is who ---------------------------------------------------------------

    def seat(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return f"seat {seat}"
        return self.names[seat]

    def legend(self) -> str:
        return "   ".join(f"{MARKS[seat]} = {name}" + ("" if name.endswith(f"(seat {seat})") else f" (seat {seat})")
                           for seat, name in enumerate(self.names))

    # -- what a game's package words its own way ------------------------------------

    def position(self, state: Json) -> list[str]:
        """The board, or where everything stands, and whose turn with which dice."""
        return [self.legend(), *(f"{key}: {compact(value)}" for key, value in state.items() if key != "last")]

    def describe_action(self, action: Json, state: Json) -> str:
        """What choosing ``action`` does, in words (``action`` may raise
        KeyError, IndexError or TypeError on an action it cannot word)."""
        return compact(action)

    def describe_effect(self, effect: Json) -> str | None:
        """One effect of the latest step in words; None to leave it out."""
        return compact(effect)

    # -- the three things a person reads --------------------------------------------

    def action(self, action: Json, state: Json) -> str:
        """What choosing ``action`` does, in words."""
        try:
            return self.describe_action(action, state)
        except (KeyError, IndexError, TypeError):
            return compact(action)

    def effects(self, state: Json) -> list[str]:
        """What the latest step did (the state's ``last``), one line per effect."""
        lines = []
        for effect in state.get("last") or []:
            try:
                line = self.describe_effect(effect)
            except (KeyError, IndexError, TypeError):
                line = compact(effect)
            if line:
                lines.append(line)
        return lines

    def result(self, placements: list[int], scores: list[float] | None = None) -> list[str]:
        """Who won (or shares first place, or a draw) and every seat's place."""
        words = first_place_words([self.seat(seat) for seat in range(len(placements))], placements)
        order = sorted(range(len(placements)), key=lambda seat: (placements[seat], seat))
        places = ", ".join(f"{ordinal(placements[seat])} {self.seat(seat)}" +
                           (f" ({scores[seat]:g} {self.score_unit})" if scores else "") for seat in order)
        return [f"result: {words}", f"places: {places}"]
