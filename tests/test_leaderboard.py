"""The leaderboard site, built from a real tournament: real bot processes
(the bundled random bot under two names, a bot that crashes with a hostile
stderr, a folder bot with a hostile name, and a bot named
``<script>alert(1)</script>`` played through the library), stored in a real
SQLite file, rendered by ``arena leaderboard``. The pages are read back and
checked against the store, the rating modules and the engines' own replays."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import math
import os
import re
import shutil
import sqlite3
import time
import zlib
from contextlib import closing
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from markupsafe import escape
from support import (
    RANDOM_BOT,
    arena,
    folder_bot,
    python_bot,
    random_bots,
    reference_standings,
    whole_events,
    without_browser_engine,
)

from arena import results
from arena.bots.discovery import discover
from arena.games import GAMES, get_spec, replays
from arena.games.events import replay
from arena.games.playout import random_playout
from arena.games.text_view import effects_line
from arena.model import BotSpec, DecisionTimes, DiceKey, Forfeit, GameRecord, Job, Limits, Termination
from arena.play.match import play_match
from arena.play.plan import Entrant, plan_round_robin
from arena.site import builder, charts, data, pages, paths, schema
from arena.stats import pairs
from arena.stats.elo import CHART_POINTS, HistorySample
from arena.store import Store

XSS_NAME = "<script>alert(1)</script>"
IMG_NAME = "<img src=x onerror=alert(2)>"
STDERR_XSS = "<script>alert('stderr')</script>"
HELLO_XSS = "<b onclick=alert(3)>crash & burn</b>"


@dataclasses.dataclass
class Site:
    root: Path
    db: Path
    out: Path


_BUILT: dict[str, Site] = {}


def tournament_site(tmp_path_factory) -> Site:
    """Build once per test session (test_browser.py uses it too)."""
    if "site" not in _BUILT:
        _BUILT["site"] = _build_site(tmp_path_factory.mktemp("tournament"))
    return _BUILT["site"]


def _build_site(root: Path) -> Site:
    bots = random_bots(root / "bots", ["alpha", "beta"])
    python_bot(bots, "crasher", f"""
        import json, sys
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "hello":
                print(json.dumps({{"type": "hello", "name": {HELLO_XSS!r}, "games": {sorted(GAMES)!r}}}), flush=True)
            elif message["type"] == "decide":
                sys.stderr.write("about to fail: {STDERR_XSS} & bye\\n")
                sys.stderr.flush()
                sys.exit(3)
    """)
    folder_bot(bots, IMG_NAME, RANDOM_BOT.read_text(), [])
    arena("tournament", "--rounds", "1", "--jobs", "2", "--move-timeout", "5", "--seed", "1", cwd=root, check=True)
    arena("solo", "slyyde", "alpha", "--games", "3", cwd=root, check=True)
    _play_as_script_bot(root / "arena.db", bots)
    arena("leaderboard", cwd=root, check=True)
    return Site(root, root / "arena.db", root / "leaderboard")


def _play_as_script_bot(db: Path, bots: Path) -> None:
    """A bot whose name no file can carry: same program, stored through the
    library exactly as a tournament stores its games."""
    alpha = next(spec for spec in discover([bots]) if spec.name == "alpha")
    hostile = BotSpec(XSS_NAME, alpha.command, alpha.path, alpha.content_hash)
    entrants = [Entrant(hostile, frozenset(["slyyde", "detour"])), Entrant(alpha, frozenset(["slyyde", "detour"]))]
    jobs = plan_round_robin(entrants, ["slyyde", "detour"], 1, DiceKey.from_seed(77))
    specs = {hostile.bot_id: hostile, alpha.bot_id: alpha}
    with Store(db, writer=True) as store:
        store.add_bots([hostile])
        for record in play_match(jobs, specs, Limits(move_timeout=5), None):
            store.add_game(record)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Site:
    return tournament_site(tmp_path_factory)


def private_copy(site: Site, folder: Path) -> Site:
    """A copy of the site's database in ``folder`` (and the logs it points
    to), its site still to build there."""
    db = folder / "arena.db"
    with closing(sqlite3.connect(site.db)) as source, closing(sqlite3.connect(db)) as target:
        source.backup(target)
    shutil.copytree(site.root / "logs", folder / "logs")
    return Site(folder, db, folder / "leaderboard")


@pytest.fixture
def copy(site, tmp_path) -> Site:
    """A private copy of the database (and the logs it points to)."""
    return private_copy(site, tmp_path)


# ---------------------------------------------------------------- helpers


class _Tables(HTMLParser):
    """Rows of every standings table: {table: {bot_id: [cell data-values]}}."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, dict[str, list[str]]] = {}
        self.priors: dict[str, float] = {}  # table: the virtual draws its note states
        self.reasons: dict[tuple[str, str], dict[str, int]] = {}  # (table, bot_id): forfeits by reason
        self.table = self.row = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and "standings" in (attrs.get("class") or ""):
            self.table = self.tables.setdefault(attrs["data-table"], {})
            self.table_name = attrs["data-table"]
        elif tag == "tr" and self.table is not None and "data-bot-id" in attrs:
            self.row = self.table.setdefault(attrs["data-bot-id"], [])
            self.bot_id = attrs["data-bot-id"]
        elif tag == "td" and self.row is not None:
            self.row.append(attrs.get("data-value"))
            if "data-error" in attrs:
                self.row.append(attrs["data-error"])
        elif tag == "span" and "data-prior-draws" in attrs:
            self.priors[attrs["data-table"]] = float(attrs["data-prior-draws"])
        elif tag == "span" and self.row is not None and "data-reason" in attrs:
            found = self.reasons.setdefault((self.table_name, self.bot_id), {})
            found[attrs["data-reason"]] = int(attrs["data-count"])

    def handle_endtag(self, tag):
        if tag == "table":
            self.table = None
        elif tag == "tr":
            self.row = None


def standings_tables(page: Path) -> dict[str, dict[str, list[str]]]:
    return _parsed(page).tables


