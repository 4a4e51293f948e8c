"""The box's clock and freezer, against real bot processes: a bot's clock runs
only while it can run, and not while it waits for a CPU that others hold (up
to twice its move time), a referee that stalls costs no bot its game, a bot
gets no CPU between its decisions unless it may ponder, and all of a bot's
processes together are held to its memory cap."""

from __future__ import annotations

import dataclasses
import os
import re
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from support import RANDOM_BOT, arena, python_bot

from arena.bots import isolation
from arena.bots.discovery import discover
from arena.bots.process import BotProcess
from arena.bots.protocol import BotSeat, handshake, pause_bots
from arena.errors import BotTimeout, IllegalAnswer
from arena.model import Job, Limits, Termination
from arena.play.referee import play_game

# Alone, after the parallel tests: turn clocks and waits for a CPU, timed on a machine
# no other test loads.
pytestmark = pytest.mark.serial


def _random_seats(limits: Limits) -> list[BotSeat]:
    [spec] = [spec for spec in discover([RANDOM_BOT.parent]) if spec.name == "random_bot"]
    return [BotSeat(spec, limits), BotSeat(dataclasses.replace(spec, name="other"), limits)]


@pytest.mark.parametrize("ponder", [False, True])
def test_a_referee_stall_after_sending_is_never_a_forfeit(ponder, monkeypatch):
    """The referee stalls a quarter of a second after each decide, longer
    than the whole move time: a bot that was running (pondering, or
    deciding again) has its answer waiting in the pipe, and it is taken; a
    frozen bot's clock starts at its thaw, after the stall."""
    send_line = BotProcess.send_line
    stalls = []

    def stalling(self, data: bytes, timeout: float) -> None:
        send_line(self, data, timeout)
        if data.startswith(b'{"type":"decide"') and len(stalls) < 12:  # a dozen is enough, and quick
            stalls.append(time.sleep(0.25))

    monkeypatch.setattr(BotProcess, "send_line", stalling)
    seats = _random_seats(Limits(move_timeout=0.2, ponder=ponder))
    try:
        record = play_game(Job("stall", "detour", ("a", "b"), 3), list(seats), 0.2)
    finally:
        for seat in seats:
            seat.close()
    assert record.termination is Termination.NORMAL, record.detail
    assert len(stalls) == 12


PONDERER = """
import json, sys, threading, time

def spin():
    while True:
        pass

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        threading.Thread(target=spin, daemon=True).start()
        print(json.dumps({"type": "hello", "name": "ponderer", "games": ["detour"]}), flush=True)
    elif message["type"] == "decide":
        print(f"cpu {time.process_time():.3f}", file=sys.stderr, flush=True)
        print(json.dumps({"type": "action", "action": message["actions"][0]}), flush=True)
    elif message["type"] == "bye":
        break
"""


@pytest.mark.parametrize("ponder", [False, True])
def test_a_bot_gets_no_cpu_between_its_decisions_unless_it_may_ponder(ponder, tmp_path):
    """A bot that spins a thread from its hello on: frozen after its hello,
    it has burnt next to no CPU when its first decision comes a second
    later; allowed to ponder, it has burnt most of that second."""
    python_bot(tmp_path / "bots", "ponderer", PONDERER)
    [spec] = discover([tmp_path / "bots"])
    seat = BotSeat(spec, Limits(ponder=ponder), tmp_path / "ponderer.log")
    [other] = _random_seats(Limits())[:1]
    try:
        seat.start()
        time.sleep(1.0)
        record = play_game(Job("ponder", "detour", (spec.bot_id, "random"), 5), [seat, other], 1.0)
    finally:
        seat.close()
        other.close()
    assert record.termination is Termination.NORMAL, record.detail
    first = float(re.search(r"cpu (\S+)", (tmp_path / "ponderer.log").read_text()).group(1))
    if ponder:
        assert first > 0.5
    else:
        assert first < 0.3  # the start-up, the hello and nothing more


class Person:
    """A person at the terminal, as arena play has one: slow to choose, and
    gone after three choices."""

    updates = False

    def __init__(self) -> None:
        self.choices = 0

    def start_game(self, job: Job, seat: int, state) -> None:
        pass

    def decide(self, state, actions, timeout: float) -> int:
        pause_bots()
        self.choices += 1
        if self.choices > 3:
            raise IllegalAnswer("the person left")
        time.sleep(0.4)
        return 0

    def observe(self, event, state) -> None:
        pass

    def end_game(self, state, result) -> None:
        pass


