"""A bot that cannot start says why: the message that it failed its
handshake quotes the last lines it wrote on stderr (no game log keeps
them), bounded in length, here and, through the same probe, on a Dask
worker (tests/test_dask.py)."""

from __future__ import annotations

from support import arena, python_bot, random_bots

from arena.bots.discovery import discover
from arena.bots.process import STDERR_TAIL_LINE_CHARS, STDERR_TAIL_LINES
from arena.model import Limits
from arena.play.probe import probe_bots

# What a Python bot without its package says last (a traceback of four lines).
CANNOT_IMPORT = """\
import sys
for n in range(20):
    print(f"noise line {n}", file=sys.stderr)
import arena_helper_that_is_not_installed
"""
# Noise, a long line, a line with a terminal escape, and out.
NOISY = """\
import sys
for n in range(20):
    print(f"noise line {n}", file=sys.stderr)
print("x" * 5000 + " the end of a long line", file=sys.stderr)
sys.stderr.write("\\x1b[31mred\\x1b[0m\\n")
sys.exit(1)
"""


def _tail(problem: str) -> list[str]:
    return problem.split("; its stderr ended with: ", 1)[1].split(" | ")


def test_a_bot_that_exits_at_once_is_reported_with_its_last_stderr_lines(tmp_path):
    python_bot(tmp_path / "bots", "needy", CANNOT_IMPORT)
    python_bot(tmp_path / "bots", "noisy", NOISY)
    probes = {probe.spec.name: probe for probe in probe_bots(discover([tmp_path / "bots"]),
                                                             Limits(startup_timeout=5))}
    for probe in probes.values():
        assert probe.entrant is None and probe.problem is not None
        assert probe.problem.startswith("handshake failed: closed its ")
        assert ": exited with code 1; its stderr ended with: " in probe.problem
        assert "\n" not in probe.problem and "noise line" not in probe.problem
    needy = _tail(probes["needy"].problem)  # the last lines of the traceback
    assert len(needy) == STDERR_TAIL_LINES
    assert needy[1:] == ["import arena_helper_that_is_not_installed",
                         "ModuleNotFoundError: No module named 'arena_helper_that_is_not_installed'"]
    assert needy[0].startswith('File "') and needy[0].endswith('needy.py", line 4, in <module>')
    noisy = _tail(probes["noisy"].problem)  # the last bytes only: the long line's end
    assert noisy == ["..." + ("x" * 5000 + " the end of a long line")[-STDERR_TAIL_LINE_CHARS:],
                     "?[31mred?[0m"]  # the escape is not sent to the terminal


def test_arena_bots_shows_why_a_bot_cannot_start_and_a_quiet_one_says_nothing_more(tmp_path):
    random_bots(tmp_path / "bots", ["alpha"])
    python_bot(tmp_path / "bots", "needy", CANNOT_IMPORT)
    python_bot(tmp_path / "bots", "quiet", "raise SystemExit(3)\n")
    result = arena("bots", cwd=tmp_path)
    lines = {line.split()[0]: line for line in result.stdout.splitlines()}
    assert "ok: " in lines["alpha"]
    assert "UNUSABLE: handshake failed: " in lines["needy"]
    assert lines["needy"].endswith("| ModuleNotFoundError: No module named 'arena_helper_that_is_not_installed'")
    assert lines["quiet"].endswith(": exited with code 3"), lines["quiet"]
