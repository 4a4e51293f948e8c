"""The leaderboard site, generated from the store as static files.

Everything is computed from the store on every build, but only what changed
is written: pages are compared with what is on disk, and a game's replay
page (the bulk of the site: one per game) is written once and then left
alone while the game, its logs and the replay format stay the same. A
manifest (manifest.json) remembers what each replay and log page was made
from, so pages of games no longer stored are removed too.

The site works from file:// with no network: no CDN, no web fonts, no fetch
of local files. Data the browser needs is embedded in the pages or in .js
files loaded with <script src>. Everything a bot chose (its name, its
stderr, the detail of its forfeit) goes through Jinja's autoescape or, in
the browser, through textContent; bot names never become file names as they
are (see ``_slug``).

Layout of the site::

    index.html                     standings, overall and per game
    tables/<game>.html             one game (or overall): standings,
                                   head-to-head, rating history
    games.html, data/games.js      the games list, filtered in the browser
    games/<xx>/<id>.html           a game and its replay
    bots/<slug>/index.html         a bot (all its versions)
    bots/<slug>/<hash>.html        a bot version
    logs/<id>.html                 a bot's stderr log for a match
    static/                        CSS and JavaScript (boards/<game>.js)
"""

from __future__ import annotations

import base64
import collections
import concurrent.futures
import datetime
import hashlib
import json
import math
import multiprocessing
import os
import re
import tempfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import jinja2
from markupsafe import Markup, escape

from arena import results
from arena.games import GAMES
from arena.games.base import IllegalAction, InvalidOptions
from arena.model import FORFEITS, StoredGame
from arena.play.events import replay
from arena.stats import joint
from arena.stats.elo import INITIAL, OVERALL, Standing, rate_game
from arena.store import Store

# Bump when the replay pages' template or data change shape, so that every
# replay page is rewritten once by the next build.
REPLAY_FORMAT = 1
MANIFEST = "manifest.json"  # what the replay and log pages were made from
STATIC = Path(__file__).parent / "static"
FORFEIT_REASONS = [t.value for t in FORFEITS]
SEAT_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff9f1c"]
CHART_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
                 "#17becf", "#7f7f7f", "#bcbd22"]
MAX_CHART_POINTS = 300
FORFEITS_SHOWN = 100  # on a version page; the games list has them all
_MISSING = object()
PARALLEL_FROM = 200  # replay pages to write before it pays to start worker processes

_ENV = jinja2.Environment(loader=jinja2.PackageLoader("arena", "templates"),
                          autoescape=True, undefined=jinja2.StrictUndefined,
                          trim_blocks=True, lstrip_blocks=True)


def write_atomically(path: Path, text: str) -> None:
    """Write a file so that a reader sees the old page or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):  # interrupted after the replace, nothing to clean
            os.unlink(temporary)
        raise


def write_if_changed(path: Path, text: str) -> bool:
    """Write atomically unless the file already holds exactly this text."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    write_atomically(path, text)
    return True


def solo_table(store: Store) -> list[dict]:
    """Each bot's average and best score in solo play, per game (lower is better)."""
    rows: dict[tuple[str, str], list[float]] = {}
    for game in store.games(solo=True):
        if game.scores is not None:
            rows.setdefault((game.game, game.seats[0]), []).append(game.scores[0])
    names = {bot_id: row["name"] for bot_id, row in store.bots().items()}
    return [{"game": game, "bot": names.get(bot_id, bot_id), "bot_id": bot_id, "games": len(scores),
             "average": sum(scores) / len(scores), "best": min(scores)}
            for (game, bot_id), scores in sorted(rows.items())]


# ------------------------------------------------------------------ naming


def game_id(key: str) -> str:
    """A game's page name: stable, short, safe whatever the key holds."""
    return hashlib.sha1(key.encode()).hexdigest()[:16]


def game_path(key: str) -> str:
    gid = game_id(key)
    return f"games/{gid[:2]}/{gid}.html"


def _slug(name: str) -> str:
    """A file name for a bot name: its safe characters and a hash of the
    whole name, so two names never share a folder (even on a file system
    that ignores case) and nothing a bot picked reaches the path as is."""
    safe = re.sub(r"[^A-Za-z0-9_-]+", "_", name).strip("_")[:40] or "bot"
    return f"{safe}-{hashlib.sha1(name.encode()).hexdigest()[:8]}"


