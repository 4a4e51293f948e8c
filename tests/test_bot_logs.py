"""Bot stderr is kept per game and seat: a real match through the command
line, one bot process across its games, its log switched at each game's
start, the cap applied to each game's file, and no file for a bot that
writes nothing."""

from __future__ import annotations

import re

from support import arena, python_bot, random_bots

from arena.bots.discovery import discover
from arena.bots.protocol import BotSeat
from arena.model import Limits

CHATTY = """
    import json, sys
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            print(json.dumps({"type": "hello", "name": "chatty", "games": ["roundabout"]}), flush=True)
        elif message["type"] == "game_start":
            sys.stderr.write(f"start {message['game_id']} seat {message['seat']}\\n")
            sys.stderr.flush()
        elif message["type"] == "decide":
            sys.stderr.write("thinking " + "." * 100 + "\\n")
            sys.stderr.flush()
            print(json.dumps({"type": "action", "action": message["actions"][0]}), flush=True)
        elif message["type"] == "bye":
            break
"""


def test_a_match_keeps_each_games_stderr_in_its_own_capped_file(tmp_path):
    random_bots(tmp_path / "bots", ["quiet"])
    python_bot(tmp_path / "bots", "chatty", CHATTY)
    run = arena("match", "chatty", "quiet", "--game", "roundabout", "--log-dir", "kept", "--stderr-cap", "300",
          "--move-timeout", "5", cwd=tmp_path, check=True)
    [folder] = (tmp_path / "kept" / "bots").iterdir()
    assert f"the bots' stderr goes to {folder.relative_to(tmp_path)}" in run.stderr
    files = sorted(folder.iterdir())
    assert [re.sub(r"game-[0-9a-f]{10}-", "game-*-", f.name) for f in files] == [
        "game-*-seat0-chatty.stderr.log", "game-*-seat1-chatty.stderr.log"], files  # quiet wrote nothing
    keys = set()
    for log in files:
        text = log.read_text()
        starts = re.findall(r"^start (\S+) seat (\d)$", text, re.MULTILINE)
        assert len(starts) == 1, text  # the other game's start went to the other file
        key, seat = starts[0]
        assert f"-seat{seat}-" in log.name
        keys.add(key)
        kept, note = text.split("\n[arena: ")
        assert len(kept.encode()) == 300 and re.fullmatch(r"\d+ more bytes of stderr dropped\]\n", note), text
    assert len(keys) == 2


LOUD = """
    import json, sys
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            sys.stderr.write("x" * 5000)
            sys.stderr.flush()
            print(json.dumps({"type": "hello", "name": "loud", "games": ["roundabout"]}), flush=True)
        elif message["type"] == "bye":
            break
"""


def test_a_seat_counts_the_stderr_its_processes_wrote_kept_or_dropped(tmp_path):
    [spec] = discover([python_bot(tmp_path / "bots", "loud", LOUD).parent])
    log = tmp_path / "loud.stderr.log"
    seat = BotSeat(spec, Limits(stderr_bytes=300), log)
    seat.start()
    seat.close()
    seat.start()  # a second process: its bytes add up
    seat.close()
    assert seat.stderr_received == 2 * 5000
    assert log.read_bytes().startswith(b"x" * 300)
