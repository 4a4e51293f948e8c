"""The leaderboard site in a real browser: Debian's chromium driven by
Playwright, the site opened from file:// exactly as a user opens it after a
real tournament (the same site test_leaderboard.py builds).

Every page load fails the test on a JavaScript error, a console error, a
failed request (a missing file) or a dialog (an ``alert`` a bot smuggled
in). Replays are checked step by step against the engine's own replay of the
record, and one screenshot per game is saved under test-artifacts/."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import time
import zlib
from collections import Counter
from pathlib import Path

import pytest
from support import RANDOM_BOT, arena, python_bot, random_bots, whole_events
from test_leaderboard import XSS_NAME, games_data, numbers, old_game_page, tournament_site

from arena.bots.discovery import discover
from arena.games import GAMES
from arena.games.events import replay
from arena.games.playout import random_playout
from arena.model import BotSpec, DiceKey, GameRecord, Job, Limits, Termination
from arena.play.match import play_match
from arena.play.plan import Entrant, plan_round_robin
from arena.site import builder, paths
from arena.store import Store

# A real browser over a whole tournament's site: the slow set (-m "not slow" leaves it out).
pytestmark = pytest.mark.slow

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
MOUSE_STEPS = 8


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return tournament_site(tmp_path_factory)


class Watched:
    """A page whose every problem is recorded."""

    def __init__(self, browser) -> None:
        self.context = browser.new_context(viewport={"width": 1300, "height": 1000})
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}")
                     if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        # A request the page itself dropped (net::ERR_ABORTED: it navigated, or
        # the browser's own favicon fetch of the page it left) is no fault;
        # a missing or refused file is.
        self.page.on("requestfailed", lambda r: self.problems.append(f"request failed: {r.url} ({r.failure})")
                     if r.failure != "net::ERR_ABORTED" else None)
        self.page.on("dialog", self._dialog)

    def _dialog(self, dialog) -> None:
        self.problems.append(f"dialog {dialog.type}: {dialog.message}")
        dialog.dismiss()

    def assert_clean(self) -> None:
        assert not self.problems, "\n".join(self.problems)


@pytest.fixture
def watched(browser):
    page = Watched(browser)
    yield page
    page.context.close()


def url(path: Path) -> str:
    return path.resolve().as_uri()


def replay_url(out: Path, db: Path, key: str) -> str:
    """A game's replay on the site at ``out`` built from the database ``db``."""
    return url(out / "replay.html") + "#game=" + str(numbers(db)[key])


def pieces_of(game: str, state: dict) -> dict[str, str]:
    """Where the record says every piece stands (the state JSON as each
    rules document describes it), keyed as the drawings key their pieces."""
    if game == "slyyde":
        return {f"p{seat}": str(square) for seat, square in enumerate(state["positions"])}
    if game == "detour":
        return {f"p{p['id']}": "off" if p["space"] is None else str(p["space"]) for p in state["pieces"]}
    if game == "roundabout":
        return {f"d{d['id']}": "off" if d["space"] is None else str(d["space"]) for d in state["darts"]}
    if game == "ciclovia":
        return {f"r{r['seat']}": str(r["space"]) for r in state["riders"]}
    raise AssertionError(f"no piece reader for {game!r}: add one with the game's board drawing")


DOM_PIECES = """() => Object.fromEntries(Array.from(document.querySelectorAll('#board [data-piece]'))
    .map(e => [e.getAttribute('data-piece'), e.getAttribute('data-at')]))"""

STATUS = """() => { const r = document.getElementById('replay');
    return {step: +r.dataset.step, animating: r.dataset.animating === '1'}; }"""

# Every piece's centre must lie on the space it stands on, as drawn.
MISPLACED = """(slack) => {
  const svg = document.getElementById('board');
  const box = svg.viewBox.baseVal, scale = svg.getBoundingClientRect().width / box.width;
  const wrong = [];
  for (const piece of document.querySelectorAll('#board [data-piece]')) {
    const at = piece.getAttribute('data-at');
    if (at === 'off') continue;
    const space = document.querySelector('#board [data-space="' + at + '"]');
    const p = piece.querySelector('.piece-body').getBoundingClientRect(), s = space.getBoundingClientRect();
    const x = p.left + p.width / 2, y = p.top + p.height / 2, pad = slack * scale;
    if (x < s.left - pad || x > s.right + pad || y < s.top - pad || y > s.bottom + pad) {
      wrong.push(piece.getAttribute('data-piece') + ' at ' + at);
    }
  }
  return wrong;
}"""
# Pieces sharing a Detour START stand side by side round it.
SLACK = {"slyyde": 0.0, "detour": 3.6, "roundabout": 0.0, "ciclovia": 0.0}

RUN_TO_END = """() => {
  const forward = document.getElementById('r-forward'), root = document.getElementById('replay');
  const seen = [];
  while (!forward.disabled) {
    forward.click();
    seen.push([+root.dataset.step, root.dataset.animating === '1', (DOM_PIECES)()]);
  }
  return seen;
}""".replace("DOM_PIECES", DOM_PIECES)

# What a step's animation may move: pieces, Detour's wheels, Ciclovia's dice
# and riders' noses (a rider that reverses only turns its nose).
TRANSFORMS = """() => Array.from(document.querySelectorAll(
    '#board [data-piece], #board .dt-wheel, #board .cv-die, #board .cv-nose'))
    .map(e => [e.getAttribute('data-piece'), e.getAttribute('transform'), e.style.opacity].join('|'))"""


def expected_steps(db: Path, game: dict) -> list[dict[str, str]]:
    with Store(db) as store:
        events = whole_events(store, game.key)
    return [pieces_of(game.game, state.to_json())
            for state in replay(GAMES[game.game], game.players, game.options, events)]


def wait_still(page) -> None:
    page.wait_for_function("document.getElementById('replay').dataset.animating === '0'", timeout=20_000)


# The status and the pieces at one moment: read in one turn of the page's
# event loop, so that no animation frame comes between them (a loaded
# machine can let a whole animation end between two evaluations).
STATUS_AND_PIECES = "() => [(STATUS)(), (DOM_PIECES)()]".replace("STATUS", STATUS).replace("DOM_PIECES", DOM_PIECES)


def check_step(page, expected: list[dict[str, str]], k: int) -> None:
    status, drawn = page.evaluate(STATUS_AND_PIECES)
    assert status["step"] == k
    if status["animating"]:
        assert drawn == expected[k - 1]  # drawn from the position before
        wait_still(page)
    assert page.evaluate(DOM_PIECES) == expected[k], f"step {k}"


