"""The box's clock and freezer, against real bot processes: a bot's clock runs
only while it can run, a referee that stalls costs no bot its game, a bot
gets no CPU between its decisions unless it may ponder, and all of a bot's
processes together are held to its memory cap."""

from __future__ import annotations

import dataclasses
import re
import time
from pathlib import Path

import pytest
from support import RANDOM_BOT, arena, python_bot

from arena.bots import isolation
from arena.bots.discovery import discover
from arena.bots.process import BotProcess
from arena.bots.protocol import BotSeat, handshake, pause_bots
from arena.errors import IllegalAnswer
from arena.model import Job, Limits, Termination
from arena.play.referee import play_game


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
