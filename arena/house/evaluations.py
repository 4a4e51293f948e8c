"""The house bots' evaluation of a position (bots/greedy_bot.py plays them
one ply deep; bots/search_bot.py uses them at the leaves of its search).

Each game's package brings its own evaluation (``GameSpec.evaluation``,
what it measures is described in ``bots/greedy_bot.py``); this module wraps
it for every game alike: a finished game is worth its result, a retired
seat's chance is 0. The evaluations live in the package so that a bot
shipped alone (to a Dask worker, say) finds them beside the engines.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arena import results
from arena.errors import ArenaError
from arena.games import SPECS, get_spec
from arena.games.base import TERMINAL, State
from arena.games.evaluation import Evaluation


def terminal_values(state: State) -> list[float]:
    """What a finished game is worth to each seat: one first place, shared
    among the seats placed first (arena.results)."""
    return list(results.first_place_shares(state.outcome().placements))


def without_retired(chances: list[float], data: dict[str, Any]) -> list[float]:
    """A retired seat's chance is 0; the others share what it had."""
    retired = set(data.get("retired", ()))
    if not retired:
        return chances
    kept = [0.0 if seat in retired else chance for seat, chance in enumerate(chances)]
    total = sum(kept)
    if total <= 0.0:
        rest = len(chances) - len(retired)
        return [0.0 if seat in retired else 1.0 / rest for seat in range(len(chances))]
    return [chance / total for chance in kept]


_evaluators: dict[str, Evaluation] = {}


def evaluated_games() -> list[str]:
    """The games the house bots play: those whose package brings an evaluation."""
    return sorted(name for name, spec in SPECS.items() if spec.evaluation is not None)


StateValues = Callable[[State], list[float]]  # a state to each seat's chance of winning


def evaluator(game_name: str) -> StateValues:
    """The evaluation of a game: a state to each seat's chance of winning."""
    if game_name not in _evaluators:
        spec = get_spec(game_name)
        if spec.evaluation is None:
            raise ArenaError(f"{game_name} brings no evaluation: the house bots do not play it "
                             f"(they play {', '.join(evaluated_games())})")
        _evaluators[game_name] = spec.evaluation(spec.game.board)
    heuristic = _evaluators[game_name]

    def evaluate(state: State) -> list[float]:
        if state.current_player() == TERMINAL:
            return terminal_values(state)
        data = state.to_json()
        return without_retired(heuristic(data), data)
    return evaluate
