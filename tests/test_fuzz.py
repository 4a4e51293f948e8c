"""Properties under Hypothesis: the protocol reader turns any bytes into
messages or protocol errors and never crashes, whatever the chunking; and
every registered game (arena.games.GAMES, so games registered later are
covered) refuses every action that was not offered."""

from __future__ import annotations

import json
import random
import sys

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from arena.bots.process import MAX_DEPTH, BotProcess, LineBuffer, decode_message
from arena.bots.protocol import canonical, handshake, parse_action
from arena.errors import BotCrashed, BotProtocolError
from arena.games import GAMES
from arena.games.base import CHANCE, IllegalAction
from arena.games.dice import DiceStreams
from arena.model import BotSpec, Limits

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)
json_objects = st.dictionaries(st.sampled_from(["type", "action", "name", "games", "updates", "x"])
                               | st.text(max_size=6),
                               json_values, max_size=5)


@st.composite
def near_json_bytes(draw) -> bytes:
    """Bytes a bot might send: anything at all, JSON text, or JSON text with
    a few bytes changed, inserted or cut."""
    kind = draw(st.sampled_from(["binary", "json", "mutated"]))
    if kind == "binary":
        return draw(st.binary(max_size=300))
    text = json.dumps(draw(json_values | json_objects)).encode()
    if kind == "json":
        return text
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.binary(max_size=3)) + text[at + draw(st.integers(0, 3)):]
    return text


# -- the reader ------------------------------------------------------------------------------


@given(st.lists(near_json_bytes(), max_size=6), st.lists(st.integers(0, 2000), max_size=8), st.integers(1, 200))
@example([b"[" * 100_000], [], 1 << 20)
@example([b'{"a":' * 5000 + b"1" + b"}" * 5000], [], 1 << 20)
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_the_reader_gives_messages_or_protocol_errors_for_any_bytes(pieces, cuts, cap):
    data = b"\n".join(pieces) + b"\n"
    bounds = sorted({0, len(data), *(c for c in cuts if c < len(data))})
    chunks = [data[a:b] for a, b in zip(bounds, bounds[1:])]
    lines = LineBuffer(cap)
    expected = [line.removesuffix(b"\r") for line in data.split(b"\n")[:-1]]
    seen = []
    try:
        for chunk in chunks:
            lines.feed(chunk)
            while (line := lines.next_line()) is not None:
                assert len(line) <= cap
                seen.append(line)
                try:
                    assert isinstance(decode_message(line), dict)
                except BotProtocolError:
                    pass
            assert lines.buffered <= cap, "what waits for its newline is never more than the cap"
    except BotProtocolError as exc:
        assert "exceeds the cap" in str(exc)
        assert any(len(line) > cap for line in expected[len(seen):]) or lines.buffered > cap
    assert seen == expected[:len(seen)]


@given(near_json_bytes())
@example(b"[" * 100_000)
@example(b'{"a": ' * 3000 + b"1" + b"}" * 3000)
@example(b'{"a": ' + b"[" * MAX_DEPTH + b"]" * MAX_DEPTH + b"}")
@example(b"1" * 5000)
@example(b'{"n": 1e999999, "m": NaN}')
@example(b"\xef\xbb\xbf{}")
@example(b"\xff\xfe{\x00}\x00")
@example(b'{"\\ud800": "\\udfff"}')
@settings(max_examples=500)
def test_decoding_any_line_gives_an_object_or_a_protocol_error(line):
    try:
        message = decode_message(line)
    except BotProtocolError:
        return
    assert isinstance(message, dict)
    canonical(message)  # deep enough to be handled without recursion trouble


@given(json_objects, st.lists(json_values, min_size=1, max_size=4))
@settings(max_examples=300)
def test_any_answer_object_is_an_action_or_an_error_of_the_protocol(answer, offered):
    try:
        index = parse_action(answer, offered)
    except (BotProtocolError, ValueError):
        return
    assert canonical(offered[index]) == canonical(answer["action"])


class _Scripted:
    """A bot that answers the hello with a given object."""

    def __init__(self, answer):
        self.answer = answer

    def send(self, message, timeout):
        pass

    def receive(self, timeout):
        return self.answer


@given(json_objects | st.fixed_dictionaries({"type": st.just("hello"), "name": json_values,
                                             "games": json_values, "updates": json_values}))
