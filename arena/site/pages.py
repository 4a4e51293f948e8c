"""The pages: what each template is given, rendered to text.

Each function returns page text (or pairs of a path under the site and its
text); writing them is :mod:`arena.site.builder`'s job. Everything a bot
chose goes through Jinja's autoescape, or into .js data through ``js``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib.resources import files
from typing import Any

import jinja2
from markupsafe import Markup

from arena import results
from arena.games import SPECS, replays
from arena.model import FORFEITS, StoredGame
from arena.site import paths, schema
from arena.site.charts import history_legend, history_svg, interval_bars
from arena.site.data import SiteData, format_time
from arena.site.paths import (
    BotInfo,
    replay_address,
    table_page,
    table_title,
    version_of,
)
from arena.stats import pairs
from arena.stats.elo import INITIAL, K_FACTOR
from arena.stats.joint import Fitted
from arena.stats.tables import OVERALL, table_name

FORFEIT_REASONS = [t.value for t in FORFEITS]
SEAT_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff9f1c"]
ELO_SETTINGS = {"k": K_FACTOR, "initial": INITIAL, "scale": 400}

ENV = jinja2.Environment(loader=jinja2.PackageLoader("arena.site", "templates"),
                         autoescape=True, undefined=jinja2.StrictUndefined,
                         trim_blocks=True, lstrip_blocks=True)
ENV.filters["table_page"] = table_page
ENV.filters["table_title"] = table_title


def render(template: str, root: str, **context: Any) -> str:
    """A page; ``root`` is the way back to the site's root from it."""
    return ENV.get_template(template).render(root=root, **context)


