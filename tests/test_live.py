"""The served site of a real league (``arena league --serve``, real bot
processes, a real SQLite file) in a real browser: a game that ends is in
the standings and the games list within two seconds, without a reload; a
game in progress is watched move by move until it is stored. And
``arena serve``: the site of a store, its pages told when it is built
again."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import subprocess
import time
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from support import ARENA, arena_environment, random_bots

pytestmark = pytest.mark.slow

LATENCY = 2.0  # seconds from a game's end to the page showing it
# A random bot taking its time: 0.06 s a move, but 0.5 s for its 9th to 16th moves in the second
# seat, so that a game it plays there has over 3 s to go at any step under 20: time for a page to
# open it, however loaded the machine, before it ends (a random Detour game can last hundreds of
# moves, so the slow ones are not all of them).
STEADY = """\
import json, random, sys, time

chooser, seat, moves = random.Random(), 0, 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "steady", "games": message["games"]}), flush=True)
    elif message["type"] == "game_start":
        chooser.seed(message["seed"])
        seat, moves = message["seat"], 0
    elif message["type"] == "decide":
        moves += 1
        time.sleep(0.5 if seat == 1 and 8 < moves <= 16 else 0.06)
        print(json.dumps({"type": "action", "action": chooser.choice(message["actions"])}), flush=True)
    elif message["type"] == "bye":
        break
"""


def _finished_at(db: Path, number: int) -> float:
    """When the site's game ``number`` (numbered as stored) ended."""
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as conn:
        [(finished,)] = conn.execute("SELECT finished_at FROM games ORDER BY rowid LIMIT 1 OFFSET ?",
                                     [number - 1]).fetchall()
    return finished


