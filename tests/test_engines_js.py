"""Every game's replay engine for the browser (GameSpec.engine_js, the
contract in arena/games/text_view.js) makes the states and words the
game's Python engine and text view make: on seeded random games of every
player count and option set, with and without retirements, every state
after every event, the actions offered at every decision and every step's
words, and the digest of the offered actions, compared in node
(tests/engines_check.js), with seats named alike (a bot in two seats) and
with a seat spoken to ("you")."""

from __future__ import annotations

import json
import subprocess
from importlib.resources import as_file
from pathlib import Path

import pytest
from test_conformance import VARIANTS as CONFORMANCE_VARIANTS
from test_conformance import playout_with_retirements, variant_id

from arena.games import GAMES, SPECS
from arena.games.events import replay
from arena.games.playout import random_playout
from arena.games.text_view import TextView
from arena.model import offered_digest, stored_events

FRAME = Path(__file__).parents[1] / "arena" / "games" / "text_view.js"
CHECK = Path(__file__).with_name("engines_check.js")
GAMES_FAST = 4       # per variant, half with retirements
GAMES_SLOW = 12
NAMES = ["alpha", "beta", "alpha", "gamma"]  # a bot in two seats: "alpha (seat 0)"

VARIANTS = [variant for variant in CONFORMANCE_VARIANTS if SPECS[variant[0]].engine_js is not None]


def record_case(name: str, players: int, options: dict, seed: int) -> dict:
    """One seeded random game as the referee's engine and text view see it:
    its events, every state and every step's words. Odd seeds have seats
    retire along the way, and every third seed speaks to a seat."""
    game = GAMES[name]
    if seed % 2:
        _, events = playout_with_retirements(game, players, options, seed)
    else:
        _, events = random_playout(game, players, seed, options)
    names = NAMES[:players]
    you = seed % players if seed % 3 == 0 else None
    view: TextView = SPECS[name].describer(names, you)
    states = [state.to_json() for state in replay(game, players, options, events)]
    words = [view.step(states[k], event, states[k + 1]) for k, event in enumerate(events)]
    return {"game": name, "players": players, "options": options, "board": game.board, "names": names,
            "you": you, "events": events, "digest": stored_events(events)[1], "states": states, "words": words}


def check_in_node(node: str, name: str, cases: list[dict], folder: Path) -> list[dict]:
    cases_file = folder / "cases.jsonl"
    cases_file.write_text("".join(json.dumps(case) + "\n" for case in cases))
    with as_file(SPECS[name].engine_js) as engine:
        done = subprocess.run([node, str(CHECK), str(cases_file), str(FRAME), str(engine)],
                              capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def assert_engine_agrees(node: str, variant, seeds: range, folder: Path) -> None:
    name, players, options = variant
    cases = [record_case(name, players, options, seed) for seed in seeds]
    results = check_in_node(node, name, cases, folder)
    assert len(results) == len(cases)
    for seed, result in zip(seeds, results):
        assert result["ok"], f"seed {seed}: {json.dumps(result)[:3000]}"


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_the_browser_engine_makes_the_referees_states_and_words(node, variant, tmp_path):
    assert_engine_agrees(node, variant, range(GAMES_FAST), tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_the_browser_engine_agrees_on_many_games(node, variant, tmp_path):
    assert_engine_agrees(node, variant, range(GAMES_FAST, GAMES_FAST + GAMES_SLOW), tmp_path)


def check_one(node: str, case: dict, engine: Path, folder: Path) -> dict:
    """What the check says of one case, run with ``engine``."""
    cases_file = folder / "cases.jsonl"
    cases_file.write_text(json.dumps(case) + "\n")
    done = subprocess.run([node, str(CHECK), str(cases_file), str(FRAME), str(engine)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_the_check_finds_a_state_that_differs(node, tmp_path):
    """The check itself: an engine that gets one field wrong is caught at the
    step where it goes wrong, with where."""
    engine = tmp_path / "wrong.js"
    engine.write_text(
        "ArenaEngines.counter = {initial: () => ({n: 0, last: []}), legalActions: () => [],\n"
        "  apply: (state, event) => ({n: state.n + (state.n === 2 ? 2 : 1), last: []}),\n"
        "  View: ArenaEngines.TextView};\n")
    events = [{"kind": "chance", "stream": "dice", "purpose": "roll", "values": [v]} for v in (1, 2, 3, 4)]
    case = {"game": "counter", "players": 1, "options": {}, "board": {}, "names": ["alpha"], "you": None,
            "events": events, "states": [{"n": n, "last": []} for n in range(5)],
            "words": [{"line": f"roll: {v}", "effects": [], "forced": False} for v in (1, 2, 3, 4)]}
    result = check_one(node, case, engine, tmp_path)
    assert (result["ok"], result["step"], result["what"]) == (False, 3, "state.n")


def test_the_check_finds_an_offer_the_engine_does_not_make(node, tmp_path):
    engine = tmp_path / "short.js"
    engine.write_text(
        "ArenaEngines.counter = {initial: () => ({n: 0, last: []}), legalActions: () => [{step: 1}],\n"
        "  apply: (state, event) => ({n: state.n + 1, last: []}), View: ArenaEngines.TextView};\n")
    offered = [{"step": 1}, {"step": 2}]
    case = {"game": "counter", "players": 1, "options": {}, "board": {}, "names": ["alpha"], "you": None,
            "events": [{"kind": "decision", "seat": 0, "offered": offered, "chosen": 0}],
            "digest": offered_digest([offered]),
            "states": [{"n": 0, "last": []}, {"n": 1, "last": []}],
            "words": [{"line": 'alpha chooses: {"step":1}', "effects": [],
                       "offered": ['{"step":1}', '{"step":2}'], "forced": False}]}
    result = check_one(node, case, engine, tmp_path)
    assert (result["ok"], result["step"], result["what"]) == (False, 1, "offered.length")
    engine.write_text(engine.read_text().replace("[{step: 1}]", "[{step: 1}, {step: 2}]"))
    assert check_one(node, case, engine, tmp_path) == {"ok": True}
