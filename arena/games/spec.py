"""What a game brings to arena: one ``GameSpec``, which the game's package
exports and registers under the ``arena.games`` entry point group (see
arena.games for the registry, docs/how-to/add-a-game.md for a walk-through).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.games.base import Game
from arena.games.encoding import Encoding
from arena.games.evaluation import EvaluationFactory
from arena.games.text_view import TextView

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # moved there in 3.11 (importlib.abc's name is deprecated from 3.12)
    from importlib.abc import Traversable


@dataclass(frozen=True)
class GameSpec:
    """One game, whole.

    ``game`` is the engine's entry (facts, options, board, states).
    ``rules`` is the rules document, package data of the game's package
    (``importlib.resources.files(__package__) / "rules.md"``): what the
    state, the actions and every decision on the rules mean. ``text_view``
    words the game for a person at the terminal (the generic view shows the
    state's fields). ``evaluation`` makes the house bots' evaluation from
    the board; a game without one is not played by the house bots.
    ``board_js`` draws the board on the site and the play page (the
    contract is in arena/site/static/boards/common.js), with the style
    sheet ``board_css``; without it they show the generic board view.
    ``engine_js`` is the game's replay engine for the browser (the contract
    is in arena/games/text_view.js): the states and words of every step made
    again from a record's events, checked against this package's engine and
    text view on seeded random games (tests/test_engines_js.py); a game
    without one has its replays made in Python and stored whole. ``encoding``
    is the game as numbers for learners (arena.games.encoding: a fixed
    index for every action, an observation vector); ``arena.env`` makes
    environments only of games that bring one. ``conformance`` is test configuration, read
    by the conformance suite only (tests/test_conformance.py): per player
    count, the option sets its seeded random games are played with
    (``[{}]`` where a count is not named). It is here rather than in the
    tests so that a game installed from its own distribution is checked by
    the same suite without arena naming it.
    """

    game: Game
    rules: Traversable
    text_view: type[TextView] = TextView
    evaluation: EvaluationFactory | None = None
    board_js: Traversable | None = None
    board_css: Traversable | None = None
    engine_js: Traversable | None = None
    encoding: type[Encoding] | None = None
    conformance: Mapping[int, Sequence[dict[str, Any]]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.game.name

    def rules_path(self) -> Path:
        """The rules document as a file on disk: what a bot is told to open
        (an installed package's data is a file; a zipped one is not)."""
        if not isinstance(self.rules, Path) or not self.rules.is_file():
            raise ArenaError(f"{self.name}'s rules document is not a file on disk: {self.rules}")
        return self.rules.resolve()

    def describer(self, names: list[str], you: int | None = None) -> TextView:
        """The game in words, for seats called ``names``; seat ``you`` (the
        person's) is spoken to in the second person."""
        return self.text_view(self.game, names, you)
