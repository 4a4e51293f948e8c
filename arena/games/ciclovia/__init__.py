"""Ciclovia: the engine (engine.py), its board (board.py), the rules
document (rules.md), its words for the terminal (text_view.py), the house
bots' evaluation (evaluation.py) and the board drawing (board.js), as one
GameSpec registered under the "arena.games" entry point group."""

from importlib.resources import files

from arena.games.ciclovia.engine import GAME
from arena.games.ciclovia.evaluation import CicloviaEvaluation
from arena.games.ciclovia.text_view import CicloviaTextView
from arena.games.spec import GameSpec

SPEC = GameSpec(
    game=GAME,
    rules=files(__name__) / "rules.md",
    text_view=CicloviaTextView,
    evaluation=CicloviaEvaluation,
    board_js=files(__name__) / "board.js",
)