def step_through_and_half_speed(watched: Watched, site, game: dict, screenshot: str | None) -> None:
    """Step through the whole replay with the forward button, checking
    every position against the record, then replay the last move at half
    speed and check it moves the way the record says."""
    page = watched.page
    expected = expected_steps(site.db, game)
    last = len(expected) - 1
    page.wait_for_selector("#replay[data-ready='1']")
    assert page.evaluate(DOM_PIECES) == expected[0]
    page.select_option("#r-speed", "4")
    for k in range(1, min(last, MOUSE_STEPS) + 1):
        page.click("#r-forward")
        check_step(page, expected, k)
    for step, animating, drawn in page.evaluate(RUN_TO_END):
        assert drawn == expected[step - 1 if animating else step], f"step {step}"
    wait_still(page)
    assert page.evaluate(STATUS)["step"] == last
    assert page.evaluate(DOM_PIECES) == expected[last]
    assert page.evaluate(MISPLACED, SLACK[game.game]) == []
    assert page.is_visible("#r-banner")
    assert page.is_disabled("#r-forward") and not page.is_disabled("#r-back")

    # Replay the last move at half speed: it is the latest step that moves
    # something; compare with the same step at normal speed.
    page.select_option("#r-speed", "1")
    page.click("#r-half")
    moved = int(page.get_attribute("#replay", "data-anim-step"))
    assert page.get_attribute("#replay", "data-anim-speed") == "0.5"
    wait_still(page)
    page.fill("#r-jump", str(moved - 1))
    page.press("#r-jump", "Enter")
    assert page.evaluate(DOM_PIECES) == expected[moved - 1]
    page.click("#r-forward")
    normal = int(page.get_attribute("#replay", "data-anim-duration"))
    wait_still(page)
    before = page.evaluate(TRANSFORMS)
    page.click("#r-half")
    started = time.monotonic()
    half = int(page.get_attribute("#replay", "data-anim-duration"))
    assert half == pytest.approx(2 * normal, abs=2)
    samples = []
    while page.evaluate(STATUS)["animating"]:
        samples.append(page.evaluate(TRANSFORMS))
        if screenshot and len(samples) == 4:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{screenshot}-moving.png"))
        page.wait_for_timeout(40)
    elapsed = time.monotonic() - started
    after = page.evaluate(TRANSFORMS)
    assert elapsed >= 0.8 * half / 1000
    assert page.evaluate(STATUS) == {"step": moved, "animating": False}
    assert page.evaluate(DOM_PIECES) == expected[moved]
    assert before != after or any(sample != after for sample in samples)
    in_between = {tuple(sample) for sample in samples} - {tuple(before), tuple(after)}
    assert len(in_between) >= 3, "the move did not animate"
    assert page.evaluate(MISPLACED, SLACK[game.game]) == []
    if screenshot:
        if not page.is_disabled("#r-last"):
            page.click("#r-last")
        wait_still(page)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{screenshot}.png"), full_page=True)
    watched.assert_clean()


def a_game(site, name: str) -> dict:
    """A game of ``name`` between the two random bots, played to the end."""
    with Store(site.db) as store:
        bots = {row["name"]: bot_id for bot_id, row in store.bots().items()}
        pair = {bots["alpha"], bots["beta"]}
        games = [g for g in store.games(game=name) if set(g.seats) == pair]
    return games[0]


# ---------------------------------------------------------------- tests


def test_index_sort_bot_games_and_a_replay(site, watched):
    page = watched.page
    page.goto(url(site.out / "index.html"))
    overall = page.locator("table.standings[data-table='overall']")
    assert overall.locator("a.bot", has_text=XSS_NAME).inner_text() == XSS_NAME

    heading = overall.locator("thead th", has_text="games")
    column = """(index) => Array.from(document.querySelectorAll("table[data-table='overall'] tbody tr"))
        .map(tr => +tr.cells[index].getAttribute('data-value'))"""
    index = overall.locator("thead th").all_inner_texts().index("GAMES")
    heading.click()
    assert heading.get_attribute("aria-sort") == "descending"
    values = page.evaluate(column, index)
    assert values == sorted(values, reverse=True)
    heading.click()
    assert heading.get_attribute("aria-sort") == "ascending"
    assert page.evaluate(column, index) == sorted(values)
    rating = overall.locator("thead th", has_text="rating").first
    rating.click()
    ratings = page.evaluate(column, 2)
    assert ratings == sorted(ratings, reverse=True) and len(set(ratings)) > 1

    overall.locator("a.bot", has_text="alpha").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "alpha"
    page.locator("section.version-box h2 a").first.click()
    page.wait_for_load_state()
    assert page.locator("h1 .bot-name").inner_text() == "alpha"
    assert page.locator("svg.chart").count() == len(GAMES) + 1

    page.click("a.games-link")
    page.wait_for_function("document.body.dataset.gamesShown !== undefined")
    with Store(site.db) as store:
        alpha = next(b for b, row in store.bots().items() if row["name"] == "alpha")
        mine = [g for g in store.games() if alpha in g.seats]
    assert int(page.get_attribute("body", "data-games-shown")) == len(mine)
    page.select_option("#f-game", "detour")
    page.select_option("#f-result", "win")
    wins = [g for g in mine if g.game == "detour" and g.winners and g.seats.index(alpha) in g.winners
            and len(g.winners) < g.players]
    page.wait_for_function(f"document.body.dataset.gamesShown === '{len(wins)}'")
    assert page.locator("#games tbody tr").count() == min(50, len(wins))
    page.select_option("#f-result", "")
    page.locator("#games tbody tr", has_text="beta").first.locator("a.game-link").click()
    page.wait_for_load_state()
    assert "/replay.html#game=" in page.url
    shown = int(page.url.rsplit("=", 1)[1])
    game = next(g for g in mine if numbers(site.db)[g.key] == shown)
    assert game.game == "detour"
    step_through_and_half_speed(watched, site, game, None)


def test_a_table_page_shows_pair_statistics_the_legend_and_the_crashers_rating(site, watched):
    """The detour table: the colour legend names the correction, the pair
    statistics table lists seat-swapped pairs (one each: no interval), the joint LOS matrix is there,
    and the crasher (who never won at detour) has a rating with an interval, last, in a tier of its own."""
    page = watched.page
    page.goto(url(site.out / "tables" / "detour.html"))
    legend = page.locator("#h2h-legend")
    assert legend.is_visible() and "Holm" in legend.inner_text()
    assert legend.locator(".ev-key").count() == 5
    rows = page.locator("table.pairs tbody tr.pair-row")
    assert rows.count() >= 3
    first = rows.first.locator("td").all_inner_texts()
    assert len(first) == 12 and sum(int(n) for n in first[3:8]) == int(first[2])
    # One round: one pair each, too few for an interval or a LOS (issue 27: a zero-width interval before)
    assert first[2] == "1" and first[9].endswith("(no interval: too few pairs (1 < 10))") and first[10] == "–"
    assert page.locator("table.joint-los td.los-cell").count() >= 2
    rows_of_standings = page.locator("table.standings tbody tr")
    crasher = rows_of_standings.last
    assert "crasher" in crasher.inner_text() and "±" in crasher.locator("td.rating").inner_text()
    tiers = [int(t) for t in page.locator("table.standings tbody td.tier").all_inner_texts()]
    assert tiers[-1] > max(tiers[:-1])
    assert "virtual draws" in page.locator(".order-note").inner_text()
    page.locator("table.pairs thead th", has_text="LOS").click()
    watched.assert_clean()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_replay_of_every_game(site, watched, name):
    game = a_game(site, name)
    watched.page.goto(replay_url(site.out, site.db, game.key))
    step_through_and_half_speed(watched, site, game, f"replay-{name}")
    assert (ARTIFACTS / f"replay-{name}.png").stat().st_size > 10_000


