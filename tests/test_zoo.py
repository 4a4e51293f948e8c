"""The zoo of bad bots (tests/zoo/, each a real program) against the real
referee: every misdeed ends the game by forfeit with the right reason, the
opponent is credited, the next game starts a clean process, no process of
the bot survives, the referee's memory stays bounded, and a tournament full
of them finishes."""

from __future__ import annotations

import dataclasses
import fcntl
import importlib.metadata
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

import pyseccomp
import pytest
from support import RANDOM_BOT, REPO, arena
from test_attacks import ATTACKERS

from arena.bots import isolation, warden
from arena.bots.discovery import discover
from arena.bots.process import BotProcess
from arena.bots.protocol import handshake
from arena.model import FORFEITS, BotSpec, DiceKey, Limits, Termination
from arena.play.match import play_match
from arena.play.plan import Entrant, plan_round_robin

# Alone, after the parallel tests: it counts the cgroups no warden holds, which a kill in
# another test's run would add to.
pytestmark = pytest.mark.serial

# Short timeouts and small limits keep the zoo fast.
FAST = Limits(startup_timeout=1.0, move_timeout=0.3, cpu_seconds=5, address_space_bytes=1 << 30,
              processes=16, file_size_bytes=4 << 20, stderr_bytes=64 << 10)
# A bot whose misdeed is not silence gets more time, so that a busy machine
# cannot turn its forfeit into a timeout; it costs nothing, the game ends first.
PATIENT = 3.0


@dataclass(frozen=True)
class Case:
    bot: str
    termination: Termination
    detail: str
    decisions: int = 1  # decisions the bot makes, in each game, before its misdeed
    overrides: dict = field(default_factory=dict)  # limits other than FAST's
    log: str | None = None  # what its stderr log must show
    peak: tuple[int, int] | None = None  # fewest and most of its processes seen at once
    name: str | None = None

    @property
    def id(self) -> str:
        return self.name or self.bot

    def limits(self, **changes) -> Limits:
        patient = {} if self.termination is Termination.TIMEOUT else {"move_timeout": PATIENT}
        return dataclasses.replace(FAST, **{**patient, **self.overrides, **changes})


CASES = [
    Case("hang_at_start", Termination.TIMEOUT, "no answer within 1 s", decisions=0),
    Case("exit_at_start", Termination.CRASH, "exited with code 3", decisions=0),
    Case("hang_mid_game", Termination.TIMEOUT, "no answer within"),
    Case("late_answer", Termination.TIMEOUT, "no answer within"),
    Case("crash_mid_game", Termination.CRASH, "closed its output: exited with code 1", log="RuntimeError"),
    # In its box, bwrap holds the bot's pipes too: a bot that closes its
    # output and lives on is caught by its clock, not by end of file.
    Case("close_stdout", Termination.TIMEOUT, "no answer within"),
    Case("not_json", Termination.BAD_OUTPUT, "expected a JSON object, got \"I'll take the second"),
    Case("wrong_shape", Termination.BAD_OUTPUT, 'expected {"type": "action", "action": ...}, got keys'),
    Case("not_offered", Termination.ILLEGAL, 'action not offered: {"made":"up"'),
    Case("huge_line", Termination.BAD_OUTPUT, "line exceeds the cap of 1048576 bytes"),
    Case("stderr_flood", Termination.TIMEOUT, "no answer within"),
    Case("orphans", Termination.CRASH, "closed its output: exited with code 0", peak=(3, 4)),
    Case("memory_hog", Termination.CRASH, "closed its output: exited with code 1", log="MemoryError",
         overrides={"address_space_bytes": 256 << 20, "move_timeout": 10.0}),
    Case("busy_loop", Termination.TIMEOUT, "no answer within"),
    Case("busy_loop", Termination.CRASH, "killed by SIGXCPU", overrides={"cpu_seconds": 1, "move_timeout": 10.0},
         name="busy_loop-cpu-limit"),
    Case("fork_bomb", Termination.TIMEOUT, "no answer within", peak=(3, FAST.processes)),
    Case("file_writer", Termination.CRASH, "closed its output: exited with code 1", log="File too large"),
]


