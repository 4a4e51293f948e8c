"""Slyyde as one GameSpec, its parts beside it (docs/how-to/add-a-game.md)."""

from importlib.resources import files

from arena.games.slyyde.encoding import SlyydeEncoding
from arena.games.slyyde.engine import GAME
from arena.games.slyyde.evaluation import SlyydeEvaluation
from arena.games.slyyde.text_view import SlyydeTextView
from arena.games.spec import GameSpec

SPEC = GameSpec(
    game=GAME,
    rules=files(__name__) / "rules.md",
    text_view=SlyydeTextView,
    evaluation=SlyydeEvaluation,
    encoding=SlyydeEncoding,
    board_js=files(__name__) / "board.js",
    board_css=files(__name__) / "board.css",
    engine_js=files(__name__) / "engine.js",
    conformance={players: [{}, {"first_player": players - 1}] for players in range(2, 5)},
)
