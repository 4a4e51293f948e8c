"""The command line: a real tournament between real bot processes into a
real SQLite file, resumed, run as a real process (exit codes, signals, what
the terminal shows); every bad input refused with one line and a non-zero
exit, through click's CliRunner in this process."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import ARENA, REPO, arena, arena_environment, python_bot, random_bots, undo_schema_11

from arena.cli import main
from arena.store import MIGRATIONS, register_functions


@pytest.fixture
def workdir(tmp_path):
    random_bots(tmp_path / "bots", ["alpha", "beta", "gamma"])
    return tmp_path


def test_tournament_stores_every_planned_game_and_resumes(workdir):
    first = arena("tournament", "--games", "slyyde", "--rounds", "2", "--jobs", "2", cwd=workdir, check=True)
    assert "12 games planned, 0 already stored, 12 to play" in first.stderr
    assert (workdir / "leaderboard" / "index.html").is_file()
    again = arena("tournament", "--games", "slyyde", "--rounds", "3", "--jobs", "2", cwd=workdir, check=True)
    assert "18 games planned, 12 already stored, 6 to play" in again.stderr
    with closing(sqlite3.connect(workdir / "arena.db")) as db:
        keys = [row[0] for row in db.execute("SELECT key FROM games")]
    assert len(keys) == len(set(keys)) == 18
    rows = json.loads(arena("standings", "--format", "json", cwd=workdir, check=True).stdout)
    assert {row["game"] for row in rows} == {"slyyde", "overall"}
    for row in rows:
        assert {"bot", "game", "elo", "games", "wins", "losses", "draws", "forfeits"} <= set(row)
        assert row["games"] == 12 and row["wins"] + row["losses"] + row["draws"] == 12
    html = (workdir / "leaderboard" / "index.html").read_text()
    assert "alpha" in html and "gamma" in html


def test_the_same_seed_gives_the_same_games_and_no_seed_other_dice(tmp_path):
    outcomes = []
    for run, seed in (("one", ["--seed", "42"]), ("two", ["--seed", "42"]), ("three", []), ("four", [])):
        folder = tmp_path / run
        random_bots(folder / "bots", ["alpha", "beta"])
        arena("tournament", "--games", "slyyde", "--rounds", "3", *seed, cwd=folder, check=True)
        with closing(sqlite3.connect(folder / "arena.db")) as db:
            register_functions(db)
            outcomes.append(db.execute("SELECT key, winners, termination, seed, placements, "
                                       "arena_events(record, replay) FROM games "
                                       "ORDER BY key").fetchall())
    assert outcomes[0] == outcomes[1]  # every event of every game, byte for byte
    seeds = [{row[3] for row in outcome} for outcome in outcomes]
    assert len(seeds[0]) == 3 and seeds[2].isdisjoint(seeds[3]) and seeds[2].isdisjoint(seeds[0])
    assert {row[5] for row in outcomes[2]}.isdisjoint({row[5] for row in outcomes[3]})


def test_a_rerun_keeps_the_stored_dice_key_and_refuses_another_seed(tmp_path):
    random_bots(tmp_path / "bots", ["alpha", "beta"])
    secret = tmp_path / "secret.db"
    arena("tournament", "--games", "slyyde", "--rounds", "1", "--db", str(secret), cwd=tmp_path, check=True)
    with closing(sqlite3.connect(secret)) as db:
        [(key, seed)] = db.execute("SELECT secret, seed FROM dice_key").fetchall()
        first = db.execute("SELECT key, seed FROM games ORDER BY key").fetchall()
    assert seed is None and len(bytes.fromhex(key)) == 32
    again = arena("tournament", "--games", "slyyde", "--rounds", "2", "--db", str(secret), cwd=tmp_path, check=True)
    assert "4 games planned, 2 already stored, 2 to play" in again.stderr
    with closing(sqlite3.connect(secret)) as db:
        assert db.execute("SELECT secret, seed FROM dice_key").fetchall() == [(key, None)]
        assert set(first) <= set(db.execute("SELECT key, seed FROM games").fetchall())
    mixed = arena("tournament", "--games", "slyyde", "--rounds", "2", "--db", str(secret), "--seed", "1",
                  cwd=tmp_path)
    assert mixed.returncode == 1
    assert mixed.stderr == (f"Error: --seed 1 would mix dice: the games in '{secret}' are on a secret key; "
                            "leave --seed out to resume, or use another --db\n")
    seeded = tmp_path / "seeded.db"
    arena("tournament", "--games", "slyyde", "--rounds", "1", "--db", str(seeded), "--seed", "3", cwd=tmp_path,
          check=True)
    other = arena("tournament", "--games", "slyyde", "--rounds", "1", "--db", str(seeded), "--seed", "4",
                  cwd=tmp_path)
    assert other.returncode == 1
    assert other.stderr == (f"Error: --seed 4 differs from the seed of the games in '{seeded}' (3); "
                            "leave --seed out to resume, or use another --db\n")
    same = arena("tournament", "--games", "slyyde", "--rounds", "1", "--db", str(seeded), cwd=tmp_path, check=True)
    assert "2 games planned, 2 already stored, 0 to play" in same.stderr


def test_a_database_from_before_the_dice_key_keeps_its_games_and_plans_anew(tmp_path):
    random_bots(tmp_path / "bots", ["alpha", "beta"])
    arena("tournament", "--games", "slyyde", "--rounds", "1", "--seed", "1", cwd=tmp_path, check=True)
    with closing(sqlite3.connect(tmp_path / "arena.db")) as db:  # as arena left it before it kept a key
        undo_schema_11(db)
        db.execute("DROP TABLE dice_key")
        db.execute("UPDATE games SET key = 't1' || substr(key, 2)")
        db.execute("UPDATE results SET game_key = 't1' || substr(game_key, 2)")
        before = next(n for n, migration in enumerate(MIGRATIONS) if "dice_key" in migration.__name__)
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", [str(before)])
        db.commit()
    run = arena("tournament", "--games", "slyyde", "--rounds", "1", cwd=tmp_path, check=True)
    assert ("2 games in arena.db were played before arena kept a dice key (their dice were public): they stay "
            "as they are, and this run plans its own games anew") in run.stderr
    assert "2 games planned, 0 already stored, 2 to play" in run.stderr
    with closing(sqlite3.connect(tmp_path / "arena.db")) as db:
        keys = sorted(row[0] for row in db.execute("SELECT key FROM games"))
        assert db.execute("SELECT seed FROM dice_key").fetchall() == [(None,)]
    assert [key[:3] for key in keys] == ["t/s", "t/s", "t1/", "t1/"]
    rows = json.loads(arena("standings", "--format", "json", cwd=tmp_path, check=True).stdout)
    assert {row["games"] for row in rows} == {4}


def test_a_forfeiting_bot_loses_and_the_tournament_goes_on(workdir):
    python_bot(workdir / "bots", "liar", """
        import json, sys
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "hello":
                print(json.dumps({"type": "hello", "name": "liar", "games": ["slyyde"]}), flush=True)
            elif m["type"] == "decide":
                print(json.dumps({"type": "action", "action": {"made": "up"}}), flush=True)
    """)
    arena("tournament", "--games", "slyyde", "--rounds", "3", "--seed", "3", cwd=workdir, check=True)
    with closing(sqlite3.connect(workdir / "arena.db")) as db:
        rows = db.execute("SELECT seats, forfeit_seat, termination, detail, winners FROM games").fetchall()
    forfeits = [r for r in rows if r[1] is not None]
    assert forfeits, "the liar had decisions to make in 12 games"
    for seats, seat, termination, detail, winners in forfeits:
        assert json.loads(seats)[seat].startswith("liar@")
        assert termination == "illegal" and "not offered" in detail
        assert json.loads(winners) == [1 - seat]
    assert len(rows) == 36  # four bots: six pairs, three seat-swapped rounds each
    # The tournament's log says so too: every game stored, every forfeit.
    log = (workdir / "logs" / "arena.log").read_text()
    assert len(re.findall(r"stored \d+ of 36: slyyde ", log)) == 36
    assert len(re.findall(r"liar forfeited slyyde game \S+: illegal \(action not offered", log)) == len(forfeits)


def test_the_logs_go_beside_the_database_and_the_run_says_where(workdir):
    result = arena("tournament", "--games", "slyyde", "--rounds", "1", "--jobs", "1", "--db", "results/run.db",
                   "--out", "results/site", "--bots", "bots", cwd=workdir, check=True)
    assert "logs in results/logs" in result.stderr
    assert not (workdir / "logs").exists()
    assert "stored 6 of 6" in (workdir / "results" / "logs" / "arena.log").read_text()


def test_files_that_are_not_bots_are_named_with_why(workdir):
    (workdir / "bots" / "notes").write_text("not a bot")
    (workdir / "bots" / "helpers").mkdir()
    (workdir / "other").mkdir()
    result = arena("bots", "--bots", "bots", "--bots", "other", cwd=workdir, check=True)
    assert f"skipping {Path('bots') / 'notes'}: not executable (chmod +x it, or name it .py or .js)" in result.stderr
    assert f"skipping {Path('bots') / 'helpers'}: a folder without bot.json" in result.stderr
    assert "skipping other: no bots in it" in result.stderr
    assert "alpha" in result.stdout


def test_solo_plays_through_the_referee_and_reports_roll_counts(workdir):
    result = arena("solo", "slyyde", "alpha", "--games", "5", cwd=workdir, check=True)
    assert "alpha solo slyyde: 5 games this series" in result.stdout
    with closing(sqlite3.connect(workdir / "arena.db")) as db:
        scores = [json.loads(s)[0] for (s,) in db.execute("SELECT scores FROM games WHERE players = 1")]
    assert len(scores) == 5 and all(s >= 1 for s in scores)
    average = f"average {sum(scores) / 5:.2f} rolls, best {min(scores):g}"
    assert average in result.stdout


def test_bots_lists_each_bot_and_why_one_is_unusable(workdir):
    python_bot(workdir / "bots", "mute", "import time; time.sleep(30)")
    result = arena("bots", "--startup-timeout", "0.5", cwd=workdir)
    assert result.returncode == 0
    lines = {line.split()[0]: line for line in result.stdout.splitlines()}
    assert "ok: " in lines["alpha"] and "slyyde" in lines["alpha"]
    assert "UNUSABLE: handshake failed: no answer within 0.5 s" in lines["mute"]


PROGRESS = re.compile(r"games: (\d+) of 24 \((\d+)%\), \d+\.\d\d games/s, (about (\d+ s|\d+ min \d\d s) left|done)")


def test_progress_into_a_pipe_is_a_line_a_tenth_with_rate_and_time_left(workdir):
    result = arena("tournament", "--games", "slyyde,detour", "--rounds", "2", "--jobs", "2", cwd=workdir, check=True)
    lines = [line for line in result.stderr.splitlines() if line.startswith("games")]
    found = [PROGRESS.fullmatch(line) for line in lines]
    assert all(found), lines
    done = [int(match.group(1)) for match in found if match]
    shares = [int(match.group(2)) for match in found if match]
    assert done == sorted(set(done)) and done[-1] == 24 and lines[-1].endswith("done")
    # a line each time another tenth is done, games finishing two at a time at most
    assert 8 <= len(lines) <= 10 and all(later - earlier <= 20 for earlier, later in zip([0, *shares], shares))


def test_progress_lines_come_at_least_once_a_minute(monkeypatch):
    from arena import cli

    clock = iter([0.0, 30.0, 61.0, 62.0, 130.0])
    monkeypatch.setattr(cli.time, "monotonic", lambda: next(clock))
    said: list[str] = []
    progress = cli.ProgressLines(1000, said.append)
    for _ in range(4):
        progress.update(1)
    assert said == ["games: 2 of 1000 (0%), 0.03 games/s, about 8 h 27 min left",
                    "games: 4 of 1000 (0%), 0.03 games/s, about 8 h 59 min left"]


def test_a_bad_manifest_leaves_the_other_bots_usable(workdir):
    """One folder bot whose bot.json is broken is listed as unusable, with
    why; `arena check` of another bot, and a tournament, go on without it."""
    (workdir / "bots" / "broken").mkdir()
    (workdir / "bots" / "broken" / "bot.json").write_text('{"command": "python3 main.py"}')
    why = "bad manifest bot.json: \"command\" must be a non-empty list of strings, got 'python3 main.py'"
    listed = arena("bots", cwd=workdir)
    assert listed.returncode == 0, listed.stderr
    lines = {line.split()[0]: line for line in listed.stdout.splitlines()}
    assert sorted(lines) == ["alpha", "beta", "broken", "gamma"]
    assert lines["broken"].endswith(f"UNUSABLE: {why}") and "ok: " in lines["alpha"]
    checked = arena("check", "alpha", "--bots", "bots", cwd=workdir)
    assert checked.returncode == 0 and "alpha is fit for a tournament" in checked.stdout, checked.stderr
    played = arena("tournament", "--games", "slyyde", "--rounds", "1", "--jobs", "1", cwd=workdir)
    assert played.returncode == 0, played.stderr
    assert [line for line in played.stderr.splitlines() if "broken" in line] == [f"skipping broken: {why}"]
    with closing(sqlite3.connect(workdir / "arena.db")) as db:
        seats = {bot for (text,) in db.execute("SELECT seats FROM games") for bot in json.loads(text)}
    assert {bot.partition("@")[0] for bot in seats} == {"alpha", "beta", "gamma"}


@pytest.mark.parametrize("manifest, why", [
    ("{", "bad manifest bot.json: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    ("[]", "bad manifest bot.json: expected a JSON object, got list"),
    ('{"cmd": ["x"]}', 'bad manifest bot.json: no "command" in it'),
])
def test_each_bad_manifest_says_what_is_wrong(tmp_path, manifest, why):
    from arena.bots.discovery import find_every_bot

    random_bots(tmp_path / "bots", ["alpha"])
    (tmp_path / "bots" / "broken").mkdir()
    (tmp_path / "bots" / "broken" / "bot.json").write_text(manifest)
    found = find_every_bot([tmp_path / "bots"])
    assert [spec.name for spec in found.bots] == ["alpha"]
    assert [(bot.name, bot.problem) for bot in found.unusable] == [("broken", why)]


@pytest.mark.parametrize("args, message", [
    (["tournament", "--bots", "nowhere"], "bots folder does not exist: 'nowhere'"),
    (["tournament", "--games", "chess"], "unknown game: 'chess' (available: "),
    (["tournament", "--rounds", "0"], "Invalid value for '--rounds': 0 is not in the range x>=1."),
    (["tournament", "--bots", "empty"], "no bots found in empty"),
    (["standings"], "no results database at 'arena.db'"),
    (["match", "alpha", "zeta", "--game", "slyyde"], "unknown bot: 'zeta'"),
    (["solo", "slyyde", "alpha", "--games", "0"], "Invalid value for '--games': 0 is not in the range x>=1."),
    (["match", "alpha", "beta"], "Missing option '--game'."),
    (["play", "slyyde", "--bot", "alpha", "--seat", "2"], "--seat must be 0 to 1 in a game of 2 players, got 2"),
    (["play", "slyyde", "--bot", "alpha", "--seat", "4"], "Invalid value for '--seat': 4 is not in the range 0<=x<=3."),
    (["tournament", "--no-such-option"], "No such option"),
])
def test_bad_input_is_one_line_and_a_non_zero_exit(workdir, monkeypatch, args, message):
    (workdir / "empty").mkdir()
    monkeypatch.chdir(workdir)
    result = CliRunner().invoke(main, args)
    # Only a handled error leaves through sys.exit; anything else would be a traceback.
    assert isinstance(result.exception, SystemExit) and result.exit_code != 0, result.exception
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_database_from_elsewhere_is_refused_and_left_alone(workdir, monkeypatch):
    foreign = workdir / "arena.db"
    with closing(sqlite3.connect(foreign)) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    before = foreign.read_bytes()
    monkeypatch.chdir(workdir)
    result = CliRunner().invoke(main, ["tournament", "--games", "slyyde"])
    assert result.exit_code != 0 and "is not an arena database" in result.stderr
    assert foreign.read_bytes() == before


def test_without_a_bots_folder_the_bundled_bots_are_used_and_said(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["bots"])
    assert result.exit_code == 0, result.output
    assert [line.split()[0] for line in result.stdout.splitlines()] == [
        "greedy_bot", "random_bot", "random_bot_js", "search_bot"]
    assert all("ok: ciclovia, detour, roundabout, slyyde" in line for line in result.stdout.splitlines())
    assert "no ./bots folder here, so using the bundled bots" in result.stderr


def test_match_prints_every_place_and_the_score(workdir):
    result = arena("match", "alpha", "beta", "--game", "slyyde", "--rounds", "2", cwd=workdir, check=True)
    games = [line for line in result.stdout.splitlines() if " vs " in line]
    assert len(games) == 4
    for line in games:  # at two seats too: both places, as standings count them
        found = re.fullmatch(r"(\w+) vs (\w+): (\w+ wins|a draw) \((\w+) (1st|2nd), (\w+) (1st|2nd)\) \[\w+.*\]", line)
        assert found and found.group(4, 6) == found.group(1, 2), line
    last = result.stdout.strip().splitlines()[-1]
    match = re.fullmatch(r"score: alpha (\d+\.\d{3}), beta (\d+\.\d{3}) \(of 4 games\)", last)
    assert match, last
    assert float(match.group(1)) + float(match.group(2)) == 4
    assert not (workdir / "arena.db").exists()  # nothing stored without --db


def test_a_match_with_db_stores_its_games_and_resumes(workdir):
    first = arena("match", "alpha", "beta", "gamma", "--game", "roundabout", "--db", "m.db", "--move-timeout", "5",
                  cwd=workdir, check=True)
    assert re.search(r"score: alpha \d\.\d{3}, beta \d\.\d{3}, gamma \d\.\d{3} \(of 3 games\)", first.stdout)
    assert "stored in m.db" in first.stderr
    with closing(sqlite3.connect(workdir / "m.db")) as db:
        # Records without offered actions, no replay: the site's page replays them with the game's engine.
        rows = db.execute("SELECT key, players, record IS NOT NULL AND offered IS NOT NULL AND replay IS NULL "
                          "FROM games").fetchall()
        results = db.execute("SELECT count(*) FROM results").fetchone()[0]
        rated = db.execute("SELECT count(*) FROM ratings").fetchone()[0]
    assert len(rows) == 3 and all(players == 3 and stored for _, players, stored in rows), rows
    assert results == 9 and rated == 6  # roundabout/3p and overall
    site = arena("leaderboard", "--db", "m.db", "--out", "site", cwd=workdir, check=True)
    assert "leaderboard:" in site.stdout
    chunk = (workdir / "site" / "data" / "replays" / "0.js").read_text()  # the site has the games' replays
    assert chunk.startswith("ArenaReplays.add(0, ") and chunk.count('"payload":') == 3
    again = arena("match", "alpha", "beta", "gamma", "--game", "roundabout", "--db", "m.db", cwd=workdir, check=True)
    assert "3 of the match's 3 games are already stored in m.db: not played again" in again.stderr
    assert again.stdout.strip().splitlines()[-1].endswith("(of 0 games)")


def test_a_match_of_four_bots_plays_every_rotation_and_places_every_seat(workdir):
    random_bots(workdir / "bots", ["delta"])
    result = arena("match", "alpha", "beta", "gamma", "delta", "--game", "roundabout", "--move-timeout", "5",
                   cwd=workdir, check=True)
    games = [line for line in result.stdout.splitlines() if " vs " in line]
    assert [line.split(":")[0] for line in games] == [
        "alpha vs beta vs gamma vs delta", "beta vs gamma vs delta vs alpha",
        "gamma vs delta vs alpha vs beta", "delta vs alpha vs beta vs gamma"]
    assert all(re.search(r"\((\w+ \d(st|nd|rd|th)(, )?){4}\)", line) for line in games), games
    match = re.fullmatch(r"score: alpha ([\d.]+), beta ([\d.]+), gamma ([\d.]+), delta ([\d.]+) \(of 4 games\)",
                         result.stdout.strip().splitlines()[-1])
    # half the pairs of each game; each score is printed to 3 decimals, as standings print it
    assert match and all(re.fullmatch(r"\d+\.\d{3}", points) for points in match.groups())
    assert sum(float(points) for points in match.groups()) == pytest.approx(4 * 4 / 2, abs=4e-3)


def test_sigterm_while_bots_are_checked_stops_with_one_line(workdir, process_table):
    import os
    import signal
    import subprocess
    import time

    from support import ARENA, REPO

    sleepy = python_bot(workdir / "bots", "sleepy", "import time; time.sleep(60)")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    started = time.monotonic()
    process = subprocess.Popen([*ARENA, "tournament", "--startup-timeout", "60"], cwd=workdir, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Once the sleepy bot runs, not after a fixed time: on a loaded machine
    # arena may not have got that far (nor set its handler) in two seconds.
    while not process_table.mentioning(str(sleepy)):
        assert time.monotonic() - started < 30 and process.poll() is None, "the sleepy bot never started"
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130
    assert time.monotonic() - started < 30, "the hanging bot's start-up limit was waited out"
    assert stderr.strip().splitlines() == [
        "arena: interrupted; everything stored so far is kept: run the same command again to resume"]


def test_a_person_plays_three_bots_in_the_terminal_and_the_seats_are_named_in_order(workdir):
    """Three random bots and a person who always takes the first choice:
    the bots are named in their seats around the person's."""
    result = subprocess.run([*ARENA, "play", "roundabout", "--bot", "alpha", "--bot", "beta", "--bot", "gamma",
                             "--seat", "2", "--seed", "4", "--move-timeout", "5"], cwd=workdir,
                            input="1\n" * 3000, capture_output=True, text=True, timeout=300,
                            env=arena_environment())
    assert result.returncode == 0, result.stderr
    assert "A = alpha (seat 0)   B = beta (seat 1)   C = you (seat 2)   D = gamma (seat 3)" in result.stdout
    last = result.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"places: (\d\w\w (alpha|beta|you|gamma)(, )?){4}", last), last


