"""The replay the site shows of a game, and the state patch format it is made of.

The format is written down in the site's ``schema.json`` (``$defs/replay``
and ``$defs/patch``); this module writes it and the site's static/replay.js
reads it. It belongs to the games layer: a worker that plays a game makes
its replay there, and needs nothing of the site to do it.
Patch 0 is the initial state and patch k turns the state before event k - 1
into the state after it, so a page carries each state's changes rather than
every state whole.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import zlib
from collections.abc import Callable, Sequence
from typing import Any

from arena.games import GAMES, get_spec
from arena.games.base import IllegalAction, InvalidOptions
from arena.games.events import check_offered, replayed
from arena.games.text_view import StepWords, effects_line
from arena.model import DecisionTimes, Event, GameRecord, Job, RecordTexts, StoredEvent, bot_name, stored_events

# Bump when the replay data change shape (a change of the page's template
# alone rewrites every page by itself: the builder hashes the templates), so
# that every replay page is rewritten by the next build and the replays
# stored with the games in the older format are made again from their events
# (by the build, on both cores: about 6 ms a game).
REPLAY_FORMAT = 3
_MISSING = object()


def with_replay(record: GameRecord) -> GameRecord:
    """The record with its replay payload, made where the game was played
    (in a worker, in parallel with the other games), for a game whose
    replays the site's pages cannot make themselves (no ``engine_js``);
    the record alone for one that can. A record that does not replay
    cleanly gets none: the site makes its page, problem shown."""
    job = record.job
    if job.game not in GAMES or get_spec(job.game).engine_js is not None:
        return record
    payload, problem = replay_payload(job.game, job.seats, job.options, record.events, record.times)
    return record if problem else dataclasses.replace(record, replay=payload, replay_format=REPLAY_FORMAT)


def record_replay(options: dict[str, Any], texts: RecordTexts) -> str:
    """The replay of a game that brings a replay engine for the browser, as
    JSON text: ``{"options": {...}, "offered": digest, "timeout_ms": ...,
    "record": [...], "answer_s": [...]}`` (schema.json,
    ``$defs/recordReplay``): the events, each decision without its action
    (the page takes it among the engine's offered actions: a third of the
    record's bytes), and the decision times as the store holds them
    (``Store.record_texts``: text, not parsed and written again), from which
    static/replay.js makes every state, offered action and step's words with
    the game's engine.js, checking the offered actions' digest."""
    head = json.dumps({"options": options, "offered": texts.offered, "timeout_ms": _timeout_ms(texts.move_timeout)},
                      separators=(",", ":"))
    return f'{head[:-1]},"record":{texts.events},"answer_s":{texts.decision_times}}}'


def replay_payload(game: str, seats: tuple[str, ...], options: dict[str, Any],
                   events: Sequence[Event | StoredEvent], times: DecisionTimes,
                   digest: str | None = None) -> tuple[str, str | None]:
    """The replay as the page embeds it: ``replay_data`` zlib-compressed
    and base64-encoded, and why it stops early, if it does."""
    data, problem = replay_data(game, seats, options, events, times, digest)
    return encoded(data), problem


def live_replay(job: Job, events: list[Event], times: DecisionTimes) -> str:
    """The replay of a game still being played, its events so far, as JSON
    text in the shapes replay.js reads for a stored game: the record
    (``record_replay``'s shape, each decision with the index chosen among
    the actions offered) for a game that brings a replay engine for the
    browser, else ``replay_data``."""
    if get_spec(job.game).engine_js is None:
        return json.dumps(replay_data(job.game, job.seats, job.options, events, times)[0], separators=(",", ":"))
    stored, digest = stored_events(events)
    record = [{"kind": "decision", "seat": event["seat"], "chosen": event["chosen"]}
              if event["kind"] == "decision" else event for event in stored]
    return json.dumps({"options": job.options, "offered": digest, "timeout_ms": _timeout_ms(times.move_timeout),
                       "record": record, "answer_s": list(times.seconds)}, separators=(",", ":"))


def replay_data(game: str, seats: tuple[str, ...], options: dict[str, Any],
                events: Sequence[Event | StoredEvent], times: DecisionTimes,
                digest: str | None = None) -> tuple[dict[str, Any], str | None]:
    """The replay ``{"events": [...], "patches": [...], "words": [...],
    "timeout_ms": ..., "answer_ms": [...]}`` (schema.json, ``$defs/replay``)
    of a game whose replays the page cannot make itself. The page rebuilds
    from the state before each decision, its offered actions and
    ``timeout_ms`` the very message the bot received (BotSeat.decide);
    ``words`` are each step in the game's words (TextView.step, the line
    left out where it is the effects joined: ``stored_words``), the seats
    named by their bots' names (``seats`` are bot ids).
    Returns it and why the replay stopped early, if it did: a record that
    no longer replays still gets a page."""
    patches: list[Any] = []
    words: list[StepWords] = []
    whole: list[Event] = []
    problem = None
    definition = GAMES.get(game)
    if definition is None:
        problem = f"this arena has no {game!r} engine to replay the game with"
    else:
        view = get_spec(game).describer([bot_name(seat) for seat in seats])
        try:
            start = definition.new_state(len(seats), options)
            previous = start.to_json()
            patches.append(previous)
            for state, event in replayed(start, events):
                current = state.to_json()
                whole.append(event)
                patches.append(state_patch(previous, current))
                words.append(stored_words(view.step(previous, event, current), event))
                previous = current
            check_offered(whole, digest)
        except (IllegalAction, InvalidOptions, KeyError, IndexError, TypeError, ValueError) as exc:
            problem = f"the record does not replay on this engine after step {max(0, len(patches) - 1)}: {exc}"
    shown = whole[:len(words)]
    data = {"events": shown, "patches": patches[:len(shown) + 1], "words": words, **_times(shown, times)}
    return data, problem


def _times(events: Sequence[Event | StoredEvent], times: DecisionTimes) -> dict[str, Any]:
    """What a replay shows of the time limit and of each decision's answer time."""
    decisions = sum(1 for event in events if event["kind"] == "decision")
    return {"timeout_ms": _timeout_ms(times.move_timeout),
            "answer_ms": [round(seconds * 1000, 1) for seconds in times.seconds[:decisions]]}


