"""Detour as one GameSpec, its parts beside it (docs/how-to/add-a-game.md)."""

from importlib.resources import files

from arena.games.detour.encoding import DetourEncoding
from arena.games.detour.engine import GAME
from arena.games.detour.evaluation import DetourEvaluation
from arena.games.detour.text_view import DetourTextView
from arena.games.spec import GameSpec

SPEC = GameSpec(
    game=GAME,
    rules=files(__name__) / "rules.md",
    text_view=DetourTextView,
    evaluation=DetourEvaluation,
    encoding=DetourEncoding,
    board_js=files(__name__) / "board.js",
    board_css=files(__name__) / "board.css",
    engine_js=files(__name__) / "engine.js",
    conformance={2: [{}, {"pieces": 4}], 3: [{}], 4: [{}]},
)