def test_standings_as_csv_are_the_json_rows(tmp_path):
    """The CSV is the JSON rows but their pairs, which pairs-csv gives a
    line each, the pentanomial counts in a column each (issue 27: the pairs
    were a JSON blob in one cell)."""
    random_bots(tmp_path / "bots", ["rand_a", "rand_b", "rand_c"])
    arena("tournament", "--games", "slyyde,detour", "--rounds", "1", "--jobs", "2", "--move-timeout", "0.2",
          cwd=tmp_path, check=True, tmpdir=tmp_path)
    rows = json.loads(arena("standings", "--format", "json", cwd=tmp_path, check=True).stdout)
    text = arena("standings", "--format", "csv", cwd=tmp_path, check=True).stdout
    parsed = list(csv.DictReader(io.StringIO(text)))
    assert len(parsed) == len(rows) > 0
    assert list(parsed[0]) == [name for name in rows[0] if name != "pairs"]
    assert {"joint", "joint_low", "joint_high", "elo"} <= set(parsed[0])

    def cell(value):
        if value is None:
            return ""
        if isinstance(value, (dict, list)):
            return json.dumps(value, separators=(",", ":"), sort_keys=True)
        return str(value)

    assert parsed == [{name: cell(value) for name, value in row.items() if name != "pairs"} for row in rows]
    pairs = list(csv.DictReader(io.StringIO(arena("standings", "--format", "pairs-csv", cwd=tmp_path,
                                                  check=True).stdout)))
    names = {row["bot_id"]: row["bot"] for row in rows}
    assert pairs == [{"table_name": row["table_name"], "bot": row["bot"], "bot_id": row["bot_id"],
                      "opponent": names[pair["b"]], "opponent_id": pair["b"], "pairs": str(pair["pairs"]),
                      **{f"pairs_scoring_{score}_of_2": str(n) for score, n in zip(("0", "0.5", "1", "1.5", "2"),
                                                                                 pair["counts"])},
                      **{name: cell(pair[name]) for name in ("score", "elo", "elo_bound", "elo_low", "elo_high",
                                                             "interval_missing", "los", "draw_ratio")}}
                     for row in rows for pair in row["pairs"]]
    assert len(pairs) > 0