@settings(max_examples=300)
def test_any_hello_answer_is_accepted_or_a_protocol_error(answer):
    try:
        hello = handshake(_Scripted(answer), 1.0)
    except BotProtocolError:
        return
    assert isinstance(hello["name"], str) and hello["name"] and all(isinstance(g, str) for g in hello["games"])


SPEAKER = "import sys; sys.stdout.buffer.write(open(sys.argv[1], 'rb').read()); sys.stdout.flush()"


@given(st.lists(near_json_bytes(), max_size=4), st.booleans())
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_real_bot_saying_anything_gives_messages_then_an_error(tmp_path, pieces, final_newline):
    data = b"\n".join(pieces) + (b"\n" if final_newline else b"")
    said = tmp_path / "said.bin"
    said.write_bytes(data)
    spec = BotSpec("speaker", (sys.executable, "-c", SPEAKER, str(said)), str(said), "s" * 64)
    process = BotProcess(spec, Limits(max_line_bytes=256))
    try:
        while True:
            try:
                assert isinstance(process.receive(5.0), dict)
            except BotProtocolError:
                break
            except BotCrashed as exc:  # all said, the bot left
                assert "exited with code 0" in str(exc)
                break
    finally:
        process.kill()


# -- every game's legal-action check --------------------------------------------------------


def decision_state(game, players: int, seed: int, wanted: int):
    """The state at a seat's decision, ``wanted`` decisions into a seeded
    random game (or fewer, if the game is shorter); None if the game has
    no decision at all with this seed."""

    def play(target: int):
        state, dice, chooser, made = game.new_state(players), DiceStreams(seed), random.Random(seed), 0
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_chance(dice.draw(state.chance_request()))
                continue
            if made == target:
                return state, made
            offered = state.legal_actions()
            state.apply_action(offered[chooser.randrange(len(offered))])
            made += 1
        return None, made

    state, made = play(wanted)
    if state is None and made:
        state, _ = play(wanted % made)
    return state


def _swaps(value):
    """Values a careless bot might send instead of ``value``: the same thing
    in another JSON type, or a neighbour."""
    if isinstance(value, bool):
        return [int(value), not value, str(value).lower()]
    if isinstance(value, int):
        return [float(value), str(value), value + 1, -value - 1, bool(value), [value]]
    if isinstance(value, str):
        return [value + "x", value.upper(), "", [value], None]
    if isinstance(value, list):
        return [value[:-1], value + value[-1:], list(reversed(value)), {}, None] if value else [[0], None]
    return [None, 0, "", []]


@st.composite
def candidate_actions(draw, offered):
    """An action that was offered, or a near miss of one, or anything."""
    kind = draw(st.sampled_from(["offered", "swap", "add", "drop", "anything"]))
    if kind == "anything":
        return draw(json_values)
    chosen = draw(st.sampled_from(offered))
    if kind == "offered":
        return chosen
    action = dict(chosen)
    if kind == "swap" and action:
        key = draw(st.sampled_from(sorted(action)))
        action[key] = draw(st.sampled_from(_swaps(action[key])) | json_values)
    elif kind == "add":
        action[draw(st.text(max_size=6))] = draw(json_values)
    elif kind == "drop" and action:
        del action[draw(st.sampled_from(sorted(action)))]
    return action


@pytest.mark.parametrize("name", sorted(GAMES))
@given(data=st.data())
@settings(max_examples=60, deadline=None)
def test_every_game_refuses_every_action_not_offered(name, data):
    game = GAMES[name]
    players = data.draw(st.integers(game.min_players, game.max_players), label="players")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    state = None
    for attempt in range(20):  # some seeds give a game no decision at all
        state = decision_state(game, players, seed + attempt, data.draw(st.integers(0, 60), label="decisions"))
        if state is not None:
            break
    assert state is not None, f"{name}: no decision in 20 seeded games"
    offered = state.legal_actions()
    action = data.draw(candidate_actions(offered), label="action")
    answer = {"type": "action", "action": action}
    # The referee's check: equal as JSON values, types included.
    if canonical(action) in {canonical(a) for a in offered}:
        assert canonical(offered[parse_action(answer, offered)]) == canonical(action)
    else:
        with pytest.raises(ValueError, match="action not offered"):
            parse_action(answer, offered)
    # The engine's own check refuses what it was not offered and leaves the state as it was.
    if action not in offered:
        before = json.dumps(state.to_json(), sort_keys=True)
        with pytest.raises(IllegalAction):
            state.apply_action(action)
        assert json.dumps(state.to_json(), sort_keys=True) == before
