"""Roundabout as one GameSpec, its parts beside it (docs/how-to/add-a-game.md)."""

from importlib.resources import files

from arena.games.roundabout.encoding import RoundaboutEncoding
from arena.games.roundabout.engine import GAME
from arena.games.roundabout.evaluation import RoundaboutEvaluation
from arena.games.roundabout.text_view import RoundaboutTextView
from arena.games.spec import GameSpec

SPEC = GameSpec(
    game=GAME,
    rules=files(__name__) / "rules.md",
    text_view=RoundaboutTextView,
    evaluation=RoundaboutEvaluation,
    encoding=RoundaboutEncoding,
    board_js=files(__name__) / "board.js",
    board_css=files(__name__) / "board.css",
    engine_js=files(__name__) / "engine.js",
)
