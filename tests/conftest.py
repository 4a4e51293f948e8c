"""Shared fixtures. tests/ is on sys.path so tests can import support.py."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from contextlib import contextmanager
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import prerequisites  # noqa: E402 (tests/ is on sys.path only from here)

ZOO = Path(__file__).resolve().parent / "zoo"


# -- programs beyond Python packages -------------------------------------------------------


def pytest_report_header(config):
    return prerequisites.header_lines()


# -- a part of the suite -------------------------------------------------------------------


def pytest_addoption(parser):
    parser.addoption("--part", metavar="K/N", default=None,
                     help="Run part K of N of the collected tests (by a hash of each test's id, so the "
                          "same test falls in the same part on every Python); every module is still "
                          "imported. .ci/run shares the fast set between the other Pythons this way.")


def pytest_collection_modifyitems(config, items):
    part = config.getoption("--part")
    if part is None:
        return
    try:
        k, n = (int(number) for number in part.split("/"))
    except ValueError:
        raise pytest.UsageError(f"--part {part!r}: expected K/N, such as 1/2") from None
    if not 1 <= k <= n:
        raise pytest.UsageError(f"--part {part!r}: K must be from 1 to N")
    keep, other = [], []
    for item in items:
        (keep if zlib.crc32(item.nodeid.encode()) % n == k - 1 else other).append(item)
    config.hook.pytest_deselected(items=other)
    items[:] = keep


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's chromium, installed if missing and possible (else skipped)."""
    return prerequisites.require(prerequisites.CHROMIUM)


@pytest.fixture(scope="session")
def browser(chromium):
    """Debian's chromium, headless, driven by Playwright (which never
    downloads a browser of its own here)."""
    from playwright.sync_api import sync_playwright

    arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=chromium, args=arguments)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def node() -> str:
    """node, for the JavaScript bots, installed if missing and possible."""
    return prerequisites.require(prerequisites.NODE)


@pytest.fixture(scope="session")
def gpp() -> str:
    """g++, for the C++ bot helper, installed if missing and possible."""
    return prerequisites.require(prerequisites.GPP)


# -- the zoo of bad bots -----------------------------------------------------------------


@pytest.fixture(scope="session")
def zoo_dir():
    """The zoo of bad bots (tests/zoo), each made self-contained (a bot sees
    only its own file), in a folder of this session's own that any user can
    read: some tests run bots as another user, and the process table is
    searched for this folder's path."""
    from zoo._zoo import self_contained

    holder = Path(tempfile.mkdtemp(prefix="arena-zoo-"))
    folder = holder / "zoo"
    shutil.copytree(ZOO, folder, ignore=shutil.ignore_patterns("__pycache__", "zoo-*"))
    for bot in folder.glob("[!_]*.py"):
        bot.write_text(self_contained(bot))
    for path in (holder, folder, *folder.iterdir()):
        path.chmod(0o755 if path.is_dir() else 0o644)
    yield folder
    shutil.rmtree(holder, ignore_errors=True)


@pytest.fixture(scope="session")
def zoo_game():
    """The registered two-player game whose seats always have many decisions
    (the zoo misbehaves at a bot's second one): the game whose random
    playouts give the least-served seat the most decisions."""
    from arena.games import GAMES
    from arena.games.playout import random_playout

    def fewest_decisions(name: str) -> int:
        fewest = None
        for seed in range(10):
            _, events = random_playout(GAMES[name], 2, seed)
            per_seat = [0, 0]
            for event in events:
                if event["kind"] == "decision":
                    per_seat[event["seat"]] += 1
            fewest = min(per_seat) if fewest is None else min(fewest, *per_seat)
        return fewest

    names = sorted(name for name, game in GAMES.items() if game.min_players <= 2 <= game.max_players)
    best = max(names, key=fewest_decisions)
    assert fewest_decisions(best) >= 5, f"no registered game gives each seat several decisions: {names}"
    return best


# -- the process table ------------------------------------------------------------------------


