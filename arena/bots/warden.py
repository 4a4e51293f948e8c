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
* starts the bot in a session of its own, in its cgroup if it has one, under
  its resource limits, with no way to gain privileges on exec, optionally in
  a network namespace of its own and as another user;
* creates the bot's working folder itself, once it is sure to die with the
  referee, and holds a lock on it for as long as it lives: so no folder
  exists without a live owner, and one whose owner was killed outright
  (SIGKILL, which nothing can clean up after) is found and removed by the
  next arena that starts (``remove_abandoned``);
* when the bot's main process exits, kills the rest of its processes at once,
  so children holding the pipes open cannot keep the referee waiting, and
  removes its working folder (also when the referee was killed); its cgroup,
  where it has one, is made, owned and removed the same way;
* reports on the status pipe, one line each: ``{"pid": N, "workdir": PATH,
  "cgroup": PATH or None}``
  once the bot runs (or ``{"error": "..."}`` if it could not start) and
  ``{"exit": S}`` (the raw wait status, or None) when it is over.

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
PR_SET_KEEPCAPS = 8
PR_SET_NO_NEW_PRIVS = 38
PR_SET_CHILD_SUBREAPER = 36
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_RAISE = 2
CAP_DAC_READ_SEARCH = 2
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
_LINUX_CAPABILITY_VERSION_3 = 0x20080522

SWEEP_SECONDS = 5.0
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
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
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


def _status_fields(pid: str) -> tuple[int, int, int] | None:
    """(real uid, parent pid, state is zombie) of a process, from /proc."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            text = handle.read()
    except OSError:
        return None
    uid = ppid = -1
    zombie = 0
    for line in text.splitlines():
        if line.startswith("Uid:"):
            uid = int(line.split()[1])
        elif line.startswith("PPid:"):
            ppid = int(line.split()[1])
        elif line.startswith("State:"):
            zombie = int(line.split()[1] == "Z")
    return uid, ppid, zombie


def processes_of_uid(uid: int) -> list[int]:
    """Live (not zombie) processes whose real user id is ``uid``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _status_fields(entry)
            if fields and fields[0] == uid and not fields[2]:
                found.append(int(entry))
    return found


def kill_uid(uid: int, deadline: float) -> None:
    """Kill every process running as ``uid``: a user id that belongs to one
    bot alone, so nothing else is hit and nothing can leave it."""
    while time.monotonic() < deadline:
        pids = processes_of_uid(uid)
        if not pids:
            return
        for pid in pids:
            _kill(pid)
        time.sleep(0.001)


def _children() -> list[int]:
    me = os.getpid()
    path = f"/proc/{me}/task/{me}/children"
    try:
        with open(path) as handle:
            return [int(pid) for pid in handle.read().split()]
    except OSError:
        return [int(entry) for entry in os.listdir("/proc")
                if entry.isdigit() and (_status_fields(entry) or (0, 0, 0))[1] == me]


def kill_descendants(bot_pid: int, deadline: float) -> int | None:
    """As subreaper: kill our children until we have none left. Killing a
    child re-parents its own children to us, so this ends with the whole
    tree gone. Returns the bot's wait status if it was reaped here."""
    status = None
    while time.monotonic() < deadline:
        for pid in _children():
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


def _keep_reading(libc) -> None:
    """After the switch to another user: keep CAP_DAC_READ_SEARCH as an
    ambient capability, so the bot can still read its interpreter and files
    wherever they are, but gains no other privilege."""

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                    ("inheritable", ctypes.c_uint32)]

    header = Header(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (Data * 2)()
    bit = 1 << CAP_DAC_READ_SEARCH
    data[0].effective = data[0].permitted = data[0].inheritable = bit
    _check(libc.capset(ctypes.byref(header), ctypes.byref(data)), "capset")
    _check(libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_DAC_READ_SEARCH, 0, 0),
           "ambient capability")


def _unshare_network(libc) -> None:
    """A network namespace of its own, with no interface up: no network at
    all, not even loopback. Root unshares directly; anyone else goes through
    a user namespace that maps only their own ids."""
    if os.geteuid() == 0:
        _check(libc.unshare(CLONE_NEWNET), "network namespace")
        return
    uid, gid = os.getuid(), os.getgid()
    _check(libc.unshare(CLONE_NEWUSER | CLONE_NEWNET), "user and network namespace")
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")


