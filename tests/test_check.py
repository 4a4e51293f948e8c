"""``arena check``: every bundled bot is fit for a tournament, and a bot
that answers late is not, with a reason that names the limit."""

from __future__ import annotations

import json
import re
import shutil
import sys

import pytest
from support import REPO, arena


@pytest.mark.slow  # a whole check: dozens of games at every game and count
@pytest.mark.parametrize("bot", ["random_bot", "greedy_bot", "random_bot_js"])
def test_every_bundled_bot_passes(tmp_path, bot, request):
    if bot.endswith("_js"):
        request.getfixturevalue("node")
    run = arena("check", bot, "--bots", str(REPO / "bots"), "--move-timeout", "0.5", cwd=tmp_path, tmpdir=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[-1] == f"{bot} is fit for a tournament"
    assert not [line for line in lines if line.startswith("problem")]
    for count in (2, 3, 4):
        assert any(line.startswith(f"ok       ciclovia with {count} players: finished") for line in lines)
    assert any("time per decision over" in line and "limit 0.5 s" in line for line in lines)
    assert any(line.startswith("ok       stderr: ") for line in lines)
    assert any("the same seed gives" in line for line in lines)


@pytest.mark.slow
def test_the_search_bot_passes_with_a_sample_count(tmp_path):
    folder = tmp_path / "mybots" / "search8"
    folder.mkdir(parents=True)
    shutil.copy(REPO / "bots" / "search_bot.py", folder / "main.py")
    (folder / "bot.json").write_text(f'{{"command": ["{sys.executable}", "main.py", "--samples", "8"]}}')
    run = arena("check", "search8", "--bots", str(tmp_path / "mybots"), "--bots", str(REPO / "bots"),
                "--move-timeout", "1", cwd=tmp_path, tmpdir=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "ok       the same seed gives the same play" in run.stdout
    assert run.stdout.splitlines()[-1] == "search8 is fit for a tournament"


def test_a_bot_that_answers_late_is_not_fit_and_is_told_why(tmp_path, zoo_dir):
    bots = tmp_path / "bots"
    bots.mkdir()
    shutil.copy(zoo_dir / "late_answer.py", bots / "late_answer.py")
    # The filler random bot comes from the bundled bots/ folder.
    run = arena("check", "late_answer", "--bots", str(bots), "--move-timeout", "0.1", cwd=tmp_path, tmpdir=tmp_path)
    assert run.returncode == 1
    assert re.fullmatch(r"Error: late_answer is not fit for a tournament: \d+ problems above", run.stderr.strip())
    problems = [line for line in run.stdout.splitlines() if line.startswith("problem")]
    assert problems[0].startswith("problem  ciclovia with 2 players: forfeited by timeout: ")
    assert "the move time limit is 0.1 s, --move-timeout" in problems[0]
    assert problems[0].endswith('(read protocol/PROTOCOL.md, "Limits")')


def test_an_unknown_bot_is_one_line(tmp_path):
    run = arena("check", "nobody", "--bots", str(REPO / "bots"), cwd=tmp_path, tmpdir=tmp_path)
    assert run.returncode == 1 and "unknown bot: 'nobody'" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_an_illegal_move_shows_what_was_offered_and_where_the_decide_message_is(tmp_path, zoo_dir):
    bots = tmp_path / "bots"
    bots.mkdir()
    shutil.copy(zoo_dir / "not_offered.py", bots / "not_offered.py")
    run = arena("check", "not_offered", "--bots", str(bots), "--move-timeout", "1", cwd=tmp_path, tmpdir=tmp_path)
    assert run.returncode == 1
    problem = next(line for line in run.stdout.splitlines() if line.startswith("problem  ciclovia with 2 players"))
    found = re.fullmatch(r'problem  ciclovia with 2 players: forfeited by illegal: action not offered: '
                         r'\{"made":"up","offered":(\d+)\}; offered (.+?)( and (\d+) more)?; '
                         r'the decide message is in (\S+) \(read protocol/PROTOCOL.md, "decide \(referee → bot\), '
                         r'and your answer"\)', problem)
    assert found, problem
    offered, shown, more, path = int(found.group(1)), found.group(2), int(found.group(4) or 0), found.group(5)
    assert path == "logs/check/not_offered/ciclovia-2p-decide.json"
    message = json.loads((tmp_path / path).read_text())
    assert message["type"] == "decide" and message["state"]["game"] == "ciclovia"
    assert len(message["actions"]) == offered == min(offered, 3) + more
    assert shown == ", ".join(json.dumps(action) for action in message["actions"][:3])


def test_every_section_a_finding_names_is_a_heading_of_the_protocol():
    from arena.play.check import SECTIONS

    headings = {line.lstrip("#").strip() for line in (REPO / "protocol" / "PROTOCOL.md").read_text().splitlines()
                if line.startswith("#")}
    assert set(SECTIONS) <= headings, set(SECTIONS) - headings


def test_a_finding_cannot_name_a_section_outside_the_list():
    from arena.play.check import Finding, Level

    with pytest.raises(ValueError, match="not one of check.SECTIONS"):
        Finding(Level.PROBLEM, "crashed", "Forfeits")
