"""Writing the site: every page computed on every build, only what changed
written.

Pages are compared with what is on disk, and a game's replay page (the bulk
of the site: one per game) is written once and then left alone while the
game, its logs and the replay format stay the same. A manifest
(manifest.json) remembers what each replay and log page was made from, so
pages of games no longer stored are removed too, and what the whole site
was made from, so a build that finds nothing new writes nothing. Every write
is atomic: a reader sees the old page or the new one, never half.

A game page embeds the replay stored with the game (made by the worker that
played it); for games stored without one the page's writer makes it from
the events. Beside it, the luck of the game's dice where it is stored
(arena.luck.stored; a page written before is written again once it is).
Many game pages are written by worker processes; a tournament writes each
as its game's luck is stored (``Site.add_game``).
"""

from __future__ import annotations

import collections
import concurrent.futures
import functools
import hashlib
import json
import multiprocessing
import os
import tempfile
from pathlib import Path
from typing import Any

from arena.games import replays
from arena.model import StoredGame
from arena.resources import package_path
from arena.site import data, pages
from arena.site.paths import BotInfo, game_path
from arena.store import Store

MANIFEST = "manifest.json"  # what the replay and log pages were made from
STATIC = package_path("arena.site", "static")
TEMPLATES = package_path("arena.site", "templates")
PARALLEL_FROM = 200  # replay pages to write before it pays to start worker processes


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
    stored, once its luck is (``add_game``), so the game's page is written while the others
    play, and ``build`` at the end of the run has only the summary pages
    left to write."""

    def __init__(self, store: Store, out: Path) -> None:
        self.store = store
        self.out = out
        self.old = self._load_manifest()
        self.added: dict[str, str] = {}  # game pages written by add_game: page -> digest
        self._logs = data.StderrLogs(store.path.parent)
        self._bots: dict[str, list[Any]] | None = None

    def write(self, relative: str, text: str) -> None:
        write_if_changed(self.out / relative, text)

    def add_game(self, key: str) -> None:
        """Write the page of a game just stored."""
        if self._bots is None:
            self._bots = _page_bots(data.bot_infos(self.store))
        game = self.store.game(key)
        logs = self._logs.seat_logs(game)
        _write_game_page(self.store, self.out, game, logs, self._bots)
        self.added[game_path(key)] = _digest(game, logs)

    def build(self) -> Path:
        inputs = _inputs(self.store)
        old_pages = self.old.get("pages", {})
        on_disk = _game_pages_on_disk(self.out) if old_pages else set()
        if (self.old.get("inputs") == inputs and (self.out / "index.html").is_file()
                and all(page in on_disk for page in old_pages if page.startswith("games/"))):
            return self.out / "index.html"  # nothing stored, no log and no code changed, no page gone
        public_folder(self.out)
        todo: list[tuple[StoredGame, list[dict[str, Any] | None]]] = []
        done: dict[str, Any] = {}

        def visit(game: StoredGame, logs: list[dict[str, Any] | None]) -> None:
            """A game's page is written unless it was made from the same game."""
            page = game_path(game.key)
            digest = done[page] = _digest(game, logs)
            made = old_pages.get(page) == digest and page in on_disk
            if not made and self.added.get(page) != digest:
                todo.append((game, logs))

        model = data.collect(self.store, visit)
        solo = data.solo_results(self.store)
        for row in solo:
            row["info"] = model.info(row["bot_id"])
        self.copy_static()
        for relative, text in pages.board_data():
            self.write(relative, text)
        self.write("data/games.js", pages.games_data(model))
        self.write("index.html", pages.index_page(model, solo))
        for relative, text in pages.table_pages(model, solo):
            self.write(relative, text)
        self.write("games.html", pages.render("games.html", "", total=model.total))
        for relative, text in pages.bot_pages(model, solo):
            self.write(relative, text)
        self.write_logs(model, old_pages, done)
        bots = _page_bots(model.infos)
        _write_game_pages(self.store, self.out, todo, bots)
        self.save_manifest(old_pages, done, inputs)
        return self.out / "index.html"

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

    def _load_manifest(self) -> dict[str, Any]:
        """What the pages on disk were made from: the game and log pages
        (``pages``) and the whole site (``inputs``)."""
        try:
            manifest = json.loads((self.out / MANIFEST).read_text())
        except (OSError, ValueError):
            return {}
        return manifest if manifest.get("format") == _replay_format() else {}

    def save_manifest(self, old: dict[str, Any], done: dict[str, Any], inputs: str) -> None:
        """Remember what was written; remove pages of games and logs no
        longer in the store."""
        for page in set(old) - set(done):
            try:
                (self.out / page).unlink()
            except OSError:
                pass
        write_if_changed(self.out / MANIFEST, json.dumps({"format": _replay_format(), "inputs": inputs,
                                                          "pages": done}, sort_keys=True, separators=(",", ":")))


