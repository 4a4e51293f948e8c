"""Slyyde: the engine (engine.py), its board (board.py), the rules
document (rules.md), its words for the terminal (text_view.py), the house
bots' evaluation (evaluation.py) and the board drawing (board.js), as one
GameSpec registered under the "arena.games" entry point group."""

from importlib.resources import files

from arena.games.slyyde.engine import GAME
from arena.games.slyyde.evaluation import SlyydeEvaluation
from arena.games.slyyde.text_view import SlyydeTextView
from arena.games.spec import GameSpec

SPEC = GameSpec(
    game=GAME,
    rules=files(__name__) / "rules.md",
    text_view=SlyydeTextView,
    evaluation=SlyydeEvaluation,
    board_js=files(__name__) / "board.js",
    conformance={players: [{}, {"first_player": players - 1}] for players in range(2, 5)},
)
