"""Writing the site: every page computed on every build, only what changed
written.

Pages are compared with what is on disk. The replays, the bulk of the site,
are in chunk files of a thousand games each (data/replays/<chunk>.js, read
by the one replay page, replay.html), numbered in the order the games
finished, so new games land in the last chunk or a new one. A chunk is
written once and then left alone while its games, their logs and the replay
format stay the same. A manifest (manifest.json) remembers what each chunk
and log page was made from, so pages of games and logs no longer stored are
removed too, and what the whole site was made from, so a build that finds
nothing new writes nothing. Every write is atomic: a reader sees the old
page or the new one, never half. A site of an older arena, a page per game
(games/<xx>/<id>.html), keeps those addresses working: at its first build
each page of a game still stored becomes a redirect to its replay (a few
hundred bytes; new games get none), and pages of games no longer stored go.

A chunk holds the replay stored with each game (made by the worker that
played it); for games stored without one the chunk's writer makes it from
the events, and beside it the luck of the game's dice where it is stored
(arena.luck.stored; a chunk written before is written again once it is).
Many chunks are written by worker processes; a tournament makes each
game's chunk entry as the game's luck is stored (``Site.add_game``).
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import functools
import hashlib
import json
import multiprocessing
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arena.games import replays
from arena.model import StoredGame
from arena.resources import package_path
from arena.site import data, pages, paths
from arena.site.paths import BotInfo, replay_chunk_path
from arena.store import Store

MANIFEST = "manifest.json"  # what the replay chunks and log pages were made from
CHUNK_LAYOUT = 1  # changes whenever what a replay chunk holds of a game (pages.chunked_game) does
STATIC = package_path("arena.site", "static")
TEMPLATES = package_path("arena.site", "templates")
PARALLEL_FROM = 2  # replay chunks to write before it pays to start worker processes
OLD_GAME_PAGE = re.compile(r"[0-9a-f]{16}\.html")  # games/<xx>/<id>.html, a page per game before chunks


def public_folder(folder: Path) -> None:
    """Make ``folder`` and any missing parent 0755 whatever the umask (arena
    runs with a private one): the site is published. Folders that exist are
    left as their owner made them."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        made.mkdir(exist_ok=True)
        made.chmod(0o755)


def write_atomically(path: Path, text: str) -> None:
    """Write a file so that a reader sees the old page or the new one, never
    half; readable by all, as a published site is."""
    public_folder(path.parent)
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


def build(store: Store, out_dir: Path) -> Path:
    """Write the whole site under ``out_dir``; returns the index page."""
    return Site(store, Path(out_dir)).build()


