"""Pig as an arena game: the GameSpec that pyproject.toml registers under
the "arena.games" entry point group."""

from importlib.resources import files

from arena.games.spec import GameSpec
from arena_pig.encoding import PigEncoding
from arena_pig.engine import GAME
from arena_pig.text_view import PigTextView

SPEC = GameSpec(
    game=GAME,
    rules=files(__name__) / "rules.md",
    text_view=PigTextView,
    encoding=PigEncoding,
    conformance={2: [{}, {"target": 10}], 3: [{}], 4: [{}]},
)
