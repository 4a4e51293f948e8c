"""The warden: a small supervisor between the referee and one bot process.

The referee runs ``python -I -S warden.py CONFIG COMMAND...``; this file uses
only modules built into the interpreter or light ones (no json: it pulls in
``re``; no signal: it pulls in ``enum``), so it starts in a few milliseconds,
and nothing of arena. CONFIG and the reports are dicts in
``marshal`` form, hex-encoded (the same interpreter writes and reads them).
The warden

* dies with the thread that started it (parent-death signal), and whenever it
  stops, for whatever reason short of SIGKILL, it first kills every process
  the bot started;
* is the child subreaper of the bot's process tree: a descendant that detaches
  itself (double fork, ``setsid``) is re-parented to the warden instead of to
  init, so it cannot outlive the bot even where there is no cgroup;
* starts the bot's command (in a box, ``bwrap ... -- COMMAND``: the referee
  builds it, see arena.bots.isolation) in a session of its own, in its
  cgroups if it has them, under its resource limits, with no way to gain
  privileges on exec;
* creates the bot's cgroups (and, without a box, its working folder) itself,
  once it is sure to die with the referee, and holds a lock on each for as
  long as it lives: so none exists without a live owner, and one whose
  owner was killed outright (SIGKILL, which nothing can clean up after) is
  found and removed by the next arena that starts (``remove_abandoned``);
* ends the bot when it goes over its memory cap: where a cgroup caps it, as
  soon as the kernel killed one of its processes for it; elsewhere, when the
  resident memory of all its processes, summed every ``WATCH_SECONDS``, is
  over the cap;
* when the bot's main process exits, kills the rest of its processes at once,
  so children holding the pipes open cannot keep the referee waiting, and
  removes its cgroups and working folder (also when the referee was killed);
* reports on the status pipe, one line each: ``{"pid": N, "workdir": PATH
  or None, "cgroups": [PATH, ...]}`` once the bot runs (or ``{"error":
  "..."}`` if it could not start) and ``{"exit": S, "memory": B}`` (the raw
  wait status, or None; whether the bot went over its memory cap) when it
  is over.

The sweeping functions are also used by the referee (arena.bots.isolation) as a
second line of defence, for when the warden itself was killed.
"""

from __future__ import annotations

import _signal as signal  # the C module: signal.py's enums would double the start-up time
import ctypes
import errno
import fcntl
import marshal
import os
import resource
import stat
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38
PR_SET_CHILD_SUBREAPER = 36

SWEEP_SECONDS = 5.0
WATCH_SECONDS = 0.03
_PAGE = os.sysconf("SC_PAGE_SIZE")
_STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class _Stop(Exception):
    """The referee (or the parent-death signal) asked the warden to stop."""


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


# -- sweeping: kill every process of a bot ------------------------------------------


def _pids_in(path: str) -> list[int]:
    try:
        with open(path) as handle:
            return [int(line) for line in handle if line.strip()]
    except OSError:
        return []


def _write(path: str, text: str) -> None:
    with open(path, "w") as handle:
        handle.write(text)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def kill_cgroup(path: str, version: int, deadline: float) -> None:
    """Kill every process in a cgroup. Version 2 has ``cgroup.kill``; in
    version 1, setting ``pids.max`` to 0 first stops any fork, so a fork bomb
    cannot outrun the killing."""
    if version == 2 and os.path.exists(os.path.join(path, "cgroup.kill")):
        try:
            _write(os.path.join(path, "cgroup.kill"), "1")
        except OSError:
            pass
    else:
        try:
            _write(os.path.join(path, "pids.max"), "0")
        except OSError:
            pass
    while time.monotonic() < deadline:
        pids = _pids_in(os.path.join(path, "cgroup.procs"))
        if not pids:
            return
        for pid in pids:
            _kill(pid)
        time.sleep(0.001)


def remove_cgroup(path: str, deadline: float) -> None:
    """Remove an emptied cgroup; it may take a moment for the last exited
    processes to be reaped."""
    while True:
        try:
            os.rmdir(path)
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() >= deadline:
                return
            time.sleep(0.005)


def remove_tree(top: str) -> None:
    """Remove a bot's working folder once the bot is gone, never following a
    link it left there, not even one put in the folder's own place."""
    try:
        if not stat.S_ISDIR(os.lstat(top).st_mode):
            return
    except OSError:
        return
    for folder, folders, files in os.walk(top, topdown=False):
        for name in files:
            try:
                os.unlink(os.path.join(folder, name))
            except OSError:
                pass
        for name in folders:
            path = os.path.join(folder, name)
            try:
                os.unlink(path) if os.path.islink(path) else os.rmdir(path)
            except OSError:
                pass
    try:
        os.rmdir(top)
    except OSError:
        pass


