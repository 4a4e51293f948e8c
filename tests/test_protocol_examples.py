"""Every example in protocol/PROTOCOL.md is a real message.

Each JSON example in the document is a fenced ```json block right after a
marker comment naming its message (the schema's file name), and for the
messages of a game the game and the seed it comes from:

    <!-- example: decide game=slyyde seed=7 -->
    <!-- example: game_start game=slyyde seed=7 abridged=board -->
    <!-- example: action game=slyyde invalid -->

A block holds one message, or one message per line. The test plays that game
for real (the referee, the real seats' messages, two recording bot
processes, one of which answers ``hello`` with the document's own hello
answer), then checks that each example validates against its schema and is
a message the referee actually sent (``abridged`` fields, written as a short
string in the document, are compared by key only), and that each action
example is accepted by the referee's parser as an answer to the document's
decide example. Examples marked ``invalid`` show what not to send: they must
fail the schema or the parser.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from support import folder_bot

from arena.bots.discovery import discover
from arena.bots.protocol import BotSeat, parse_action
from arena.model import Job, Limits, Termination
from arena.play.referee import play_game

ROOT = Path(__file__).resolve().parent.parent
DOCUMENT = ROOT / "protocol" / "PROTOCOL.md"
SCHEMAS = {path.stem: json.loads(path.read_text())
           for path in (ROOT / "protocol" / "schema").glob("*.json")}
MARKER = re.compile(r"<!-- example: (?P<spec>[^>]*?) -->\n```json\n(?P<body>.*?)\n```", re.S)
FENCE = re.compile(r"```(?P<lang>\w*)\n(?P<body>.*?)\n```", re.S)
GAME_MESSAGES = {"game_start", "decide", "update", "game_end"}
MOVE_TIMEOUT = 1.0

RECORDER = """
import json, sys
log = open(sys.argv[1], "a")
hello_answer = json.loads(sys.argv[2])
for line in sys.stdin:
    message = json.loads(line)
    log.write(line if line.endswith("\\n") else line + "\\n")
    log.flush()
    if message["type"] == "hello":
        print(json.dumps(hello_answer), flush=True)
    elif message["type"] == "decide":
        print(json.dumps({"type": "action", "action": message["actions"][-1]}), flush=True)
    elif message["type"] == "bye":
        break
"""


def examples() -> list[dict]:
    """The marked examples of the document, in order."""
    found = []
    for match in MARKER.finditer(DOCUMENT.read_text()):
        name, *words = match["spec"].split()
        spec = dict(word.split("=", 1) if "=" in word else (word, True) for word in words)
        body = match["body"]
        try:
            messages = [json.loads(body)]
        except json.JSONDecodeError:
            messages = [json.loads(line) for line in body.splitlines() if line.strip()]
        for message in messages:
            found.append({"name": name, "game": spec.get("game"), "seed": spec.get("seed"),
                          "abridged": spec.get("abridged", "").split(",") if spec.get("abridged") else [],
                          "invalid": bool(spec.get("invalid")), "message": message})
    return found


EXAMPLES = examples()


def hello_answer() -> dict:
    [answer] = [e["message"] for e in EXAMPLES if e["name"] == "hello-answer" and not e["invalid"]]
    return answer


@pytest.fixture(scope="module")
def traffic(tmp_path_factory) -> dict[tuple[str, int], list[dict]]:
    """What the referee sent, in a real game, for each (game, seed) the
    examples name: every message both bots received."""
    root = tmp_path_factory.mktemp("examples")
    seats = ("my_bot@5e3a0c9d21f4", "random_bot@9b0f7d2e11a6")
    sent: dict[tuple[str, int], list[dict]] = {}
    for game, seed in sorted({(e["game"], int(e["seed"])) for e in EXAMPLES if e["seed"]}):
        logs = []
        bots = root / f"{game}-{seed}"
        for name in ("north", "south"):
            log = root / f"{game}-{seed}-{name}.jsonl"
            logs.append(log)
            folder_bot(bots, name, RECORDER, [str(log), json.dumps(hello_answer())])
        specs = sorted(discover([bots]), key=lambda spec: spec.name)
        # The recorders write what they hear outside their folders: unboxed.
        limits = Limits(startup_timeout=10, move_timeout=MOVE_TIMEOUT, isolation="none")
        job = Job(f"t/{game}/r0/{seats[0]}/{seats[1]}", game, seats, seed)
        players = [BotSeat(spec, limits) for spec in specs]
        try:
            record = play_game(job, players, MOVE_TIMEOUT)
        finally:
            for player in players:
                player.close()
        assert record.termination is Termination.NORMAL, record.detail
        sent[game, seed] = [json.loads(line) for log in logs for line in log.read_text().splitlines()]
    return sent


def _same(example: dict, real: dict, abridged: list[str]) -> bool:
    if set(example) != set(real):
        return False
    return all(key in abridged or example[key] == real[key] for key in example)


def _unabridged(example: dict, sent: list[dict]) -> dict:
    """The real message the example shows, with its abridged fields filled in."""
    message = example["message"]
    matches = [real for real in sent if _same(message, real, example["abridged"])]
    assert matches, f"no real message matches the {example['name']} example {message!r:.300}"
    return {**message, **{key: matches[0][key] for key in example["abridged"]}}


def test_every_json_example_in_the_document_is_marked():
    """A JSON message in a block without a marker would escape this test."""
    text = DOCUMENT.read_text()
    blocks = list(FENCE.finditer(text))
    json_blocks = [b for b in blocks if b["lang"] == "json"]
    assert len(json_blocks) == len(list(MARKER.finditer(text)))
    for block in blocks:
        if block["lang"] not in ("json", "python"):
            assert '{"' not in block["body"], f"an unmarked JSON example: {block['body']!r:.200}"
    assert {e["name"] for e in EXAMPLES} >= set(SCHEMAS)


@pytest.mark.parametrize("example", [e for e in EXAMPLES if not e["invalid"]],
                         ids=lambda e: f"{e['name']}:{json.dumps(e['message'])[:40]}")
def test_each_example_is_a_real_message_valid_against_its_schema(example, traffic):
    name, message = example["name"], example["message"]
    if name in GAME_MESSAGES:
        sent = traffic[example["game"], int(example["seed"])]
        message = _unabridged(example, sent)
    elif name in ("hello", "bye"):
        everything = [m for messages in traffic.values() for m in messages]
        assert message in everything, f"the referee never sends {message!r}"
    elif name == "hello-answer":
        assert traffic, "the recording bots answered hello with this example and were accepted"
    elif name == "action":
        decides = [e["message"] for e in EXAMPLES
                   if e["name"] == "decide" and e["game"] == example["game"] and not e["invalid"]]
        assert decides, f"an action example needs a decide example of {example['game']}"
        assert any(_accepts(message, decide["actions"]) for decide in decides)
    jsonschema.validate(message, SCHEMAS[name])


def _accepts(answer: dict, offered: list[dict]) -> bool:
    try:
        parse_action(answer, offered)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e["invalid"]],
                         ids=lambda e: f"{e['name']}:{json.dumps(e['message'])[:40]}")
def test_each_example_marked_invalid_is_refused(example):
    message = example["message"]
    try:
        jsonschema.validate(message, SCHEMAS[example["name"]])
    except jsonschema.ValidationError:
        return
    assert example["name"] == "action", "only an action can be valid JSON and still refused"
    decides = [e["message"] for e in EXAMPLES
               if e["name"] == "decide" and e["game"] == example["game"] and not e["invalid"]]
    assert decides and not any(_accepts(message, decide["actions"]) for decide in decides)