def zoo_pair(zoo_dir: Path, bot: str, game: str, command: tuple[str, ...] | None = None):
    """Specs and the two seat-swapped jobs of the zoo bot against the random bot."""
    zoo_spec = next(spec for spec in discover([zoo_dir]) if spec.name == bot)
    opponent = next(spec for spec in discover([RANDOM_BOT.parent]) if spec.name == "random_bot")
    if command:
        zoo_spec = dataclasses.replace(zoo_spec, command=(command[0], str(zoo_dir / f"{bot}.py")))
        opponent = dataclasses.replace(opponent, command=(command[0], str(RANDOM_BOT)))
    entrants = [Entrant(zoo_spec, frozenset([game])), Entrant(opponent, frozenset([game]))]
    jobs = plan_round_robin(entrants, [game], 1, DiceKey.from_seed(8))
    return {zoo_spec.bot_id: zoo_spec, opponent.bot_id: opponent}, jobs, zoo_spec


def leftover_workdirs(bot: str) -> list[Path]:
    return list(Path(tempfile.gettempdir()).glob(f"arena-bot-{bot}-*"))


def leftover_cgroups() -> list[Path]:
    """Bot cgroups that no warden holds (others' runs may hold theirs; a
    test compares what it finds with what was there when it began, since a
    worker killed by an earlier test leaves its bots' cgroups for the next
    tournament's sweep)."""
    place = isolation.cgroup_place()
    found = []
    for base in set(place.bases.values()) if place else ():
        for path in base.glob(f"{warden.CGROUP_PREFIX}*"):
            handle = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                found.append(path)
            except OSError:
                pass
            finally:
                os.close(handle)
    return found


@pytest.fixture
def markers():
    """Marker files the file writer leaves where it could write; removed after."""
    found: list[Path] = []
    yield found
    for path in found:
        path.unlink(missing_ok=True)


def test_the_zoo_is_complete(zoo_dir):
    bots = {spec.name for spec in discover([zoo_dir])}
    # The attackers and the honest bot that needs CPU are played in
    # test_attacks.py, the bot that makes every denied system call in
    # test_seccomp.py.
    assert bots == {case.bot for case in CASES} | set(ATTACKERS) | {"needy", "syscalls"}
    assert all(spec.command[0] == sys.executable for spec in discover([zoo_dir]))


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_every_misdeed_is_a_forfeit_and_leaves_nothing_behind(case, zoo_dir, zoo_game, process_table,
                                                            tmp_path, markers):
    limits = case.limits()
    specs, jobs, spec = zoo_pair(zoo_dir, case.bot, zoo_game)
    program = str(zoo_dir / f"{case.bot}.py")
    abandoned_before = set(leftover_cgroups())
    with process_table.sampling(program, excluding="--unshare-all") as sample:
        records = list(play_match(jobs, specs, limits, tmp_path / "logs"))

    assert len(records) == 2
    for record in records:
        seat = record.job.seats.index(spec.bot_id)
        assert (record.termination, record.forfeit_seat) == (case.termination, seat), record.detail
        assert record.winners == (1 - seat,), "the opponent is credited"
        assert case.detail in record.detail
        # The misdeed came at the same point of both games: the second game
        # had a fresh process, not the first one's (whose count had moved on).
        made = [e for e in record.events if e["kind"] == "decision" and e["seat"] == seat]
        assert len(made) == case.decisions

    # A log per game: each holds its own process's stderr, under its own cap.
    log_paths = [Path(record.logs[record.job.seats.index(spec.bot_id)]) for record in records]
    logs = [path.read_text(errors="replace") for path in log_paths]
    log = "".join(logs)
    if case.bot == "stderr_flood":
        for path, text in zip(log_paths, logs):
            assert path.stat().st_size <= limits.stderr_bytes + 60, "one cap per bot and game"
            assert len(re.findall(r"\[arena: \d+ more bytes of stderr dropped\]", text)) == 1
    else:
        # (Each run of a bot draws a token: in its box, its pid is always 2.)
        runs = [re.findall(rf"zoo {case.bot} pid \d+ run (\w+) started", text) for text in logs]
        assert all(len(found) == 1 for found in runs) and runs[0] != runs[1], runs
    if case.log:
        assert case.log in log
    if case.peak:
        low, high = case.peak
        assert low <= sample.peak <= high, f"{sample.peak} processes at once"
    if case.bot == "file_writer":
        markers.extend(Path(line.split(" ", 1)[1]) for line in log.splitlines() if line.startswith("wrote "))

    assert process_table.wait_until_none(program) == {}, "no process of the bot survives"
    assert leftover_workdirs(case.bot) == []
    assert set(leftover_cgroups()) - abandoned_before == set()