class Site:
    """The site of one store. A tournament tells it of each game as it is
    stored, once its luck is (``add_game``), so the game's chunk entry is
    made while the others play, and ``build`` at the end of the run has only
    to gather it into its chunk and write the summary pages."""

    def __init__(self, store: Store, out: Path) -> None:
        self.store = store
        self.out = out
        self.old = self._load_manifest()
        self.added: dict[str, tuple[int, dict[str, Any]]] = {}  # entries made by add_game: key -> (digest, entry)
        self._logs = data.StderrLogs(store.path.parent)
        self._bots: dict[str, list[Any]] | None = None

    def write(self, relative: str, text: str) -> None:
        write_if_changed(self.out / relative, text)

    def add_game(self, key: str) -> None:
        """Make the chunk entry of a game just stored."""
        if self._bots is None:
            self._bots = _page_bots(data.bot_infos(self.store))
        game = self.store.game(key)
        logs = self._logs.seat_logs(game)
        self.added[key] = (_digest(game, logs), _chunked_game(self.store, game, logs, self._bots))

    def build(self) -> Path:
        inputs = _inputs(self.store)
        old_pages = self.old.get("pages", {})
        if (self.old.get("inputs") == inputs and (self.out / "index.html").is_file()
                and all((self.out / page).is_file() for page in old_pages if page.startswith("data/replays/"))):
            return self.out / "index.html"  # nothing stored, no log and no code changed, no chunk gone
        public_folder(self.out)
        digests: dict[str, int] = {}

        def visit(game: StoredGame, logs: list[dict[str, Any] | None]) -> None:
            digests[game.key] = _digest(game, logs)

        model = data.collect(self.store, visit)
        solo = data.solo_results(self.store)
        for row in solo:
            row["info"] = model.info(row["bot_id"])
        self.copy_static()
        for relative, text in pages.board_data():
            self.write(relative, text)
        self.write_all("data/list", pages.games_data(model))
        self.write("index.html", pages.index_page(model, solo))
        for relative, text in pages.table_pages(model, solo):
            self.write(relative, text)
        self.write("games.html", pages.render("games.html", "", total=model.total))
        self.write("replay.html", pages.render("replay.html", "", per_chunk=paths.REPLAYS_PER_CHUNK))
        for relative, text in pages.bot_pages(model, solo):
            self.write(relative, text)
        done: dict[str, Any] = {}
        self.write_logs(model, old_pages, done)
        self.redirect_game_pages(model.keys, old_pages, done)
        todo: list[tuple[int, list[str]]] = []
        size = paths.REPLAYS_PER_CHUNK
        for start in range(0, len(model.keys), size):
            chunk, keys = start // size, model.keys[start:start + size]
            page = replay_chunk_path(chunk)
            done[page] = hashlib.sha1(repr([digests[key] for key in keys]).encode()).hexdigest()[:16]
            if old_pages.get(page) != done[page] or not (self.out / page).is_file():
                todo.append((chunk, keys))
        _write_replay_chunks(self.store, self.out, todo, _page_bots(model.infos), model.logs, self.added)
        _remove_others(self.out / "data" / "replays", {Path(page).name for page in done
                                                        if page.startswith("data/replays/")})
        self.save_manifest(old_pages, done, inputs)
        return self.out / "index.html"

    def write_all(self, folder: str, files: Iterator[tuple[str, str]]) -> None:
        """Write these files, and remove the other files of ``folder`` (that
        some of them are written to): chunks of games no longer stored."""
        written = set()
        for relative, text in files:
            self.write(relative, text)
            if relative.startswith(folder + "/"):
                written.add(Path(relative).name)
        _remove_others(self.out / folder, written)

    def copy_static(self) -> None:
        for source in sorted(STATIC.rglob("*")):
            if source.is_file() and not source.name.startswith("."):
                self.write(f"static/{source.relative_to(STATIC).as_posix()}", source.read_text(encoding="utf-8"))

    def write_logs(self, model: data.SiteData, old: dict[str, Any], done: dict[str, Any]) -> None:
        """A page per stderr log, rewritten only when the log has grown or changed."""
        for log_id, path in sorted(model.logs.files.items()):
            page = f"logs/{log_id}.html"
            stamp = done[page] = f"{_stamp(path)}-{_uses_digest(model.logs.uses.get(log_id, []))}"
            if old.get(page) == stamp and (self.out / page).is_file():
                continue
            try:
                text = path.read_bytes().decode("utf-8", errors="replace")
            except OSError as exc:
                text = f"[arena: the log could not be read: {exc}]"
            self.write(page, pages.log_page(model.logs.uses.get(log_id, []), model.infos, text))

    def redirect_game_pages(self, keys: list[str], old: dict[str, Any], done: dict[str, Any]) -> None:
        """Each page an older arena wrote per game (games/<xx>/<id>.html)
        becomes, while its game is stored, a redirect to the game's replay
        (its number is where it is in ``keys``): links to it keep working.
        Pages of games no longer stored go, and their folders once empty."""
        found = _old_game_pages(self.out)
        if not found:
            return
        numbers = {paths.old_game_id(key): number for number, key in enumerate(keys, 1)}
        for page in found:
            number = numbers.get(Path(page).stem)
            if number is None:
                (self.out / page).unlink()
                continue
            stamp = done[page] = f"redirect-{number}"
            if old.get(page) != stamp:
                write_atomically(self.out / page, pages.redirect_page(number))
        for folder in {self.out / Path(page).parent for page in found}:
            with contextlib.suppress(OSError):  # not empty: not only arena's
                folder.rmdir()

    def _load_manifest(self) -> dict[str, Any]:
        """What the pages on disk were made from: the game and log pages
        (``pages``) and the whole site (``inputs``)."""
        try:
            manifest = json.loads((self.out / MANIFEST).read_text())
        except (OSError, ValueError):
            return {}
        return manifest if manifest.get("format") == _replay_format() else {}

    def save_manifest(self, old: dict[str, Any], done: dict[str, Any], inputs: str) -> None:
        """Remember what was written; remove pages of logs no longer in the
        store."""
        for page in set(old) - set(done):
            try:
                (self.out / page).unlink()
            except OSError:
                pass
        write_if_changed(self.out / MANIFEST, json.dumps({"format": _replay_format(), "inputs": inputs,
                                                          "pages": done}, sort_keys=True, separators=(",", ":")))


def _replay_format() -> str:
    """Changes whenever what a replay chunk holds may change."""
    template = (TEMPLATES / "game.html").read_bytes()
    return f"{replays.REPLAY_FORMAT}-{CHUNK_LAYOUT}-{hashlib.sha1(template).hexdigest()[:12]}"


def _uses_digest(uses: list[dict[str, Any]]) -> str:
    """Changes when a log page's header (whose log, which games) would."""
    return hashlib.sha1(json.dumps(uses, sort_keys=True).encode()).hexdigest()[:12]


def _digest(game: StoredGame, logs: list[dict[str, Any] | None]) -> int:
    """What a game's chunk entry is made from, summed up in 64 bits (a
    million of them are held at once)."""
    identity = (game.key, game.finished_at, game.decisions, game.termination.value, tuple(logs), game.luck)
    return int.from_bytes(hashlib.sha1(repr(identity).encode()).digest()[:8], "big")


def _old_game_pages(out: Path) -> list[str]:
    """The pages an older arena wrote per game (games/<xx>/<id>.html), or
    redirects made of them, relative to the site; anything else there is
    not arena's and is left alone."""
    games = out / "games"
    if not games.is_dir():
        return []
    return [f"games/{folder.name}/{entry.name}" for folder in os.scandir(games)
            if folder.is_dir() and len(folder.name) == 2
            for entry in os.scandir(folder.path)
            if OLD_GAME_PAGE.fullmatch(entry.name) and entry.name.startswith(folder.name)]


