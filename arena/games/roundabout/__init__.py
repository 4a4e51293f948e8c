"""Roundabout: the engine (engine.py), its board (board.py), the rules
document (rules.md), its words for the terminal (text_view.py), the house
bots' evaluation (evaluation.py) and the board drawing (board.js), as one
GameSpec registered under the "arena.games" entry point group."""

from importlib.resources import files

from arena.games.roundabout.engine import GAME
from arena.games.roundabout.evaluation import RoundaboutEvaluation
from arena.games.roundabout.text_view import RoundaboutTextView
from arena.games.spec import GameSpec

SPEC = GameSpec(
    game=GAME,
    rules=files(__name__) / "rules.md",
    text_view=RoundaboutTextView,
    evaluation=RoundaboutEvaluation,
    board_js=files(__name__) / "board.js",
)