# -- the box -------------------------------------------------------------------------------

ORDINARY_USER = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from arena.bots.discovery import content_hash
from arena.model import BotSpec, Job, Limits
from arena.play.match import play_match

zoo_bot, random_bot, game = sys.argv[2], sys.argv[3], sys.argv[4]
processes, timeout = int(sys.argv[5]), float(sys.argv[6])
specs = {"bad": BotSpec("bad", (sys.executable, zoo_bot), zoo_bot, content_hash(Path(zoo_bot))),
         "good": BotSpec("good", (sys.executable, random_bot), random_bot, content_hash(Path(random_bot)))}
limits = Limits(startup_timeout=5, move_timeout=timeout, processes=processes)
jobs = [Job("k0", game, ("bad", "good"), 3), Job("k1", game, ("good", "bad"), 3, order=1)]
records = list(play_match(jobs, specs, limits, None))
print(json.dumps({"games": [[r.termination.value, r.forfeit_seat, r.detail] for r in records]}))
"""


def kill_user(uid: int) -> None:
    """End every process of the test's own ordinary user."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _uid(entry) == uid:
            try:
                os.kill(int(entry.name), signal.SIGKILL)
            except OSError:
                pass


def _uid(process: Path) -> int:
    try:
        return int(next(line for line in (process / "status").read_text().splitlines()
                        if line.startswith("Uid:")).split()[1])
    except (OSError, StopIteration):
        return -1


@pytest.mark.skipif(os.geteuid() != 0, reason="becomes an ordinary user, which needs root")
@pytest.mark.skipif(not Path("/usr/bin/python3").exists(), reason="needs a Python any user can run")
@pytest.mark.parametrize("bot", ["orphans", "fork_bomb"])
def test_as_an_ordinary_user_the_box_and_the_warden_hold(bot, zoo_dir, zoo_game, process_table):
    """What a machine where arena does not run as root gets: no cgroup, so
    RLIMIT_NPROC bounds the fork bomb, and the box's PID namespace and the
    warden catch detached children."""
    uid = 54321
    script = zoo_dir.parent / "ordinary.py"  # a folder any user can read
    script.write_text(ORDINARY_USER)
    script.chmod(0o644)
    # arena as installed for that user: its metadata beside the script (on
    # the script's sys.path), where the registry finds the "arena.games"
    # entry points
    installed = importlib.metadata.distribution("dice-arena")
    metadata = zoo_dir.parent / f"dice_arena-{installed.version}.dist-info"
    metadata.mkdir(exist_ok=True)
    for name in ("METADATA", "entry_points.txt"):
        (metadata / name).write_text(installed.read_text(name) or "")
        (metadata / name).chmod(0o644)
    # and the one dependency the box needs from outside the standard
    # library: the system-call filter's binding (a single module)
    binding = zoo_dir.parent / "pyseccomp.py"
    shutil.copy(pyseccomp.__file__, binding)
    binding.chmod(0o644)
    program = str(zoo_dir / f"{bot}.py")
    try:
        with process_table.sampling(program, excluding="--unshare-all") as sample:
            timeout = "3" if bot == "orphans" else "0.5"
            run = subprocess.run(["/usr/bin/python3", str(script), str(REPO), program, str(RANDOM_BOT), zoo_game, "12",
                                  timeout],
                                 user=uid, group=uid, extra_groups=[], capture_output=True, text=True,
                                 timeout=120, env={"PATH": os.environ["PATH"]}, cwd="/")
        if "bubblewrap cannot make a box here" in run.stderr:
            pytest.skip(run.stderr.strip().splitlines()[-1])
        assert run.returncode == 0, run.stderr
        assert "warning: no usable cgroup here, so not enforced per bot: the one-core CPU quota" in run.stderr
        result = json.loads(run.stdout)
        expected = "crash" if bot == "orphans" else "timeout"
        assert [game[:2] for game in result["games"]] == [[expected, 0], [expected, 1]]
        # The user's own tasks at start (this script, its threads, the
        # opponent and the wardens) plus the limit of 12.
        assert 2 <= sample.peak <= 12 + 8
        assert process_table.wait_until_none(program) == {}
    finally:
        kill_user(uid)