def make_owned_folder(root: str, prefix: str) -> tuple[str, int]:
    """A new folder ``root/prefix<random>`` (mode 0700) and an open descriptor
    holding an exclusive lock on it: the mark of a live owner. The lock is
    taken, then the folder checked to be still the one made, so a sweeper
    that raced in between cannot leave us a removed folder."""
    while True:
        path = os.path.join(root, prefix + os.urandom(6).hex())
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            continue
        try:  # a sweeper may take the folder before it is locked: then make another
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:
            continue
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            if os.lstat(path).st_ino == os.fstat(fd).st_ino:
                return path, fd
        except OSError:
            pass
        os.close(fd)


def remove_abandoned(root: str, prefix: str, remove=None) -> list[str]:
    """Remove the folders ``root/prefix*`` that no live process holds locked
    (see make_owned_folder), with ``remove(path)`` (default: remove_tree);
    returns those removed. A folder in use is never touched: its owner's
    lock cannot be taken."""
    removed: list[str] = []
    try:
        names = [name for name in os.listdir(root) if name.startswith(prefix)]
    except OSError:
        return removed
    for name in names:
        path = os.path.join(root, name)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        try:
            (remove or remove_tree)(path)
            removed.append(path)
        finally:
            os.close(fd)
    return removed


CGROUP_PREFIX = "arena-bot-"


def remove_abandoned_cgroups(base: str, version: int) -> list[str]:
    """Kill what still runs in bot cgroups whose warden is gone, and remove
    them (a cgroup is owned the way a working folder is)."""
    def remove(path: str) -> None:
        kill_cgroup(path, version, time.monotonic() + SWEEP_SECONDS)
        remove_cgroup(path, time.monotonic() + 1.0)
    return remove_abandoned(base, CGROUP_PREFIX, remove)


def children_of(pid: int) -> list[int]:
    """The children of every thread of a process (a thread that forks is
    the parent, not the process's main thread)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", "rb") as handle:
                found.extend(int(child) for child in handle.read().split())
        except OSError:
            continue
    return found


def descendants(top: int) -> list[int]:
    """Every process below ``top``."""
    found: list[int] = []
    pending = [top]
    while pending:
        children = children_of(pending.pop())
        found.extend(children)
        pending.extend(children)
    return found


def resident_bytes(pids: list[int]) -> int:
    """Resident memory of the processes, without the pages they share with
    files (libraries): what they hold of the machine's memory."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm", "rb") as handle:
                fields = handle.read().split()
        except OSError:
            continue
        total += (int(fields[1]) - int(fields[2])) * _PAGE
    return total


def kill_descendants(bot_pid: int, deadline: float) -> int | None:
    """As subreaper: kill our children until we have none left. Killing a
    child re-parents its own children to us, so this ends with the whole
    tree gone. Returns the bot's wait status if it was reaped here."""
    status = None
    while time.monotonic() < deadline:
        for pid in children_of(os.getpid()):
            _kill(pid)
        try:
            while True:
                pid, wait_status = os.waitpid(-1, os.WNOHANG)
                if pid == 0:
                    break
                if pid == bot_pid:
                    status = wait_status
        except ChildProcessError:
            return status
        time.sleep(0.001)
    return status


# -- starting the bot ------------------------------------------------------------


def _become_bot(config: dict, warden_pid: int) -> None:
    """In the bot's process, between fork and exec."""
    libc = _libc()
    os.setsid()
    _check(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "parent-death signal")
    if os.getppid() != warden_pid:
        os._exit(1)
    if config.get("workdir"):
        os.chdir(config["workdir"])
    for number in _STOP_SIGNALS:
        signal.signal(number, signal.SIG_DFL)
    os.close(config["status_fd"])
    for path in config["cgroups"]:
        _write(os.path.join(path, "cgroup.procs"), "0")
    for name, value in config["rlimits"].items():
        soft, hard = value if isinstance(value, list) else (value, value)
        resource.setrlimit(getattr(resource, name), (soft, hard))
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no new privileges")


def _start(config: dict, command: list[str]) -> int:
    """Fork and exec the bot; raise OSError with the reason if it could not
    start (the child reports its failure through a close-on-exec pipe)."""
    read_end, write_end = os.pipe2(os.O_CLOEXEC)
    warden_pid = os.getpid()
    pid = os.fork()
    if pid == 0:
        stage = "confining the bot"
        try:
            os.close(read_end)
            _become_bot(config, warden_pid)
            stage = f"running {command[0]!r}"
            os.execvp(command[0], command)
        except BaseException as exc:  # noqa: BLE001 - reported, then the child leaves
            message = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            os.write(write_end, f"{message} ({stage})".encode("utf-8", "replace")[:1000])
        finally:
            os._exit(127)
    os.close(write_end)
    chunks = []
    while chunk := os.read(read_end, 1024):
        chunks.append(chunk)
    os.close(read_end)
    if chunks:
        os.waitpid(pid, 0)
        raise OSError(errno.EINVAL, b"".join(chunks).decode("utf-8", "replace"))
    return pid


# -- supervising -----------------------------------------------------------------------


def _raise_stop(signum, frame) -> None:
    raise _Stop


