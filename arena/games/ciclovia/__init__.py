"""Ciclovia as one GameSpec, its parts beside it (docs/how-to/add-a-game.md)."""

from importlib.resources import files

from arena.games.ciclovia.encoding import CicloviaEncoding
from arena.games.ciclovia.engine import GAME
from arena.games.ciclovia.evaluation import CicloviaEvaluation
from arena.games.ciclovia.text_view import CicloviaTextView
from arena.games.spec import GameSpec

SPEC = GameSpec(
    game=GAME,
    rules=files(__name__) / "rules.md",
    text_view=CicloviaTextView,
    evaluation=CicloviaEvaluation,
    encoding=CicloviaEncoding,
    board_js=files(__name__) / "board.js",
    board_css=files(__name__) / "board.css",
    engine_js=files(__name__) / "engine.js",
)
