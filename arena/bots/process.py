"""Bot processes: spawn under limits, JSON lines with deadlines, kill cleanly.

A bot is untrusted. It runs under a warden (arena/bots/warden.py) that starts
it in its box (arena/bots/isolation.py: a bubblewrap sandbox with an empty
working folder of its own, under resource limits and cgroups where the machine
has them), and that kills every process the bot started when the bot exits or
the referee ends it, including descendants that detached themselves. Between
its decisions the bot is frozen (``freeze``, ``thaw``). The warden dies with
the thread that started it, and kills the bot as it goes. Every read and every
write has a deadline; a line longer than the cap is refused without being held
in memory; stderr is drained by a thread into a log file (one per game: the
referee switches files) up to a cap per file and the rest is counted and
dropped.
"""

from __future__ import annotations

import json
import math
import os
import re
import select
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any, BinaryIO

from arena.bots import isolation, seccomp, warden
from arena.bots.turn_clock import UNMEASURED, WALL_CAP, TurnClock
from arena.errors import ArenaError, BotCrashed, BotProtocolError, BotTimeout
from arena.model import BotSpec, Limits

WARDEN = Path(warden.__file__)
MAX_DEPTH = 64
_READ_CHUNK = 65536
_WARDEN_START_SECONDS = 10.0
FLUSH_SECTION = "Flush every line"  # of PROTOCOL.md: what a timeout that looks unflushed points to


# One encoder for every message (json.dumps builds a new one per call):
# compact JSON text of a value, as the protocol spells it.
encode_json = json.JSONEncoder(separators=(",", ":")).encode


def encode_line(message: dict[str, Any]) -> bytes:
    """A message as one protocol line: compact JSON and a newline."""
    return (encode_json(message) + "\n").encode()


_SIZE = re.compile(r"(\d+)\s*([KMG]i?B?|B)?", re.IGNORECASE)


def parse_size(text: str) -> int:
    """A size in bytes from ``1048576``, ``512K``, ``16M``, ``4G`` (binary
    units). Raises ValueError with the expected forms."""
    match = _SIZE.fullmatch(text.strip())
    if not match:
        raise ValueError(f"expected a size such as 65536, 512K, 16M or 4G, got {text!r}")
    unit = (match.group(2) or "B")[0].upper()
    return int(match.group(1)) << {"B": 0, "K": 10, "M": 20, "G": 30}[unit]


def format_size(size: int) -> str:
    """The shortest spelling parse_size reads back: 4G, 16M, 512K, 100."""
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if size and size % (1 << shift) == 0:
            return f"{size >> shift}{unit}"
    return str(size)


# -- reading lines ---------------------------------------------------------------------


