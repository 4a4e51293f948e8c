"""Detour: the engine (engine.py), its board (board.py), the rules
document (rules.md), its words for the terminal (text_view.py), the house
bots' evaluation (evaluation.py) and the board drawing (board.js), as one
GameSpec registered under the "arena.games" entry point group."""

from importlib.resources import files

from arena.games.detour.engine import GAME
from arena.games.detour.evaluation import DetourEvaluation
from arena.games.detour.text_view import DetourTextView
from arena.games.spec import GameSpec

SPEC = GameSpec(
    game=GAME,
    rules=files(__name__) / "rules.md",
    text_view=DetourTextView,
    evaluation=DetourEvaluation,
    board_js=files(__name__) / "board.js",
    conformance={2: [{}, {"pieces": 4}], 3: [{}], 4: [{}]},
)