def _remove_others(folder: Path, kept: set[str]) -> None:
    """Remove the files of ``folder`` not named in ``kept``."""
    for entry in os.scandir(folder) if folder.is_dir() else ():
        if entry.is_file() and entry.name not in kept:
            os.unlink(entry.path)


def _inputs(store: Store) -> str:
    """What the whole site is made from, summed up cheaply: the games and
    bots stored, the log files they name, and the code that makes the pages.
    The same inputs make the same site, so a build finding them unchanged
    has nothing to do."""
    logs = data.StderrLogs(store.path.parent)
    stamps = sorted((path, _stamp(logs.files[log_id]) if (log_id := logs.log_id(path)) else None)
                    for path in store.log_paths())
    identity = [_replay_format(), _code_version(), store.summary(), stamps]
    return hashlib.sha1(json.dumps(identity).encode()).hexdigest()


@functools.cache
def _code_version() -> str:
    """A digest of arena's code and templates, and of every registered
    game's board data and drawing (a game installed from its own
    distribution lives outside arena): what computes the pages."""
    package = package_path("arena")
    digest = hashlib.sha1()
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".html", ".js", ".css", ".json") and path.is_file():
            digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    for relative, text in pages.board_data():
        digest.update(relative.encode() + b"\0" + text.encode())
    return digest.hexdigest()


def _stamp(path: Path) -> str:
    try:
        stat = path.stat()
    except OSError:
        return "missing"
    return f"{stat.st_size}-{stat.st_mtime_ns}"


def _page_bots(infos: dict[str, BotInfo]) -> dict[str, list[Any]]:
    """What a game's header shows of each bot: name, version, page."""
    return {bot_id: [info.name, info.version, info.page] for bot_id, info in infos.items()}


def _chunked_game(store: Store, game: StoredGame, logs: list[dict[str, Any] | None],
                  bots: dict[str, list[Any]]) -> dict[str, Any]:
    """A game's chunk entry, with the replay stored with the game, or made
    here from its events where none was stored (games stored before there
    were)."""
    payload, problem = store.replay(game.key, replays.REPLAY_FORMAT), None
    if payload is None:
        payload, _, problem = replays.replay_payload(game.game, game.seats, game.options, store.events(game.key),
                                                     store.decision_times(game.key))
    return pages.chunked_game(game, logs, payload, problem, bots, store.luck(game.key))


def _write_replay_chunk(store: Store, out: Path, chunk: int, keys: list[str], bots: dict[str, list[Any]],
                        logs: data.StderrLogs, made: dict[str, tuple[int, dict[str, Any]]]) -> None:
    """A replay chunk, taking the entries ``made`` as games were stored
    (Site.add_game) where they are still what the game would make."""
    games: dict[int, dict[str, Any]] = {}
    for number, key in enumerate(keys, chunk * paths.REPLAYS_PER_CHUNK + 1):
        game = store.game(key)
        seat_logs = logs.seat_logs(game)
        digest, entry = made.get(key, (None, None))
        games[number] = entry if entry is not None and digest == _digest(game, seat_logs) else \
            _chunked_game(store, game, seat_logs, bots)
    write_atomically(out / replay_chunk_path(chunk), pages.replay_chunk(chunk, games))


# ------------------------------------------------------------------ replay chunks in worker processes

_WORKER_STORE: Store | None = None


def _open_worker_store(path: str) -> None:
    global _WORKER_STORE
    _WORKER_STORE = Store(path, checked=True)


def _write_in_worker(out: Path, chunk: int, keys: list[str], bots: dict[str, list[Any]]) -> None:
    assert _WORKER_STORE is not None
    _write_replay_chunk(_WORKER_STORE, out, chunk, keys, bots, data.StderrLogs(_WORKER_STORE.path.parent), {})


def _write_replay_chunks(store: Store, out: Path, chunks: list[tuple[int, list[str]]], bots: dict[str, list[Any]],
                         logs: data.StderrLogs, made: dict[str, tuple[int, dict[str, Any]]]) -> None:
    """Write replay chunks, in worker processes when there are several
    (each worker reads its games' replays and writes their chunk itself).
    A few chunks at a time are in flight, so memory stays flat however many
    games there are."""
    workers = min(os.cpu_count() or 1, 8)
    if len(chunks) < PARALLEL_FROM or workers < 2:
        for chunk, keys in chunks:
            _write_replay_chunk(store, out, chunk, keys, bots, logs, made)
        return
    context = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context, initializer=_open_worker_store,
                                                initargs=(str(store.path),)) as pool:
        pending: collections.deque[concurrent.futures.Future[None]] = collections.deque()
        for chunk, keys in chunks:
            pending.append(pool.submit(_write_in_worker, out, chunk, keys, bots))
            if len(pending) >= 2 * workers:
                pending.popleft().result()
        while pending:
            pending.popleft().result()