def encode(message: dict) -> str:
    return marshal.dumps(message).hex()


def decode(text: str | bytes) -> dict:
    value = marshal.loads(bytes.fromhex(text.decode() if isinstance(text, bytes) else text))
    if not isinstance(value, dict):
        raise ValueError(f"expected a dict, got {type(value).__name__}")
    return value


def _report(fd: int, message: dict) -> None:
    try:
        os.write(fd, (encode(message) + "\n").encode())
    except OSError:
        pass


def _detach_from_pipes() -> None:
    """The warden must not hold the bot's pipes: when the bot and its
    processes are gone, the referee sees end of file at once."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def sweep(config: dict, bot_pid: int | None) -> int | None:
    """Kill every process of the bot, by every means the config allows."""
    deadline = time.monotonic() + SWEEP_SECONDS
    if bot_pid:
        try:
            os.killpg(bot_pid, signal.SIGKILL)
        except OSError:
            pass
    for path in config["cgroups"]:
        kill_cgroup(path, config["cgroup_version"], deadline)
    status = kill_descendants(bot_pid or -1, deadline)
    for path in config["cgroups"]:
        remove_cgroup(path, time.monotonic() + SWEEP_SECONDS)
    if config.get("workdir"):
        remove_tree(config["workdir"])
    return status


def _make_cgroups(config: dict) -> None:
    """The bot's cgroups (one per hierarchy), made and locked by the warden
    for the same reason as a working folder, with the bot's limits."""
    for base, settings in config["cgroup_settings"].items():
        path, _lock = make_owned_folder(base, CGROUP_PREFIX)
        config["cgroups"].append(path)  # from here on, sweep() kills and removes it
        for name, value in settings.items():
            _write(os.path.join(path, name), value)


def _make_workdir(config: dict) -> None:
    """Without a box: the bot's working folder, made only now that the warden
    dies with the referee, so no kill can leave it behind unowned. It is
    also the bot's home for temporary files."""
    workdir, _lock = make_owned_folder(config["workdir_root"], config["workdir_prefix"])
    config["workdir"] = workdir  # from here on, sweep() removes it
    os.environ["TMPDIR"] = workdir


def _oom_killed(config: dict) -> bool:
    """Whether the kernel killed a process of the bot's memory cgroup for
    going over its limit (v1 memory.oom_control, v2 memory.events)."""
    for path in config["cgroups"]:
        for name in ("memory.oom_control", "memory.events"):
            try:
                with open(os.path.join(path, name)) as handle:
                    for line in handle:
                        key, _, value = line.partition(" ")
                        if key == "oom_kill" and int(value) > 0:
                            return True
            except (OSError, ValueError):
                continue
    return False


def _wait_watching(bot_pid: int, config: dict) -> tuple[int | None, bool]:
    """Wait for the bot to exit, looking every WATCH_SECONDS at its memory:
    where a cgroup caps it, whether the kernel killed one of its processes
    for it; elsewhere, whether all its processes together hold more than
    the cap. Returns (its wait status, or None if it went over and must be
    ended; whether it went over)."""
    me = os.getpid()
    cap = config["memory_watch"]
    capped = any(os.path.exists(os.path.join(path, name)) for path in config["cgroups"]
                 for name in ("memory.oom_control", "memory.events"))
    while True:
        while True:
            pid, wait_status = os.waitpid(-1, os.WNOHANG)
            if pid == bot_pid:
                return wait_status, False
            if pid == 0:
                break
        if _oom_killed(config) if capped else resident_bytes(descendants(me)) > cap:
            return None, True
        time.sleep(WATCH_SECONDS)


def main(argv: list[str]) -> int:
    config, command = decode(argv[1]), argv[2:]
    libc = _libc()
    status_fd = config["status_fd"]
    bot_pid = None
    status = None
    over_memory = False
    config["cgroups"] = []
    for number in _STOP_SIGNALS:
        signal.signal(number, _raise_stop)
    try:
        _check(libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0), "parent-death signal")
        if os.getppid() != config["parent"]:
            raise _Stop
        _check(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), "child subreaper")
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        try:
            # A stop that came between making a folder and noting it in the
            # config would leave it unswept: stops wait until both are noted.
            signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
            try:
                _make_cgroups(config)
                if config["workdir_root"]:
                    _make_workdir(config)
            finally:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
            bot_pid = _start(config, command)
        except OSError as exc:
            _report(status_fd, {"error": exc.strerror or str(exc)})
            return 1
        _report(status_fd, {"pid": bot_pid, "workdir": config.get("workdir"), "cgroups": config["cgroups"]})
        _detach_from_pipes()
        status, over_memory = _wait_watching(bot_pid, config)
    except (_Stop, ChildProcessError):
        pass
    finally:
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        killed_for_memory = _oom_killed(config)
        reaped = sweep(config, bot_pid)
        status = status if status is not None else reaped
        _report(status_fd, {"exit": status, "memory": over_memory or killed_for_memory})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