@contextmanager
def _running(command: list[str], cwd: Path):
    """``command`` running (its stderr in a file), and the address it
    serves the site at, once it says so."""
    errors = cwd / "stderr.txt"
    with open(errors, "w") as sink:
        process = subprocess.Popen(command, cwd=cwd, env=arena_environment(None), stdout=subprocess.DEVNULL,
                                   stderr=sink, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not (found := re.search(r"served at (http://127\.0\.0\.1:\d+/)", errors.read_text())):
            assert process.poll() is None and time.monotonic() < deadline, errors.read_text()
            time.sleep(0.1)
        yield found.group(1), process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _stamps(page, selector: str, pattern: str) -> None:
    """Record, in the page, when each number ``pattern`` finds in the text
    of ``selector`` first shows (window.seen: number -> Date.now())."""
    page.evaluate("""([selector, pattern]) => {
        window.seen = {};
        window.notReloaded = true;
        const look = () => {
            const found = document.querySelector(selector);
            const match = found && new RegExp(pattern).exec(found.textContent);
            if (match && !(match[1] in window.seen)) window.seen[match[1]] = Date.now();
        };
        new MutationObserver(look).observe(document.body, {subtree: true, childList: true, characterData: true});
        look();
    }""", [selector, pattern])


def _latencies(watched, db: Path, count: int, errors: Path) -> list[float]:
    """Wait for ``count`` numbers after the first seen; each one's delay
    after its game ended, in seconds. If they do not come: what the page
    saw and showed, its problems and the league's output."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page = watched.page
    try:
        page.wait_for_function(f"Object.keys(window.seen).length > {count}", timeout=120_000)
    except PlaywrightTimeout:
        shown = page.evaluate("[JSON.stringify(window.seen), document.querySelector('main').innerText.slice(0, 600)]")
        raise AssertionError("\n".join([f"seen {shown[0]}", shown[1], *watched.problems,
                                         errors.read_text()[-3000:]])) from None
    assert page.evaluate("window.notReloaded") is True
    seen = {int(number): stamp / 1000 for number, stamp in page.evaluate("window.seen").items()}
    first = min(seen)
    return [stamp - _finished_at(db, number) for number, stamp in sorted(seen.items()) if number > first]


def _clean(watched) -> None:
    """No problem but a request to live/ cut when its page goes (the push
    channel, a status asked for as the replay of a game just stored loads)."""
    problems = [p for p in watched.problems if not (p.startswith("request failed") and "/live/" in p)]
    assert not problems, "\n".join(problems)


def test_the_served_league_in_a_browser(tmp_path, browser):
    from test_browser import Watched

    bots = random_bots(tmp_path / "bots", ["quick"])
    (bots / "steady.py").write_text(STEADY)
    db = tmp_path / "arena.db"
    command = [*ARENA, "league", "--bots", str(bots), "--games", "detour", "--jobs", "1", "--serve", "0",
               "--move-timeout", "1", "--db", str(db), "--out", str(tmp_path / "site")]
    with _running(command, tmp_path) as (address, _):
        standings, games = Watched(browser), Watched(browser)
        try:
            standings.page.goto(address + "index.html")
            standings.page.wait_for_selector("html[data-served=live]")
            _stamps(standings.page, "p.lead", r"^(\d+) games? stored")
            games.page.goto(address + "games.html")
            games.page.wait_for_selector("html[data-served=live]")
            _stamps(games.page, "#games tbody tr td", r"^#(\d+)$")
            output = tmp_path / "stderr.txt"
            late = _latencies(standings, db, 3, output) + _latencies(games, db, 3, output)
            assert max(late) <= LATENCY, late

            # A game in progress, from the live panel, followed step by step until it is stored:
            # one with steady in the second seat, under 20 steps in (seconds to go, see STEADY).
            begun = standings.page.wait_for_function("""() => {
                const row = Array.from(document.querySelectorAll("#live tr[data-key]"))
                    .find((tr) => parseInt(tr.cells[2].textContent, 10) < 20
                                  && /^steady/.test(tr.cells[1].textContent.split(" vs ")[1]));
                return row && row.getAttribute("data-key");
            }""", timeout=30_000).json_value()
            standings.page.locator(f'#live tr[data-key="{begun}"] a.watch').click()
            replay = standings.page.locator("#replay[data-ready='1'][data-live-key]")
            replay.wait_for(timeout=30_000)
            key = replay.get_attribute("data-live-key")
            assert key == begun
            first = int(replay.get_attribute("data-step"))
            standings.page.wait_for_function(
                f"parseInt(document.getElementById('replay').getAttribute('data-step'), 10) > {first}",
                timeout=30_000)
            assert standings.page.locator("#r-events li").count() > first
            standings.page.wait_for_url(re.compile(r"replay\.html#game=\d+"), timeout=60_000)
            standings.page.locator("#replay[data-ready='1']").wait_for(timeout=30_000)
            number = int(re.search(r"game=(\d+)", standings.page.url).group(1))
            with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as conn:
                [(stored,)] = conn.execute("SELECT key FROM games ORDER BY rowid LIMIT 1 OFFSET ?",
                                           [number - 1]).fetchall()
            assert stored == key
            assert re.search(r"Won by|Draw", standings.page.locator("#result").inner_text())
            _clean(standings)
            _clean(games)
        finally:
            standings.context.close()
            games.context.close()


def test_arena_serve_tells_its_pages_of_a_new_build(tmp_path, browser):
    from test_browser import Watched

    bots = random_bots(tmp_path / "bots", ["one", "two"])
    out, db = tmp_path / "site", tmp_path / "arena.db"
    tournament = [*ARENA, "tournament", "--bots", str(bots), "--games", "slyyde", "--rounds", "1",
                  "--db", str(db), "--out", str(out)]
    subprocess.run(tournament, cwd=tmp_path, env=arena_environment(None), check=True, capture_output=True)
    command = [*ARENA, "serve", "--db", str(db), "--out", str(out), "--port", "0"]
    with _running(command, tmp_path) as (address, _):
        watched = Watched(browser)
        try:
            watched.page.goto(address + "index.html")
            watched.page.wait_for_selector("#live .live-idle")
            before = watched.page.locator("p.lead").inner_text()
            _stamps(watched.page, "p.lead", r"^(\d+) games? stored")
            subprocess.run(tournament[:-4] + ["--rounds", "2", "--db", str(db), "--out", str(out)], cwd=tmp_path,
                           env=arena_environment(None), check=True, capture_output=True)
            watched.page.wait_for_function("Object.keys(window.seen).length > 1", timeout=30_000)
            assert watched.page.evaluate("window.notReloaded") is True
            assert watched.page.locator("p.lead").inner_text() != before
            _clean(watched)
        finally:
            watched.context.close()


def test_a_list_chunk_of_an_older_build_that_arrives_late_is_not_shown(tmp_path, browser):
    """Two builds told one after the other, the first one's chunk of the
    games list held back until the second one's is drawn, then answered
    with a row fewer: the list keeps the rows of the build it counts, and
    draws them again without a fault."""
    from test_browser import SHOWN_NUMBERS, Watched

    bots = random_bots(tmp_path / "bots", ["one", "two"])
    out, db = tmp_path / "site", tmp_path / "arena.db"
    subprocess.run([*ARENA, "tournament", "--bots", str(bots), "--games", "slyyde", "--rounds", "1", "--db", str(db),
                    "--out", str(out)], cwd=tmp_path, env=arena_environment(None), check=True, capture_output=True)
    with _running([*ARENA, "serve", "--db", str(db), "--out", str(out), "--port", "0"], tmp_path) as (address, _):
        watched = Watched(browser)
        page = watched.page
        try:
            held = []
            page.route(re.compile(r"/data/list/0\.js\?g=101$"), lambda route: held.append(route))
            page.goto(address + "games.html")
            page.wait_for_function("document.body.dataset.gamesShown !== undefined")
            shown = page.evaluate(SHOWN_NUMBERS)
            assert len(shown) > 1
            page.evaluate("ArenaGamesList.reload(101)")
            deadline = time.monotonic() + 30
            while not held:
                assert time.monotonic() < deadline, "the first build's chunk was never asked for"
                page.wait_for_timeout(20)
            with page.expect_response(re.compile(r"/data/list/0\.js\?g=102$")):
                page.evaluate("ArenaGamesList.reload(102)")
            page.wait_for_function("document.querySelector('#games tbody tr') !== null")
            rows = json.loads((out / "data" / "list" / "0.js").read_text().split(", ", 1)[1].rsplit(");", 1)[0])
            with page.expect_response(re.compile(r"/data/list/0\.js\?g=101$")):
                held[0].fulfill(content_type="text/javascript",
                                body=f"ArenaGamesList.add(0, {json.dumps(rows[:-1])});\n")
            page.evaluate("location.hash = '#page=1'")  # drawn again, from the chunks it holds
            page.wait_for_function("location.hash === '#page=1'")
            page.wait_for_timeout(200)
            assert page.evaluate(SHOWN_NUMBERS) == shown
            _clean(watched)
        finally:
            watched.context.close()


def test_serve_without_a_store_is_one_line(tmp_path):
    result = subprocess.run([*ARENA, "serve", "--db", str(tmp_path / "none.db"), "--out", str(tmp_path / "s")],
                            cwd=tmp_path, env=arena_environment(None), capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"Error: no results database at '{tmp_path / 'none.db'}': run a tournament or a league first (--db)"]