def _become_bot(config: dict, warden_pid: int) -> None:
    """In the bot's process, between fork and exec."""
    libc = _libc()
    os.setsid()
    _check(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "parent-death signal")
    if os.getppid() != warden_pid:
        os._exit(1)
    os.chdir(config["workdir"])
    for number in _STOP_SIGNALS:
        signal.signal(number, signal.SIG_DFL)
    os.close(config["status_fd"])
    if config.get("cgroup"):
        _write(os.path.join(config["cgroup"], "cgroup.procs"), "0")
    if config.get("network"):
        _unshare_network(libc)
    for name, value in config["rlimits"].items():
        soft, hard = value if isinstance(value, list) else (value, value)
        resource.setrlimit(getattr(resource, name), (soft, hard))
    uid = config.get("uid")
    if uid is not None:
        keep_read = config.get("keep_read", False)
        if keep_read:
            _check(libc.prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0), "keep capabilities")
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
        if keep_read:
            _keep_reading(libc)
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
            if config.get("uid") is not None and not config.get("keep_read"):
                stage += f" as user id {config['uid']} (it must be readable by other users)"
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
    if config.get("cgroup"):
        kill_cgroup(config["cgroup"], config.get("cgroup_version", 2), deadline)
    if config.get("uid") is not None:
        kill_uid(config["uid"], deadline)
    status = kill_descendants(bot_pid or -1, deadline)
    if config.get("cgroup"):
        remove_cgroup(config["cgroup"], time.monotonic() + SWEEP_SECONDS)
    if config.get("workdir"):
        remove_tree(config["workdir"])
    return status


def _make_cgroup(config: dict) -> None:
    """The bot's cgroup, made and locked by the warden for the same reason as
    its working folder; ``pids.max`` is the bot's process limit."""
    path, _lock = make_owned_folder(config["cgroup_base"], CGROUP_PREFIX)
    config["cgroup"] = path  # from here on, sweep() kills and removes it
    _write(os.path.join(path, "pids.max"), str(config["pids_max"]))


def _make_workdir(config: dict) -> None:
    """The bot's working folder, made only now that the warden dies with the
    referee, so no kill can leave it behind unowned. It is also the bot's
    home for temporary files (and HOME when it runs as a user of its own)."""
    workdir, _lock = make_owned_folder(config["workdir_root"], config["workdir_prefix"])
    config["workdir"] = workdir  # from here on, sweep() removes it
    if config.get("uid") is not None:
        os.chown(workdir, config["uid"], config["uid"])
        os.environ["HOME"] = workdir
    os.environ["TMPDIR"] = workdir


def probe_network() -> int:
    """``warden.py --probe-network``: can this machine give a bot a network
    namespace of its own? Exit status 0 if so; else the reason on stderr."""
    try:
        _unshare_network(_libc())
    except OSError as exc:
        sys.stderr.write(f"{exc.strerror or exc}\n")
        return 1
    return 0


def main(argv: list[str]) -> int:
    if argv[1:] == ["--probe-network"]:
        return probe_network()
    config, command = decode(argv[1]), argv[2:]
    libc = _libc()
    status_fd = config["status_fd"]
    bot_pid = None
    status = None
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
                if config.get("cgroup_base"):
                    _make_cgroup(config)
                _make_workdir(config)
            finally:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
            bot_pid = _start(config, command)
        except OSError as exc:
            _report(status_fd, {"error": exc.strerror or str(exc)})
            return 1
        _report(status_fd, {"pid": bot_pid, "workdir": config["workdir"], "cgroup": config.get("cgroup")})
        _detach_from_pipes()
        while True:
            pid, wait_status = os.waitpid(-1, 0)
            if pid == bot_pid:
                status = wait_status
                break
    except (_Stop, ChildProcessError):
        pass
    finally:
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        reaped = sweep(config, bot_pid)
        status = status if status is not None else reaped
        _report(status_fd, {"exit": status})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