PROBE = """
import json, os, signal, socket, sys
program, secret, referee, port = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
report = {}
def connect():
    socket.create_connection(("127.0.0.1", port), timeout=2).close()
def sysctl():  # writes back the value it holds
    with open("/proc/sys/kernel/printk_ratelimit", "r+") as handle:
        handle.write(handle.read())
for name, action in (("write_beside_program", lambda: open(program + ".intruder", "w").close()),
                     ("read_private_file", lambda: open(secret).read()),
                     ("signal_the_referee", lambda: os.kill(referee, 0)),
                     ("connect_to_localhost", connect),
                     ("write_a_sysctl", sysctl),
                     ("write_working_folder", lambda: open("mine.txt", "w").close()),
                     ("write_tmp", lambda: open("/tmp/mine.txt", "w").close())):
    try:
        action()
        report[name] = "yes"
    except OSError as exc:
        report[name] = exc.strerror or str(exc)
report["processes"] = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
report["cwd"] = os.getcwd()
sys.stdin.readline()
print(json.dumps({"type": "hello", "name": json.dumps(report), "games": ["slyyde"]}), flush=True)
sys.stdin.read()
"""


def _probe(tmp_path: Path, limits: Limits) -> dict:
    secret = tmp_path / "arena.db"
    secret.write_text("the results")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        script = tmp_path / "bots" / "probe.py"
        script.parent.mkdir(exist_ok=True)
        script.write_text(PROBE)
        command = (sys.executable, str(script), str(script), str(secret), str(os.getpid()),
                   str(server.getsockname()[1]))
        process = BotProcess(BotSpec("probe", command, str(script), "p" * 64), limits)
        try:
            return json.loads(handshake(process, 10)["name"])
        finally:
            process.close()


def test_a_bot_in_its_box_reaches_nothing_of_ours(tmp_path):
    unboxed = _probe(tmp_path, Limits(isolation="none"))
    assert unboxed["write_beside_program"] == unboxed["read_private_file"] == "yes"  # the probe itself works
    assert unboxed["signal_the_referee"] == unboxed["connect_to_localhost"] == "yes"
    if os.geteuid() == 0:
        assert unboxed["write_a_sysctl"] == "yes"
    for path in tmp_path.glob("bots/*.intruder"):
        path.unlink()
    boxed = _probe(tmp_path, Limits())
    # (Its folder, under /tmp, is made in the box's own /tmp: it writes
    # there, into a tmpfs that vanishes with the box, never outside.)
    assert boxed["read_private_file"] == "No such file or directory"
    assert boxed["signal_the_referee"] == "No such process"
    assert boxed["connect_to_localhost"] in ("Network is unreachable", "Connection refused")
    assert boxed["write_a_sysctl"] == "Read-only file system"
    assert boxed["write_working_folder"] == boxed["write_tmp"] == "yes"
    # Its own PID namespace: bwrap's init (1) and the bot, nothing else.
    assert boxed["processes"] == [1, 2] and boxed["cwd"] == isolation.WORKDIR
    assert not list(tmp_path.glob("bots/*.intruder"))