class LineBuffer:
    """Splits a byte stream into lines. A line longer than the cap is refused
    as soon as more than the cap is buffered, so the buffer never holds more
    than the cap plus one read."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._buffer = bytearray()

    def feed(self, chunk: bytes) -> None:
        self._buffer += chunk

    def next_line(self) -> bytes | None:
        """The next complete line without its line ending, or None if more
        input is needed. Raises BotProtocolError for an oversized line."""
        buffer = self._buffer
        if not buffer:
            return None
        newline = buffer.find(b"\n", 0, self.cap + 2)
        if newline >= 0:
            line = bytes(buffer[:newline])
            if newline + 1 == len(buffer):
                buffer.clear()  # the usual answer: one whole line
            else:
                del buffer[: newline + 1]
            if line.endswith(b"\r"):
                line = line[:-1]
            if len(line) > self.cap:
                raise BotProtocolError(f"line of {len(line)} bytes exceeds the cap of {self.cap}")
            return line
        if len(buffer) > self.cap:
            raise BotProtocolError(f"line exceeds the cap of {self.cap} bytes")
        return None

    @property
    def buffered(self) -> int:
        return len(self._buffer)


def decode_message(line: bytes) -> dict[str, Any]:
    """One protocol message from one line: UTF-8 JSON, an object, nested no
    deeper than MAX_DEPTH. Anything else is a BotProtocolError, never
    another exception, whatever the bytes."""
    try:
        message = json.loads(line.decode("utf-8"))
    except RecursionError:
        raise BotProtocolError(f"JSON nested too deeply: {_preview(line)}") from None
    except (UnicodeDecodeError, ValueError):
        raise BotProtocolError(f"expected a JSON object, got {_preview(line)}") from None
    if not isinstance(message, dict):
        raise BotProtocolError(f"expected a JSON object, got {_preview(line)}")
    # Nesting needs an opening bracket per level: a line with few cannot be too deep.
    if line.count(b"[") + line.count(b"{") > MAX_DEPTH and _deeper_than(message, MAX_DEPTH):
        raise BotProtocolError(f"JSON nested deeper than {MAX_DEPTH} levels: {_preview(line)}")
    return message


def _deeper_than(value: Any, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


# -- stderr ------------------------------------------------------------------------------

# What a bot that could not start said last on stderr is quoted in the
# message that says so (``stderr_tail``): its last lines, this many at most,
# from its last bytes, each line cut to its last characters.
STDERR_TAIL_LINES = 3
STDERR_TAIL_BYTES = 2048
STDERR_TAIL_LINE_CHARS = 200


class _StderrDrain(threading.Thread):
    """Copies a bot's stderr to its log file while the file is under the cap
    (a cap per file: per bot and game, since the referee switches files at
    each game's start); counts the rest and drops it. A file is created
    only when the bot writes to it, so a quiet bot leaves no empty logs."""

    def __init__(self, stream: IO[bytes], log_path: Path | None, cap: int) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self._fd = stream.fileno()
        os.set_blocking(self._fd, False)
        self.cap = cap
        # The drain reads and writes while the referee switches files between games.
        self._lock = threading.Lock()
        self._ended = False  # the pipe is closed (its descriptor number may be reused: never read it again)
        self._path = log_path
        self._log: BinaryIO | None = None
        self.written = self._existing_size()
        self.dropped = 0
        self.received = 0  # every byte the bot wrote to stderr over the process's life, kept or dropped
        self.tail = bytearray()  # its last STDERR_TAIL_BYTES, kept or dropped, for when it cannot start

    def _existing_size(self) -> int:
        try:
            return self._path.stat().st_size if self._path else 0
        except OSError:
            return 0

    def switch(self, log_path: Path | None) -> None:
        """Send what comes from now on to another file (the next game's).
        What the pipe already holds goes to the old file first, so whatever
        the bot wrote before its last answer stays with that game; what it
        writes later (after a game without a decision, say) lands in the
        next."""
        with self._lock:
            if not self._ended:
                self._read_available()
            self._close_log()
            self._path = log_path
            self.written = self._existing_size()
            self.dropped = 0

    def run(self) -> None:
        try:
            with selectors.DefaultSelector() as selector:
                selector.register(self._fd, selectors.EVENT_READ)
                open_ = True
                while open_:
                    selector.select()
                    with self._lock:
                        open_ = self._read_available()
        except (OSError, ValueError):
            pass
        finally:
            with self._lock:
                self._ended = True
                self.stream.close()
                self._close_log()

    def _read_available(self) -> bool:
        """Keep what the pipe holds now; False once it is closed."""
        while True:
            try:
                chunk = os.read(self._fd, _READ_CHUNK)
            except BlockingIOError:
                return True
            except (OSError, ValueError):
                return False
            if not chunk:
                return False
            self._keep(chunk)

    def _keep(self, chunk: bytes) -> None:
        keep = chunk[: max(0, self.cap - self.written)]
        if keep and self._path:
            if self._log is None:
                self._path.parent.mkdir(parents=True, exist_ok=True)
                self._log = open(self._path, "ab")
            self._log.write(keep)
            self._log.flush()
        self.written += len(keep)
        self.dropped += len(chunk) - len(keep)
        self.received += len(chunk)
        self.tail += chunk[-STDERR_TAIL_BYTES:]
        del self.tail[:-STDERR_TAIL_BYTES]

    def _close_log(self) -> None:
        if self._log is not None:
            if self.dropped:
                self._log.write(f"\n[arena: {self.dropped} more bytes of stderr dropped]\n".encode())
            self._log.close()
            self._log = None


# -- the process ---------------------------------------------------------------------------


class BotProcess:
    """One running bot: send and receive JSON lines under deadlines."""

    def __init__(self, spec: BotSpec, limits: Limits, stderr_log: Path | None = None) -> None:
        self.spec = spec
        self.limits = limits
        self.closed = False
        self._ended = False
        self.workdir: str | None = None
        self._files = isolation.ProcessFiles()  # its processes' /proc files, for its freezer and its clock
        self._top: int | None = None
        root = tempfile.gettempdir()
        remove_abandoned_workdirs(root)
        try:
            self.box = isolation.prepare(limits, root, _workdir_prefix(spec.name))
        except (ArenaError, OSError) as exc:
            raise BotCrashed(f"cannot start {spec.name!r}: {exc}") from None
        status_read, status_write = os.pipe()
        boxed = limits.isolation == "box"
        filter_fd = None  # the box's system-call filter, which bwrap reads (through the warden)
        try:
            filter_fd = seccomp.program_file() if boxed else None
            command = isolation.box_command(spec, limits, filter_fd) if boxed else list(spec.command)
            passed = (status_write,) if filter_fd is None else (status_write, filter_fd)
            self.proc = subprocess.Popen(
                [sys.executable, "-I", "-S", str(WARDEN), warden.encode(self.box.warden_config(status_write)),
                 *command],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                start_new_session=True, pass_fds=passed, env=isolation.bot_environment(boxed),
            )
        except ArenaError as exc:
            os.close(status_read)
            raise BotCrashed(f"cannot start {spec.name!r}: {exc}") from None
        except OSError as exc:
            os.close(status_read)
            self.box.sweep()
            raise BotCrashed(f"cannot start {spec.name!r}: {exc.strerror or exc}") from None
        finally:
            os.close(status_write)
            if filter_fd is not None:
                os.close(filter_fd)
        self._status_fd = status_read
        self._status_lines = LineBuffer(1 << 16)
        self._exit_status: int | None = None
        self._over_memory = False
        self._freezer: isolation.Freezer | None = None
        self.frozen = False
        self.thawed_at = 0.0  # time.monotonic() of the last thaw
        self._lines = LineBuffer(limits.max_line_bytes)
        self._answered = False  # a whole line has come from the bot
        assert self.proc.stdout is not None and self.proc.stdin is not None and self.proc.stderr is not None
        self._stdout_fd = self.proc.stdout.fileno()
        self._stdin_fd = self.proc.stdin.fileno()
        os.set_blocking(self._stdout_fd, False)
        os.set_blocking(self._stdin_fd, False)
        # Kept for the process's life: a selector per read or write costs
        # an epoll file of its own each time.
        self._readable = select.poll()
        self._readable.register(self._stdout_fd, select.POLLIN)
        self._writable = select.poll()
        self._writable.register(self._stdin_fd, select.POLLOUT)
        self._drain = _StderrDrain(self.proc.stderr, stderr_log, limits.stderr_bytes)
        self._drain.start()
        started = self._status_message(time.monotonic() + max(limits.startup_timeout, _WARDEN_START_SECONDS))
        if not started or "pid" not in started:
            self.kill()
            reason = started.get("error") if started else "its warden did not report"
            raise BotCrashed(f"cannot start {spec.name!r}: {reason}")
        self.pid: int = started["pid"]
        self.workdir = started["workdir"]
        self.box.cgroups = started["cgroups"]

    def freeze(self) -> None:
        """Stop every process of the bot until ``thaw``: it has no CPU while
        it is not its turn (unless the limits let it ponder)."""
        if self.limits.ponder or self.frozen or self._ended:
            return
        if self._freezer is None:
            self._freezer = isolation.Freezer(self._processes_top(), self._files)
        self._freezer.freeze()
        self.frozen = True

    def _processes_top(self) -> int:
        """Below which process the bot's processes are: in a box, the init of
        its PID namespace (bwrap's, the child of the bwrap the warden
        started, which only reaps); without one, the warden."""
        if self._top is None:
            if self.limits.isolation != "box":
                self._top = self.proc.pid
            else:
                inits = warden.children_of(self.pid)
                self._top = inits[0] if inits else self.pid
        return self._top

    def thaw(self) -> None:
        if self.frozen and self._freezer is not None:
            self._freezer.thaw()
            self.frozen = False
            self.thawed_at = time.monotonic()

    @property
    def stderr_received(self) -> int:
        """The bytes the bot wrote to stderr so far, kept in its logs or
        dropped over the cap (all of them once the process is closed)."""
        return self._drain.received

    def stderr_tail(self) -> str:
        """The bot's last few stderr lines, as one line of printable text
        ("..." where a line is cut: to its end, as a traceback's last line
        says most), or "" if it wrote nothing. Complete once the process is
        closed (its stderr drained to the end)."""
        window = bytes(self._drain.tail)
        lines = window.decode("utf-8", errors="replace").splitlines()
        # The first line is cut if the window does not begin the stream.
        cut = [index == 0 and self._drain.received > len(window) for index in range(len(lines))]
        kept = [(line.strip(), was_cut) for line, was_cut in zip(lines, cut) if line.strip()]
        shown = []
        for line, was_cut in kept[-STDERR_TAIL_LINES:]:
            line = "".join(c if c.isprintable() else "?" for c in line)
            if len(line) > STDERR_TAIL_LINE_CHARS:
                line, was_cut = line[-STDERR_TAIL_LINE_CHARS:], True
            shown.append("..." + line if was_cut else line)
        return " | ".join(shown)

    def log_stderr_to(self, path: Path | None) -> None:
        """From now on, keep the bot's stderr in ``path`` (None: drop it)."""
        self._drain.switch(path)

    # -- line I/O -------------------------------------------------------------

    def send(self, message: dict[str, Any], timeout: float) -> None:
        self.send_line(encode_line(message), timeout)

    def send_line(self, data: bytes, timeout: float) -> None:
        """Write one line already encoded (``encode_line``), within the timeout."""
        deadline = time.monotonic() + timeout
        view = memoryview(data)
        thawed = False
        while view:
            try:
                sent = os.write(self._stdin_fd, view)
                view = view[sent:]
                continue
            except BlockingIOError:
                if self.frozen:  # a full pipe: the bot must run to read it
                    self.thaw()
                    thawed = True
            except BrokenPipeError:
                raise BotCrashed(self._exit_description("closed its input")) from None
            left = max(0.0, deadline - time.monotonic())
            if not self._writable.poll(_milliseconds(left)):
                raise BotTimeout(f"did not read its input within {timeout:g} s")
        if thawed:
            self.freeze()

    def receive(self, timeout: float) -> dict[str, Any]:
        """The next line as a JSON object. Raises BotTimeout, BotCrashed or
        BotProtocolError; never holds more than the line cap in memory."""
        line = self._read_line(time.monotonic() + timeout)
        if line is None:
            raise BotTimeout(self._no_answer(timeout))
        return decode_message(line)

    def receive_answer(self, started: float, timeout: float) -> dict[str, Any]:
        """The answer to a decision whose clock started at ``started`` (when
        the bot could first run), as ``receive``, on the bot's turn clock:
        ``timeout`` seconds of wall time, not counting the time the bot
        waited for a CPU after the first UNMEASURED seconds
        (arena.bots.turn_clock), and never more than WALL_CAP times
        ``timeout`` in all."""
        line = self._read_line(started + min(timeout, UNMEASURED))
        if line is not None:  # most answers: the bot's processes are never looked at
            return decode_message(line)
        clock = TurnClock(self._processes_top(), self._files)
        cap = started + WALL_CAP * timeout
        waited = 0.0
        while True:
            line = self._read_line(min(started + timeout + waited, cap))
            if line is not None:
                return decode_message(line)
            now = time.monotonic()
            waited = clock.waited(now)
            if now >= min(started + timeout + waited, cap):
                raise BotTimeout(self._no_answer(timeout, now - started, waited))

    def _read_line(self, deadline: float) -> bytes | None:
        """The next line, or None if none came by the deadline."""
        while True:
            line = self._lines.next_line()
            if line is not None:
                self._answered = True
                return line
            # Past the deadline the pipe is still looked at once: an answer
            # waiting there came in time, however late the referee looks.
            left = max(0.0, deadline - time.monotonic())
            if not self._readable.poll(_milliseconds(left)):
                return None
            try:
                chunk = os.read(self._stdout_fd, _READ_CHUNK)
            except BlockingIOError:
                continue
            if not chunk:
                raise BotCrashed(self._exit_description("closed its output"))
            if chunk.find(b"\n") == len(chunk) - 1 and not self._lines.buffered and len(chunk) <= self._lines.cap:
                # The usual answer: one whole line in one read. (What next_line
                # would give; a longer chunk takes the buffer's cap checks.)
                self._answered = True
                return chunk[:-2] if chunk.endswith(b"\r\n") else chunk[:-1]
            self._lines.feed(chunk)

    def _no_answer(self, timeout: float, wall: float = 0.0, waited: float = 0.0) -> str:
        """Why a read timed out (after ``wall`` seconds, ``waited`` of them
        waiting for a CPU, if it had any). Only where the bot may have
        printed an answer that did not come (a line without its end, or not
        a single line in its life, as an unflushed output leaves it) is
        flushing named; a bot whose lines came before was simply slow."""
        said = f"no answer within {timeout:g} s"
        if waited >= 0.005:
            said += f" ({wall:.2f} s on the wall clock, {waited:.2f} s of it waiting for a CPU)"
        partial = self._lines.buffered
        if partial:
            return (f"{said}: {partial} bytes came without a line end; end every "
                    f"answer with a newline and flush your output (PROTOCOL.md, \"{FLUSH_SECTION}\")")
        if not self._answered:
            return (f"{said}; a bot that printed its answer must also flush its output "
                    f"(PROTOCOL.md, \"{FLUSH_SECTION}\")")
        return said

    # -- the warden's reports -------------------------------------------------

    def _status_message(self, deadline: float) -> dict[str, Any] | None:
        """The warden's next report, or None if it sent none in time (or
        ended without one)."""
        with selectors.DefaultSelector() as selector:
            selector.register(self._status_fd, selectors.EVENT_READ)
            while True:
                try:
                    line = self._status_lines.next_line()
                except BotProtocolError:
                    return None
                if line is not None:
                    try:
                        return warden.decode(line)
                    except (ValueError, EOFError, TypeError):
                        return None
                if not selector.select(max(0.0, deadline - time.monotonic())):
                    return None
                chunk = os.read(self._status_fd, 4096)
                if not chunk:
                    return None
                self._status_lines.feed(chunk)

    def _bot_exit_status(self, wait: float) -> int | None:
        """The bot's wait status as its warden reported it, waiting up to
        ``wait`` seconds for the report."""
        deadline = time.monotonic() + wait
        while self._exit_status is None:
            message = self._status_message(deadline)
            if message is None:
                return None
            if message.get("exit") is not None:
                self._exit_status = message["exit"]
                self._over_memory = message.get("memory", False)
        return self._exit_status

    def _bot_running(self) -> bool:
        try:
            with open(f"/proc/{self.pid}/stat") as handle:
                stat = handle.read()
        except OSError:
            return False
        return stat[stat.rindex(")") + 2:][:1] != "Z"

    def _exit_description(self, what: str) -> str:
        if self._exit_status is None and self._bot_running():
            time.sleep(0.05)  # a bot that closed its output on the way out
            if self._bot_running():
                return f"{what} while still running"
        status = self._bot_exit_status(wait=2.0)
        if self._over_memory:
            return f"{what}: memory limit of {format_size(self.limits.memory_bytes)} exceeded"
        if status is None:
            return f"{what}: exited"
        code = os.waitstatus_to_exitcode(status)
        if code > 128 and self.limits.isolation == "box":
            code = 128 - code  # bwrap exits with 128 + N when a signal N killed the bot
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"{what}: killed by {name}"
        return f"{what}: exited with code {code}"

    # -- lifetime -------------------------------------------------------------

    def close(self, grace: float = 0.5) -> None:
        """Say goodbye, give the bot a moment to exit, then end every process
        it started. Safe to call twice."""
        if self.closed:
            return
        self.closed = True
        self.thaw()
        try:
            self.send({"type": "bye"}, timeout=0.1)
        except (BotCrashed, BotTimeout, OSError):
            pass
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def kill(self) -> None:
        """End the bot and every process it started: the warden sweeps them
        (cgroups, process tree, and with it the box's namespaces) and leaves; then the referee sweeps
        again in case the warden could not. Safe to call twice."""
        self.closed = True
        if self._ended:
            return
        self._ended = True
        try:
            self.proc.send_signal(signal.SIGTERM)
        except OSError:
            pass
        try:
            self.proc.wait(timeout=warden.SWEEP_SECONDS + 2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.box.sweep()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self._drain.join(timeout=1.0)
        self._files.close()
        self._bot_exit_status(wait=0)
        os.close(self._status_fd)
        if self.workdir:
            warden.remove_tree(self.workdir)


def _milliseconds(seconds: float) -> int:
    """A poll timeout: whole milliseconds, rounded up so that a wait never
    ends before its deadline."""
    return math.ceil(seconds * 1000)


WORKDIR_PREFIX = "arena-bot-"


def _workdir_prefix(name: str) -> str:
    return f"{WORKDIR_PREFIX}{re.sub(r'[^A-Za-z0-9_.-]', '_', name[:20])}-"


_swept_roots: set[str] = set()


def remove_abandoned_workdirs(root: str) -> list[str]:
    """Once per process and temporary folder, before its first bot starts:
    remove bot working folders whose warden was killed outright (see
    arena.bots.warden.make_owned_folder). Returns what was removed."""
    if root in _swept_roots:
        return []
    _swept_roots.add(root)
    return warden.remove_abandoned(root, WORKDIR_PREFIX)


def _preview(line: bytes, limit: int = 80) -> str:
    text = line[:limit].decode("utf-8", errors="replace")
    return repr(text + ("..." if len(line) > limit else ""))