def _parsed(page: Path) -> _Tables:
    parser = _Tables()
    parser.feed(page.read_text())
    return parser


def games_data(out: Path) -> dict:
    """data/games.js, with the rows of its chunks (data/list/<chunk>.js) as ``rows``."""
    text = (out / "data" / "games.js").read_text()
    shared = json.loads(text[text.index("=") + 1:].rstrip().rstrip(";"))
    rows = []
    for chunk in range(-(-shared["total"] // shared["chunkSize"])):
        rows += loaded(out / paths.list_chunk_path(chunk), f"ArenaGamesList.add({chunk}, ")
    return {**shared, "rows": rows}


def loaded(path: Path, call: str):
    """What a chunk file hands to its ``call``."""
    text = path.read_text()
    assert text.startswith(call) and text.endswith(");\n"), path
    return json.loads(text[len(call):-3])


def numbers(db: Path) -> dict[str, int]:
    """Each game's number on the site (its place in the games list, from 1)."""
    with Store(db) as store:
        return {game.key: n for n, (_, game) in enumerate(store.stored_games(), 1)}


def entries(site: Site) -> dict[str, dict]:
    """Each game's entry in its replay chunk, by key: its game and seat
    count, and what its payload holds (head, problem, luck, replay)."""
    chunks: dict[int, dict] = {}
    found = {}
    for key, n in numbers(site.db).items():
        chunk = paths.replay_chunk(n)
        if chunk not in chunks:
            chunks[chunk] = loaded(site.out / paths.replay_chunk_path(chunk), f"ArenaReplays.add({chunk}, ")
        entry = chunks[chunk][str(n)]
        shown = json.loads(replays.decoded_text(entry["payload"]))
        found[key] = {"game": entry["game"], "players": entry["players"], **shown}
    return found


def address(site: Site, key: str) -> str:
    return paths.replay_address(numbers(site.db)[key])


def records(data: dict, kind: str) -> list[dict]:
    """Rows or bots of the games list with their fields by name (the names
    data/games.js carries, as arena/site/schema.json orders them)."""
    return [dict(zip(data["fields"][kind], record, strict=True)) for record in data[kind]]


def stored(db: Path) -> tuple[list[dict], dict]:
    with Store(db) as store:
        return list(store.games()), store.bots()


def replay_pages(out: Path) -> dict[Path, int]:
    """The replay chunks and when each was written."""
    return {page: page.stat().st_mtime_ns for page in (out / "data" / "replays").glob("*.js")}


# ---------------------------------------------------------------- the pages


def posterior_check(games: list[tuple[str, str, float]], rated: dict[str, tuple[float, float]],
                    draws: float) -> None:
    """That ``rated`` (bot: rating, error) is the posterior mode of these
    two-seat games (a, b, a's score), worked out here from the model
    docs/explanation/ratings.md states: P(a beats b) = 1 / (1 + 10^((r_b - r_a) / 400)), a draw
    half a win, and every bot given ``draws`` virtual draws against a bot
    rated 1500. At the mode each bot's expected points, the virtual ones
    included, equal its points (the gradient is zero), and the 95%
    interval of its standing (its rating less the mean) is 1.96 standard
    deviations from the inverse of the curvature: the graph Laplacian with
    weight (ln 10 / 400)^2 p (1 - p) per game, plus the virtual games'
    weight on the diagonal, centred."""
    bots = sorted(rated)
    index = {bot: k for k, bot in enumerate(bots)}
    c = math.log(10) / 400
    residual = np.zeros(len(bots))
    information = np.zeros((len(bots), len(bots)))
    for a, b, score in games:
        p = 1 / (1 + 10 ** ((rated[b][0] - rated[a][0]) / 400))
        residual[index[a]] += score - p
        residual[index[b]] -= score - p
        weight = c * c * p * (1 - p)
        i, j = index[a], index[b]
        information[i, i] += weight
        information[j, j] += weight
        information[i, j] -= weight
        information[j, i] -= weight
    for bot, (rating, _) in rated.items():
        p = 1 / (1 + 10 ** ((1500 - rating) / 400))
        residual[index[bot]] += draws * (0.5 - p)
        information[index[bot], index[bot]] += draws * c * c * p * (1 - p)
    # The page shows ratings to 1e-3 and the prior to six digits: the points are met to far better than a game in 100.
    assert np.abs(residual).max() < 1e-2, dict(zip(bots, residual))
    centre = np.eye(len(bots)) - np.full((len(bots), len(bots)), 1 / len(bots))
    errors = 1.96 * np.sqrt(np.diag(centre @ np.linalg.inv(information) @ centre))
    assert [rated[bot][1] for bot in bots] == pytest.approx(list(errors), rel=1e-2)


def test_standings_are_the_ratings_and_counts_the_rules_give(site):
    """Every table on the front page against an independent reckoning:
    Elo and counts from tests/support.py's reference, the joint rating
    checked as the posterior's mode with the prior the page states (every
    game of the site is of two seats), and the order by tier, then rating,
    a bot ranked below another only where it never scored against it or
    shares its tier."""
    _, bots = stored(site.db)
    names = {bot_id: row["name"] for bot_id, row in bots.items()}
    reference = reference_standings(site.db)
    with closing(sqlite3.connect(site.db)) as db:
        played = [(game, json.loads(seats), json.loads(places)) for game, seats, places in db.execute(
            "SELECT game, seats, placements FROM games WHERE players = 2")]
    parsed = _parsed(site.out / "index.html")
    tables = parsed.tables
    assert set(tables) == {"overall", *GAMES} == set(parsed.priors)
    for table, rows in tables.items():
        assert set(rows) == {bot for (t, bot) in reference if t == table}
        results_here = [(seats[0], seats[1], 1.0 if places[0] < places[1] else 0.5 if places[0] == places[1]
                         else 0.0) for game, seats, places in played if table in (game, "overall")]
        rated, ranked = {}, []
        for bot_id, cells in rows.items():
            expected = reference[table, bot_id]
            rank, name, rating, error, _, elo_value, games, wins, losses, draws, score, first, forfeits, tier = cells
            assert name == names[bot_id]
            rated[bot_id] = (float(rating), float(error))
            assert float(elo_value) == pytest.approx(expected["elo"], abs=1e-3)
            assert [int(games), int(wins), int(losses), int(draws), int(forfeits)] == \
                [expected[k] for k in ("games", "wins", "losses", "draws", "forfeits")]
            assert float(score) == pytest.approx(expected["score"], abs=1e-4)
            assert float(first) == pytest.approx(expected["first_place_share"], abs=1e-4)
            assert sum(parsed.reasons.get((table, bot_id), {}).values()) == int(forfeits)
            ranked.append((int(rank), int(tier), -float(rating), bot_id))
        posterior_check(results_here, rated, parsed.priors[table])
        ranked.sort()
        assert [entry[1:3] for entry in ranked] == sorted(entry[1:3] for entry in ranked)
        scored = {(a, b) for a, b, score in results_here if score > 0} | {(b, a) for a, b, score in results_here
                                                                          if score < 1}
        for place, (_, upper_tier, _, upper) in enumerate(ranked):
            for _, lower_tier, _, lower in ranked[place + 1:]:
                assert (lower, upper) not in scored or upper_tier == lower_tier, (table, upper, lower)
    crasher = next(b for b in bots if bots[b]["name"] == "crasher")
    assert reference["overall", crasher]["forfeits"] > 0
    # At detour the crasher lost every game: a finite rating, the lowest, in the last tier alone.
    detour = tables["detour"]
    assert float(detour[crasher][2]) < min(float(cells[2]) for bot, cells in detour.items() if bot != crasher)
    assert int(detour[crasher][13]) > max(int(cells[13]) for bot, cells in detour.items() if bot != crasher)
    assert int(detour[crasher][0]) == len(detour)
    assert int(tables["overall"][crasher][12]) == reference["overall", crasher]["forfeits"]


def test_the_solo_table_shows_average_and_best_rolls(site):
    games, bots = stored(site.db)
    alpha = next(b for b in bots if bots[b]["name"] == "alpha")
    rolls = [g.scores[0] for g in games if g.players == 1 and g.seats == (alpha,)]
    assert len(rolls) == 3
    page = (site.out / "index.html").read_text()
    solo = page[page.index('<section id="solo">'):]
    assert f'{sum(rolls) / 3:.2f}' in solo and f'data-value="{min(rolls)}"' in solo


def test_a_solo_game_page_calls_its_tally_rolls_not_score(site):
    """Score means pairwise points only; a game's own tally has its own name."""
    games, _ = stored(site.db)
    solo = next(g for g in games if g.players == 1)
    page = entries(site)[solo.key]["head"]
    assert f"rolls {solo.scores[0]:g}</span>" in page and ">score " not in page


def test_head_to_head_counts_every_pair(site):
    games, bots = stored(site.db)
    names = {b: row["name"] for b, row in bots.items()}
    alpha = next(b for b in bots if names[b] == "alpha")
    beta = next(b for b in bots if names[b] == "beta")
    record = [0, 0, 0]
    for g in games:
        if g.game == "detour" and set(g.seats) == {alpha, beta}:
            mine = g.seats.index(alpha)
            record[0 if g.winners == (mine,) else 2 if g.winners else 1] += 1
    page = (site.out / "tables" / "detour.html").read_text()
    assert f'title="alpha vs beta: {record[0]} wins, {record[1]} draws, {record[2]} losses;' in page
    assert '<svg class="chart"' in page and page.count('<polyline class="line"') == len(
        {b for g in games if g.game == "detour" for b in g.seats})


def test_bot_and_version_pages_list_the_record_and_the_forfeits(site):
    games, bots = stored(site.db)
    crasher = next(b for b in bots if bots[b]["name"] == "crasher")
    info = paths.BotInfo(crasher, "crasher", bots[crasher]["content_hash"][:12])
    assert (site.out / info.name_page).is_file()
    page = (site.out / info.page).read_text()
    forfeited = [g for g in games if g.forfeit_seat is not None and g.seats[g.forfeit_seat] == crasher]
    assert forfeited and all(g.termination.value == "crash" for g in forfeited)
    section = page[page.index('id="forfeits"'):]
    links = re.findall(r'class="game-link" href="\.\./\.\./([^"]+)"', section)
    assert sorted(links) == sorted(address(site, g.key) for g in forfeited)
    logs = re.findall(r'class="log-link" href="\.\./\.\./(logs/[0-9a-f]+\.html)"', section)
    assert len(logs) == len(forfeited)
    log_page = (site.out / logs[0]).read_text()
    assert str(escape(STDERR_XSS)) in log_page and STDERR_XSS not in log_page
    assert section.count("crash</span>") == len(forfeited)
    chart = page[page.index('id="record-overall"'):page.index('id="forfeits"')]
    points = re.search(r'<polyline[^>]*points="([^"]*)"', chart).group(1).split()
    assert len(points) == sum(1 for g in games if crasher in g.seats and g.players > 1)


def test_a_crashing_bots_last_stderr_lines_are_shown_where_it_forfeited(site):
    """Its replay page shows the last lines beside the forfeit and links the
    game's own log, which says whose it is and links back; no page shows a
    path of the machine that built it."""
    games, bots = stored(site.db)
    crasher = next(b for b in bots if bots[b]["name"] == "crasher")
    game = next(g for g in games if g.forfeit_seat is not None and g.seats[g.forfeit_seat] == crasher)
    seat = game.forfeit_seat
    page = entries(site)[game.key]["head"]
    tail = re.search(rf'<section class="stderr-tail" data-seat="{seat}">(.*?)</section>', page, re.DOTALL)
    assert tail, "no stderr excerpt on the replay page"
    assert f"about to fail: {escape(STDERR_XSS)} &amp; bye" in tail.group(1)
    log = re.search(r'class="log-link" href="(logs/[0-9a-f]+\.html)"', tail.group(1)).group(1)
    log_page = (site.out / log).read_text()
    assert log_page.count("about to fail") == 1  # this game's stderr alone
    assert re.search(rf'>crasher</a> <span class="version">@\w+</span>\s*wrote to stderr in seat {seat} of a '
                     rf'{game.game.capitalize()} game', log_page)
    assert f'href="../{address(site, game.key)}"' in log_page
    version_page = (site.out / paths.BotInfo(crasher, "crasher", bots[crasher]["content_hash"][:12]).page).read_text()
    assert version_page.count('<details class="stderr-tail">') == sum(
        1 for g in games for f in g.forfeits if g.seats[f.seat] == crasher)
    for page in [*site.out.rglob("*.html"), *site.out.rglob("*.js")]:
        assert str(site.root) not in page.read_text(), page


def test_the_name_a_bot_says_hello_with_is_stored_logged_and_shown_escaped(site):
    with closing(sqlite3.connect(site.db)) as conn:
        hello = dict(conn.execute("SELECT name, hello_name FROM bots"))
    assert hello["crasher"] == HELLO_XSS and hello["alpha"] == "random_bot"
    assert f"says hello as {json.dumps(HELLO_XSS)}" in (site.root / "logs" / "arena.log").read_text()
    games, bots = stored(site.db)
    crasher = next(b for b in bots if bots[b]["name"] == "crasher")
    info = paths.BotInfo(crasher, "crasher", bots[crasher]["content_hash"][:12])
    for page in (info.page, info.name_page):
        text = (site.out / page).read_text()
        assert f'It says hello as <q class="bot-name">{escape(HELLO_XSS)}</q>' in text
        assert HELLO_XSS not in text


def test_every_game_has_a_replay_that_is_the_engines(site):
    """Every bundled game brings a replay engine for the page: its replay is
    its record as stored (each decision without its action, which the page
    takes among the engine's offered actions), its options, the digest of
    its offered actions, which the engine makes again exactly, and the
    decision times as stored. (A game
    without such an engine gets its states and words made in Python:
    tests/test_plugin_game.py, and the record that does not replay below.)"""
    games, bots = stored(site.db)
    rows = records(games_data(site.out), "rows")
    assert len(rows) == len(games)
    by_finish = sorted(games, key=lambda g: g.finished_at)
    assert [row["finished"] for row in rows] == [int(g.finished_at) for g in by_finish]
    assert sorted(numbers(site.db), key=numbers(site.db).get) == [g.key for g in by_finish]
    shown = entries(site)
    with Store(site.db) as store:
        for game in games:
            replayed = shown[game.key]["replay"]
            record, digest = store.record(game.key)
            times = store.decision_times(game.key)
            without_actions = [{key: value for key, value in event.items() if key != "action"} for event in record]
            assert (replayed["record"], replayed["offered"], replayed["options"]) == \
                (without_actions, digest, game.options)
            assert (replayed["answer_s"], replayed["timeout_ms"]) == (list(times.seconds), times.move_timeout * 1000)
            whole_events(store, game.key)  # the engine offers again what the digest says


def test_a_tournament_stores_no_replay_of_a_game_whose_page_replays_its_record(site):
    """The workers stored each game's record and no replay: every bundled
    game's page makes its steps from the record."""
    games, _ = stored(site.db)
    with Store(site.db) as store:
        assert all(store.replay(game.key, replays.REPLAY_FORMAT) is None and store.record(game.key)[1] is not None
                   for game in games if game.termination is not Termination.REFEREE_FAILURE)


def test_the_tournament_made_each_replay_entry_as_its_games_luck_was_stored(site):
    """Luck measured while games play comes with its game's replay entry,
    made then; the rest is measured after the last game, and the build
    makes those entries."""
    log = (site.root / "logs" / "arena.log").read_text()
    played, pages, playing, after = re.search(
        r"end of run: played (\d+) games .*\((\d+) replay entries made as their luck was stored\); "
        r"luck of (\d+) games measured while playing, of (\d+) after", log).groups()
    assert int(pages) == int(playing) and int(playing) + int(after) == int(played) > 0


def test_whatever_comes_from_a_bot_is_escaped(site):
    pages = list(site.out.rglob("*.html"))
    for page in pages:
        text = page.read_text()
        assert XSS_NAME not in text and IMG_NAME not in text and STDERR_XSS not in text, page
    for entry in entries(site).values():  # inserted as HTML by static/replay-page.js
        assert XSS_NAME not in entry["head"] and STDERR_XSS not in entry["head"] and HELLO_XSS not in entry["head"]
    index = (site.out / "index.html").read_text()
    assert str(escape(XSS_NAME)) in index and str(escape(IMG_NAME)) in index
    script = (site.out / "data" / "games.js").read_text()
    assert "<" not in script and ">" not in script
    assert XSS_NAME in [bot["name"] for bot in records(games_data(site.out), "bots")]
    for path in site.out.rglob("*"):
        assert re.fullmatch(r"[A-Za-z0-9._/-]+", path.relative_to(site.out).as_posix()), path


def test_links_between_pages_resolve(site):
    """Every link of every page and of every game's header (relative to
    replay.html, at the root) names a file; links to a replay name a game
    there is."""
    broken = []
    texts = [(page.parent, page.read_text()) for page in site.out.rglob("*.html")]
    texts += [(site.out, entry["head"]) for entry in entries(site).values()]
    games = len(numbers(site.db))
    for folder, text in texts:
        for target in re.findall(r'(?:href|src)="([^"#?:]+)[^"]*"', text):
            if not (folder / target).resolve().is_file():
                broken.append((folder, target))
        for number in re.findall(r'href="[./]*replay\.html#game=(\d+)"', text):
            if not 1 <= int(number) <= games:
                broken.append((folder, number))
    assert not broken


def validator(definition: str) -> jsonschema.Draft202012Validator:
    """A validator for one of arena/site/schema.json's definitions."""
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{definition}", "$defs": schema.SCHEMA["$defs"]})


def test_the_games_list_and_the_replays_are_what_the_schema_says(site):
    data = games_data(site.out)
    validator("gamesList").validate({field: value for field, value in data.items() if field != "rows"})
    assert data["fields"] == {"rows": schema.fields("gameRow"), "bots": schema.fields("bot")}
    games, _ = stored(site.db)
    rows = records(data, "rows")
    for game in games:
        verdicts = [results.verdict(game.placements, seat).value[0] for seat in range(game.players)]
        assert rows[numbers(site.db)[game.key] - 1]["results"] == "".join(verdicts)
    validator("gamesChunk").validate(loaded(site.out / paths.list_chunk_path(0), "ArenaGamesList.add(0, "))
    chunk = loaded(site.out / paths.replay_chunk_path(0), "ArenaReplays.add(0, ")
    validator("replayChunk").validate(chunk)
    kinds = set()
    for entry in list(chunk.values())[:20]:
        shown = json.loads(replays.decoded_text(entry["payload"]))
        validator("gamePayload").validate(shown)
        kind = "replay" if get_spec(entry["game"]).engine_js is None else "recordReplay"
        validator(kind).validate(shown["replay"])
        kinds.add(kind)
    assert "recordReplay" in kinds


def test_a_patch_is_never_a_plain_object():
    patch = validator("patch")
    patch.validate(replays.state_patch({"a": {"b": 1}, "l": [{"x": 1}]}, {"a": {"b": 2}, "l": [{"x": 2}], "n": {}}))
    with pytest.raises(jsonschema.ValidationError):
        patch.validate({"a": 1})
    with pytest.raises(ValueError, match="missing"):
        schema.record(schema.BOT, bot_id="a@1", name="a", version="1")


def test_a_shared_first_place_is_a_draw_on_every_page(copy):
    """Two of three Ciclovia seats share first place: the game page, the
    games list, head-to-head and the standings all count it a draw between
    them and a loss for the third."""
    _, bots = stored(copy.db)
    alpha, beta, gamma = (next(b for b in bots if bots[b]["name"] == n) for n in ("alpha", "beta", "crasher"))
    _, events = random_playout(GAMES["ciclovia"], 3, 5)
    with Store(copy.db, writer=True) as store:
        store.add_game(GameRecord(Job("shared/1", "ciclovia", (alpha, beta, gamma), 5, 0, 30_000), events,
                                  (1, 1, 3), Termination.NORMAL))
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    page = entries(copy)["shared/1"]["head"]
    result = page[page.index('id="result"'):page.index("</p>", page.index('id="result"'))]
    assert "<strong>Draw</strong>: <strong>alpha</strong>, <strong>beta</strong> share first place" in result
    assert "Won by" not in result and "badge win" not in page and page.count("shared first</span>") == 2
    row = records(games_data(copy.out), "rows")[numbers(copy.db)["shared/1"] - 1]
    assert row["results"] == "ddl"
    games, _ = stored(copy.db)
    reference = reference_standings(copy.db)["ciclovia/3p", alpha]
    # A game of three seats is rated in the three-player table.
    cells = standings_tables(copy.out / "tables" / "ciclovia-3p.html")["ciclovia/3p"]
    assert [int(c) for c in cells[alpha][7:10]] == [reference["wins"], reference["losses"], reference["draws"]] \
        == [0, 0, 1]
    record = [0, 0, 0]
    for g in games:
        if g.game == "ciclovia" and g.players == 3 and alpha in g.seats and beta in g.seats:
            score = results.points([g.placements[g.seats.index(alpha)], g.placements[g.seats.index(beta)]])[0]
            record[{1.0: 0, 0.5: 1, 0.0: 2}[score]] += 1
    assert record[1] >= 1
    table = (copy.out / "tables" / "ciclovia-3p.html").read_text()
    assert f'title="alpha vs beta: {record[0]} wins, {record[1]} draws, {record[2]} losses;' in table
    assert "A shared first place\ncounts as a draw" in (copy.out / "index.html").read_text()


# ---------------------------------------------------------------- writing


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of 10 replays and of 25 rows of the games list, so that the
    test tournament's games fill several."""
    monkeypatch.setattr(paths, "REPLAYS_PER_CHUNK", 10)
    monkeypatch.setattr(paths, "ROWS_PER_CHUNK", 25)


def list_chunks(out: Path) -> dict[Path, int]:
    return {page: page.stat().st_mtime_ns for page in (out / "data" / "list").glob("*.js")}


def test_replays_are_written_once_and_kept_while_nothing_changes(copy, small_chunks):
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    first, rows = replay_pages(copy.out), list_chunks(copy.out)
    assert len(first) > 3 and len(rows) > 1
    time.sleep(0.05)
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    assert replay_pages(copy.out) == first and list_chunks(copy.out) == rows
    # a new game, the last to finish: only the last chunks are written
    final, events = random_playout(GAMES["slyyde"], 2, 4242)
    outcome = final.outcome()
    games, bots = stored(copy.db)
    seats = tuple(sorted(bots)[:2])
    record = GameRecord(Job("extra/1", "slyyde", seats, 4242, 9, 10_000), events, outcome.placements,
                        Termination.NORMAL if outcome.termination is Termination.NORMAL else Termination.TURN_CAP)
    with Store(copy.db, writer=True) as store:
        assert store.add_game(record)
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    after, number = replay_pages(copy.out), numbers(copy.db)["extra/1"]
    assert number == len(games) + 1
    last = copy.out / paths.replay_chunk_path(paths.replay_chunk(number))
    assert set(after) == set(first) | {last}
    assert {page for page in first if after[page] != first[page]} <= {last}
    assert [page for page, written in list_chunks(copy.out).items() if rows.get(page) != written] == \
        [copy.out / paths.list_chunk_path((number - 1) // paths.ROWS_PER_CHUNK)]
    assert entries(copy)["extra/1"]["game"] == "slyyde"


def test_an_entry_made_as_its_game_is_stored_is_not_made_again(copy, tmp_path, monkeypatch):
    final, events = random_playout(GAMES["detour"], 2, 99)
    _, bots = stored(copy.db)
    record = replays.with_replay(GameRecord(Job("live/1", "detour", tuple(sorted(bots)[:2]), 99, 9, 30_000), events,
                                            final.outcome().placements, Termination.NORMAL))
    made = []
    chunked_game = builder._chunked_game
    monkeypatch.setattr(builder, "_chunked_game", lambda store, game, *rest: made.append(game.key)
                        or chunked_game(store, game, *rest))
    with Store(copy.db, writer=True) as store:
        site = builder.Site(store, copy.out)
        assert store.add_game(record)
        site.add_game("live/1")
        assert made == ["live/1"]
        site.build()
    assert made.count("live/1") == 1 and len(made) == len(numbers(copy.db))
    with Store(copy.db) as store:
        builder.build(store, tmp_path / "fresh")
    chunk = paths.replay_chunk_path(paths.replay_chunk(numbers(copy.db)["live/1"]))
    assert (copy.out / chunk).read_text() == (tmp_path / "fresh" / chunk).read_text()


def test_a_build_with_nothing_new_writes_nothing_until_something_changes(copy):
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    files = {path: path.stat().st_mtime_ns for path in copy.out.rglob("*") if path.is_file()}
    time.sleep(0.05)
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    assert {path: path.stat().st_mtime_ns for path in copy.out.rglob("*") if path.is_file()} == files
    games, _ = stored(copy.db)
    gone = copy.out / paths.replay_chunk_path(0)
    gone.unlink()
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    assert gone.is_file()
    # A log file is made only when its bot writes to stderr: take one there is.
    stored_path = next(path for game in games for path in game.logs if path and (copy.root / path).is_file())
    assert not Path(stored_path).is_absolute()  # so this is the copy's log, not the shared site's
    log = copy.root / stored_path
    log.write_text(log.read_text() + "one more line\n")
    # A game's logs are final once it is stored: a build goes on from its
    # tally without looking at them again; one from every game (here: the
    # manifest, which holds the tally, removed) reads every log.
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    assert not any("one more line" in page.read_text() for page in (copy.out / "logs").glob("*.html"))
    (copy.out / builder.MANIFEST).unlink()
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    assert any("one more line" in page.read_text() for page in (copy.out / "logs").glob("*.html"))


def test_worker_processes_write_the_same_replays(copy, tmp_path, monkeypatch, small_chunks):
    monkeypatch.setattr(builder, "PARALLEL_FROM", 10**9)
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    monkeypatch.setattr(builder, "PARALLEL_FROM", 2)
    with Store(copy.db) as store:
        builder.build(store, tmp_path / "parallel")
    serial = {p.relative_to(copy.out): p.read_bytes() for p in replay_pages(copy.out)}
    parallel = {p.relative_to(tmp_path / "parallel"): p.read_bytes() for p in replay_pages(tmp_path / "parallel")}
    assert serial == parallel and len(serial) > 2


def test_worker_processes_write_replays_while_the_games_are_counted(copy, tmp_path, monkeypatch, small_chunks):
    """The workers start as soon as the count has found a few chunks to
    write, while the process that forks them is small (a forked worker's
    resident size counts what it was forked from), and write while the
    count goes on: not all at the end."""
    monkeypatch.setattr(builder, "PARALLEL_FROM", 2)
    seen = []
    add, close = builder._ReplayChunks.add, builder._Counting.close

    def added(chunks: builder._ReplayChunks, chunk: int, keys: list[str]) -> None:
        add(chunks, chunk, keys)
        seen.append(("chunk", chunks.pool is not None))

    def closed(counting: builder._Counting, tally: object) -> None:
        seen.append(("counted", None))
        close(counting, tally)

    monkeypatch.setattr(builder._ReplayChunks, "add", added)
    monkeypatch.setattr(builder._Counting, "close", closed)
    with Store(copy.db) as store:
        builder.build(store, tmp_path / "site")
    assert seen[:2] == [("chunk", False), ("chunk", True)] and seen.index(("counted", None)) > 2


def test_a_history_sample_gone_on_from_holds_the_points_of_one_made_from_every_point():
    """The charts' sample of a rating history (arena.stats.elo.HistorySample)
    depends on the history alone: saved (as JSON) and gone on from at any
    point, it holds what a sample of every point holds; it stays bounded,
    and keeps the first and the last point."""
    history = [(n, 1500 + math.sin(n / 40) * 90) for n in range(1, 5001)]
    whole = HistorySample()
    for number, elo in history:
        whole.add(number, elo)
    for cut in (1, 299, 300, 301, 1024, 4999):
        going_on = HistorySample()
        for number, elo in history[:cut]:
            going_on.add(number, elo)
        going_on = HistorySample.from_json(json.loads(json.dumps(going_on.to_json())))
        for number, elo in history[cut:]:
            going_on.add(number, elo)
        assert going_on.chart() == whole.chart()
    chart = whole.chart()
    assert CHART_POINTS // 2 <= len(chart) <= CHART_POINTS
    assert chart[0] == (0, 1, history[0][1]) and chart[-1] == (4999, 5000, history[-1][1])
    assert len({index % whole.stride for index, _, _ in chart[:-1]}) == 1


def test_a_new_replay_format_rewrites_every_replay(copy, monkeypatch):
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    first = replay_pages(copy.out)
    time.sleep(0.05)
    monkeypatch.setattr(replays, "REPLAY_FORMAT", replays.REPLAY_FORMAT + 1000)
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    after = replay_pages(copy.out)
    assert set(after) == set(first) and all(after[p] != first[p] for p in first)


def test_a_log_kept_per_match_by_an_older_arena_names_each_of_its_games(tmp_path):
    """Databases written before logs were kept per game point several games
    at one file: its page names every game and seat it holds."""
    shared = tmp_path / "logs" / "bots" / "match" / "alpha.stderr.log"
    shared.parent.mkdir(parents=True)
    shared.write_text("one line for both games\n")
    spec = BotSpec("alpha", ("true",), "/bin/true", "a" * 64)
    other = BotSpec("beta", ("true",), "/bin/true", "b" * 64)
    with Store(tmp_path / "arena.db", writer=True) as store:
        store.add_bots([spec, other])
        for order, seats in enumerate([(spec, other), (other, spec)]):
            final, events = random_playout(GAMES["slyyde"], 2, order)
            logs = tuple(str(shared) if bot is spec else None for bot in seats)
            store.add_game(GameRecord(Job(f"old/{order}", "slyyde", tuple(b.bot_id for b in seats), order, 0, order),
                                      events, final.outcome().placements, Termination.NORMAL, logs=logs))
    with Store(tmp_path / "arena.db") as store:
        builder.build(store, tmp_path / "site")
    [log_page] = (tmp_path / "site" / "logs").glob("*.html")
    text = log_page.read_text()
    for order, seat in ((0, 0), (1, 1)):
        assert re.search(rf"wrote to stderr in seat {seat} of a Slyyde game.*?"
                         rf'href="\.\./{re.escape(paths.replay_address(order + 1))}"', text, re.DOTALL)
    assert sorted(numbers(tmp_path / "arena.db").items()) == [("old/0", 1), ("old/1", 2)]
    assert "holds the stderr of all these games" in text and str(tmp_path) not in text


def test_a_record_that_does_not_replay_gets_a_page_that_says_so(copy, monkeypatch):
    """Made in Python, the replay says where the record stops replaying
    (tests/test_browser.py shows the page saying it for a game it replays)."""
    without_browser_engine(monkeypatch, "detour")
    _, bots = stored(copy.db)
    seats = tuple(sorted(bots)[:2])
    _, events = random_playout(GAMES["detour"], 2, 3)
    broken = events[:5] + [{"kind": "decision", "seat": 7, "offered": [{"x": 1}], "chosen": 0}]
    with Store(copy.db, writer=True) as store:
        store.add_game(GameRecord(Job("broken/1", "detour", seats, 3, 0, 20_000), broken, (1, 2),
                                  Termination.ILLEGAL, (Forfeit(1, Termination.ILLEGAL, "made up"),)))
        store.add_game(GameRecord(Job("chess/1", "chess", seats, 3, 0, 20_001), [], (1, 1), Termination.NORMAL))
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    shown = entries(copy)
    assert "does not replay on this engine after step 5" in shown["broken/1"]["problem"]
    assert shown["broken/1"]["replay"]["events"] == broken[:5]
    assert "no 'chess' engine" in shown["chess/1"]["problem"]


def test_pages_of_games_no_longer_stored_are_removed(copy, tmp_path):
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    assert replay_pages(copy.out)
    empty = tmp_path / "empty.db"
    Store(empty, writer=True).close()
    with Store(empty) as store:
        builder.build(store, copy.out)
    assert replay_pages(copy.out) == {} and list_chunks(copy.out) == {}
    assert "No games yet" in (copy.out / "index.html").read_text()


def old_game_page(out: Path, key: str) -> Path:
    """Where an older arena wrote a game's page (games/<xx>/<id>.html)."""
    page_id = hashlib.sha1(key.encode()).hexdigest()[:16]
    return out / "games" / page_id[:2] / f"{page_id}.html"


def test_a_site_of_the_page_per_game_layout_keeps_its_addresses(copy):
    """A site an older arena built (a page per game, games/<xx>/<id>.html,
    and its manifest): at the first build each page of a stored game becomes
    a redirect to its replay, the page of a game no longer stored goes, and a
    file arena did not write there stays; the next build leaves them be."""
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    games, _ = stored(copy.db)
    old = {}
    for key in [game.key for game in games] + ["a game no longer stored"]:
        page = old_game_page(copy.out, key)
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text("<!doctype html><title>an old game page</title>")
        old[page.relative_to(copy.out).as_posix()] = "0123456789abcdef"
    (copy.out / "games" / "notes.txt").write_text("mine")
    (copy.out / "manifest.json").write_text(json.dumps({"format": "3-0123456789ab", "inputs": "x", "pages": old}))
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    assert not old_game_page(copy.out, "a game no longer stored").exists()
    for key, number in numbers(copy.db).items():
        text = old_game_page(copy.out, key).read_text()
        assert f'location.replace("../../replay.html#game={number}"' in text
        assert f'href="../../replay.html#game={number}"' in text
    kept = sorted(p.relative_to(copy.out).as_posix() for p in (copy.out / "games").rglob("*") if p.is_file())
    assert len(kept) == len(games) + 1 and "games/notes.txt" in kept
    before = {page: (copy.out / page).stat().st_mtime_ns for page in kept}
    manifest = json.loads((copy.out / "manifest.json").read_text())
    (copy.out / "manifest.json").write_text(json.dumps({**manifest, "inputs": "x"}))  # a build that is not a no-op
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    assert json.loads((copy.out / "manifest.json").read_text()) == manifest
    assert {page: (copy.out / page).stat().st_mtime_ns for page in kept} == before
    assert len(entries(copy)) == len(games)


def test_a_failed_write_leaves_the_old_page_and_no_litter(tmp_path, monkeypatch):
    page = tmp_path / "page.html"
    builder.write_atomically(page, "old")

    def crash(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        builder.write_atomically(page, "new " * 10_000)
    assert page.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]


# ---------------------------------------------------------------- pieces


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_replay_leaves_out_only_the_lines_its_effects_say(name):
    """A replay's words keep a step's line only where it is not its effects
    joined (text_view.effects_line, which the page's stepLine mirrors): the
    line comes back the same either way, and lines do get left out."""
    _, events = random_playout(GAMES[name], 2, 11)
    payload, problem = replays.replay_payload(name, ("a@1", "b@1"), {}, events, DecisionTimes())
    assert problem is None
    stored_words = json.loads(zlib.decompress(base64.b64decode(payload)))["words"]
    view = get_spec(name).describer(["a", "b"])
    states = [state.to_json() for state in replay(GAMES[name], 2, {}, events)]
    said = [view.step(states[k], event, states[k + 1]) for k, event in enumerate(events)]
    assert [words.get("line") or effects_line(event, words["effects"], words["forced"])
            for words, event in zip(stored_words, events)] == [words["line"] for words in said]
    assert sum("line" not in words for words in stored_words) > len(events) // 2
    assert [{**words, "line": None} for words in stored_words] == [{**words, "line": None} for words in said]


def test_patches_round_trip():
    old = {"a": 1, "b": [1, 2, {"c": 3}], "d": {"e": [1]}, "gone": 0}
    new = {"a": 1, "b": [1, 5, {"c": 4}], "d": {"e": [1, 2]}, "f": {"g": None}}
    patch = replays.state_patch(old, new)
    assert replays.apply_patch(old, patch) == new
    assert "a" not in patch["$d"] and patch["$x"] == ["gone"]


def test_statistics_for_head_to_head():
    low, high = pairs.wilson(0.5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)  # the textbook Wilson interval
    assert pairs.wilson(1.0, 4)[1] == 1.0 and pairs.wilson(0.0, 0) == (0.0, 1.0)
    pair = pairs.Record(wins=10, draws=3, losses=0)
    assert pairs.superiority(pair) == pytest.approx(1 - 0.5 ** 11, abs=1e-12)  # P(Bin(11, 1/2) <= 10)
    assert pairs.sign_test(pair) == pytest.approx(2 * 0.5 ** 10, abs=1e-12)
    assert pairs.family_evidence([pair]) == [pairs.Evidence.STRONG_WIN]
    assert pairs.family_evidence([pairs.Record(wins=0, draws=0, losses=10)]) == [pairs.Evidence.STRONG_LOSS]
    assert pairs.family_evidence([pairs.Record(draws=4)]) == [pairs.Evidence.NONE]
    assert pages.evidence_class(pairs.Evidence.STRONG_WIN.mirrored()) == "ev-strong-loss"


def test_history_chart_escapes_labels_and_draws_the_sampled_points():
    sample = HistorySample()
    for n in range(1, 5001):
        sample.add(n, 1500 + (n % 7))
    points = [(number, elo) for _, number, elo in sample.chart()]
    svg = str(charts.history_svg([(XSS_NAME, points)], band=(1480, 1520)))
    assert XSS_NAME not in svg and str(escape(XSS_NAME)) in svg
    coordinates = re.search(r'points="([^"]*)"', svg).group(1).split()
    assert len(coordinates) == len(points) <= CHART_POINTS
    assert '<rect class="band"' in svg


def test_bot_folders_are_safe_and_distinct():
    names = [XSS_NAME, "a b", "a_b", "A_b", "../../etc", "", "ünïcødé"]
    folders = [paths.BotInfo(f"{n}@1", n, "1").folder for n in names]
    assert len(set(f.lower() for f in folders)) == len(names)
    assert all(re.fullmatch(r"bots/[A-Za-z0-9_-]+", f) for f in folders)


def test_a_long_forfeit_list_shows_the_latest_and_links_to_all(copy, monkeypatch):
    monkeypatch.setattr(data, "FORFEITS_KEPT", 2)
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    games, bots = stored(copy.db)
    crasher = next(b for b in bots if bots[b]["name"] == "crasher")
    info = paths.BotInfo(crasher, "crasher", bots[crasher]["content_hash"][:12])
    section = (copy.out / info.page).read_text().split('id="forfeits"')[1]
    forfeited = sorted((g for g in games if g.forfeit_seat is not None
                        and g.seats[g.forfeit_seat] == crasher), key=lambda g: g.finished_at)
    assert f"The latest 2 of {len(forfeited)}." in section
    links = re.findall(r'class="game-link" href="\.\./\.\./([^"]+)"', section)
    assert links == [address(copy, g.key) for g in forfeited[::-1][:2]]
    assert f"games.html#bot=v%3A{crasher.replace('@', '%40')}&amp;result=forfeit" in section


def test_seat_swapped_pairs_of_the_real_tournament(site):
    """Pairs are read from the stored games of the tournament (seats swapped
    on one seed): counted here by hand from the games, they match the pair
    statistics of ``arena standings --format json`` and the table page."""
    from arena.stats.pentanomial import PairStats

    games, bots = stored(site.db)
    names = {b: row["name"] for b, row in bots.items()}
    alpha = next(b for b in bots if names[b] == "alpha")
    beta = next(b for b in bots if names[b] == "beta")
    by_seed: dict[int, list] = {}
    for g in games:
        if g.game == "detour" and g.players == 2 and set(g.seats) == {alpha, beta}:
            by_seed.setdefault(g.seed, []).append(g)
    assert by_seed and all(len(pair) == 2 and pair[0].seats == pair[1].seats[::-1] for pair in by_seed.values())
    counts = [0] * 5
    for pair in by_seed.values():
        points = sum(results.points(g.placements)[g.seats.index(alpha)] for g in pair)
        counts[round(2 * points)] += 1
    expected = PairStats(alpha, beta, tuple(counts)).to_json()
    rows = json.loads(arena("standings", "--db", str(site.db), "--format", "json", cwd=site.root, check=True).stdout)
    row = next(r for r in rows if r["table_name"] == "detour" and r["bot_id"] == alpha)
    assert next(p for p in row["pairs"] if p["b"] == beta) == expected
    assert all(r["pairs"] == [] for r in rows if r["players"] not in (2, None))
    page = (site.out / "tables" / "detour.html").read_text()
    shown = re.findall(r'<tr class="pair-row" data-a="([^"]+)" data-b="([^"]+)">(.*?)</tr>', page, re.S)
    cells = next(text for a, b, text in shown if {a, b} == {alpha, beta})
    a_first = next(a for a, b, _ in shown if {a, b} == {alpha, beta}) == alpha
    shown_counts = [int(n) for n in re.findall(r'<td class="num penta">(\d+)</td>', cells)]
    assert shown_counts == (counts if a_first else counts[::-1])
    assert 'id="h2h-legend"' in page and "Holm" in page and 'class="h2h joint-los"' in page
