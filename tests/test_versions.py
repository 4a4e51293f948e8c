"""A bot's version is what ran: its files are hashed again right before
each of its processes starts, and a bot whose files changed since planning
forfeits its seat with one line saying so, instead of playing a new version
under the old one's id."""

from __future__ import annotations

from pathlib import Path

from support import folder_bot, random_bots

from arena.bots.discovery import content_hash, discover
from arena.model import DiceKey, Limits, Termination
from arena.play.match import play_match
from arena.play.plan import Entrant, plan_round_robin

HELPER_BOT = """
import json, sys
from helper import choose

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "helped", "games": ["slyyde"]}), flush=True)
    elif message["type"] == "decide":
        print(json.dumps({"type": "action", "action": choose(message["actions"])}), flush=True)
    elif message["type"] == "bye":
        break
"""


def _play(bots: Path, changed: str, change) -> list:
    """A pair of games between ``changed`` and a random bot, planned, then
    ``change`` applied to the bots folder before any game is played."""
    specs = {spec.name: spec for spec in discover([bots])}
    entrants = [Entrant(spec, frozenset(["slyyde"])) for spec in specs.values()]
    jobs = plan_round_robin(entrants, ["slyyde"], 1, DiceKey.from_seed(1))
    before = specs[changed].content_hash
    change()
    now = content_hash(Path(specs[changed].path))
    assert now != before
    records = list(play_match(jobs, {s.bot_id: s for s in specs.values()}, Limits(move_timeout=5), None))
    assert len(records) == 2
    for record in records:
        seat = next(n for n, bot_id in enumerate(record.job.seats) if bot_id.startswith(f"{changed}@"))
        assert record.forfeit_seat == seat and record.termination is Termination.CRASH
        assert record.detail == f"bot files changed since planning (hash {before[:12]}, now {now[:12]})"
        assert record.winners == (1 - seat,)
    return records


def test_a_file_bot_rewritten_after_planning_forfeits(tmp_path):
    bots = random_bots(tmp_path / "bots", ["steady", "mutant"])
    mutant = bots / "mutant.py"
    _play(bots, "mutant", lambda: mutant.write_text(mutant.read_text() + "\n# a new version\n"))


def test_a_folder_bots_helper_is_part_of_its_version(tmp_path):
    bots = random_bots(tmp_path / "bots", ["steady"])
    folder = folder_bot(bots, "helped", HELPER_BOT, [])
    helper = folder / "helper.py"
    helper.write_text("def choose(actions):\n    return actions[0]\n")
    _play(bots, "helped", lambda: helper.write_text("def choose(actions):\n    return actions[-1]\n"))
