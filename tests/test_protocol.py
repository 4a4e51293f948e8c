"""The protocol against a scripted fake bot (expect this line, reply that)
and real traffic from a real bot checked against the JSON Schemas."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import jsonschema
import pytest
from support import folder_bot, random_bots

from arena.bots.discovery import discover
from arena.bots.protocol import canonical, parse_action
from arena.errors import BotProtocolError
from arena.model import DiceKey, Limits, Termination
from arena.play.match import play_match
from arena.play.plan import Entrant, plan_round_robin

SCHEMAS = {path.stem: json.loads(path.read_text())
           for path in (Path(__file__).resolve().parent.parent / "protocol" / "schema").glob("*.json")}

SCRIPTED = """
import json, sys
script = json.load(open(sys.argv[1]))
for step in script:
    line = sys.stdin.readline()
    if not line:
        sys.exit(3)
    got = json.loads(line)
    for key, value in step["expect"].items():
        if got.get(key) != value:
            sys.stderr.write(f"expected {key}={value!r}, got {got.get(key)!r}\\n")
            sys.exit(4)
    if "reply" in step:
        reply = step["reply"]
        if reply == "FIRST_ACTION":
            reply = {"type": "action", "action": got["actions"][0]}
        sys.stdout.write((reply if isinstance(reply, str) else json.dumps(reply)) + "\\n")
        sys.stdout.flush()
sys.stdin.read()
"""

RECORDING = """
import json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    message = json.loads(line)
    log.write(json.dumps({"to_bot": message}) + "\\n")
    reply = None
    if message["type"] == "hello":
        reply = {"type": "hello", "name": "recorder", "games": ["slyyde"], "updates": True}
    elif message["type"] == "decide":
        reply = {"type": "action", "action": message["actions"][-1]}
    if reply:
        log.write(json.dumps({"from_bot": reply}) + "\\n")
        log.flush()
        print(json.dumps(reply), flush=True)
    if message["type"] == "bye":
        break
"""

LIMITS = Limits(startup_timeout=10, move_timeout=5)


def _one_pair(tmp_path: Path, scripted_steps: list[dict]) -> list:
    bots = random_bots(tmp_path / "bots", ["opponent"])
    # The script lives in the bot's folder: a bot sees nothing else of ours.
    (bots / "scripted").mkdir()
    (bots / "scripted" / "script.json").write_text(json.dumps(scripted_steps))
    folder_bot(bots, "scripted", SCRIPTED, ["script.json"])
    specs = {s.name: s for s in discover([bots])}
    entrants = [Entrant(specs["scripted"], frozenset(["slyyde"])), Entrant(specs["opponent"], frozenset(["slyyde"]))]
    jobs = plan_round_robin(entrants, ["slyyde"], 1, DiceKey.from_seed(1))[:1]
    assert jobs[0].seats[0].startswith("opponent") or jobs[0].seats[0].startswith("scripted")
    return list(play_match(jobs, {s.bot_id: s for s in specs.values()}, LIMITS, tmp_path / "logs"))


HELLO = {"expect": {"type": "hello", "protocol": 1}, "reply": {"type": "hello", "name": "s", "games": ["slyyde"]}}
START = {"expect": {"type": "game_start", "game": "slyyde", "players": 2}}


def test_handshake_and_game_start_follow_the_document(tmp_path):
    # After the hello and game_start, the scripted bot answers the first decision
    # with garbage: the referee must have sent exactly what the document says to
    # get that far, and must record the garbage as bad output.
    records = _one_pair(tmp_path, [HELLO, START, {"expect": {"type": "decide"}, "reply": "not json"}])
    record = records[0]
    scripted_seat = next(i for i, b in enumerate(record.job.seats) if b.startswith("scripted"))
    assert record.termination is Termination.BAD_OUTPUT
    assert record.forfeit_seat == scripted_seat
    assert record.winners == (1 - scripted_seat,)
    assert "expected a JSON object" in record.detail


def test_wrong_hello_is_a_protocol_error(tmp_path):
    bad_hello = {"expect": {"type": "hello"}, "reply": {"type": "hello", "name": "", "games": ["slyyde"]}}
    record = _one_pair(tmp_path, [bad_hello])[0]
    assert record.termination is Termination.BAD_OUTPUT
    assert "non-empty string name" in record.detail


def test_real_traffic_matches_the_schemas(tmp_path):
    log = tmp_path / "traffic.jsonl"
    bots = random_bots(tmp_path / "bots", ["opponent"])
    folder_bot(bots, "recorder", RECORDING, [str(log)])
    specs = {s.name: s for s in discover([bots])}
    entrants = [Entrant(spec, frozenset(["slyyde"])) for spec in specs.values()]
    jobs = plan_round_robin(entrants, ["slyyde"], 2, DiceKey.from_seed(11))
    # The recorder writes what it hears outside its folder: it runs unboxed.
    unboxed = dataclasses.replace(LIMITS, isolation="none")
    records = list(play_match(jobs, {s.bot_id: s for s in specs.values()}, unboxed, None))
    assert all(r.termination is Termination.NORMAL for r in records)
    seen = set()
    for line in log.read_text().splitlines():
        entry = json.loads(line)
        message = entry.get("to_bot") or entry["from_bot"]
        name = message["type"] if "to_bot" in entry else {"hello": "hello-answer", "action": "action"}[message["type"]]
        jsonschema.validate(message, SCHEMAS[name])
        seen.add(name)
    assert seen == {"hello", "hello-answer", "game_start", "decide", "action", "update", "game_end", "bye"}


def test_actions_compare_as_json_values():
    offered = [{"pass": True}, {"pawn": 1}]
    assert parse_action({"type": "action", "action": {"pass": True}}, offered) == 0
    with pytest.raises(ValueError):
        parse_action({"type": "action", "action": {"pass": 1}}, offered)
    with pytest.raises(ValueError):
        parse_action({"type": "action", "action": {"pawn": 1.0}}, offered)
    with pytest.raises(BotProtocolError):
        parse_action({"type": "move", "action": {"pawn": 1}}, offered)
    assert canonical({"b": 1, "a": 2}) == canonical({"a": 2, "b": 1})


UNFLUSHED_BOT = """
import json, os, sys
out = os.fdopen(1, "w", buffering=1 << 16)  # a block-buffered pipe, never flushed
for line in sys.stdin:
    if json.loads(line).get("type") == "hello":
        out.write(json.dumps({"type": "hello", "name": "quiet", "games": ["slyyde"]}) + "\\n")