def test_a_replay_draws_the_stored_luck_of_every_roll(site, watched):
    """The luck chart (luck.js) draws each chance event's stored luck per
    seat as a bar of its figure's height, and each seat's stored total."""
    game = a_game(site, "detour")
    with Store(site.db) as store:
        luck = store.luck(game.key)
    assert luck is not None and luck["rolls"] and len(luck["totals"]) == 2
    page = watched.page
    page.goto(replay_url(site.out, site.db, game.key))
    page.wait_for_selector("#luck .luck-roll")
    bars = page.eval_on_selector_all(
        "#luck .luck-roll", "bars => bars.map(b => [+b.dataset.event, +b.dataset.seat, +b.dataset.luck, "
                            "b.getBBox().height, b.getBBox().y])")
    assert [bar[:3] for bar in bars] == [[event, seat, value] for event, values in luck["rolls"]
                                         for seat, value in enumerate(values)]
    zero = page.eval_on_selector("#luck .luck-zero", "line => line.getBBox().y")
    scales = {round(height / abs(value), 3) for _, _, value, height, _ in bars if abs(value) > 0.01}
    assert scales and max(scales) - min(scales) < 0.05 * max(scales)  # every bar its figure's height
    assert all((y < zero - 0.1) == (value > 0) for _, _, value, height, y in bars if abs(value) > 0.01)
    totals = page.eval_on_selector_all("#luck .luck-totals li", "items => items.map(i => +i.dataset.total)")
    assert totals == luck["totals"]
    assert page.locator("#luck polyline.luck-total").count() == 2
    watched.assert_clean()


# The boards' legends: every kind of space, each drawn from a space of the board.
LEGENDS = {"slyyde": 7, "detour": 6, "ciclovia": 7, "roundabout": 6}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_replay_explains_each_decision(site, watched, name):
    """Opened at #step=N (a decision of a real tournament game): the offered
    actions ringed on the board and listed, the chosen one marked on both,
    the exact decide message the bot received and how long it took; a
    legend of the board's spaces."""
    game = a_game(site, name)
    with Store(site.db) as store:
        events = whole_events(store, game.key)
        times = store.decision_times(game.key)
    states = [state.to_json() for state in replay(GAMES[name], game.players, game.options, events)]
    decisions = [k for k, event in enumerate(events) if event["kind"] == "decision"]
    assert len(times.seconds) == len(decisions) and times.move_timeout == 5.0
    k = next(k for k in decisions if len(events[k]["offered"]) > 1)  # event k: step k + 1
    page = watched.page
    page.goto(replay_url(site.out, site.db, game.key) + f"&step={k + 1}")
    page.wait_for_selector("#replay[data-ready='1']")
    assert page.get_attribute("#replay", "data-step") == str(k + 1)
    event = events[k]
    items = page.locator("#r-event ol.offered li")
    assert items.count() == len(event["offered"])
    assert items.nth(event["chosen"]).get_attribute("class").split().count("chosen") == 1
    rings = page.locator("#board .offer-spot")
    ringed = [set(map(int, rings.nth(i).get_attribute("data-offers").split())) for i in range(rings.count())]
    chosen_rings = page.locator("#board .offer-spot.chosen")
    assert chosen_rings.count() == sum(event["chosen"] in ring for ring in ringed)
    if rings.count():  # hovering a ring lights its actions in the list
        rings.first.hover()
        lit = {int(i) for i in page.eval_on_selector_all("#r-event ol.offered li.lit",
                                                          "items => items.map(i => i.dataset.index)")}
        assert lit == ringed[0]
    message = page.locator("#r-message")
    number = decisions.index(k)
    assert "answered in" in message.locator("summary").inner_text()
    message.locator("summary").click()
    page.wait_for_function("document.querySelector('#r-message pre').textContent !== ''")
    shown = json.loads(message.locator("pre").inner_text())
    assert shown == {"type": "decide", "state": states[k], "actions": event["offered"], "timeout_ms": 5000}
    assert times.seconds[number] < 5.0
    assert page.locator(".board-legend li").count() == LEGENDS[name]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"decision-{name}.png"), full_page=True)
    page.click("#r-forward")
    number = numbers(site.db)[game.key]
    page.wait_for_function(f"location.hash === '#game={number}&step={k + 2}'")  # the address follows the step
    if name == "detour":  # pieces sharing a space: a badge says how many
        page.click("#r-first")
        shared = Counter(p["space"] for p in states[0]["pieces"] if p["space"] is not None)
        badges = page.eval_on_selector_all(
            "#board .stack-badge", "bs => bs.map(b => [b.dataset.stack, b.querySelector('text').textContent])")
        assert sorted(badges) == sorted([str(space), str(n)] for space, n in shared.items() if n > 1) != []
    watched.assert_clean()