class ProcessTable:
    """The machine's process table, read from /proc."""

    @staticmethod
    def mentioning(text: str, excluding: str | None = None) -> dict[int, str]:
        """Live processes whose command line contains ``text`` (and not
        ``excluding``); zombies have no command line and are not counted."""
        found = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    command = handle.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if text in command and not (excluding and excluding in command):
                found[int(entry)] = command
        return found

    @staticmethod
    def of_run(tmpdir: Path) -> dict[int, str]:
        """Live processes of a run given a TMPDIR of its own (support's
        arena_environment): those whose environment has it (arena, its
        workers and pools, Dask's spawned workers, the bots' wardens) and
        those whose command line names the folder it is in (bots in their
        boxes, whose environment is their own)."""
        mark = f"TMPDIR={tmpdir}".encode()
        found = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                environment = Path(f"/proc/{entry}/environ").read_bytes().split(b"\0")
            except OSError:
                continue
            if command and (str(tmpdir.parent) in command or mark in environment):
                found[int(entry)] = command
        return found

    def wait_until_run_gone(self, tmpdir: Path, timeout: float = 5.0) -> dict[int, str]:
        """What is left of the run with ``tmpdir`` (see of_run) after up to
        ``timeout`` seconds: an empty dict when everything is gone."""
        deadline = time.monotonic() + timeout
        while (left := self.of_run(tmpdir)) and time.monotonic() < deadline:
            time.sleep(0.02)
        return left

    def wait_until_none(self, text: str, timeout: float = 5.0) -> dict[int, str]:
        """What still mentions ``text`` after up to ``timeout`` seconds:
        an empty dict when everything is gone."""
        deadline = time.monotonic() + timeout
        while (left := self.mentioning(text)) and time.monotonic() < deadline:
            time.sleep(0.02)
        return left

    @contextmanager
    def sampling(self, text: str, excluding: str | None = None, every: float = 0.005):
        """Count, in a background thread, the processes mentioning ``text``;
        the yielded sample's ``peak`` is the most seen at once."""
        sample = _Sample()
        stop = threading.Event()

        def watch() -> None:
            while not stop.is_set():
                sample.peak = max(sample.peak, len(self.mentioning(text, excluding)))
                stop.wait(every)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            yield sample
        finally:
            stop.set()
            watcher.join()


class _Sample:
    peak = 0


@pytest.fixture
def process_table() -> ProcessTable:
    return ProcessTable()


# One per pytest-xdist worker: workers run at once, and each removes its user
# and kills everything that user runs.
USER = f"arena-box-test-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"


@pytest.fixture
def ordinary_user(tmp_path):
    """An ordinary user made for the test, with a private home (mode 700)
    holding a venv of the system's Python that reuses this environment's
    packages and this checkout (read-only, through a .pth file); removed
    afterwards with everything it ran."""
    system_python = Path("/usr/bin/python3")
    if os.geteuid() != 0:
        pytest.skip("making an ordinary user needs root")
    version = subprocess.run([str(system_python), "-c", "import sys; print(sys.version_info[:2])"],
                             capture_output=True, text=True).stdout.strip() if system_python.exists() else ""
    if version != str(sys.version_info[:2]):
        pytest.skip(f"needs /usr/bin/python3 at this Python's version {sys.version_info[:2]} (found {version!r})")
    subprocess.run(["userdel", "-r", USER], capture_output=True)
    home = Path(tempfile.mkdtemp(prefix="arena-home-"))
    subprocess.run(["useradd", "--home-dir", str(home), "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
                   check=True, capture_output=True)
    account = pwd.getpwnam(USER)
    try:
        os.chown(home, account.pw_uid, account.pw_gid)
        home.chmod(0o700)
        venv = home / "venv"
        subprocess.run([str(system_python), "-m", "venv", "--without-pip", str(venv)], check=True,
                       user=account.pw_uid, group=account.pw_gid, extra_groups=[], cwd=home)
        site = next(venv.glob("lib/python3*/site-packages"))
        ours = next(Path(sys.prefix).glob("lib/python3*/site-packages"))
        (site / "arena-test.pth").write_text(f"{Path(__file__).resolve().parent.parent}\n{ours}\n")
        yield account, home, venv / "bin" / "python"
    finally:
        subprocess.run(["pkill", "--signal", "KILL", "--uid", str(account.pw_uid)], capture_output=True)
        subprocess.run(["userdel", USER], capture_output=True)
        shutil.rmtree(home, ignore_errors=True)