"""


def test_a_bot_that_never_flushes_is_told_to(tmp_path):
    from arena.bots.process import BotProcess
    from arena.bots.protocol import handshake
    from arena.errors import BotTimeout

    folder_bot(tmp_path / "bots", "quiet", UNFLUSHED_BOT, [])
    [spec] = discover([tmp_path / "bots"])
    process = BotProcess(spec, Limits(startup_timeout=5))
    try:
        with pytest.raises(BotTimeout, match=r'no answer within 0.5 s; a bot that printed its answer must also '
                                             r'flush its output \(PROTOCOL.md, "Flush every line"\)'):
            handshake(process, 0.5)
    finally:
        process.close()


# Answers hello at once, flushed; then, to whatever comes next, either
# nothing for a long while (slow) or half an answer, flushed, without its
# line end (partial).
ANSWERS_HELLO_THEN = """
import json, sys, time
print(json.dumps({"type": "hello", "name": "late", "games": ["slyyde"]}), flush=True)
sys.stdin.readline()
sys.stdin.readline()
if sys.argv[1] == "partial":
    sys.stdout.write('{"type": "action", "action"')
    sys.stdout.flush()
time.sleep(30)
"""


@pytest.mark.parametrize("behaviour, message", [
    ("slow", r"no answer within 0.5 s\Z"),
    ("partial", r'no answer within 0.5 s: 27 bytes came without a line end; end every answer with a newline '
                r'and flush your output \(PROTOCOL.md, "Flush every line"\)\Z'),
])
def test_a_slow_bot_is_not_told_to_flush_and_a_partial_line_is_named(tmp_path, behaviour, message):
    """A bot whose lines came before and then gave nothing was simply slow:
    the timeout names no flushing. Bytes without a line end are named."""
    from arena.bots.process import BotProcess
    from arena.bots.protocol import handshake
    from arena.errors import BotTimeout

    folder_bot(tmp_path / "bots", "late", ANSWERS_HELLO_THEN, [behaviour])
    [spec] = discover([tmp_path / "bots"])
    process = BotProcess(spec, Limits(startup_timeout=5))
    try:
        handshake(process, 5)
        process.send({"type": "decide"}, 1)
        with pytest.raises(BotTimeout, match=message):
            process.receive(0.5)
    finally:
        process.close()