def test_replays_are_found_in_their_chunks_and_a_missing_game_is_said(site, watched, tmp_path, monkeypatch):
    """Built with chunks of 7 games, every chunk's first and last game opens
    at its address, at the step asked for; a game there is not says so."""
    monkeypatch.setattr(paths, "REPLAYS_PER_CHUNK", 7)
    with Store(site.db) as store:
        builder.build(store, tmp_path / "site")
        games = {g.key: g for g in store.games()}
    numbered = {n: games[key] for key, n in numbers(site.db).items()}
    assert len(list((tmp_path / "site" / "data" / "replays").glob("*.js"))) == -(-len(numbered) // 7) > 3
    page = watched.page
    for n in sorted({n for n in numbered if n % 7 in (0, 1)} | {len(numbered)}):
        page.goto("about:blank")
        page.goto(url(tmp_path / "site" / "replay.html") + f"#game={n}&step=1")
        page.wait_for_selector("#replay[data-ready='1']")
        assert page.get_attribute("#replay", "data-step") == "1"
        game = numbered[n]
        assert page.locator("#game-head dd code").first.text_content() == game.key
        assert page.title().startswith(game.game.capitalize())
    watched.assert_clean()
    page.goto("about:blank")
    page.goto(url(tmp_path / "site" / "replay.html") + f"#game={len(numbered) + 7}")
    page.wait_for_selector("#replay[data-ready='error']")
    assert f"There is no game {len(numbered) + 7} on this site." in page.inner_text("#replay")


def test_a_record_made_under_other_rules_is_said_not_shown_wrong(site, watched, tmp_path):
    """The page replays a game's record with the game's engine: a record
    whose offered actions digest to something else, or that chose an action
    the engine does not offer, was made under other rules; the page says so
    and shows only the steps that replayed."""
    db = tmp_path / "arena.db"
    with Store(site.db) as store:
        store.db.execute("VACUUM INTO ?", [str(db)])
        games = [g for g in store.games(game="detour") if g.termination is Termination.NORMAL][:2]
    with Store(db, writer=True) as store:
        store.db.execute("UPDATE games SET offered = '00000000' WHERE key = ?", [games[0].key])
        events, _ = store.record(games[1].key)
        changed = next(n for n, event in enumerate(events) if event["kind"] == "decision" and n > 3)
        events[changed]["chosen"] = 99
        store.db.execute("UPDATE games SET record = ? WHERE key = ?",
                         [zlib.compress(json.dumps(events).encode()), games[1].key])
        builder.build(store, tmp_path / "site")
        steps = {g.key: len(store.record(g.key)[0]) for g in games}
    page = watched.page
    for game, shown, said in ((games[0], steps[games[0].key], "the record was made under other rules"),
                              (games[1], changed, f"does not replay on this engine after step {changed}")):
        page.goto("about:blank")
        page.goto(url(tmp_path / "site" / "replay.html") + f"#game={numbers(db)[game.key]}")
        page.wait_for_selector("#replay[data-ready='1']")
        assert said in page.inner_text("#replay .problem")
        assert page.get_attribute("#r-slider", "max") == str(shown)
    watched.assert_clean()


def test_an_old_game_page_address_opens_the_game_at_its_step(site, watched, tmp_path):
    """A site built by an arena that wrote a page per game: the old address
    of a game's page, with its #step=K, opens that game's replay at step K."""
    out = tmp_path / "site"
    shutil.copytree(site.out, out)
    (out / "manifest.json").unlink()
    keys = list(numbers(site.db))
    for key in keys:
        page = old_game_page(out, key)
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text("<!doctype html><title>an old game page</title>")
    with Store(site.db) as store:
        builder.build(store, out)
    page = watched.page
    for key, step in ((keys[0], 3), (keys[-1], None)):
        page.goto("about:blank")
        page.goto(url(old_game_page(out, key)) + (f"#step={step}" if step else ""))
        page.wait_for_selector("#replay[data-ready='1']")
        assert page.locator("#game-head dd code").first.text_content() == key
        assert page.evaluate("location.pathname").endswith("/replay.html")
        assert page.get_attribute("#replay", "data-number") == str(numbers(site.db)[key])
        if step:
            assert page.get_attribute("#replay", "data-step") == str(step)
    watched.assert_clean()


def test_a_hostile_name_and_stderr_stay_text(site, watched):
    page = watched.page
    page.goto(url(site.out / "index.html"))
    page.locator("table[data-table='overall'] a.bot", has_text=XSS_NAME).click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == XSS_NAME
    page.locator("section.version-box h2 a").first.click()
    page.wait_for_load_state()
    page.click("a.games-link")
    page.wait_for_function("Number(document.body.dataset.gamesShown) > 0")
    assert page.locator("#f-bot option:checked").inner_text().startswith(XSS_NAME)
    page.locator("#games tbody tr a.game-link").first.click()
    page.wait_for_selector("#replay[data-ready='1']")
    assert XSS_NAME in page.locator("ul.seats").inner_text()
    inline = page.locator("script:not([src])")  # only the replay data and the luck data, neither run
    assert inline.count() == 2
    assert {inline.nth(n).get_attribute("type") for n in range(2)} == {"application/json"}
    page.goto(url(site.out / "index.html"))
    page.locator("table[data-table='overall'] a.bot", has_text="crasher").click()
    page.locator("section.version-box h2 a").first.click()
    page.wait_for_load_state()
    page.locator("a.log-link").first.click()
    page.wait_for_load_state()
    assert "<script>alert('stderr')</script>" in page.locator("pre.log").inner_text()
    watched.assert_clean()


def test_the_games_list_pages_and_filters(site, watched):
    page = watched.page
    with Store(site.db) as store:
        games = list(store.games())
    page.goto(url(site.out / "games.html"))
    page.wait_for_function("document.body.dataset.gamesShown !== undefined")
    assert int(page.get_attribute("body", "data-games-shown")) == len(games)
    pages = -(-len(games) // 50)
    assert page.inner_text("#p-label") == f"page 1 of {pages}"
    first = page.locator("#games tbody tr a.game-link").first.inner_text()
    assert first == f"#{len(games)}"  # newest first
    page.click("#p-next")
    # The address changes first and the list redraws on hashchange: wait for the redraw.
    page.wait_for_function(f"document.getElementById('p-label').textContent === 'page 2 of {pages}'")
    assert "page=2" in page.evaluate("location.hash")
    assert page.locator("#games tbody tr").count() == len(games) - 50
    page.select_option("#f-result", "forfeit")
    forfeits = sum(1 for g in games if g.forfeit_seat is not None)
    page.wait_for_function(f"document.body.dataset.gamesShown === '{forfeits}'")
    assert page.inner_text("#p-label") == "page 1 of 1"
    # Each forfeit links the forfeiting bot's stderr of that game (the crasher writes before it fails).
    assert page.locator("#games tbody tr a.log-link").count() == forfeits
    page.locator("#games tbody tr a.log-link").first.click()
    page.wait_for_load_state()
    assert "about to fail" in page.locator("pre.log").inner_text()
    page.go_back()
    page.wait_for_function("document.body.dataset.gamesShown !== undefined")
    page.select_option("#f-result", "draw")
    draws = sum(1 for g in games if g.players > 1 and len(g.winners) in (0, g.players))
    page.wait_for_function(f"document.body.dataset.gamesShown === '{draws}'")
    watched.assert_clean()


LOADED_CHUNKS = """() => Array.from(document.querySelectorAll('script[src^="data/list/"]'))
    .map(script => Number(script.getAttribute('src').match(/(\\d+)\\.js$/)[1])).sort((a, b) => a - b)"""
SHOWN_NUMBERS = """() => Array.from(document.querySelectorAll('#games tbody tr a.game-link'))
    .map(a => Number(a.textContent.slice(1)))"""


def test_the_games_list_reads_only_the_chunks_its_page_needs(site, watched, tmp_path, monkeypatch):
    """Built with lists of 5 games to a chunk: each page of the unfiltered
    list, opened at its address, loads only the chunks holding its rows; a
    filtered list reads the chunks it needs to fill its page, then the rest
    to count, and shows the games the whole list filtered in Python shows."""
    monkeypatch.setattr(paths, "ROWS_PER_CHUNK", 5)
    with Store(site.db) as store:
        builder.build(store, tmp_path / "site")
        games = {g.key: g for g in store.games()}
    total = len(games)
    chunks = -(-total // 5)
    assert total > 50  # two pages, the second in chunks the first does not load
    page = watched.page
    for number, address in ((1, ""), (2, "#page=2")):
        page.goto("about:blank")  # a fresh document each time
        page.goto(url(tmp_path / "site" / "games.html") + address)
        page.wait_for_function(f"document.body.dataset.gamesShown === '{total}'")
        shown = list(range(total - 50 * (number - 1), max(0, total - 50 * number), -1))
        assert page.evaluate(SHOWN_NUMBERS) == shown
        assert page.evaluate(LOADED_CHUNKS) == sorted({(n - 1) // 5 for n in shown})
        assert page.inner_text("#p-label") == f"page {number} of {-(-total // 50)}"
    by_number = {n: games[key] for key, n in numbers(site.db).items()}
    wins = [n for n in range(total, 0, -1) if by_number[n].players > 1 and len(by_number[n].winners) == 1]
    page.goto("about:blank")
    page.goto(url(tmp_path / "site" / "games.html") + "#result=win")
    page.wait_for_function(f"document.body.dataset.gamesShown === '{len(wins)}'")
    assert page.evaluate(SHOWN_NUMBERS) == wins[:50]
    assert page.evaluate(LOADED_CHUNKS) == list(range(chunks))
    assert page.inner_text("#p-label") == f"page 1 of {-(-len(wins) // 50)}"
    watched.assert_clean()


def test_the_games_list_reads_its_fields_by_the_schemas_names(site, watched, tmp_path):
    """The same games with the fields of every row and bot in another order
    (and their names in that order, as arena/site/schema.json names them):
    the list shows exactly the same, so games.js reads by name, not place."""
    page = watched.page
    table = """() => Array.from(document.querySelectorAll('#games tbody tr'))
        .map(tr => Array.from(tr.cells).map(td => td.innerText + '|' + td.innerHTML))"""
    shown = {}
    for label, out in (("as written", site.out), ("shuffled", tmp_path / "site")):
        if label == "shuffled":
            shutil.copytree(site.out / "static", out / "static")
            data = games_data(site.out)
            for kind in ("rows", "bots"):
                order = list(reversed(range(len(data["fields"][kind]))))
                data["fields"][kind] = [data["fields"][kind][k] for k in order]
                data[kind] = [[record[k] for k in order] for record in data[kind]]
            (out / "data" / "list").mkdir(parents=True)
            rows, size = data.pop("rows"), data["chunkSize"]
            (out / "data" / "games.js").write_text("window.ARENA_GAMES = " + json.dumps(data) + ";\n")
            for chunk, start in enumerate(range(0, len(rows), size)):
                (out / paths.list_chunk_path(chunk)).write_text(
                    f"ArenaGamesList.add({chunk}, {json.dumps(rows[start:start + size])});\n")
            shutil.copy(site.out / "games.html", out / "games.html")
        for filters in ("", "#result=win", "#result=draw", "#result=forfeit&page=1"):
            page.goto("about:blank")  # a fresh document each time, not a hash change
            page.goto(url(out / "games.html") + filters)
            page.wait_for_function("document.body.dataset.gamesShown !== undefined")
            shown[label, filters] = (page.get_attribute("body", "data-games-shown"), page.evaluate(table))
    for filters in ("", "#result=win", "#result=draw", "#result=forfeit&page=1"):
        assert shown["as written", filters] == shown["shuffled", filters]
    assert int(shown["as written", ""][0]) > 50
    watched.assert_clean()


# ---------------------------------------------------------------- animations

SAMPLE_STEP = """async (selectors) => {
  const root = document.getElementById('replay');
  const samples = [];
  const look = () => selectors.map(selector => {
    const element = document.querySelector(selector);
    const body = element.querySelector('.piece-body') || element;
    const r = body.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2, element.getAttribute('transform') || ''];
  });
  samples.push(look());
  document.getElementById('r-forward').click();
  await new Promise(resolve => {
    const tick = () => {
      samples.push(look());
      if (root.dataset.animating === '1') requestAnimationFrame(tick); else resolve();
    };
    requestAnimationFrame(tick);
  });
  return samples;
}"""

CENTRE_OF = """(space) => {
    const r = document.querySelector('#board [data-space="' + space + '"]').getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2, r.width]; }"""


def _first_effect(game: str, players: int, wanted) -> tuple[int, list, int, dict]:
    """A seeded random game with an effect that ``wanted`` accepts: the
    seed, the events, the step and the effect."""
    for seed in range(5000):
        _, events = random_playout(GAMES[game], players, seed)
        for step, state in enumerate(replay(GAMES[game], players, {}, events)):
            for effect in state.to_json()["last"]:
                if wanted(effect):
                    return seed, events, step, effect
    raise AssertionError(f"no {game} game with the effect wanted")


@pytest.fixture(scope="module")
def showcase(tmp_path_factory):
    """A site with two engine-played games chosen for their animations: a
    Slyyde sweep and a Detour wheel turn carrying a piece."""
    root = tmp_path_factory.mktemp("showcase")
    bots = [BotSpec(name, ("true",), "/bin/true", name * 8) for name in ("north", "south")]
    chosen = {
        "slyyde": _first_effect("slyyde", 2, lambda e: e["cause"] == "sweep" and len(e["path"]) >= 4),
        "detour": _first_effect("detour", 2, lambda e: e["cause"] == "wheel" and e["carried"]),
    }
    with Store(root / "arena.db", writer=True) as store:
        store.add_bots(bots)
        for order, (name, (seed, events, _, _)) in enumerate(sorted(chosen.items())):
            *_, state = replay(GAMES[name], 2, {}, events)
            outcome = state.outcome()
            store.add_game(GameRecord(Job(f"show/{name}", name, tuple(b.bot_id for b in bots), seed, 0, order),
                                      events, outcome.placements,
                                      Termination.NORMAL if outcome.termination is Termination.NORMAL
                                      else Termination.TURN_CAP))
    with Store(root / "arena.db") as store:
        builder.build(store, root / "site")
    return root / "site", chosen


def _open_before(watched, site: Path, key: str, step: int):
    page = watched.page
    page.goto(replay_url(site, site.parent / "arena.db", key))
    page.wait_for_selector("#replay[data-ready='1']")
    page.select_option("#r-speed", "0.5")
    page.fill("#r-jump", str(step - 1))
    page.press("#r-jump", "Enter")
    return page


def test_a_slyyde_sweep_carries_the_swept_pawn(showcase, watched):
    site, chosen = showcase
    _, _, step, sweep = chosen["slyyde"]
    slyyder, swept = sweep["by"], sweep["seat"]
    page = _open_before(watched, site, "show/slyyde", step)
    samples = page.evaluate(SAMPLE_STEP, [f"[data-piece=p{slyyder}]", f"[data-piece=p{swept}]"])
    assert page.get_attribute(f"[data-piece=p{swept}]", "data-at") == str(sweep["to"])
    start = page.evaluate(CENTRE_OF, sweep["from"])
    cell = start[2]
    first = samples[0][1]
    moving = [n for n, (_, pawn) in enumerate(samples) if abs(pawn[0] - first[0]) + abs(pawn[1] - first[1]) > 0.5]
    assert moving, "the swept pawn never moved"
    # It waits on its square until the slyyding pawn reaches it ...
    leaves = moving[0]
    mover = samples[leaves][0]
    assert abs(mover[0] - start[0]) + abs(mover[1] - start[1]) < 0.9 * cell
    assert leaves > 2
    # ... then travels with it, pawn beside pawn, to the Safe square.
    for sample in samples[leaves:]:
        assert abs(sample[0][0] - sample[1][0]) + abs(sample[0][1] - sample[1][1]) < 0.9 * cell
    end = page.evaluate(CENTRE_OF, sweep["to"])
    assert abs(samples[-1][1][0] - end[0]) < cell / 2 and abs(samples[-1][1][1] - end[1]) < cell / 2

    # The other controls: jump by clicking an event, play and pause.
    page.locator("#r-events li").nth(2).click()
    assert page.get_attribute("#replay", "data-step") == "3"
    page.select_option("#r-speed", "4")
    page.click("#r-first")
    page.click("#r-play")
    page.wait_for_function("+document.getElementById('replay').dataset.step >= 3")
    page.click("#r-play")
    wait_still(page)
    paused = page.get_attribute("#replay", "data-step")
    page.wait_for_timeout(700)
    assert page.get_attribute("#replay", "data-step") == paused
    assert page.get_attribute("#replay", "data-playing") == "0"
    watched.assert_clean()


def test_a_detour_wheel_turns_and_carries_its_piece(showcase, watched):
    site, chosen = showcase
    _, _, step, turn = chosen["detour"]
    piece = turn["carried"][0]
    page = _open_before(watched, site, "show/detour", step)
    samples = page.evaluate(SAMPLE_STEP, [f".dt-wheel[data-wheel='{turn['wheel']}']", f"[data-piece=p{piece}]"])
    angles = [float(s[0][2].split("(")[1].split()[0]) for s in samples if s[0][2]]
    degrees = {"cw": 90, "ccw": -90, "half": 180}[turn["turn"]]
    sign = 1 if degrees > 0 else -1
    assert angles[-1] - angles[0] == pytest.approx(degrees, abs=0.5)
    assert all((b - a) * sign >= -1e-6 for a, b in zip(angles, angles[1:]))
    assert len({round(a, 1) for a in angles}) >= 5, "the wheel jumped instead of turning"
    assert angles[-1] % 360 == pytest.approx(90 * turn["orientation"] % 360, abs=0.5)
    rotations = [float(s[1][2].split("rotate(")[1].split(")")[0]) for s in samples if "rotate(" in s[1][2]]
    assert ((rotations[-1] - rotations[0]) * sign) % 360 == pytest.approx(abs(degrees), abs=1)
    assert len({round(r, 1) for r in rotations}) >= 5, "the carried piece did not turn with the wheel"
    watched.assert_clean()


# ---------------------------------------------------------------- every variant

VARIANTS = [(name, players, options)
            for name, game in sorted(GAMES.items())
            for players in range(max(2, game.min_players), game.max_players + 1)
            for options in ([{}] + ([{"pieces": 4}] if name == "detour" and players == 2 else []))]


@pytest.fixture(scope="module")
def variants_site(tmp_path_factory):
    """One engine-played game of every game at every player count (and the
    four-piece Detour), and a solo Slyyde game."""
    root = tmp_path_factory.mktemp("variants")
    bots = [BotSpec(f"seat{n}", ("true",), "/bin/true", f"{n}" * 64) for n in range(4)]
    keys = {}
    with Store(root / "arena.db", writer=True) as store:
        store.add_bots(bots)
        for order, (name, players, options) in enumerate(VARIANTS + [("slyyde", 1, {})]):
            final, events = random_playout(GAMES[name], players, 11 + order, options)
            outcome = final.outcome()
            key = f"variant/{name}/{players}/{sorted(options.items())}"
            ending = Termination.NORMAL if outcome.termination is Termination.NORMAL else Termination.TURN_CAP
            store.add_game(GameRecord(
                Job(key, name, tuple(b.bot_id for b in bots[:players]), 11 + order, 0, order, options),
                events, outcome.placements, ending, scores=outcome.scores))
            keys[name, players, json_key(options)] = key
    with Store(root / "arena.db") as store:
        builder.build(store, root / "site")
    return root, keys


def json_key(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(options.items()))


@pytest.mark.parametrize("variant", VARIANTS + [("slyyde", 1, {})],
                         ids=lambda v: f"{v[0]}-{v[1]}p{'-' + json_key(v[2]) if v[2] else ''}")
def test_every_player_count_is_drawn_and_replayed(variants_site, watched, variant):
    root, keys = variants_site
    name, players, options = variant
    key = keys[name, players, json_key(options)]
    page = watched.page
    page.goto(replay_url(root / "site", root / "arena.db", key))
    page.wait_for_selector("#replay[data-ready='1']")
    with Store(root / "arena.db") as store:
        game = next(g for g in store.games() if g.key == key)
    expected = expected_steps(root / "arena.db", game)
    assert page.evaluate(DOM_PIECES) == expected[0]
    assert page.evaluate(MISPLACED, SLACK[name]) == []
    for step, animating, drawn in page.evaluate(RUN_TO_END):
        assert drawn == expected[step - 1 if animating else step], f"step {step}"
    wait_still(page)
    assert page.evaluate(DOM_PIECES) == expected[-1]
    assert page.evaluate(MISPLACED, SLACK[name]) == []
    assert page.locator("#board [data-piece]").count() == len(expected[0])
    watched.assert_clean()


# ---------------------------------------------------------------- widths: a window and a phone

WINDOW = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

# Text an element cuts off: its box hides what overflows (overflow hidden
# or clip, or an ellipsis) and its content is larger than the box. Boxes
# that scroll (a table's frame, the event list, a log) cut nothing.
CLIPPED = """() => Array.from(document.querySelectorAll('body *'))
  .filter(e => !(e instanceof SVGElement))
  .filter(e => { const s = getComputedStyle(e);
    return ['hidden', 'clip'].includes(s.overflowX) || ['hidden', 'clip'].includes(s.overflowY)
      || s.textOverflow === 'ellipsis'; })
  .filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
  .map(e => e.tagName + '.' + e.className + ': ' + e.textContent.slice(0, 40))"""
# Tables wider than their frame (they scroll in it).
SCROLLING_TABLES = """() => Array.from(document.querySelectorAll('.table-wrap'))
  .filter(w => w.scrollWidth > w.clientWidth + 1)
  .map(w => w.querySelector('table').className + ' ' + w.scrollWidth + ' px in ' + w.clientWidth)"""


def _pages_of_every_kind(site, variants_site, crashers_site) -> dict[str, str]:
    """A page of every kind: the index, every table (each game at each
    player count, from the variants site; the real tournament's, with
    head-to-head and pair statistics; one with tiers), the
    games list, bot and version pages (the crasher's, with its forfeits; a
    bot of two versions), a replay of every game at every player count, and
    a stderr log."""
    with Store(site.db) as store:
        bots = {row["name"]: (bot_id, row) for bot_id, row in store.bots().items()}
        games = list(store.games())
    crasher, row = bots["crasher"]
    info = paths.BotInfo(crasher, "crasher", row["content_hash"][:12])
    pages = {"index": site.out / "index.html", "games list": site.out / "games.html",
             "bot": site.out / info.name_page, "version": site.out / info.page,
             "log": next((site.out / "logs").glob("*.html")),
             "bot of two versions": crashers_site.out / crashers_site.alpha.name_page,
             "table with tiers": crashers_site.out / "tables" / "detour.html",
             "variants index": variants_site[0] / "site" / "index.html"}
    for table in sorted((site.out / "tables").glob("*.html")):
        pages[f"table {table.stem}"] = table
    for table in sorted((variants_site[0] / "site" / "tables").glob("*.html")):
        pages[f"variants table {table.stem}"] = table
    addresses = {kind: url(path) for kind, path in pages.items()}
    for name in sorted(GAMES):
        game = next(g for g in games if g.game == name and g.players == 2)
        addresses[f"{name} replay"] = replay_url(site.out, site.db, game.key)
    for key in variants_site[1].values():
        addresses[f"replay {key}"] = replay_url(variants_site[0] / "site", variants_site[0] / "arena.db", key)
    return addresses


def _open(page, kind: str, address: str) -> None:
    page.goto(address)
    if "replay" in kind:
        page.wait_for_selector("#replay[data-ready='1']")
    if kind == "games list":
        page.wait_for_function("document.body.dataset.gamesShown !== undefined")


def test_every_page_fits_a_window_and_a_phone(site, variants_site, crashers_site, browser):
    """At 1280 px no page scrolls sideways and no table scrolls in its
    frame (every column in view); at 390 px (a phone) no page is wider than
    the screen (a wide table scrolls in its own frame, a board too wide for
    it in its own); at both, no text is cut off."""
    pages = _pages_of_every_kind(site, variants_site, crashers_site)
    assert sum(kind.startswith("variants table") for kind in pages) >= 2 * len(GAMES)  # 2p, 3p, 4p...
    problems = []
    for viewport in (WINDOW, PHONE):
        context = browser.new_context(viewport=viewport, device_scale_factor=1)
        try:
            page = context.new_page()
            for kind, address in pages.items():
                _open(page, kind, address)
                width = page.evaluate("document.documentElement.scrollWidth")
                if width > viewport["width"]:
                    problems.append(f"{viewport['width']} px, {kind}: the page is {width} px wide")
                for clipped in page.evaluate(CLIPPED):
                    problems.append(f"{viewport['width']} px, {kind}: cut off: {clipped}")
                if viewport is WINDOW:
                    for table in page.evaluate(SCROLLING_TABLES):
                        problems.append(f"1280 px, {kind}: a table scrolls: {table}")
                if kind == "ciclovia replay" and viewport is PHONE:  # kept readable: it scrolls in its frame
                    board = page.evaluate("document.querySelector('svg.board').getBoundingClientRect().width")
                    assert board >= 600, f"the Ciclovia board is squeezed to {board} px"
        finally:
            context.close()
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- tiers, bot pages, charts


@dataclasses.dataclass
class CrashersSite:
    root: Path
    db: Path
    out: Path
    alpha: paths.BotInfo  # a bot of two versions
    versions: list[str]  # its bot ids


CRASH_ON_DECIDE = """
    import json, sys
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            print(json.dumps({"type": "hello", "name": "crash", "games": ["detour"]}), flush=True)
        elif message["type"] == "decide":
            sys.exit(3)
"""


@pytest.fixture(scope="module")
def crashers_site(tmp_path_factory):
    """A real Detour tournament of three random bots and two bots that
    crash on their first decision. At Detour seat 0 decides first, so in
    each seat-swapped pair of the two crashers each wins once: they beat
    only each other, and lost every game to the rest. Then a second
    version of alpha plays beta through the library, as a tournament would."""
    root = tmp_path_factory.mktemp("bound")
    bots = random_bots(root / "bots", ["alpha", "beta", "gamma"])
    for name in ("xcrash", "ycrash"):
        python_bot(bots, name, CRASH_ON_DECIDE)
    arena("tournament", "--games", "detour", "--rounds", "3", "--jobs", "2", "--move-timeout", "5",
          "--seed", "1", cwd=root, check=True)
    newer = root / "newer"
    newer.mkdir()
    (newer / "alpha.py").write_text(RANDOM_BOT.read_text() + "\n# a second version\n")
    alpha2 = discover([newer])[0]
    beta = next(spec for spec in discover([bots]) if spec.name == "beta")
    entrants = [Entrant(alpha2, frozenset(["detour"])), Entrant(beta, frozenset(["detour"]))]
    with Store(root / "arena.db", writer=True) as store:
        store.add_bots([alpha2])
        for record in play_match(plan_round_robin(entrants, ["detour"], 2, DiceKey.from_seed(5)),
                                 {alpha2.bot_id: alpha2, beta.bot_id: beta}, Limits(move_timeout=5), None):
            store.add_game(record)
    arena("leaderboard", cwd=root, check=True)
    with Store(root / "arena.db") as store:
        versions = sorted(b for b, row in store.bots().items() if row["name"] == "alpha")
        row = store.bots()[alpha2.bot_id]
    assert len(versions) == 2
    return CrashersSite(root, root / "arena.db", root / "leaderboard",
                     paths.BotInfo(alpha2.bot_id, "alpha", row["content_hash"][:12]), versions)


def test_bots_that_beat_only_each_other_are_rated_and_stand_last_in_one_tier(crashers_site, watched):
    """The two crashers won games (against each other) and lost every other
    game: no finite maximum of the likelihood, but every page gives them a
    rating with an interval, below every other bot, in one tier, the last;
    the table's note names the prior; so do arena standings' text and JSON."""
    with Store(crashers_site.db) as store:
        ids = {row["name"]: bot_id for bot_id, row in store.bots().items() if row["name"].endswith("crash")}
        games = [g for g in store.games() if set(g.seats) & set(ids.values())]
    for name, other in (("xcrash", "ycrash"), ("ycrash", "xcrash")):
        me = ids[name]
        outside = [g for g in games if ids[other] not in g.seats]
        inside = [g for g in games if ids[other] in g.seats]
        assert outside and all(g.winners and me not in [g.seats[w] for w in g.winners] for g in outside)
        assert any(me in [g.seats[w] for w in g.winners] for g in inside), f"{name} never beat {other}"

    page = watched.page
    for table_page in ("tables/detour.html", "index.html"):
        page.goto(url(crashers_site.out / table_page))
        rows = page.locator("table.standings[data-table='detour'] tbody tr")
        names = rows.locator("a.bot").all_inner_texts()
        assert sorted(names[-2:]) == ["xcrash", "ycrash"]
        tiers = [int(t) for t in rows.locator("td.tier").all_inner_texts()]
        assert tiers[-1] == tiers[-2] > max(tiers[:-2])
        for row in (rows.nth(len(names) - 1), rows.nth(len(names) - 2)):
            assert int(row.locator("td").nth(6).inner_text()) > 0  # wins
            assert re.fullmatch(r"\d+ ±\d+", row.locator("td.rating").inner_text())
        note = page.locator("section#table-detour .order-note" if table_page == "index.html" else ".order-note")
        assert "virtual draws" in note.inner_text() and "tier" in note.inner_text()
        assert not any("unbounded" in text for text in page.locator("table.standings").all_inner_texts())

    page.goto(url(crashers_site.out / "index.html"))
    page.locator("table[data-table='detour'] a.bot", has_text="xcrash").click()
    page.wait_for_load_state()
    row = page.locator("section.version-box tr", has=page.locator("td[data-value='detour']"))
    assert re.fullmatch(r"\d+", row.locator("td").nth(1).inner_text())
    watched.assert_clean()

    text = arena("standings", cwd=crashers_site.root, check=True).stdout
    assert "virtual draws" in text and "order: by tier" in text and "unbounded" not in text
    rows = json.loads(arena("standings", "--format", "json", cwd=crashers_site.root, check=True).stdout)
    detour = [r for r in rows if r["table_name"] == "detour"]
    assert [r["bot"] for r in detour[-2:]] in (["xcrash", "ycrash"], ["ycrash", "xcrash"])
    assert all(r["joint"] is not None and r["joint_prior_draws"] > 0 for r in detour)
    assert detour[-1]["joint_tier"] == detour[-2]["joint_tier"] > max(r["joint_tier"] for r in detour[:-2])


def test_a_bot_page_has_its_games_and_a_chart_across_its_versions(crashers_site, watched):
    page = watched.page
    page.goto(url(crashers_site.out / crashers_site.alpha.name_page))
    with Store(crashers_site.db) as store:
        mine = sorted((g for g in store.games() if set(g.seats) & set(crashers_site.versions)),
                      key=lambda g: g.finished_at, reverse=True)
    chart = page.locator("figure.chart-box[data-table='detour']")
    series = chart.locator("svg.chart g.series")
    assert series.count() == 2 == chart.locator("ul.chart-legend li.key").count()
    legend = chart.locator("ul.chart-legend").inner_text()
    assert all(f"@{bot_id.rsplit('@', 1)[1][:12]}" in legend for bot_id in crashers_site.versions)
    # a version's line starts where it first played: the newer one after the older one's games
    starts = page.evaluate("""() => Array.from(document.querySelectorAll(
        "figure[data-table='detour'] g.series polyline.line")).map(l => l.points[0].x)""")
    assert len(set(starts)) == 2

    rows = page.locator("table.latest-games tbody tr")
    assert rows.count() == min(20, len(mine))
    assert f"The latest {rows.count()} of {len(mine)}" in page.locator("#games + p").inner_text()
    first = rows.first.locator("a.game-link")
    assert first.get_attribute("href").endswith(paths.replay_address(numbers(crashers_site.db)[mine[0].key]))
    first.click()
    page.wait_for_selector("#replay[data-ready='1']")
    page.go_back()
    page.locator("p.lead a.games-link").click()
    page.wait_for_function(f"document.body.dataset.gamesShown === '{len(mine)}'")
    watched.assert_clean()


def test_history_lines_have_markers_a_legend_and_lift_on_hover_and_focus(site, watched):
    page = watched.page
    page.goto(url(site.out / "tables" / "overall.html"))
    box = page.locator("figure.chart-box")
    series, keys = box.locator("g.series"), box.locator("ul.chart-legend li.key")
    count = series.count()
    assert count >= 4 and keys.count() == count
    shapes = [series.nth(k).locator("path.marker").first.get_attribute("d") for k in range(count)]
    assert len(set(shapes)) == count  # a shape of its own for each line
    for k in range(count):  # each legend entry shows its line's colour and marker
        assert keys.nth(k).locator("path").get_attribute("d") == shapes[k]
        assert keys.nth(k).locator("path").get_attribute("fill") == \
            series.nth(k).locator("polyline.line").get_attribute("stroke")
    opacity = """() => Object.fromEntries(Array.from(document.querySelectorAll('figure.chart-box g.series'))
        .map(g => [g.dataset.series, +getComputedStyle(g).opacity]))"""

    def lifted_alone(k: int) -> bool:
        page.wait_for_timeout(250)  # the fade's transition
        shown = page.evaluate(opacity)
        return shown[str(k)] == 1 and all(v < 0.5 for s, v in shown.items() if s != str(k))

    keys.nth(2).hover()
    assert lifted_alone(2)
    assert page.evaluate("() => { const s = document.querySelectorAll('svg.chart g.series');"
                         " return s[s.length - 1].dataset.series; }") == "2"  # drawn in front
    page.mouse.move(0, 0)
    page.wait_for_timeout(250)
    assert set(page.evaluate(opacity).values()) == {1}
    keys.nth(1).focus()
    assert lifted_alone(1)
    page.keyboard.press("Tab")  # on to the next entry
    assert lifted_alone(2)
    page.keyboard.press("Escape")
    page.locator("h1").click()  # focus leaves the legend
    box.scroll_into_view_if_needed()
    # the pointer on a point of line 0 where no other line covers it
    spot = page.evaluate("""() => {
        for (const mark of document.querySelectorAll("g.series[data-series='0'] path.marker")) {
            const r = mark.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
            const hit = document.elementFromPoint(x, y);
            if (hit && hit.closest("g.series") && hit.closest("g.series").dataset.series === "0") return [x, y];
        }
        return null; }""")
    assert spot is not None
    page.mouse.move(*spot)
    assert lifted_alone(0)
    watched.assert_clean()


def test_a_phone_shows_the_standings_first_and_the_explanation_on_demand(site, browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto(url(site.out / "index.html"))
        first = page.locator("table.standings").first.locator("tbody tr").first
        assert first.bounding_box()["y"] + first.bounding_box()["height"] <= PHONE["height"]
        assert not page.locator("#rating-note").is_visible()
        page.locator("#how-to-read summary").click()
        note = page.locator("#rating-note")
        assert note.is_visible() and "Bradley–Terry" in note.inner_text()
    finally:
        context.close()