def test_the_rating_history_and_results_name_their_games_and_player_counts(tmp_path):
    """Issue 27: rating_history had no game key, and results no player
    count. Each history row names the game it follows (one the bot played,
    in the table's plan order), and both carry the player count."""
    random_bots(tmp_path / "bots", ["rand_a", "rand_b", "rand_c"])
    arena("tournament", "--games", "slyyde", "--players", "2,3", "--rounds", "1", "--jobs", "2",
          "--move-timeout", "0.5", cwd=tmp_path, check=True, tmpdir=tmp_path)
    with closing(sqlite3.connect(tmp_path / "arena.db")) as db:
        assert db.execute("SELECT count(*) FROM results r JOIN games g ON g.key = r.game_key "
                          "WHERE r.players IS NOT g.players").fetchone() == (0,)
        history = db.execute("SELECT h.table_name, h.bot_id, h.game_number, h.players, g.players, g.seats, "
                             "g.job_order, g.key FROM rating_history h JOIN games g ON g.key = h.game_key "
                             "ORDER BY h.table_name, h.bot_id, h.game_number").fetchall()
        assert len(history) == db.execute("SELECT count(*) FROM rating_history").fetchone()[0] > 0
        order = [key for (key,) in db.execute("SELECT key FROM games ORDER BY job_order, key")]
    assert {table for table, *_ in history} == {"slyyde", "slyyde/3p", "overall"}
    by_table: dict[str, set[tuple[int, str]]] = {}
    for table, bot_id, number, players, game_players, seats, _, key in history:
        assert bot_id in json.loads(seats)
        assert players == (None if table == "overall" else game_players)
        assert table in ("overall", "slyyde/3p" if game_players == 3 else "slyyde")
        by_table.setdefault(table, set()).add((number, key))
    for numbered in by_table.values():  # the table's games, numbered from 1 in plan order
        keys = [key for _, key in sorted(numbered)]
        assert [number for number, _ in sorted(numbered)] == list(range(1, len(keys) + 1))
        assert keys == [key for key in order if key in set(keys)]