def js(data: Any) -> str:
    """JSON that is also safe inside HTML (no '<', '>' or '&' as such)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026") \
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


# ------------------------------------------------------------------ standings


def standing_rows(model: SiteData, table: str) -> list[dict[str, Any]]:
    """Standings of one table in the joint fit's order (group by group,
    tier by tier, best joint rating first: :mod:`arena.stats.joint`),
    each with where its interval bar goes. Where the table's bots fall
    into groups that no game links, the rows come group by group
    (``group`` from 1; 0 where there is one group), each group's bars on a
    scale of its own: ratings of two groups cannot be compared."""
    fitted = model.fitted.get(table) or Fitted()
    rows: list[dict[str, Any]] = []
    for bot_id, standing in model.ladder.tables.get(table, {}).items():
        rows.append({"info": model.infos[bot_id], "elo": standing, "joint": fitted.get(bot_id),
                     "group": fitted.group_of(bot_id) or 0,
                     "forfeits": {reason: standing.forfeits_by_reason.get(reason, 0)
                                  for reason in FORFEIT_REASONS}})
    rows.sort(key=lambda r: (fitted.order_key(r["info"].bot_id), -r["elo"].elo, r["info"].bot_id))
    for group in dict.fromkeys(row["group"] for row in rows):
        block = [row for row in rows if row["group"] == group]
        for row, bar in zip(block, interval_bars([row["joint"] for row in block])):
            row["bar"] = bar
    return rows


def evidence_class(evidence: pairs.Evidence) -> str:
    """The colour class of a head-to-head cell (ev-none, ev-win,
    ev-strong-loss...: the site's stylesheet)."""
    return f"ev-{evidence.value}"


def h2h_matrix(model: SiteData, table: str, order: list[str]) -> list[dict[str, Any]]:
    """The head-to-head cells. Colours control the family-wise error over the
    pairs of this matrix (Holm): with many pairs, some look lopsided by
    chance, and a colour claims a difference only where it holds with the
    whole matrix taken into account."""
    matrix: list[dict[str, Any]] = []
    fitted = model.fitted.get(table)
    for a in order:
        cells: list[dict[str, Any]] = []
        for b in order:
            record = model.head_to_head(table, a, b)
            joint_los = fitted.superiority(a, b) if fitted is not None else None
            if record is None:
                cells.append({"self": a == b, "pair": None, "joint_los": joint_los})
                continue
            low, high = pairs.wilson(record.score, record.games)
            cells.append({"self": False, "pair": record, "low": low, "high": high,
                          "los": pairs.superiority(record), "cls": evidence_class(pairs.Evidence.NONE),
                          "opponent": model.infos[b], "joint_los": joint_los})
        matrix.append({"info": model.infos[a], "cells": cells})
    # One test per pair of bots (the matrix shows each pair twice, mirrored).
    family = [(i, j) for i in range(len(order)) for j in range(i + 1, len(order))
              if matrix[i]["cells"][j]["pair"] is not None]
    found = pairs.family_evidence([matrix[i]["cells"][j]["pair"] for i, j in family])
    for (i, j), evidence in zip(family, found):
        matrix[i]["cells"][j]["cls"] = evidence_class(evidence)
        matrix[j]["cells"][i]["cls"] = evidence_class(evidence.mirrored())
    return matrix


def pair_rows(model: SiteData, table: str) -> list[dict[str, Any]]:
    """Pentanomial statistics of every two bots with seat-swapped pairs, the
    stronger (by score) first."""
    rows: list[dict[str, Any]] = []
    for stats in model.pairs.stats(table):
        if stats.score < 0.5:
            stats = model.pairs.between(table, stats.b, stats.a) or stats
        low, high = stats.elo_interval()
        rows.append({"stats": stats, "a": model.info(stats.a), "b": model.info(stats.b), "low": low, "high": high})
    rows.sort(key=lambda r: (-r["stats"].los, r["a"].bot_id, r["b"].bot_id))
    return rows


def index_page(model: SiteData, solo: list[dict[str, Any]]) -> str:
    tables = [(t, standing_rows(model, t)) for t in model.tables()]
    return render("index.html", "", model=model, tables=tables, solo=solo, reasons=FORFEIT_REASONS,
                  elo_settings=ELO_SETTINGS)


def table_pages(model: SiteData, solo: list[dict[str, Any]]) -> Iterator[tuple[str, str]]:
    for table in model.tables():
        rows = standing_rows(model, table)
        order = [r["info"].bot_id for r in rows]
        series = [(model.infos[b].name + " @" + model.infos[b].version, _table_points(model, table, b))
                  for b in order]
        yield table_page(table), render(
            "table.html", "../", model=model, table=table, rows=rows, reasons=FORFEIT_REASONS,
            matrix=h2h_matrix(model, table, order), pair_rows=pair_rows(model, table),
            family_size=_family_size(model, table, order), chart=history_svg(series, x_label=f"{table} games"),
            legend=history_legend([label for label, _ in series]),
            games=model.ladder.counts.get(table, 0), solo=[r for r in solo if r["game"] == table],
            seats=model.seats.get(table))


def _family_size(model: SiteData, table: str, order: list[str]) -> int:
    return sum(1 for i, a in enumerate(order) for b in order[i + 1:] if model.head_to_head(table, a, b))


# ------------------------------------------------------------------ bots


def _table_points(model: SiteData, table: str, bot_id: str) -> list[tuple[int, float]]:
    """A bot's Elo over the table's games, as sampled for charts
    (arena.stats.elo.HistorySample)."""
    sample = model.ladder.samples.get((table, bot_id))
    return [(number, elo) for _, number, elo in sample.chart()] if sample else []


def _bot_chart(model: SiteData, table: str, bot_id: str) -> Markup:
    sample = model.ladder.samples.get((table, bot_id))
    points = [(index + 1, elo) for index, _, elo in sample.chart()] if sample else []
    rating = (model.fitted.get(table) or Fitted()).get(bot_id)
    band = (rating.low, rating.high) if rating else None
    return history_svg([(model.infos[bot_id].name, points)], band, x_label="games played")


def _versions_chart(model: SiteData, table: str, versions: list[BotInfo]) -> Markup | None:
    """Elo of every version of a bot at one table, over the table's games
    (so versions follow one another as they played), or None where none
    played there."""
    series = [("@" + info.version, _table_points(model, table, info.bot_id)) for info in versions
              if (table, info.bot_id) in model.ladder.samples]
    if not series:
        return None
    return Markup(history_svg(series, x_label=f"{table} games") + history_legend([label for label, _ in series]))


def latest_games(model: SiteData) -> dict[str, dict[str, Any]]:
    """Each bot name's games (all its versions): how many, and the latest
    (newest first, as the site's tally keeps them), each as a bot page
    lists it (its row: schema.json's gameRow)."""
    field = {name: k for k, name in enumerate(schema.GAME_ROW)}
    infos = [model.info(bot_id) for bot_id in model.tally.bot_order]
    found: dict[str, dict[str, Any]] = {}
    for name, (count, latest) in model.tally.latest.items():
        entries = []
        for number, seat, row in latest:
            seats, places = row[field["seats"]], row[field["places"]]
            game = model.tally.game_names[row[field["game"]]]
            entries.append({
                "page": replay_address(number), "finished": format_time(row[field["finished"]]),
                "table": table_title(table_name(game, len(seats))) if len(seats) > 1 else f"{game.capitalize()}, solo",
                "info": infos[seats[seat]],
                "against": [infos[other] for k, other in enumerate(seats) if k != seat],
                "result": _seat_result(row[field["results"]][seat], places[seat], len(seats)),
                "forfeit": row[field["forfeit"]] == seat, "ending": row[field["ending"]]})
        found[name] = {"count": count, "latest": entries}
    return found


def _seat_result(letter: str, place: int, players: int) -> str:
    """A seat's result as a bot page words it."""
    if players == 1:
        return "solo"
    word = {"w": "won", "d": "drew", "l": "lost"}[letter]
    return f"{word} (place {place} of {players})" if players > 2 and letter != "w" else word


def version_timeline(model: SiteData, versions: list[BotInfo]) -> list[dict[str, Any]]:
    """A bot's versions in the order they came, each with its overall
    rating and games and, where a league entered it, its number, when it
    entered, whether it retired, and its test against its predecessor."""
    overall = model.fitted.get(OVERALL) or Fitted()
    standings = model.ladder.tables.get(OVERALL, {})
    timeline = []
    for info in versions:
        league = model.league.get(info.bot_id)
        standing = standings.get(info.bot_id)
        timeline.append({"info": info, "league": league, "joint": overall.get(info.bot_id),
                         "games": standing.games if standing else 0,
                         "entered": format_time(league.entered_at) if league else ""})
    return timeline


def bot_pages(model: SiteData, solo: list[dict[str, Any]]) -> Iterator[tuple[str, str]]:
    """A page per bot name (all its versions) and one per version."""
    by_name: dict[str, list[BotInfo]] = {}
    for info in model.infos.values():
        by_name.setdefault(info.name, []).append(info)
    tables = model.tables()
    games = latest_games(model)
    luck = model.tally.luck.rows()
    seen = {bot_id: k for k, bot_id in enumerate(model.tally.bot_order)}
    for name, versions in sorted(by_name.items()):
        # In the order they came: the league's numbers, else their first games.
        versions.sort(key=lambda info: (model.league[info.bot_id].number if info.bot_id in model.league else 0,
                                        seen.get(info.bot_id, len(seen)), info.version))
        records: list[dict[str, Any]] = []
        for info in versions:
            per_table = []
            for table in tables:
                standing = model.ladder.tables.get(table, {}).get(info.bot_id)
                if standing:
                    fitted = model.fitted.get(table) or Fitted()
                    per_table.append({"table": table, "elo": standing, "joint": fitted.get(info.bot_id),
                                      "group": fitted.group_of(info.bot_id),
                                      "luck": luck.get((table, info.bot_id))})
            records.append({"info": info, "tables": per_table, "hello_name": model.hello_names.get(info.bot_id),
                            "forfeits": model.tally.forfeits.get(info.bot_id, [0])[0],
                            "solo": model.tally.solo_games.get(info.bot_id, 0)})
        histories = [(table, chart) for table in tables if (chart := _versions_chart(model, table, versions))]
        yield versions[0].name_page, render("bot.html", "../../", name=name, records=records, charts=histories,
                                            timeline=version_timeline(model, versions),
                                            games=games.get(name, {"count": 0, "latest": []}))
        for info, record in zip(versions, records):
            charts = [(entry["table"], _bot_chart(model, entry["table"], info.bot_id))
                      for entry in record["tables"]]
            forfeit_count, forfeits = model.tally.forfeits.get(info.bot_id, [0, []])
            yield info.page, render(
                "version.html", "../../", info=info, record=record, charts=charts, versions=versions,
                reasons=FORFEIT_REASONS, forfeits=forfeits, forfeit_count=forfeit_count,
                infos=model.infos, solo=[r for r in solo if r["bot_id"] == info.bot_id])


# ------------------------------------------------------------------ data for the browser


def games_shared(model: SiteData) -> str:
    """data/games.js, what the games list's chunks share (schema.json,
    ``$defs/gamesList``)."""
    bots = [schema.record(schema.BOT, bot_id=b, name=model.infos[b].name, version=model.infos[b].version,
                          page=model.infos[b].page) for b in model.tally.bot_order]
    shared = schema.games_list(model.tally.game_names, bots, model.total, paths.ROWS_PER_CHUNK)
    return "window.ARENA_GAMES = " + js(shared) + ";\n"


def games_chunk(chunk: int, rows: list[list[Any]]) -> str:
    """data/list/<chunk>.js, a chunk of the games list's rows
    (``$defs/gamesChunk``): new games change the last chunk only."""
    return f"ArenaGamesList.add({chunk}, " + js(rows) + ");\n"


def board_data() -> Iterator[tuple[str, str]]:
    """Each game's board data (GAME.board) and board drawing, for the
    replays and the play page: data/board-GAME.js, data/drawing-GAME.js and
    its style sheet data/drawing-GAME.css, the drawing the game's own
    (GameSpec.board_js, board_css) or, for a game that brings none, the
    generic view of static/boards/generic.js; and the replay engines for
    the page, data/engine-GAME.js (GameSpec.engine_js; a comment for a game
    that brings none) on the frame they share, data/text-view.js."""
    for name, spec in sorted(SPECS.items()):
        yield f"data/board-{name}.js", ("window.ArenaBoardData = window.ArenaBoardData || {};\n"
                                        f"window.ArenaBoardData[{js(name)}] = {js(spec.game.board)};\n")
        drawing = (spec.board_js.read_text(encoding="utf-8") if spec.board_js is not None
                   else f"ArenaBoards[{js(name)}] = ArenaBoards.generic;\n")
        yield f"data/drawing-{name}.js", drawing
        style = (spec.board_css.read_text(encoding="utf-8") if spec.board_css is not None
                 else f"/* {name} brings no board style of its own */\n")
        yield f"data/drawing-{name}.css", style
        yield f"data/engine-{name}.js", (spec.engine_js.read_text(encoding="utf-8") if spec.engine_js is not None
                                         else f"/* {name} brings no replay engine: its replays carry their steps */\n")
    yield "data/text-view.js", files("arena.games").joinpath("text_view.js").read_text(encoding="utf-8")


# ------------------------------------------------------------------ a game


def chunked_game(game: StoredGame, logs: list[dict[str, Any] | None], replay: str, problem: str | None,
                 bots: dict[str, list[Any]], luck: str | None = None) -> dict[str, Any]:
    """A game as its replay chunk holds it (schema.json, ``$defs/chunkedGame``):
    its game and seats, and, in one payload (zlib and base64,
    ``$defs/gamePayload``), its header rendered (templates/game.html), its
    replay (arena.games.replays: the record, or the states and words made
    in Python; JSON text), why the replay stops early if it does, and the
    luck of its dice. Who won, drew or lost is arena.results' verdict
    on the placements: a shared first place is a draw between those sharing
    it. ``logs`` are the seats' stderr logs (arena.site.data.StderrLogs.seat_logs):
    a forfeiting seat's last lines are shown beside its forfeit. ``luck`` is
    the luck of its dice as stored, as JSON text (``Store.replay_luck``),
    drawn by luck.js."""
    seats = []
    forfeited = {forfeit.seat: forfeit.termination.value for forfeit in game.forfeits}
    for seat, bot_id in enumerate(game.seats):
        name, version, page = bots.get(bot_id, [bot_id, version_of(bot_id), None])
        verdict = results.verdict(game.placements, seat)
        seats.append({"seat": seat, "bot_id": bot_id, "name": name, "version": version, "page": page,
                      "colour": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
                      "won": verdict is results.Verdict.WIN, "drew": verdict is results.Verdict.DRAW,
                      "forfeit": forfeited.get(seat), "place": game.placements[seat],
                      "log": logs[seat] if seat < len(logs) else None,
                      "score": game.scores[seat] if game.scores and seat < len(game.scores) else None})
    # A first place shared by some seats and not all: name those who share it.
    shared = [s for s in seats if s["drew"]] if any(not s["drew"] for s in seats) else []
    head = render("game.html", "", game=game, seats=seats, shared=shared, when=format_time(game.finished_at))
    shown = json.dumps({"head": head, "problem": problem}, separators=(",", ":"))
    # The replay and the luck are JSON text already (the luck as the store holds it, Store.replay_luck):
    # not parsed and written again.
    return {"game": game.game, "players": game.players,
            "payload": replays.encoded_text(f'{shown[:-1]},"replay":{replay},"luck":{luck or "null"}}}')}


def replay_chunk(chunk: int, games: dict[int, dict[str, Any]]) -> str:
    """data/replays/<chunk>.js: the chunk's games by number (schema.json,
    ``$defs/replayChunk``), for replay.html to load by <script>."""
    text = json.dumps({str(n): game for n, game in sorted(games.items())}, separators=(",", ":"), ensure_ascii=False)
    return f"ArenaReplays.add({chunk}, {text});\n"  # a file of its own: '<' needs no escape outside HTML


def redirect_page(number: int) -> str:
    """What a game's page of an older arena (games/<xx>/<id>.html) becomes:
    a redirect to the game's replay, the step its address asked for
    (#step=K) carried over."""
    return render("redirect.html", "../../", number=number, address=replay_address(number))


def log_page(uses: list[dict[str, Any]], infos: dict[str, BotInfo], text: str) -> str:
    """A stderr log, saying whose it is: which bot, in which seat of which
    game (several games for a log kept per match by an older arena)."""
    return render("log.html", "../", uses=uses, infos=infos, text=text)
