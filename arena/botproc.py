"""Bot processes: spawn under limits, JSON lines with deadlines, kill cleanly.

A bot is untrusted. It runs in its own session (so its whole process group can
be killed), in a working folder of its own, under resource limits, with a
parent-death signal so that it dies with the worker that started it. Every
read and every write has a deadline; a line longer than the cap is refused
without being held in memory; stderr is drained by a thread into a log file
up to a cap and the rest is counted and dropped.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import resource
import selectors
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import BotCrashed, BotProtocolError, BotTimeout

PR_SET_PDEATHSIG = 1
_READ_CHUNK = 65536


@dataclass(frozen=True)
class Limits:
    """Per-bot-process limits. Defaults are safe for a shared machine and
    generous for an honest bot; see the README for what each one protects."""

    startup_timeout: float = 10.0
    move_timeout: float = 1.0
    max_line_bytes: int = 1 << 20
    stderr_bytes: int = 1 << 20
    cpu_seconds: int = 600
    address_space_bytes: int = 4 << 30
    processes: int = 64
    file_size_bytes: int = 16 << 20
    open_files: int = 256


@dataclass(frozen=True)
class BotSpec:
    """A bot found in a bots folder: how to start it and which version it is."""

    name: str
    command: tuple[str, ...]
    path: str
    content_hash: str

    @property
    def bot_id(self) -> str:
        return f"{self.name}@{self.content_hash[:12]}"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "command": list(self.command), "path": self.path,
                "content_hash": self.content_hash}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BotSpec:
        return cls(data["name"], tuple(data["command"]), data["path"], data["content_hash"])


def _limit_child(limits: Limits) -> None:
    """Runs in the child between fork and exec: set the parent-death signal
    and the resource limits. Keep it to async-signal-safe work."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    for which, value in (
        (resource.RLIMIT_CPU, limits.cpu_seconds),
        (resource.RLIMIT_AS, limits.address_space_bytes),
        (resource.RLIMIT_NPROC, limits.processes),
        (resource.RLIMIT_FSIZE, limits.file_size_bytes),
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_CORE, 0),
    ):
        resource.setrlimit(which, (value, value))


class _StderrDrain(threading.Thread):
    """Copies a bot's stderr to its log file up to a cap; counts the rest."""

    def __init__(self, stream, log_path: Path | None, cap: int) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.log = open(log_path, "ab") if log_path else None
        self.cap = cap
        self.written = 0
        self.dropped = 0

    def run(self) -> None:
        try:
            while chunk := self.stream.read1(_READ_CHUNK):
                keep = chunk[: max(0, self.cap - self.written)]
                if keep and self.log:
                    self.log.write(keep)
                    self.log.flush()
                self.written += len(keep)
                self.dropped += len(chunk) - len(keep)
        except (OSError, ValueError):
            pass
        finally:
            if self.log:
                if self.dropped:
                    self.log.write(f"\n[arena: {self.dropped} more bytes of stderr dropped]\n".encode())
                self.log.close()