def _replay_format() -> str:
    """Changes whenever what a replay page holds may change."""
    template = (TEMPLATES / "game.html").read_bytes()
    base = (TEMPLATES / "base.html").read_bytes()
    return f"{replays.REPLAY_FORMAT}-{hashlib.sha1(template + base).hexdigest()[:12]}"


def _uses_digest(uses: list[dict[str, Any]]) -> str:
    """Changes when a log page's header (whose log, which games) would."""
    return hashlib.sha1(json.dumps(uses, sort_keys=True).encode()).hexdigest()[:12]


def _digest(game: StoredGame, logs: list[dict[str, Any] | None]) -> str:
    identity = (game.key, game.finished_at, game.decisions, game.termination.value, tuple(logs), game.luck)
    return hashlib.sha1(repr(identity).encode()).hexdigest()[:16]


def _game_pages_on_disk(out: Path) -> set[str]:
    """The game pages there are (one listing per folder, not a look-up per game)."""
    found: set[str] = set()
    for folder in os.scandir(out / "games") if (out / "games").is_dir() else ():
        if folder.is_dir():
            found.update(f"games/{folder.name}/{entry.name}" for entry in os.scandir(folder.path))
    return found


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
    """What a game page shows of each bot: name, version, page."""
    return {bot_id: [info.name, info.version, info.page] for bot_id, info in infos.items()}


def _write_game_page(store: Store, out: Path, game: StoredGame, logs: list[dict[str, Any] | None],
                     bots: dict[str, list[Any]]) -> None:
    """A game's page, with the replay stored with the game, or made here
    from its events where none was stored (games stored before there were)."""
    payload, problem = store.replay(game.key, replays.REPLAY_FORMAT), None
    if payload is None:
        payload, _, problem = replays.replay_payload(game.game, game.seats, game.options, store.events(game.key),
                                                     store.decision_times(game.key))
    write_atomically(out / game_path(game.key), pages.game_page(game, logs, payload, problem, bots,
                                                                store.luck(game.key)))


# ------------------------------------------------------------------ game pages in worker processes

_WORKER_STORE: Store | None = None


def _open_worker_store(path: str) -> None:
    global _WORKER_STORE
    _WORKER_STORE = Store(path, checked=True)


def _write_chunk(out: Path, games: list[tuple[StoredGame, list[dict[str, Any] | None]]],
                 bots: dict[str, list[Any]]) -> None:
    assert _WORKER_STORE is not None
    for game, logs in games:
        _write_game_page(_WORKER_STORE, out, game, logs, bots)


def _write_game_pages(store: Store, out: Path, games: list[tuple[StoredGame, list[dict[str, Any] | None]]],
                      bots: dict[str, list[Any]]) -> None:
    """Write game pages, in worker processes when there are many (each
    worker reads its games' replays and writes their pages itself). A few
    chunks at a time are in flight, so memory stays flat however many games
    there are."""
    workers = min(os.cpu_count() or 1, 8)
    if len(games) < PARALLEL_FROM or workers < 2:
        for game, logs in games:
            _write_game_page(store, out, game, logs, bots)
        return
    size = 100
    context = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context, initializer=_open_worker_store,
                                                initargs=(str(store.path),)) as pool:
        pending: collections.deque[concurrent.futures.Future[None]] = collections.deque()
        for start in range(0, len(games), size):
            pending.append(pool.submit(_write_chunk, out, games[start:start + size], bots))
            if len(pending) >= 3 * workers:
                pending.popleft().result()
        while pending:
            pending.popleft().result()
