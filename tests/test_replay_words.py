"""A replay in a real browser says every step in the game's own words (its
text view, the words of the terminal and the play page), and the board
shows the ids those words use: Detour's space numbers and STARTs,
Roundabout's rings and bars, Ciclovia's spaces and blocks, Slyyde's
squares. Also two board layouts: Detour's START spaces in the first
screen at 1280 x 900, and Roundabout's legend for the marks that come and go."""

from __future__ import annotations

import re

import pytest
from test_browser import Watched, replay_url

from arena.games import GAMES, get_spec
from arena.games.events import replay
from arena.games.playout import random_playout
from arena.model import BotSpec, GameRecord, Job, Termination
from arena.site import builder
from arena.store import Store

pytestmark = pytest.mark.slow

BOTS = [BotSpec(name, ("true",), "/bin/true", name * 8) for name in ("north", "south", "east", "west")]
COUNTS = {"detour": (2, 4), "roundabout": (2, 4), "ciclovia": (3,), "slyyde": (3,)}


@pytest.fixture(scope="module")
def worded(tmp_path_factory):
    """A site of engine-played games, one per game and player count; and
    each game's states and events, by key."""
    root = tmp_path_factory.mktemp("worded")
    games = {}
    with Store(root / "arena.db", writer=True) as store:
        store.add_bots(BOTS)
        for name, counts in sorted(COUNTS.items()):
            for players in counts:
                _, events = random_playout(GAMES[name], players, 5)
                states = [state.to_json() for state in replay(GAMES[name], players, {}, events)]
                *_, last = replay(GAMES[name], players, {}, events)
                outcome = last.outcome()
                key = f"words/{name}/{players}"
                store.add_game(GameRecord(Job(key, name, tuple(b.bot_id for b in BOTS[:players]), 5, 0, len(games)),
                                          events, outcome.placements,
                                          Termination.NORMAL if outcome.termination is Termination.NORMAL
                                          else Termination.TURN_CAP))
                games[key] = (name, players, events, states)
    with Store(root / "arena.db") as store:
        builder.build(store, root / "site")
    return root / "site", games


def open_step(watched: Watched, site, key: str, step: int, width: int = 1300, height: int = 1000):
    page = watched.page
    page.set_viewport_size({"width": width, "height": height})
    page.goto(replay_url(site, site.parent / "arena.db", key) + f"&step={step}")
    page.wait_for_selector("#replay[data-ready='1']")
    return page


# The ids a game's words use, and where the board draws each: (pattern in
# the words, CSS selector of the drawn id given the match).
IDS = {
    "detour": [(r"(?:from|to|on) (\d+)", lambda m: f"#board .dt-id[data-id='{m[1]}']"),
               (r"START (\d)", lambda m: f"#board .dt-start text:text-is('START {m[1]}')")],
    "roundabout": [(r"ring (\d) bar (\d+)", lambda m: f"#board .rb-ring-id[data-ring='{m[1]}']"),
                   (r"ring (\d) bar (\d+)", lambda m: f"#board .rb-bar-id[data-bar='{m[2]}']")],
    "ciclovia": [(r"space (\d+)", lambda m: f"#board .cv-id:text-is('{m[1]}')"),
                 (r"block (\d+)", lambda m: f"#board .cv-block-id:text-is('block {m[1]}')")],
    "slyyde": [(r"(?:from|to|on) (?:square |triangle |safe square )?(\d+)",
                lambda m: f"#board .sq-number:text-is('{m[1]}')")],
}


@pytest.mark.parametrize("key", [f"words/{name}/{n}" for name, counts in sorted(COUNTS.items()) for n in counts])
def test_a_replay_says_each_step_in_the_games_words_and_draws_their_ids(worded, browser, key):
    site, games = worded
    name, players, events, states = games[key]
    view = get_spec(name).describer([bot.name for bot in BOTS[:players]])
    words = [view.step(states[k], event, states[k + 1]) for k, event in enumerate(events)]
    decisions = [k for k, event in enumerate(events) if event["kind"] == "decision" and len(event["offered"]) > 1]
    k = decisions[len(decisions) // 2] if decisions else len(events) // 2
    watched = Watched(browser)
    try:
        page = open_step(watched, site, key, k + 1)
        # the move list: every step's line, the engine's forced moves marked
        assert page.locator("#r-events li").all_inner_texts() == [w["line"] for w in words]
        forced = page.eval_on_selector_all("#r-events li.forced", "items => items.length")
        assert forced == sum(w["forced"] for w in words)
        # the step shown: the offered actions and the effects, in words
        if events[k]["kind"] == "decision":
            offered = page.locator("#r-event ol.offered li").all_inner_texts()
            assert [re.sub(r"\s*← chosen$", "", text) for text in offered] == words[k]["offered"]
        assert page.locator("#r-event ul.effects li").all_inner_texts() == words[k]["effects"]
        text = " ".join(page.locator("#r-event").inner_text().split())
        assert "{" not in text and "piece:" not in text and "wheel:" not in text
        # every id these words use is drawn on the board
        shown = " ".join(words[k].get("offered", []) + words[k]["effects"])
        found = 0
        for pattern, selector in IDS[name]:
            for match in re.finditer(pattern, shown):
                drawn = page.locator(selector(match))
                assert drawn.count() >= 1 and drawn.first.is_visible(), (selector(match), shown)
                found += 1
        assert found or name == "slyyde" and not shown
        watched.assert_clean()
    finally:
        watched.context.close()


# Each element's top and bottom on the screen.
SPANS = "nodes => nodes.map(n => n.getBoundingClientRect()).map(box => [box.top, box.bottom])"


def test_detours_start_spaces_are_in_the_first_screen(worded, browser):
    site, _ = worded
    watched = Watched(browser)
    try:
        page = open_step(watched, site, "words/detour/4", 0, 1280, 900)
        boxes = page.eval_on_selector_all("#board .space.dt-start", SPANS)
        assert len(boxes) == 2
        assert all(0 < top and bottom <= 900 for top, bottom in boxes), boxes
        board = page.eval_on_selector("#board", "b => b.getBoundingClientRect().bottom")
        assert board <= 900 + 40  # the board, nearly whole, in the first screen
        watched.assert_clean()
    finally:
        watched.context.close()


def test_roundabouts_legend_explains_the_cross_and_the_dashed_marks(worded, browser):
    site, _ = worded
    watched = Watched(browser)
    try:
        page = open_step(watched, site, "words/roundabout/2", 0)
        items = page.locator(".board-legend li")
        texts = items.all_inner_texts()
        assert any(text.startswith("✕ on a dart: captured") for text in texts), texts
        assert any(text.startswith("dashed circle:") for text in texts)
        assert any(text.startswith("dashed line:") for text in texts)
        for index, text in enumerate(texts):  # each with its drawn sample
            swatch = items.nth(index).locator("svg.legend-swatch")
            assert swatch.locator("path, circle").count() >= 1, text
        cross = items.filter(has_text="✕").locator(".rb-dart.captured .rb-capture-mark")
        assert cross.count() == 1
        assert page.locator(".board-legend li", has_text="dashed circle").locator(".offer-ring").count() == 1
        watched.assert_clean()
    finally:
        watched.context.close()