@dataclass(frozen=True)
class BotInfo:
    bot_id: str
    name: str
    version: str  # the first 12 hex digits of the content hash

    @property
    def folder(self) -> str:
        return f"bots/{_slug(self.name)}"

    @property
    def page(self) -> str:
        return f"{self.folder}/{self.version}.html"

    @property
    def name_page(self) -> str:
        return f"{self.folder}/index.html"


def _bot_infos(store: Store) -> dict[str, BotInfo]:
    return {bot_id: BotInfo(bot_id, row["name"], (row["content_hash"] or "")[:12] or _version(bot_id))
            for bot_id, row in store.bots().items()}


def _version(bot_id: str) -> str:
    return bot_id.rsplit("@", 1)[-1] if "@" in bot_id else "unknown"


def _info(infos: dict[str, BotInfo], bot_id: str) -> BotInfo:
    """A bot seen in games but missing from the bots table still gets pages."""
    if bot_id not in infos:
        infos[bot_id] = BotInfo(bot_id, bot_id.rsplit("@", 1)[0], _version(bot_id))
    return infos[bot_id]


# ------------------------------------------------------------------ the model


@dataclass
class Pair:
    """One bot's record against another in one table."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


@dataclass
class Model:
    """Everything the pages show, gathered in one pass over the games."""

    infos: dict[str, BotInfo]
    elo: dict[str, dict[str, Standing]] = field(default_factory=dict)
    history: dict[tuple[str, str], list[tuple[int, float]]] = field(default_factory=dict)
    table_games: dict[str, int] = field(default_factory=dict)
    pairs: dict[str, joint.PairTable] = field(default_factory=dict)
    h2h: dict[str, dict[tuple[str, str], Pair]] = field(default_factory=dict)
    ml: dict[str, dict[str, joint.MLRating]] = field(default_factory=dict)
    forfeits: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    solo_games: dict[str, int] = field(default_factory=dict)
    rows: list[list[Any]] = field(default_factory=list)
    logs: dict[str, Path] = field(default_factory=dict)
    log_ids: dict[str, str | None] = field(default_factory=dict)
    game_names: list[str] = field(default_factory=list)
    bot_order: list[str] = field(default_factory=list)
    total: int = 0

    def tables(self) -> list[str]:
        """Overall first, then each game by name."""
        return ([OVERALL] if OVERALL in self.elo else []) + sorted(t for t in self.elo if t != OVERALL)


def _collect(store: Store, root: Path) -> Model:
    model = Model(_bot_infos(store))
    names = {bot_id: info.name for bot_id, info in model.infos.items()}
    game_names: dict[str, int] = {}
    bot_numbers: dict[str, int] = {}
    for game in store.games():
        model.total += 1
        for bot_id in game.seats:
            _info(model.infos, bot_id)
            names.setdefault(bot_id, model.infos[bot_id].name)
        if game.players >= 2:
            _rate_game(model, game, names)
        else:
            model.solo_games[game.seats[0]] = model.solo_games.get(game.seats[0], 0) + 1
        logs = [_log_id(model, root, path) for path in game.logs]
        if game.forfeit_seat is not None:
            seat = game.forfeit_seat
            model.forfeits.setdefault(game.seats[seat], []).append({
                "key": game.key, "page": game_path(game.key), "game": game.game,
                "reason": game.termination.value, "detail": game.detail or "",
                "opponents": [b for s, b in enumerate(game.seats) if s != seat],
                "log": logs[seat] if seat < len(logs) else None,
                "finished": _when(game.finished_at), "finished_at": game.finished_at or 0.0})
        number = game_names.setdefault(game.game, len(game_names))
        seats = [bot_numbers.setdefault(b, len(bot_numbers)) for b in game.seats]
        model.rows.append([game_id(game.key), number, seats, list(game.winners),
                           game.termination.value, -1 if game.forfeit_seat is None else game.forfeit_seat,
                           game.decisions, game.finished_at or 0.0,
                           list(game.scores) if game.players == 1 and game.scores is not None else None])
    # The list shows games in the order they finished (rating order is the
    # plan's, and several plans share a store).
    model.rows.sort(key=lambda row: row[7])
    for row in model.rows:
        row[7] = int(row[7])
    model.game_names = list(game_names)
    model.bot_order = list(bot_numbers)
    for table, pairs in model.pairs.items():
        model.ml[table] = joint.fit(pairs)
    return model


def _rate_game(model: Model, game: StoredGame, names: dict[str, str]) -> None:
    for table in (game.game, OVERALL):
        standings = model.elo.setdefault(table, {})
        rate_game(standings, table, game, names)
        index = model.table_games[table] = model.table_games.get(table, 0) + 1
        for bot_id in dict.fromkeys(game.seats):
            model.history.setdefault((table, bot_id), []).append((index, standings[bot_id].elo))
        model.pairs.setdefault(table, joint.PairTable()).add_game(game)
        h2h = model.h2h.setdefault(table, {})
        for a, b, score in results.pairwise_between_bots(game.seats, game.placements):
            for bot, other, mine in ((a, b, score), (b, a, 1.0 - score)):
                pair = h2h.setdefault((bot, other), Pair())
                if mine == 0.5:
                    pair.draws += 1
                elif mine == 1.0:
                    pair.wins += 1
                else:
                    pair.losses += 1


def _latest(forfeits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(forfeits, key=lambda f: f["finished_at"], reverse=True)[:FORFEITS_SHOWN]


def _when(timestamp: float | None) -> str:
    if not timestamp:
        return ""
    return datetime.datetime.fromtimestamp(timestamp, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")


def _log_id(model: Model, root: Path, stored: str | None) -> str | None:
    """The site's name for a stored log path, if the file can be found.

    Paths are stored as the tournament was given them (maybe relative to its
    working folder), so a relative path is looked for from here and from the
    database's folder."""
    if not stored:
        return None
    if stored not in model.log_ids:
        model.log_ids[stored] = _find_log(model, root, stored)
    return model.log_ids[stored]