def test_a_bot_gets_no_cpu_while_a_person_chooses(tmp_path):
    python_bot(tmp_path / "bots", "ponderer", PONDERER)
    [spec] = discover([tmp_path / "bots"])
    seat = BotSeat(spec, Limits(), tmp_path / "ponderer.log")
    try:
        record = play_game(Job("person", "detour", ("person", spec.bot_id), 5), [Person(), seat], 5.0)
    finally:
        seat.close()
    assert record.forfeit_seat == 0
    times = [float(value) for value in re.findall(r"cpu (\S+)", (tmp_path / "ponderer.log").read_text())]
    assert len(times) >= 3
    # Between two of its decisions a person took 0.4 s: the bot, spinning a
    # thread, got no CPU of it.
    assert all(later - earlier < 0.2 for earlier, later in zip(times, times[1:])), times


MEMORY_FORKER = """
import json, os, sys, time

def hog():
    chunk = bytearray(96 << 20)
    chunk[::4096] = b"\\x01" * (len(chunk) // 4096)
    time.sleep(60)

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "forker", "games": ["detour"]}), flush=True)
    elif message["type"] == "decide":
        for _ in range(6):  # each child well under its address-space limit
            if os.fork() == 0:
                hog()
                os._exit(0)
        time.sleep(30)
"""


def test_all_of_a_bots_processes_together_are_held_to_its_memory_cap(tmp_path):
    """Six children of 96 MiB each, against a cap of 256 MiB for them all:
    the bot forfeits, saying which cap it went over."""
    python_bot(tmp_path / "bots", "forker", MEMORY_FORKER)
    [spec] = discover([tmp_path / "bots"])
    limits = Limits(memory_bytes=256 << 20, address_space_bytes=1 << 30, move_timeout=20)
    seat = BotSeat(spec, limits)
    [other] = _random_seats(limits)[:1]
    try:
        started = time.monotonic()
        record = play_game(Job("memory", "detour", (spec.bot_id, "random"), 5), [seat, other], 20)
    finally:
        seat.close()
        other.close()
    assert record.termination is Termination.CRASH
    assert record.detail.endswith("memory limit of 256M exceeded"), record.detail
    assert time.monotonic() - started < 15


def test_the_folder_of_the_bots_cgroups_weighs_one_process_per_core():
    """It competes for the CPU as one entity beside every process outside
    it: at the default weight all the bots together would get one
    process's share of a busy machine."""
    import os

    place = isolation.cgroup_place()
    if place is None or "cpu" not in place.bases:
        pytest.skip("no cpu cgroup controller arena can use here")
    base, cores = place.bases["cpu"], os.cpu_count() or 1
    if place.version == 1:
        assert (base / "cpu.shares").read_text().strip() == str(1024 * cores)
    else:
        assert (base / "cpu.weight").read_text().strip() == str(min(10_000, 100 * cores))


def test_a_frozen_bot_is_thawed_to_read_a_full_pipe_and_frozen_again():
    """A frozen bot whose input pipe is full is thawed until it has read
    what it is sent, and frozen again."""
    [spec] = [spec for spec in discover([RANDOM_BOT.parent]) if spec.name == "random_bot"]
    process = BotProcess(spec, Limits())
    try:
        handshake(process, 10)
        process.freeze()
        process.send_line(b'{"type":"update","event":{"kind":"x","pad":"' + b"p" * (1 << 20) + b'"}}\n', 5)
        assert process.frozen
    finally:
        process.close()


@pytest.fixture
def no_cgroups(monkeypatch):
    """Bots without cgroups, as an ordinary user's (usually): no one-core
    quota, and no cgroup of its own for the kernel to share a core between
    fairly (as root, a hog's forty children share one bot's part)."""
    monkeypatch.setattr(isolation, "cgroup_place", lambda: None)


