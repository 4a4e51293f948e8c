"""Groups: bots that no game links have ratings on scales of their own.

The issue's case: A beat B 7 of 10 and D beat C 7 of 10, no game between
the two pairs. The prior pulls each group to 1500 alike, so A and D both
read 1550.7; standings (table, JSON, CSV), the ratings table and the site
must say that the two cannot be compared.
"""

from __future__ import annotations

import csv
import io
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from support import stored_game

from arena.site import pages
from arena.site.data import SiteData, SiteTally
from arena.site.paths import BotInfo
from arena.stats.joint import JointTables
from arena.stats.standings import Tally, compute, json_rows, text_table, to_csv
from arena.store import RatingState, Store

BOTS = ["A@1", "B@1", "C@1", "D@1", "E@1"]


def two_groups(game: str = "detour", players: int = 2):
    """A beats B 7 of 10, D beats C 7 of 10; at more seats E fills the
    pod of each pair (placed last), which keeps the groups apart only at
    two seats: at three, E links them."""
    games = []
    for n in range(10):
        for first, second in (("A@1", "B@1"), ("D@1", "C@1")):
            winner, loser = (first, second) if n < 7 else (second, first)
            seats = [winner, loser] + (["E@1"] if players == 3 else [])
            games.append(stored_game(game, seats, [], placements=tuple(range(1, players + 1)), job_order=n))
    return games


def test_the_issue_case_puts_a_and_d_in_different_groups():
    fitted = JointTables(two_groups()).fit()["detour"]
    assert fitted.groups == 2
    assert fitted["A@1"].rating == pytest.approx(fitted["D@1"].rating)  # the same number, on two scales
    assert {fitted.group_of("A@1"), fitted.group_of("B@1")} == {1}
    assert {fitted.group_of("C@1"), fitted.group_of("D@1")} == {2}
    assert fitted.superiority("A@1", "D@1") is None  # no LOS across groups


def test_one_group_names_none():
    fitted = JointTables(two_groups(players=3)).fit()["detour/3p"]
    assert fitted.groups == 1 and all(fitted.group_of(bot) is None for bot in BOTS)


def test_standings_rows_csv_and_table_keep_groups_apart():
    rows = compute(two_groups(), {}).rows
    detour = [row for row in rows if row.table_name == "detour"]
    assert [row.joint_group for row in detour] == [1, 1, 2, 2]
    assert [row.bot_id for row in detour] == ["A@1", "B@1", "D@1", "C@1"]
    assert detour[0].joint == detour[2].joint == 1550.7
    parsed = list(csv.DictReader(io.StringIO(to_csv(rows))))
    assert [row["joint_group"] for row in parsed if row["table_name"] == "detour"] == ["1", "1", "2", "2"]
    lines = text_table(rows)
    heads = [line for line in lines if re.match(r"(detour|overall): group", line)]
    assert heads[:2] == ["detour: group 1 of 2 (no game links one group to another, so ratings compare only "
                         "within a group (the prior pulls each group toward 1500))", "detour: group 2 of 2"]
    assert lines.index(heads[1]) == lines.index(heads[0]) + 3  # A and B between the two heads


def test_the_ratings_table_names_the_group(tmp_path: Path):
    with Store(tmp_path / "arena.db", writer=True) as store:
        standings = compute(two_groups(), {})
        with store.rewriting_ratings() as writer:
            writer.write(json_rows(standings.rows), RatingState("test", 0, None, None, "{}"))
    with closing(sqlite3.connect(tmp_path / "arena.db")) as db:
        found = dict(db.execute("SELECT bot_id, joint_group FROM ratings WHERE table_name = 'detour'").fetchall())
    assert found == {"A@1": 1, "B@1": 1, "C@1": 2, "D@1": 2}


def test_the_site_shows_each_group_in_a_table_of_its_own():
    standings = Tally.empty({})
    for game in two_groups():
        standings.add(game)
    model = SiteData({bot: BotInfo(bot, bot[0], "1") for bot in BOTS}, SiteTally(), standings.ladder,
                     standings.joint, standings.pairs, standings.seats)
    model.fitted = model.joint.fit()
    text = pages.index_page(model, [])
    section = text[text.index('id="table-detour"'):]
    assert section.count('<table class="standings sortable" data-table="detour">') == 2
    assert "Group 1 of 2" in section and "Group 2 of 2" in section and "no game links" in section
    first, second = section.split("Group 2 of 2")
    assert 'data-bot-id="A@1"' in first and 'data-bot-id="D@1"' not in first
    assert 'data-bot-id="D@1"' in second