def _find_log(model: Model, root: Path, stored: str) -> str | None:
    path = Path(stored)
    candidates = [path] if path.is_absolute() else [Path.cwd() / path, root / path]
    for candidate in candidates:
        if candidate.is_file():
            resolved = candidate.resolve()
            log_id = hashlib.sha1(str(resolved).encode()).hexdigest()[:16]
            model.logs[log_id] = resolved
            return log_id
    return None


# ------------------------------------------------------------------ statistics


def wilson(score: float, games: int, z: float = joint.Z95) -> tuple[float, float]:
    """The 95% Wilson interval of a score fraction over ``games`` games."""
    if games == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(score * (1 - score) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def superiority(pair: Pair) -> float:
    """Likelihood of superiority from decisive games (draws carry no
    evidence): the probability that the first bot is the stronger."""
    decisive = pair.wins + pair.losses
    if decisive == 0:
        return 0.5
    return 0.5 * (1 + math.erf((pair.wins - pair.losses) / math.sqrt(2 * decisive)))


def evidence_class(los: float) -> str:
    """A colour class for the head-to-head matrix."""
    for limit, name in ((0.99, "ev-strong-win"), (0.95, "ev-win"), (0.8, "ev-lean-win")):
        if los >= limit:
            return name
    for limit, name in ((0.01, "ev-strong-loss"), (0.05, "ev-loss"), (0.2, "ev-lean-loss")):
        if los <= limit:
            return name
    return "ev-none"


# ------------------------------------------------------------------ charts


def _thin(points: list[tuple[int, float]], limit: int = MAX_CHART_POINTS) -> list[tuple[int, float]]:
    if len(points) <= limit:
        return points
    step = (len(points) - 1) / (limit - 1)
    return [points[round(k * step)] for k in range(limit)]


def history_svg(series: list[tuple[str, list[tuple[int, float]], str]],
                band: tuple[float, float] | None = None, x_label: str = "games",
                width: int = 640, height: int = 220) -> Markup:
    """An inline SVG line chart of Elo over games; ``band`` shades an
    interval (the maximum-likelihood rating's) across the chart."""
    left, right, top, bottom = 48, 12, 10, 30
    values = [v for _, points, _ in series for _, v in points] + [INITIAL]
    if band:
        values += list(band)
    xs = [x for _, points, _ in series for x, _ in points] or [1]
    low, high = min(values), max(values)
    pad = max(10.0, (high - low) * 0.08)
    low, high = low - pad, high + pad
    x_max = max(max(xs), 2)

    def px(x: float) -> float:
        return left + (x - 1) / (x_max - 1) * (width - left - right)

    def py(y: float) -> float:
        return top + (high - y) / (high - low) * (height - top - bottom)

    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
             f'xmlns="http://www.w3.org/2000/svg">']
    if band:
        y0, y1 = py(band[1]), py(band[0])
        parts.append(f'<rect class="band" x="{left}" y="{y0:.1f}" width="{width - left - right}" '
                     f'height="{max(0.5, y1 - y0):.1f}"><title>maximum-likelihood rating, 95% interval '
                     f'{band[0]:.0f} to {band[1]:.0f}</title></rect>')
    for tick in _ticks(low, high, 5):
        y = py(tick)
        parts.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}"/>'
                     f'<text class="tick" x="{left - 4}" y="{y + 3:.1f}" text-anchor="end">{tick:.0f}</text>')
    for tick in _ticks(1, x_max, 6):
        if tick < 1:
            continue
        x = px(tick)
        parts.append(f'<text class="tick" x="{x:.1f}" y="{height - bottom + 14}" '
                     f'text-anchor="middle">{tick:.0f}</text>')
    parts.append(f'<text class="tick" x="{width - right}" y="{height - 2}" text-anchor="end">'
                 f'{escape(x_label)}</text>')
    for label, points, colour in series:
        thin = _thin(points)
        if not thin:
            continue
        coords = " ".join(f"{px(x):.1f},{py(v):.1f}" for x, v in thin)
        parts.append(f'<polyline class="line" fill="none" stroke="{colour}" points="{coords}">'
                     f'<title>{escape(label)}: {points[-1][1]:.0f}</title></polyline>')
        if len(thin) == 1:
            x, v = thin[0]
            parts.append(f'<circle cx="{px(x):.1f}" cy="{py(v):.1f}" r="3" fill="{colour}"/>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _ticks(low: float, high: float, count: int) -> list[float]:
    span = high - low
    if span <= 0:
        return [low]
    raw = span / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    return [first + k * step for k in range(int((high - first) / step) + 1)]


# ------------------------------------------------------------------ pages


def _render(template: str, root: str, **context: Any) -> str:
    return _ENV.get_template(template).render(root=root, **context)


def _standing_rows(model: Model, table: str) -> list[dict[str, Any]]:
    """Standings of one table, best maximum-likelihood rating first."""
    ml = model.ml.get(table, {})
    rows = []
    for bot_id, standing in model.elo.get(table, {}).items():
        rating = ml.get(bot_id)
        rows.append({"info": model.infos[bot_id], "elo": standing, "ml": rating,
                     "forfeits": {reason: standing.forfeits_by_reason.get(reason, 0)
                                  for reason in FORFEIT_REASONS}})
    rows.sort(key=lambda r: (-(r["ml"].rating if r["ml"] else -1e9), -r["elo"].elo, r["info"].bot_id))
    return rows


def _h2h_matrix(model: Model, table: str, order: list[str]) -> list[dict[str, Any]]:
    pairs = model.h2h.get(table, {})
    matrix = []
    for a in order:
        cells = []
        for b in order:
            pair = pairs.get((a, b))
            if a == b or pair is None:
                cells.append({"self": a == b, "pair": None})
                continue
            low, high = wilson(pair.score, pair.games)
            los = superiority(pair)
            cells.append({"self": False, "pair": pair, "low": low, "high": high, "los": los,
                          "cls": evidence_class(los), "opponent": model.infos[b]})
        matrix.append({"info": model.infos[a], "cells": cells})
    return matrix


def chart_colour(n: int) -> str:
    """Ten distinct colours, then hues a golden angle apart."""
    if n < len(CHART_COLOURS):
        return CHART_COLOURS[n]
    return f"hsl({(n * 137.508) % 360:.0f}, 65%, 42%)"


def _table_chart(model: Model, table: str, order: list[str]) -> Markup:
    series = [(model.infos[b].name + " @" + model.infos[b].version, model.history.get((table, b), []),
               chart_colour(n)) for n, b in enumerate(order)]
    return history_svg(series, x_label=f"{table} games")


def _bot_chart(model: Model, table: str, bot_id: str) -> Markup:
    points = [(n, elo) for n, (_, elo) in enumerate(model.history.get((table, bot_id), []), 1)]
    rating = model.ml.get(table, {}).get(bot_id)
    band = (rating.low, rating.high) if rating else None
    return history_svg([(model.infos[bot_id].name, points, CHART_COLOURS[0])], band,
                       x_label="games played")


class _Site:
    def __init__(self, store: Store, out: Path) -> None:
        self.store = store
        self.out = out
        self.written = 0

    def write(self, relative: str, text: str) -> None:
        if write_if_changed(self.out / relative, text):
            self.written += 1

    def build(self) -> Path:
        self.out.mkdir(parents=True, exist_ok=True)
        model = _collect(self.store, self.store.path.parent)
        solo = solo_table(self.store)
        for row in solo:
            row["info"] = _info(model.infos, row["bot_id"])
        self.copy_static()
        self.write_boards()
        self.write_games_data(model)
        tables = model.tables()
        self.write("index.html", _render(
            "index.html", "", model=model, tables=[(t, _standing_rows(model, t)) for t in tables],
            solo=solo, reasons=FORFEIT_REASONS))
        for table in tables:
            rows = _standing_rows(model, table)
            order = [r["info"].bot_id for r in rows]
            self.write(f"tables/{table}.html", _render(
                "table.html", "../", model=model, table=table, rows=rows, reasons=FORFEIT_REASONS,
                matrix=_h2h_matrix(model, table, order), chart=_table_chart(model, table, order),
                colours=[chart_colour(n) for n in range(len(order))],
                games=model.table_games.get(table, 0), solo=[r for r in solo if r["game"] == table]))
        self.write("games.html", _render("games.html", "", total=model.total))
        self.write_bots(model, solo)
        old = self.load_manifest()
        done: dict[str, Any] = {}
        self.write_logs(model, old, done)
        self.write_replays(model, old, done)
        self.save_manifest(old, done)
        return self.out / "index.html"

    def copy_static(self) -> None:
        for source in sorted(STATIC.rglob("*")):
            if source.is_file() and not source.name.startswith("."):
                self.write(f"static/{source.relative_to(STATIC).as_posix()}", source.read_text(encoding="utf-8"))

    def write_boards(self) -> None:
        """Each game's board data (GAME.board), for the board drawings."""
        for name, game in sorted(GAMES.items()):
            self.write(f"data/board-{name}.js", "window.ArenaBoardData = window.ArenaBoardData || {};\n"
                       f"window.ArenaBoardData[{_js(name)}] = {_js(game.board)};\n")

    def write_games_data(self, model: Model) -> None:
        bots = [[b, model.infos[b].name, model.infos[b].version, model.infos[b].page]
                for b in model.bot_order]
        data = {"games": model.game_names, "bots": bots, "rows": model.rows}
        self.write("data/games.js", "window.ARENA_GAMES = " + _js(data) + ";\n")

    def write_bots(self, model: Model, solo: list[dict]) -> None:
        by_name: dict[str, list[BotInfo]] = {}
        for info in model.infos.values():
            by_name.setdefault(info.name, []).append(info)
        tables = model.tables()
        for name, versions in sorted(by_name.items()):
            versions.sort(key=lambda info: info.version)
            records = []
            for info in versions:
                per_table = []
                for table in tables:
                    standing = model.elo.get(table, {}).get(info.bot_id)
                    if standing:
                        per_table.append({"table": table, "elo": standing,
                                          "ml": model.ml.get(table, {}).get(info.bot_id)})
                records.append({"info": info, "tables": per_table,
                                "forfeits": len(model.forfeits.get(info.bot_id, [])),
                                "solo": model.solo_games.get(info.bot_id, 0)})
            self.write(versions[0].name_page, _render(
                "bot.html", "../../", name=name, records=records))
            for info in versions:
                record = next(r for r in records if r["info"] is info)
                charts = [(entry["table"], _bot_chart(model, entry["table"], info.bot_id))
                          for entry in record["tables"]]
                self.write(info.page, _render(
                    "version.html", "../../", info=info, record=record, charts=charts,
                    versions=versions, reasons=FORFEIT_REASONS,
                    forfeits=_latest(model.forfeits.get(info.bot_id, [])),
                    forfeit_count=len(model.forfeits.get(info.bot_id, [])), infos=model.infos,
                    solo=[r for r in solo if r["bot_id"] == info.bot_id]))

    def write_logs(self, model: Model, old: dict[str, Any], done: dict[str, Any]) -> None:
        """A page per stderr log, rewritten only when the log has grown or changed."""
        for log_id, path in sorted(model.logs.items()):
            page = f"logs/{log_id}.html"
            try:
                stat = path.stat()
                stamp = f"{stat.st_size}-{stat.st_mtime_ns}"
            except OSError:
                stamp = "missing"
            done[page] = stamp
            if old.get(page) == stamp and (self.out / page).is_file():
                continue
            try:
                text = path.read_bytes().decode("utf-8", errors="replace")
            except OSError as exc:
                text = f"[arena: the log could not be read: {exc}]"
            self.write(page, _render("log.html", "../", path=str(path), text=text))

    def write_replays(self, model: Model, old: dict[str, Any], done: dict[str, Any]) -> None:
        todo: list[tuple[StoredGame, list[str | None]]] = []
        games = {b: [info.name, info.version, info.page] for b, info in model.infos.items()}
        for game in self.store.games():
            log_ids = [_log_id(model, self.store.path.parent, path) for path in game.logs]
            digest = _digest(game, log_ids)
            page = game_path(game.key)
            done[page] = digest
            if old.get(page) == digest and (self.out / page).is_file():
                continue
            todo.append((game, log_ids))
        for game, text in _render_replays(self.store, todo, games):
            write_atomically(self.out / game_path(game.key), text)
            self.written += 1

    def load_manifest(self) -> dict[str, Any]:
        """What the replay and log pages on disk were made from."""
        try:
            manifest = json.loads((self.out / MANIFEST).read_text())
        except (OSError, ValueError):
            return {}
        return manifest.get("pages", {}) if manifest.get("format") == _replay_format() else {}

    def save_manifest(self, old: dict[str, Any], done: dict[str, Any]) -> None:
        """Remember what was written; remove pages of games and logs no
        longer in the store."""
        for page in set(old) - set(done):
            try:
                (self.out / page).unlink()
            except OSError:
                pass
        write_if_changed(self.out / MANIFEST, json.dumps({"format": _replay_format(), "pages": done},
                                                         sort_keys=True, separators=(",", ":")))


def _replay_format() -> str:
    """Changes whenever what a replay page holds may change."""
    template = (Path(__file__).parent / "templates" / "game.html").read_bytes()
    base = (Path(__file__).parent / "templates" / "base.html").read_bytes()
    return f"{REPLAY_FORMAT}-{hashlib.sha1(template + base).hexdigest()[:12]}"


def _digest(game: StoredGame, log_ids: list[str | None]) -> str:
    identity = [game.key, game.finished_at, game.decisions, game.termination.value, log_ids]
    return hashlib.sha1(json.dumps(identity).encode()).hexdigest()[:16]


def _js(data: Any) -> str:
    """JSON that is also safe inside HTML (no '<', '>' or '&' as such)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026") \
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


# ------------------------------------------------------------------ replays


def replay_payload(game: StoredGame, events: list[dict[str, Any]]) -> tuple[str, int, str | None]:
    """The replay as the page embeds it: base64 of zlib-compressed JSON
    ``{"events": [...], "patches": [...]}`` where patch 0 is the initial
    state and patch k turns the state before event k - 1 into the state
    after it (see ``state_patch``). Returns the payload, the number of steps
    and why the replay stopped early, if it did."""
    patches: list[Any] = []
    problem = None
    definition = GAMES.get(game.game)
    if definition is None:
        problem = f"this arena has no {game.game!r} engine to replay the game with"
    else:
        previous: dict[str, Any] | None = None
        try:
            for state in replay(definition, game.players, game.options, events):
                current = state.to_json()
                patches.append(current if previous is None else state_patch(previous, current))
                previous = current
        except (IllegalAction, InvalidOptions, KeyError, IndexError, TypeError, ValueError) as exc:
            problem = f"the record does not replay on this engine after step {len(patches) - 1}: {exc}"
    data = {"events": events[:max(0, len(patches) - 1)] if problem else events, "patches": patches}
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.b64encode(zlib.compress(raw, 6)).decode("ascii"), len(patches), problem


def state_patch(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """What turns state ``old`` into state ``new``, sharing what did not
    change: ``{"$d": {key: patch}, "$x": [removed keys]}`` for a dict,
    ``{"$l": [[index, patch], ...]}`` for a list of the same length,
    ``{"$v": value}`` for a dict replaced whole, and any other value as
    itself (static/replay.js applies them). Patches reach two levels below
    the top (a field of a piece in a list of pieces) and no deeper: deeper
    ones cost more time than they save bytes once compressed."""
    return _dict_patch(old, new, _list_patch)


def _dict_patch(old: dict[str, Any], new: dict[str, Any], inner) -> dict[str, Any]:
    changed = {}
    for key, value in new.items():
        before = old.get(key, _MISSING)
        if before is _MISSING:
            changed[key] = _whole(value)
        elif before != value:
            changed[key] = inner(before, value)
    patch: dict[str, Any] = {"$d": changed}
    if old.keys() != new.keys():
        removed = [key for key in old if key not in new]
        if removed:
            patch["$x"] = removed
    return patch


def _list_patch(old: Any, new: Any) -> Any:
    """Second level: a list by index, a dict by key, then whole values."""
    if type(old) is list and type(new) is list and old and len(old) == len(new):
        return {"$l": [[index, _leaf_patch(a, b)] for index, (a, b) in enumerate(zip(old, new)) if a != b]}
    if type(old) is dict and type(new) is dict:
        return _dict_patch(old, new, _leaf_patch)
    return _whole(new)


def _leaf_patch(old: Any, new: Any) -> Any:
    if type(old) is dict and type(new) is dict:
        return _dict_patch(old, new, lambda before, value: _whole(value))
    return _whole(new)


def apply_patch(old: Any, patch: Any) -> Any:
    """The inverse of ``state_patch`` (the browser does the same)."""
    if isinstance(patch, dict):
        if "$v" in patch:
            return patch["$v"]
        if "$d" in patch:
            result = {key: value for key, value in old.items() if key not in patch.get("$x", ())}
            for key, change in patch["$d"].items():
                result[key] = apply_patch(old.get(key), change)
            return result
        result = list(old)
        for index, change in patch["$l"]:
            result[index] = apply_patch(old[index], change)
        return result
    return patch


def _whole(value: Any) -> Any:
    return {"$v": value} if isinstance(value, dict) else value


def _render_game(game: StoredGame, log_ids: list[str | None], events: list[dict[str, Any]],
                 bots: dict[str, list]) -> str:
    payload, _, problem = replay_payload(game, events)
    seats = []
    for seat, bot_id in enumerate(game.seats):
        name, version, page = bots.get(bot_id, [bot_id, _version(bot_id), None])
        seats.append({"seat": seat, "bot_id": bot_id, "name": name, "version": version, "page": page,
                      "colour": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
                      "won": seat in game.winners, "forfeit": game.forfeit_seat == seat,
                      "log": log_ids[seat] if seat < len(log_ids) else None,
                      "score": game.scores[seat] if game.scores and seat < len(game.scores) else None})
    return _render("game.html", "../../", game=game, seats=seats, payload=payload, problem=problem,
                   when=_when(game.finished_at))


_WORKER_STORE: Store | None = None


def _open_worker_store(path: str) -> None:
    global _WORKER_STORE
    _WORKER_STORE = Store(path)


def _render_chunk(games: list[tuple[StoredGame, list[str | None]]], bots: dict[str, list]) -> list[str]:
    assert _WORKER_STORE is not None
    return [_render_game(game, log_ids, _WORKER_STORE.events(game.key), bots) for game, log_ids in games]


def _render_replays(store: Store, games: list[tuple[StoredGame, list[str | None]]],
                    bots: dict[str, list]) -> Iterable[tuple[StoredGame, str]]:
    """Render replay pages, in worker processes when there are many. A few
    chunks at a time are in flight, so memory stays flat however many games
    there are."""
    workers = min(os.cpu_count() or 1, 8)
    if len(games) < PARALLEL_FROM or workers < 2:
        for game, log_ids in games:
            yield game, _render_game(game, log_ids, store.events(game.key), bots)
        return
    size = 50
    chunks = [games[k:k + size] for k in range(0, len(games), size)]
    context = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context, initializer=_open_worker_store,
                                                initargs=(str(store.path),)) as pool:
        pending: collections.deque = collections.deque()
        for chunk in chunks:
            pending.append((chunk, pool.submit(_render_chunk, chunk, bots)))
            if len(pending) >= 3 * workers:
                done, future = pending.popleft()
                yield from zip((game for game, _ in done), future.result())
        while pending:
            done, future = pending.popleft()
            yield from zip((game for game, _ in done), future.result())


def build(store: Store, out_dir: Path) -> Path:
    """Write the whole site under ``out_dir``; returns the index page."""
    return _Site(store, Path(out_dir)).build()