@contextmanager
def _on_one_core():
    """Processes started in here (bots, their wardens and boxes) inherit
    one core of this process's, so that they contend for it however many
    cores the machine has; this process gets its cores back after."""
    cores = os.sched_getaffinity(0)
    if len(cores) < 2:
        pytest.skip("needs two cores: one for the bots to contend for, one for the referee")
    os.sched_setaffinity(0, {min(cores)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, cores)


def _decide(process: BotProcess, timeout: float) -> tuple[dict | None, float, str]:
    """A decision, as BotSeat.decide asks it: the answer (None if the bot
    ran out of time), the seconds from the bot's thaw to the verdict, and
    why it ran out of time."""
    sent = time.monotonic()
    process.send({"type": "decide", "state": {}, "actions": [{"move": "only"}], "timeout_ms": int(timeout * 1000)},
                 timeout)
    process.thaw()
    started = max(sent, process.thawed_at)
    try:
        answer, why = process.receive_answer(started, timeout), ""
    except BotTimeout as exc:
        answer, why = None, str(exc)
    return answer, time.monotonic() - started, why


@pytest.mark.parametrize("hog_turn", [1.2, 3.0])
def test_the_time_a_bot_waits_for_a_cpu_held_by_another_game_is_not_charged(zoo_dir, no_cgroups, hog_turn):
    """needy needs 0.1 s of CPU per decision, out of 1 s. While it decides,
    cpu_hog has its turn in another game, on the same core, with its forty
    children spinning, for ``hog_turn`` seconds, and no cgroup holds them to
    a share: needy gets a sliver of the core until the hog's turn ends (it is
    frozen), then what it needs. Its
    clock does not count the time it waited: it answers, after more than
    its second on the wall clock; but no decision takes more than twice
    the move time on the wall clock, so against a turn of 3 s it loses."""
    specs = {spec.name: spec for spec in discover([zoo_dir])}
    limits = Limits(move_timeout=1.0)
    with _on_one_core():
        hog, needy = BotProcess(specs["cpu_hog"], limits), BotProcess(specs["needy"], limits)
    turn_over = threading.Timer(hog_turn, hog.freeze)
    try:
        for process in (hog, needy):
            handshake(process, 10)
            process.freeze()
        for _ in range(2):  # its forty children spin from its second decision on
            assert _decide(hog, 5.0)[0] is not None
        hog.thaw()  # its turn in the other game
        turn_over.start()
        answer, took, why = _decide(needy, 1.0)
    finally:
        turn_over.cancel()
        if turn_over.ident is not None:  # a failure before its start leaves none to join
            turn_over.join()
        hog.close()
        needy.close()
    if hog_turn < 2.0:
        assert answer == {"type": "action", "action": {"move": "only"}}, why
        assert took > 1.2, took
    else:
        assert answer is None and 2.0 <= took < 2.5, (answer, took)
        assert re.fullmatch(r"no answer within 1 s \(2\.\d\d s on the wall clock, 1\.\d\d s of it waiting for a CPU\)",
                            why), why


SPINS_WITH_CHILDREN = """
import json, os, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "spinner", "games": ["detour"]}), flush=True)
    elif message["type"] == "decide":
        for _ in range(20):
            if os.fork() == 0:
                break
        while True:
            pass
"""


@contextmanager
def _ahead_of_ordinary_processes():
    """Processes started in here run round-robin ahead of every ordinary
    process (SCHED_RR, which they inherit), so that others' work on the
    machine takes nothing from them; this process is ordinary again after."""
    if os.geteuid() != 0:
        pytest.skip("a real-time scheduling policy needs root")
    os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(1))
    try:
        yield
    finally:
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))


def test_a_bot_buys_no_time_with_processes_of_its_own(tmp_path, no_cgroups):
    """A bot that starts twenty children and spins with them on its core
    (ahead of everything else there) waits for that core most of the time,
    each of its processes; but it keeps the core busy itself, so it was not
    starved, and it runs out of time at its move time, not at twice that as
    its processes' waiting alone would have it."""
    python_bot(tmp_path / "bots", "spinner", SPINS_WITH_CHILDREN)
    [spec] = discover([tmp_path / "bots"])
    with _on_one_core(), _ahead_of_ordinary_processes():
        process = BotProcess(spec, Limits(move_timeout=0.5))
    try:
        handshake(process, 10)
        process.freeze()
        answer, took, why = _decide(process, 0.5)
    finally:
        process.close()
    assert answer is None and took < 0.65, (took, why)


def test_without_bubblewrap_the_error_names_the_cause_and_the_way_out(monkeypatch):
    monkeypatch.setenv("PATH", str(Path("/nonexistent")))
    isolation.bwrap_path.cache_clear()
    isolation.box_problem.cache_clear()
    try:
        problem = isolation.box_problem()
    finally:
        isolation.bwrap_path.cache_clear()
        isolation.box_problem.cache_clear()
    assert problem == ("bubblewrap (bwrap) is not installed, and every bot runs in its box: install it "
                       "(apt-get install bubblewrap), or run without boxes with --isolation none (unsafe)")


def test_running_without_a_box_says_so_loudly(tmp_path):
    run = arena("bots", "--bots", str(RANDOM_BOT.parent), "--isolation", "none", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert isolation.NO_BOX_WARNING in run.stderr.splitlines()
    assert "warning: --isolation none" not in arena("bots", "--bots", str(RANDOM_BOT.parent), cwd=tmp_path).stderr
