"""The bot protocol (version 1) spoken to a bot process: the handshake, the
messages of a game, and the validation of answers. protocol/PROTOCOL.md is
the reference; protocol/schema/ holds a JSON Schema for every message."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

from arena.bots.discovery import content_hash
from arena.bots.process import BotProcess, encode_json
from arena.errors import BotChanged, BotCrashed, BotError, BotProtocolError, IllegalAnswer
from arena.games import GAMES, get_spec
from arena.games.base import Action, State
from arena.model import BotSpec, Event, Job, Limits

VERSION = 1


def handshake(bot: BotProcess, timeout: float) -> dict[str, Any]:
    """Greet the bot with the games arena has and check its answer: its
    name and the games it plays."""
    bot.send({"type": "hello", "protocol": VERSION, "games": sorted(GAMES)}, timeout)
    answer = bot.receive(timeout)
    if answer.get("type") != "hello":
        raise BotProtocolError(f"expected a hello answer, got type {answer.get('type')!r}")
    name, games = answer.get("name"), answer.get("games")
    if not isinstance(name, str) or not name:
        raise BotProtocolError(f"hello needs a non-empty string name, got {name!r}")
    if not (isinstance(games, list) and all(isinstance(g, str) for g in games)):
        raise BotProtocolError(f"hello needs games as a list of strings, got {games!r}")
    if not isinstance(answer.get("updates", False), bool):
        raise BotProtocolError(f"hello updates must be true or false, got {answer['updates']!r}")
    return answer


def parse_action(answer: dict[str, Any], offered: list[dict[str, Any]]) -> int:
    """The index of the offered action the answer names. Raises
    BotProtocolError for a message of the wrong shape and ValueError for an
    action that was not offered."""
    if answer.get("type") != "action" or "action" not in answer:
        raise BotProtocolError(f"expected {{\"type\": \"action\", \"action\": ...}}, got keys "
                               f"{sorted(answer)!r} with type {answer.get('type')!r}")
    action = answer["action"]
    for index, candidate in enumerate(offered):
        # == is quick but takes 1 for true and 1.0 for 1; _same() settles it.
        if candidate == action and _same(candidate, action):
            return index
    raise ValueError(f"action not offered: {canonical(action)}"[:300])


def canonical(value: Any) -> str:
    """One spelling per JSON value, so that true and 1 stay different."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _same(a: Any, b: Any) -> bool:
    """For two values already ==: whether they are one JSON value, as
    canonical(a) == canonical(b) says, without spelling them out: the types
    must match all the way down (true is not 1, 1.0 is not 1)."""
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict:
        for key, value in a.items():  # (the same keys: a == b)
            if not _same(value, b[key]):
                return False
        return True
    if kind is list or kind is tuple:
        return all(map(_same, a, b))
    if kind is float:
        return canonical(a) == canonical(b)  # 0.0 == -0.0, but not as JSON
    return True


class BotSeat:
    """A seat played by a bot process that lives across the games of a
    match. Any failure kills the process; the next game starts a fresh one.

    A process never plays two games on one seed: the games of a pair or a
    pod share their dice, and a process that played one would know the
    next one's rolls. Such a game gets a fresh process (the plan cuts
    matches so that this does not happen in a tournament)."""

    def __init__(self, spec: BotSpec, limits: Limits, stderr_log: Path | None = None) -> None:
        self.spec = spec
        self.limits = limits
        self.stderr_log = stderr_log
        self.process: BotProcess | None = None
        self.stderr_received = 0  # bytes its ended processes wrote to stderr, kept or dropped
        self.updates = False
        self._seeds: set[int] = set()  # the dice seeds the running process has played
        self._guard = _KillOnBotError(self)

    def start(self) -> BotProcess:
        """The bot's process, started and greeted first if it is not running."""
        with self._kill_on_bot_error():
            if self.process is None:
                check_unchanged(self.spec)
                self._seeds = set()
                self.process = BotProcess(self.spec, self.limits, self.stderr_log)
                hello = handshake(self.process, self.limits.startup_timeout)
                self.updates = hello.get("updates", False)
                self.process.freeze()
            return self.process

    def start_game(self, job: Job, seat: int, state: State) -> None:
        if job.seed in self._seeds:
            self.close()
        self.start()
        self._seeds.add(job.seed)
        with self._kill_on_bot_error():
            self._running().send_line(game_start_line({
                "type": "game_start", "game": job.game, "game_id": job.game_id, "seat": seat,
                "players": len(job.seats), "options": job.options,
                "rules": str(get_spec(job.game).rules_path()), "board": state.game.board,
                "seed": job.bot_seed(seat), "state": state.to_json(),
            }), self.limits.move_timeout)

    def decide(self, state: State, actions: list[Action], timeout: float) -> int:
        """The bot's choice. Its clock runs from when it can run to its
        answer, and an answer waiting in the pipe is read however late the referee
        looks (process.receive), so a referee that stalls costs no bot its
        game. The bot that had the turn before is frozen first (``_Turns``)."""
        with self._kill_on_bot_error():
            process = self._running()
            # The bot that had the turn is stopped before this one's clock
            # starts: a CPU hog's children cannot eat into its time.
            _turns.pass_to(process)
            sent = time.monotonic()
            # Sent before the thaw: the bot wakes once, to its message.
            process.send({"type": "decide", "state": state.to_json(), "actions": actions,
                          "timeout_ms": int(timeout * 1000)}, timeout)
            process.thaw()
            # Its clock started when it could first run: at the send if it
            # was running, else at its thaw (after the send, or during it if
            # the pipe was full); it stops while the bot waits for a CPU.
            answer = process.receive_answer(max(sent, process.thawed_at), timeout)
            try:
                return parse_action(answer, actions)
            except ValueError as exc:
                raise IllegalAnswer(str(exc)) from None

    def observe(self, event: Event, state: State) -> None:
        if not self.updates:
            return
        with self._kill_on_bot_error():
            self._running().send({"type": "update", "event": public_event(event)},
                                 self.limits.move_timeout)

    def end_game(self, state: State, result: dict[str, Any]) -> None:
        if self.process is None:
            return
        pause_bots()  # the game is over: nobody's turn
        with self._kill_on_bot_error():
            self.process.send({"type": "game_end", "result": result, "state": state.to_json()},
                              self.limits.move_timeout)

    def _running(self) -> BotProcess:
        """The bot's process, which start_game started (a failure since
        killed it, and then the game is already lost)."""
        if self.process is None:
            raise BotCrashed("the bot's process is gone")
        return self.process

    def log_stderr_to(self, log: Path | None) -> None:
        """Keep the bot's stderr in ``log`` from now on: its running process
        at once, and any process the seat starts later (after a failure)."""
        self.stderr_log = log
        if self.process is not None:
            self.process.log_stderr_to(log)

    def close(self) -> None:
        if self.process is not None:
            self.process.close()
            self._process_ended()

    def _process_ended(self) -> None:
        """Count what the process, closed or killed, wrote to stderr, and let it go."""
        assert self.process is not None
        self.stderr_received += self.process.stderr_received
        self.process = None

    def _kill_on_bot_error(self) -> _KillOnBotError:
        """A context in which a failure kills the bot's process (and is
        raised on)."""
        return self._guard


