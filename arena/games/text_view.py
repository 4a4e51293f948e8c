"""A game in words, for a person at the terminal: the position, each
offered action's meaning, and what each step did.

Everything is read from a state's ``to_json()`` (what a bot sees, described
in the game's rules document), the board data and the action dicts, so the
terminal shows exactly what the referee plays. Seats are named by the
names given (``you`` and the bots) and marked A, B, C, D on the boards; the
person's seat (``you``) is spoken to in the second person ("you roll"),
every other seat in the third ("alpha rolls").

These are the only words of a game: the terminal prints them, the play
server sends them to the page with every offered action and event, and the
site's replays carry them for every step (``step``); the pages show them and
format no move themselves. The places and ids the words use (space numbers,
wheel letters, rings and bars) are the ones the board drawings show.

This class is the frame every game shares, and on its own it is the view
of a game that brings no words of its own: the state's fields one a line,
actions and effects as JSON. A game's package subclasses it
(``position``, ``describe_action``, ``describe_effect``, ``score_unit``,
``engine_moves``) and names the subclass in its ``GameSpec``.
"""

from __future__ import annotations

import json
from typing import Any, TypedDict

from arena.games.base import Game
from arena.model import Event
from arena.results import first_place_words, ordinal

Json = dict[str, Any]
MARKS = "ABCD"
# Third-person verbs whose second person is not the verb less its "s".
_IRREGULAR = {"has": "have", "is": "are", "does": "do", "was": "were"}


class StepWords(TypedDict, total=False):
    """One step of a game in words (schema.json, ``$defs/stepWords``):
    ``line`` the step in one line (the move list), ``effects`` what it did,
    one line each; for a decision ``offered`` each offered action's words
    in order; ``forced`` when the seat had no choice (one action offered,
    or the engine moved for it after a roll)."""

    line: str
    effects: list[str]
    offered: list[str]
    forced: bool


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class TextView:
    """One game's words. ``names[seat]`` names each seat."""

    score_unit = "points"  # what Outcome.scores count, in the result line
    # Effect causes that move a seat's pieces: in a step of chance (a roll),
    # the engine made that move for the seat, which had no choice.
    engine_moves: frozenset[str] = frozenset()

    def __init__(self, game: Game, names: list[str], you: int | None = None) -> None:
        self.game = game.name
        # The same bot may play several seats: then its seat tells them apart.
        self.names = [f"{name} (seat {seat})" if names.count(name) > 1 else name for seat, name in enumerate(names)]
        self.you = you
        self.board = game.board

    # -- who is who ---------------------------------------------------------------

    def seat(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return f"seat {seat}"
        return self.names[seat]

    def says(self, seat: int | None, verb: str) -> str:
        """The seat and a verb given in the third person, agreeing:
        "alpha rolls", "you roll"; "alpha has", "you have"."""
        if seat is None or seat != self.you:
            return f"{self.seat(seat)} {verb}"
        first, _, rest = verb.partition(" ")
        if first in _IRREGULAR:
            first = _IRREGULAR[first]
        elif first.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
            first = first[:-2]
        elif first.endswith("s"):
            first = first[:-1]
        return f"{self.seat(seat)} {first}" + (f" {rest}" if rest else "")

    def whose(self, seat: int | None) -> str:
        """The seat's possessive: "alpha's", "your"."""
        return "your" if seat is not None and seat == self.you else f"{self.seat(seat)}'s"

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

    def describe_effect(self, effect: Json, state: Json) -> str | None:
        """One effect of the latest step in words (``state`` is the state
        after the step); None to leave it out."""
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
                line = self.describe_effect(effect, state)
            except (KeyError, IndexError, TypeError):
                line = compact(effect)
            if line:
                lines.append(line)
        return lines

    def step(self, before: Json, event: Event, after: Json) -> StepWords:
        """Event ``event`` in words, from the state before it and the state
        after it (whose ``last`` holds its effects)."""
        effects = self.effects(after)
        if event["kind"] == "decision":
            offered = [self.action(action, before) for action in event["offered"]]
            forced = len(offered) == 1
            line = effects_line(event, effects, forced) or \
                effects_line(event, [f"{self.says(event['seat'], 'chooses')}: {offered[event['chosen']]}"], forced)
            return {"line": line, "effects": effects, "offered": offered, "forced": forced}
        if event["kind"] == "retire":
            line = f"{self.says(event['seat'], 'forfeits')} ({event['reason'].replace('_', ' ')}) " \
                   f"and {'are' if event['seat'] == self.you else 'is'} out of the game"
            return {"line": line, "effects": effects, "forced": False}
        forced = any(effect.get("cause") in self.engine_moves for effect in after.get("last") or [])
        line = effects_line(event, effects, forced) or \
            effects_line(event, [f"{event['purpose']}: {' '.join(map(str, event['values']))}"], forced)
        return {"line": line, "effects": effects, "forced": forced}

    def result(self, placements: list[int], scores: list[float] | None = None) -> list[str]:
        """Who won (or shares first place, or a draw) and every seat's place."""
        words = first_place_words([self.seat(seat) for seat in range(len(placements))], placements)
        order = sorted(range(len(placements)), key=lambda seat: (placements[seat], seat))
        places = ", ".join(f"{ordinal(placements[seat])} {self.seat(seat)}" +
                           (f" ({scores[seat]:g} {self.score_unit})" if scores else "") for seat in order)
        return [f"result: {words}", f"places: {places}"]


def effects_line(event: Event, effects: list[str], forced: bool) -> str:
    """A decision's or chance event's line made of its effects (empty
    without any), saying where the seat or the engine had no choice; a
    replay leaves such a line out and static/replay.js (stepLine) makes it
    again the same way."""
    if not effects:
        return ""
    if event["kind"] == "decision":
        return ("forced (the only move): " if forced else "") + "; ".join(effects)
    return "; ".join(effects) + (" (forced: the only move)" if forced else "")