def test_broken_entries_in_a_bots_folder_leave_the_others_playing(workdir):
    """A link to nothing (what `cp -r` of the checkout's bots/ makes) and a
    FIFO are each one line naming them and why, listed as unusable, and the
    other bots play; `cp -rL`, which the line advises, copies working bots."""
    bots = workdir / "bots"
    (bots / "gone.py").symlink_to("../nowhere/gone.py")
    os.mkfifo(bots / "pipe_bot")
    listed = arena("bots", cwd=workdir)
    assert listed.returncode == 0, listed.stderr
    lines = {line.split()[0]: line for line in listed.stdout.splitlines()}
    assert "UNUSABLE: bots/gone.py is a link to a missing file (../nowhere/gone.py)" in lines["gone"]
    assert lines["pipe_bot"].endswith("UNUSABLE: bots/pipe_bot is a FIFO, neither a file nor a folder")
    played = arena("tournament", "--games", "slyyde", "--rounds", "1", "--jobs", "1", cwd=workdir)
    assert played.returncode == 0, played.stderr
    assert [line for line in played.stderr.splitlines() if "gone" in line or "pipe_bot" in line] == [
        "skipping gone: bots/gone.py is a link to a missing file (../nowhere/gone.py); copy a bots folder with "
        "cp -rL, which copies the files its links point to",
        "skipping pipe_bot: bots/pipe_bot is a FIFO, neither a file nor a folder"]
    assert "6 games planned" in played.stderr
    subprocess.run(["cp", "-rL", str(REPO / "bots"), str(workdir / "copied")], check=True)
    copied = arena("bots", "--bots", "copied", cwd=workdir)
    assert copied.returncode == 0 and "UNUSABLE" not in copied.stdout, copied.stdout + copied.stderr