def _timeout_ms(move_timeout: float | None) -> int | None:
    return None if move_timeout is None else int(move_timeout * 1000)


def encoded(data: dict[str, Any]) -> str:
    """JSON as a page embeds it: zlib-compressed and base64-encoded."""
    return encoded_text(json.dumps(data, separators=(",", ":")))


def encoded_text(text: str) -> str:
    """JSON text as a page embeds it (``encoded``)."""
    return base64.b64encode(zlib.compress(text.encode(), 6)).decode("ascii")


def decoded_text(payload: str) -> str:
    """The JSON text a payload (``encoded``) holds."""
    return zlib.decompress(base64.b64decode(payload)).decode()


def stored_words(words: StepWords, event: Event) -> StepWords:
    """A step's words as a replay keeps them: without the line where it is
    the effects joined (text_view.effects_line), which the page makes again
    (static/replay.js stepLine): a tenth or more of a replay's bytes."""
    if words["line"] != effects_line(event, words["effects"], words["forced"]):
        return words
    return {key: value for key, value in words.items() if key != "line"}  # type: ignore[return-value]


def state_patch(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """What turns state ``old`` into state ``new``, sharing what did not
    change (schema.json, ``$defs/patch``: ``$d``/``$x`` for a dict, ``$l``
    for a list of the same length, ``$v`` for a dict replaced whole, any
    other value as itself). Patches reach two levels below the top (a field
    of a piece in a list of pieces) and no deeper: deeper ones cost more time
    than they save bytes once compressed."""
    return _dict_patch(old, new, _list_patch)


def _dict_patch(old: dict[str, Any], new: dict[str, Any], inner: Callable[[Any, Any], Any]) -> dict[str, Any]:
    changed = {}
    for key, value in new.items():
        before = old.get(key, _MISSING)
        if before is _MISSING:
            changed[key] = _whole(value)
        elif before != value:
            changed[key] = inner(before, value)
    patch: dict[str, Any] = {"$d": changed}
    if old.keys() != new.keys():
        removed = [key for key in old if key not in new]
        if removed:
            patch["$x"] = removed
    return patch


def _list_patch(old: Any, new: Any) -> Any:
    """Second level: a list by index, a dict by key, then whole values."""
    if type(old) is list and type(new) is list and old and len(old) == len(new):
        return {"$l": [[index, _leaf_patch(a, b)] for index, (a, b) in enumerate(zip(old, new)) if a != b]}
    if type(old) is dict and type(new) is dict:
        return _dict_patch(old, new, _leaf_patch)
    return _whole(new)


def _leaf_patch(old: Any, new: Any) -> Any:
    if type(old) is dict and type(new) is dict:
        return _dict_patch(old, new, lambda before, value: _whole(value))
    return _whole(new)


def apply_patch(old: Any, patch: Any) -> Any:
    """The inverse of ``state_patch`` (static/replay.js does the same)."""
    if isinstance(patch, dict):
        if "$v" in patch:
            return patch["$v"]
        if "$d" in patch:
            result = {key: value for key, value in old.items() if key not in patch.get("$x", ())}
            for key, change in patch["$d"].items():
                result[key] = apply_patch(old.get(key), change)
            return result
        items = list(old)
        for index, change in patch["$l"]:
            items[index] = apply_patch(old[index], change)
        return items
    return patch


def _whole(value: Any) -> Any:
    return {"$v": value} if isinstance(value, dict) else value