class BotProcess:
    """One running bot: send and receive JSON lines under deadlines."""

    def __init__(self, spec: BotSpec, limits: Limits, stderr_log: Path | None = None) -> None:
        self.spec = spec
        self.limits = limits
        self.workdir = tempfile.mkdtemp(prefix=f"arena-bot-{spec.name[:20]}-")
        try:
            self.proc = subprocess.Popen(
                list(spec.command), cwd=self.workdir,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                start_new_session=True, preexec_fn=lambda: _limit_child(limits),
                env=_bot_environment(),
            )
        except OSError as exc:
            shutil.rmtree(self.workdir, ignore_errors=True)
            raise BotCrashed(f"cannot start {spec.name!r}: {exc.strerror or exc}") from None
        self._buffer = bytearray()
        self._stdout_fd = self.proc.stdout.fileno()
        self._stdin_fd = self.proc.stdin.fileno()
        os.set_blocking(self._stdout_fd, False)
        os.set_blocking(self._stdin_fd, False)
        self._readable = selectors.DefaultSelector()
        self._readable.register(self._stdout_fd, selectors.EVENT_READ)
        self._writable = selectors.DefaultSelector()
        self._writable.register(self._stdin_fd, selectors.EVENT_WRITE)
        self._drain = _StderrDrain(self.proc.stderr, stderr_log, limits.stderr_bytes)
        self._drain.start()
        self.closed = False

    # -- line I/O -------------------------------------------------------------

    def send(self, message: dict[str, Any], timeout: float) -> None:
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        deadline = time.monotonic() + timeout
        view = memoryview(data)
        while view:
            try:
                sent = os.write(self._stdin_fd, view)
                view = view[sent:]
                continue
            except BlockingIOError:
                pass
            except BrokenPipeError:
                raise BotCrashed(self._exit_description("closed its input")) from None
            left = deadline - time.monotonic()
            if left <= 0 or not self._writable.select(left):
                raise BotTimeout(f"did not read its input within {timeout:g} s")

    def receive(self, timeout: float) -> dict[str, Any]:
        """The next line as a JSON object. Raises BotTimeout, BotCrashed or
        BotProtocolError; never holds more than the line cap in memory."""
        line = self._read_line(time.monotonic() + timeout, timeout)
        try:
            message = json.loads(line)
        except (UnicodeDecodeError, ValueError):
            raise BotProtocolError(f"expected a JSON object, got {_preview(line)}") from None
        if not isinstance(message, dict):
            raise BotProtocolError(f"expected a JSON object, got {_preview(line)}")
        return message

    def _read_line(self, deadline: float, timeout: float) -> bytes:
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                line = bytes(self._buffer[:newline])
                del self._buffer[: newline + 1]
                if len(line) > self.limits.max_line_bytes:
                    raise BotProtocolError(f"line of {len(line)} bytes exceeds the cap of "
                                           f"{self.limits.max_line_bytes}")
                return line.rstrip(b"\r")
            if len(self._buffer) > self.limits.max_line_bytes:
                raise BotProtocolError(f"line exceeds the cap of {self.limits.max_line_bytes} bytes")
            left = deadline - time.monotonic()
            if left <= 0 or not self._readable.select(left):
                raise BotTimeout(f"no answer within {timeout:g} s")
            try:
                chunk = os.read(self._stdout_fd, _READ_CHUNK)
            except BlockingIOError:
                continue
            if not chunk:
                raise BotCrashed(self._exit_description("closed its output"))
            self._buffer += chunk

    def _exit_description(self, what: str) -> str:
        try:
            code = self.proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            return f"{what} while still running"
        if code < 0:
            return f"{what}: killed by {signal.Signals(-code).name}"
        return f"{what}: exited with code {code}"

    # -- lifetime -------------------------------------------------------------

    def close(self, grace: float = 0.5) -> None:
        """Say goodbye, give the bot a moment to exit, then kill its whole
        process group. Safe to call twice."""
        if self.closed:
            return
        self.closed = True
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
        self.closed = True
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError as exc:
            if exc.errno not in (errno.ESRCH, errno.EPERM):
                raise
        self.proc.wait()
        self._readable.close()
        self._writable.close()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self._drain.join(timeout=1.0)
        if not self._drain.is_alive():
            self.proc.stderr.close()
        shutil.rmtree(self.workdir, ignore_errors=True)

    @property
    def stderr_dropped(self) -> int:
        return self._drain.dropped


def _bot_environment() -> dict[str, str]:
    """A small environment: enough to find interpreters, nothing of ours."""
    keep = ("PATH", "LANG", "LC_ALL", "HOME", "TMPDIR", "SYSTEMROOT", "PYTHONPATH")
    env = {key: os.environ[key] for key in keep if key in os.environ}
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _preview(line: bytes, limit: int = 80) -> str:
    text = line[:limit].decode("utf-8", errors="replace")
    return repr(text + ("..." if len(line) > limit else ""))