def test_entries_an_ordinary_user_cannot_read_are_named(ordinary_user):
    """A file and a folder bot this user may not read, and a link into a
    folder it may not enter: one line each, in `arena bots` as in a
    tournament, and the readable bots play, in the box, as that user."""
    account, home, python = ordinary_user
    folder = home / "league"
    random_bots(folder / "bots", ["alpha", "beta"])
    for path in [folder, *folder.rglob("*")]:
        os.chown(path, account.pw_uid, account.pw_gid)
    secret = random_bots(folder / "bots", ["secret"]) / "secret.py"
    secret.chmod(0o600)
    locked = folder / "bots" / "locked"
    locked.mkdir(mode=0o700)
    (locked / "bot.json").write_text('{"command": ["python3", "bot.py"]}')
    closed = random_bots(home / "closed", ["inside"])
    closed.chmod(0o700)
    (folder / "bots" / "through.py").symlink_to(closed / "inside.py")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}

    def as_user(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(python), "-m", "arena.cli", *args], cwd=folder, env=env, user=account.pw_uid,
                              group=account.pw_gid, extra_groups=[], capture_output=True, text=True, timeout=300)

    run = as_user("tournament", "--games", "slyyde", "--rounds", "1", "--jobs", "1")
    if "bubblewrap cannot make a box here" in run.stderr:
        pytest.skip(run.stderr.strip().splitlines()[-1])
    assert run.returncode == 0, run.stderr
    named = [line for line in run.stderr.splitlines() if any(name in line for name in ("secret", "locked", "through"))]
    assert named == ["skipping locked: bots/locked cannot be read by this user (permission denied)",
                     "skipping secret: bots/secret.py cannot be read by this user (permission denied)",
                     f"skipping through: bots/through.py is a link to {closed / 'inside.py'}, which this user "
                     "cannot reach (permission denied)"], run.stderr
    assert "2 games planned" in run.stderr
    listed = as_user("bots")
    assert listed.returncode == 0 and "Traceback" not in listed.stderr, listed.stderr
    unusable = sorted(line.split()[0] for line in listed.stdout.splitlines() if "UNUSABLE" in line)
    assert unusable == ["locked", "secret", "through"], listed.stdout