class _Turns(threading.local):
    """Whose turn it is among the bots of this thread's game: the bot that
    may run. A bot is frozen when another seat's turn comes, not as soon as
    it answers: a seat that decides twice in a row is not frozen and thawed
    in between. A person's turn (``pause_bots``) and the end of a game
    freeze it too."""

    process: BotProcess | None = None

    def pass_to(self, process: BotProcess | None) -> None:
        previous = self.process
        if previous is not process:
            self.process = process
            if previous is not None:
                previous.freeze()


_turns = _Turns()


def pause_bots() -> None:
    """A person's turn: the bot that had the turn before is frozen."""
    _turns.pass_to(None)


class _KillOnBotError:
    """BotSeat._kill_on_bot_error, as a class: entered for every message,
    where a generator-based context manager costs several times more."""

    def __init__(self, seat: BotSeat) -> None:
        self.seat = seat

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:
        if kind is not None and issubclass(kind, (BotError, IllegalAnswer)):
            seat = self.seat
            if seat.process is not None:
                seat.process.kill()
                seat._process_ended()
        # None: whatever was raised goes on


def check_unchanged(spec: BotSpec) -> None:
    """Hash the bot's files again before a process of it starts: a bot that
    rewrote itself since planning would otherwise play as the version it
    was. The seat forfeits, and the next run plays the new version."""
    try:
        now = content_hash(Path(spec.path))
    except OSError as exc:
        raise BotChanged(f"bot files changed since planning (hash {spec.content_hash[:12]}, "
                         f"now unreadable: {exc.strerror or exc})") from None
    if now != spec.content_hash:
        raise BotChanged(f"bot files changed since planning (hash {spec.content_hash[:12]}, now {now[:12]})")


# id(board) -> (board, its JSON): a game's board never changes, and holding
# it keeps its id from being reused.
_BOARDS: dict[int, tuple[dict[str, Any], str]] = {}


def game_start_line(message: dict[str, Any]) -> bytes:
    """``encode_line(message)`` for a game_start: the same bytes, but the
    board, the bulk of the message and the same in every game, is encoded
    once and spliced in."""
    board = message["board"]
    cached = _BOARDS.get(id(board))
    if cached is None:
        cached = _BOARDS[id(board)] = (board, encode_json(board))
    keys = list(message)
    at = keys.index("board")
    before = encode_json({key: message[key] for key in keys[:at]})  # "{...}"
    after = encode_json({key: message[key] for key in keys[at + 1:]})
    return (before[:-1] + ("," if at else "") + '"board":' + cached[1]
            + ("," + after[1:] if len(after) > 2 else "}") + "\n").encode()


def public_event(event: Event) -> dict[str, Any]:
    """An event as other seats hear it: a decision names the chosen action
    instead of carrying the whole offered list."""
    if event["kind"] == "decision":
        return {"kind": "decision", "seat": event["seat"], "action": event["offered"][event["chosen"]]}
    return dict(event)
