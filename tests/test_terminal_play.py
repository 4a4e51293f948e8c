"""`arena play` in the terminal: a person (scripted stdin) against real bot
processes, told the board, the choices and every step in words (the words
themselves are checked over random games in test_words.py)."""

from __future__ import annotations

import re
import subprocess

import pytest
from support import ARENA, arena_environment, random_bots


def _play(workdir, *args: str, answers: str = "1\n" * 3000) -> subprocess.CompletedProcess:
    return subprocess.run([*ARENA, "play", *args, "--move-timeout", "5"], cwd=workdir, input=answers,
                          capture_output=True, text=True, timeout=120, env=arena_environment())


def test_seat_1_names_the_real_winner(tmp_path):
    """The person in seat 1: the result names whoever the engine says
    reached the centre, and the final board has that pawn on square 99."""
    random_bots(tmp_path / "bots", ["random_bot"])
    result = _play(tmp_path, "slyyde", "--bot", "random_bot", "--seat", "1", "--seed", "3")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "A = random_bot (seat 0)   B = you (seat 1)" in out
    reached = re.findall(r"^> (\S+) reaches the centre and wins$", out, re.MULTILINE)
    assert len(reached) == 1, out[-2000:]
    winner = reached[0]
    assert re.search(rf"^result: {winner} wins?$", out, re.MULTILINE), out[-500:]
    loser = {"you", "random_bot"} - {winner}
    assert re.search(rf"^places: 1st {winner}, 2nd {loser.pop()}$", out, re.MULTILINE)
    final = out[out.index("final position:"):]
    assert re.search(rf"^  [AB] {winner}: square 99, \d+ rolls$", final, re.MULTILINE)
    assert "{" not in out  # no raw state or action JSON


@pytest.mark.parametrize("game", ["detour", "ciclovia", "roundabout"])
def test_choices_and_steps_are_told_in_words(tmp_path, game):
    """A whole game against the random bot, always taking the first choice:
    numbered choices from 1 with their meaning, the bot's moves and the dice
    in words, a result with places; a number out of range is asked again."""
    random_bots(tmp_path / "bots", ["random_bot"])
    result = _play(tmp_path, game, "--bot", "random_bot", "--seed", "5", answers="0\n" + "1\n" * 3000)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "your choices:\n  1: " in out
    assert "Error: 0 is not in the range 1<=x<=" in out
    assert re.search(r"^> random_bot (rolls|rides|moves)", out, re.MULTILINE)
    # A piped answer is not echoed, so what follows a prompt is on its line.
    assert re.search(r"> you (roll|ride|move) ", out)
    # The person is spoken to, the bots spoken of: "you roll", "random_bot rolls".
    assert not re.search(r"\byou (rolls|rides|moves|has|is|wins|takes|turns|stays|offers|misses)\b", out), out
    assert not re.search(r"\byou's\b", out)
    assert re.search(r"^result: (you win|random_bot wins|you and random_bot share first place|a draw)$",
                     out, re.MULTILINE)
    assert re.search(r"^places: 1st (you|random_bot)( \(\d+ points\))?, (1st|2nd) (you|random_bot)", out, re.MULTILINE)
    assert "{" not in out


def test_ctrl_c_at_the_prompt_abandons_the_game_in_one_line(tmp_path):
    import os
    import signal
    import time

    random_bots(tmp_path / "bots", ["random_bot"])
    process = subprocess.Popen([*ARENA, "play", "ciclovia", "--bot", "random_bot", "--seed", "5"], cwd=tmp_path,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=arena_environment())
    assert process.stdout is not None
    deadline = time.monotonic() + 30
    while "your choices:" not in process.stdout.readline():
        assert time.monotonic() < deadline, "no prompt"
    os.kill(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130
    assert stderr.strip().splitlines() == ["arena: interrupted: the game is abandoned and the bots are stopped"]