def test_what_root_sees_of_what_an_ordinary_user_may_not_read(workdir):
    """As root, a file and a folder of another user's (mode 600 and 700)
    and a link into that folder are read (root reads everything): found and
    hashed. The bot in its box has none of root's powers, so it cannot read
    them: each is listed as unusable in one line that says so, a tournament
    skips it in one line, and the other bots play."""
    if os.geteuid() != 0:
        pytest.skip("root's view needs root")
    nobody = 65534
    secret = random_bots(workdir / "bots", ["secret"]) / "secret.py"
    secret.chmod(0o600)
    closed = random_bots(workdir / "closed", ["inside"])
    for path in (secret, closed, closed / "inside.py"):
        os.chown(path, nobody, nobody)
    closed.chmod(0o700)
    (workdir / "bots" / "through.py").symlink_to(closed / "inside.py")
    listed = arena("bots", cwd=workdir)
    assert listed.returncode == 0, listed.stderr
    lines = {line.split()[0]: line for line in listed.stdout.splitlines() if line.strip()}
    for name in ("secret", "through"):
        assert "UNUSABLE: handshake failed" in lines[name] and "Permission denied" in lines[name], listed.stdout
    played = arena("tournament", "--games", "slyyde", "--rounds", "1", "--jobs", "1", cwd=workdir)
    assert played.returncode == 0, played.stderr
    skipped = [line for line in played.stderr.splitlines() if line.startswith("skipping")]
    assert [line.split(":")[0] for line in skipped] == ["skipping secret", "skipping through"], played.stderr
    assert all("Permission denied" in line for line in skipped), played.stderr
    assert "6 games planned" in played.stderr, played.stderr