# -- the referee's memory ----------------------------------------------------------------------

MEASURE = r"""
import json, re, sys
from pathlib import Path
from arena.bots.discovery import content_hash
from arena.model import BotSpec, Limits
from arena.play.match import play_match
from arena.model import Job

program, random_bot, game, move_timeout, logs = sys.argv[1:6]
specs = {"bad": BotSpec("bad", (sys.executable, program), program, content_hash(Path(program))),
         "good": BotSpec("good", (sys.executable, random_bot), random_bot, content_hash(Path(random_bot)))}
limits = Limits(move_timeout=float(move_timeout), stderr_bytes=64 << 10)
records = list(play_match([Job("k", game, ("bad", "good"), 5)], specs, limits, Path(logs)))
peak = int(re.search(r"VmHWM:\s+(\d+) kB", Path("/proc/self/status").read_text()).group(1))
print(json.dumps({"termination": records[0].termination.value, "log": records[0].logs[0], "peak_kib": peak}))
"""


def _referee_peak(tmp_path: Path, program: Path, game: str, move_timeout: float) -> dict:
    logs = tmp_path / program.stem
    run = subprocess.run([sys.executable, "-c", MEASURE, str(program), str(RANDOM_BOT), game, str(move_timeout),
                          str(logs)], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_the_referee_memory_stays_flat_under_a_huge_line_and_a_stderr_flood(zoo_dir, zoo_game, tmp_path):
    baseline = _referee_peak(tmp_path, zoo_dir / "not_json.py", zoo_game, 1.0)
    line = _referee_peak(tmp_path, zoo_dir / "huge_line.py", zoo_game, 5.0)
    flood = _referee_peak(tmp_path, zoo_dir / "stderr_flood.py", zoo_game, 2.5)
    endings = (baseline["termination"], line["termination"], flood["termination"])
    assert endings == ("bad_output", "bad_output", "timeout")
    # A 100 MB line and hundreds of megabytes of stderr (about a gigabyte
    # in 2.5 s here, less on a busy machine) went by; the referee grew by
    # no more than a few megabytes (one line cap and some reads).
    for hostile in (line, flood):
        assert hostile["peak_kib"] - baseline["peak_kib"] < 16 * 1024, (baseline, hostile)
    log = Path(flood["log"]).read_bytes()
    assert len(log) <= (64 << 10) + 100, "the log is capped"
    dropped = int(re.search(rb"\[arena: (\d+) more bytes of stderr dropped\]", log).group(1))
    assert dropped >= 16 * (16 << 20), f"only {dropped} bytes flooded: too few to show the referee stays flat"


# -- a tournament full of them -------------------------------------------------------------


# -- the command line -----------------------------------------------------------------------


def test_the_limit_options_reach_the_bot_processes(zoo_dir, zoo_game, tmp_path):
    others = tmp_path / "others"
    others.mkdir()
    shutil.copy(RANDOM_BOT, others / "honest.py")

    def match(bot: str, *options: str) -> list[str]:
        result = arena("match", bot, "honest", "--game", zoo_game, "--bots", str(zoo_dir), "--bots", str(others),
                       *options, cwd=tmp_path, check=True)
        return [line for line in result.stdout.splitlines() if " vs " in line]

    games = match("busy_loop", "--cpu-time", "1", "--move-timeout", "10")
    assert len(games) == 2 and all("honest wins (" in g and g.endswith("[crash (closed its output: killed by SIGXCPU)]")
                                   for g in games)
    games = match("huge_line", "--line-cap", "64K")
    assert len(games) == 2 and all("[bad_output (line exceeds the cap of 65536 bytes)]" in g for g in games)
    games = match("memory_hog", "--address-space", "128M", "--move-timeout", "10")
    assert len(games) == 2 and all("[crash (closed its output: exited with code 1)]" in g for g in games)


@pytest.mark.parametrize("option, value", [("--address-space", "12Q"), ("--processes", "0"),
                                           ("--stderr-cap", "-1"), ("--isolation", "vm"), ("--memory", "1X")])
def test_a_bad_limit_is_refused_before_anything_starts(option, value, tmp_path):
    result = arena("bots", option, value, cwd=tmp_path)
    assert result.returncode == 2
    assert f"Error: Invalid value for '{option}'" in result.stderr and "Traceback" not in result.stderr


# The bots that could hurt a tournament rather than just lose: unusable at
# the handshake, detached children, a fork bomb, a huge line, a flood, a
# memory hog, an output closed by a live process, and CPU burnt for ever.
TOURNAMENT_ZOO = ["hang_at_start", "exit_at_start", "orphans", "fork_bomb", "huge_line", "stderr_flood",
                  "memory_hog", "close_stdout", "busy_loop", "not_offered"]


@pytest.mark.slow
def test_a_tournament_full_of_bad_bots_finishes(zoo_dir, zoo_game, process_table, tmp_path):
    bots = tmp_path / "bots"
    bots.mkdir()
    for name in [*TOURNAMENT_ZOO, "_zoo"]:
        shutil.copy(zoo_dir / f"{name}.py", bots)
    shutil.copy(RANDOM_BOT, bots / "honest.py")
    run = arena("tournament", "--bots", str(bots), "--games", zoo_game, "--rounds", "1", "--jobs", "2",
                "--move-timeout", "0.3", "--startup-timeout", "1", "--cpu-time", "5", "--address-space", "1G",
                "--processes", "16", "--file-size", "4M", "--stderr-cap", "64K", cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr
    unusable = {"hang_at_start", "exit_at_start"}
    for name in unusable:
        assert f"skipping {name}: handshake failed: " in run.stderr
    players = set(TOURNAMENT_ZOO) - unusable | {"honest"}
    planned = len(players) * (len(players) - 1)
    assert f"{planned} games planned, 0 already stored, {planned} to play" in run.stderr
    with closing(sqlite3.connect(tmp_path / "arena.db")) as db:
        rows = db.execute("SELECT key, seats, termination, forfeit_seat, winners FROM games").fetchall()
    assert len(rows) == len({row[0] for row in rows}) == planned
    forfeits = {t.value for t in FORFEITS}
    # At a 0.3 s timeout, a bot that exits or crashes after its misdeed
    # may be a little late on a busy machine; these never are.
    expected = {"huge_line": "bad_output", "not_offered": "illegal", "busy_loop": "timeout",
                "fork_bomb": "timeout", "stderr_flood": "timeout"}
    for _, seats, termination, forfeit_seat, winners in rows:
        names = [seat.split("@")[0] for seat in json.loads(seats)]
        assert termination in forfeits  # every game has a bad bot in it
        assert json.loads(winners) == [1 - forfeit_seat]
        if "honest" in names:
            loser = names[forfeit_seat]
            assert loser != "honest"
            if loser in expected:
                assert termination == expected[loser], (loser, termination)
    rows = json.loads(arena("standings", "--format", "json", cwd=tmp_path, check=True).stdout)
    honest = next(row for row in rows if row["bot"] == "honest" and row["game"] == zoo_game)
    assert honest["wins"] == honest["games"] == 2 * (len(players) - 1) and honest["forfeits"] == 0
    assert process_table.wait_until_none(str(bots)) == {}
    assert not [p for p in Path(tempfile.gettempdir()).glob("arena-bot-*") if p.name.split("-")[2] in players]
