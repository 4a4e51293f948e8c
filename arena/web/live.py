"""The served site: the leaderboard over HTTP, its pages told what changes
(``arena league --serve``, ``arena serve``).

The pages are the static site's own files as the last build wrote them in
``--out`` (Starlette's StaticFiles), so the site served is the site on disk,
and a page works the same from ``file://``, without the push. Beside them,
under ``live/``:

- ``live/status.json``: what is happening now (``LiveBoard.status``): the
  games in progress, the games stored and how many a minute, the active
  versions, the open version tests, and what the league is waiting for.
- ``live/events``: Server-Sent Events (sse-starlette: the keep-alive pings
  and the client's disconnection are its business; the browser's
  EventSource reconnects by itself): ``status`` (the status, at most every
  ``STATUS_EVERY`` seconds, when it changed), ``built`` (the site on disk was
  brought up to date: its generation and games) and ``ended`` (a game that
  was in progress is on the site: its key and its number there).
- ``live/game?key=KEY``: a game in progress, its header and its replay so
  far (``arena.games.replays.live_replay``), as replay.html shows a stored
  game's (``replay.html#live=KEY``); once stored, its number on the site.

static/live.js is the pages' side. The server takes no input and shows what
the site publishes, so, unlike the play server, it needs no token; it
listens on 127.0.0.1 unless told another address.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from arena.games.replays import live_replay
from arena.model import DecisionTimes, Event, Job
from arena.site import pages

STATUS_EVERY = 0.25  # seconds: the most often a page hears the status
ENDED_KEPT = 200  # games ended whose number a late watcher can still ask for


@dataclass
class _Playing:
    """A game in progress as the board has heard it."""

    job: Job
    names: list[str]
    events: list[Event] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    started: float = field(default_factory=time.time)


class LiveBoard:
    """What the served pages are told, fed from the process that runs the
    games (one thread) and read by the server's (another): the games in
    progress, event by event (``event``), the league's status
    (``set_status``), each build of the site (``built``) and each game
    stored (``ended``)."""

    def __init__(self, move_timeout: float | None) -> None:
        self.move_timeout = move_timeout
        self._lock = threading.Lock()
        self._playing: dict[str, _Playing] = {}
        self._ended: dict[str, int] = {}
        self._status: dict[str, Any] = {}
        self.changes = 0  # counts every change of the status: the server pushes when it moved
        self.generation = 0
        self._listeners: list[tuple[asyncio.AbstractEventLoop, asyncio.Queue[tuple[str, Any]]]] = []

    # -- from the games' side --------------------------------------------------------------

    def event(self, job: Job, index: int, event: Event, answer: float | None,
              names: Callable[[], dict[str, str]]) -> bool:
        """Event ``index`` of a game in progress (``names`` gives the seats'
        names when the game is new); returns whether it was its first. A
        first event of a game already heard is the game starting over (its
        worker was lost): what was heard of the lost playing is dropped."""
        with self._lock:
            playing = None if index == 0 else self._playing.get(job.key)
            first = playing is None
            if playing is None:
                known = names()
                playing = self._playing[job.key] = _Playing(job, [known.get(seat, seat) for seat in job.seats])
            playing.events.append(event)
            if answer is not None:
                playing.seconds.append(answer)
            self.changes += 1
        return first

    def set_status(self, status: dict[str, Any]) -> None:
        with self._lock:
            if status != self._status:
                self._status = status
                self.changes += 1

    def built(self, games: int) -> None:
        """The site on disk is up to date, with ``games`` games."""
        with self._lock:
            self.generation += 1
            self.changes += 1
            message = {"generation": self.generation, "games": games}
        self._publish("built", message)

    def ended(self, key: str, number: int) -> None:
        """The game ``key`` is stored, and on the site as game ``number``
        (tell after the build that put it there)."""
        with self._lock:
            self._playing.pop(key, None)
            self._ended[key] = number
            while len(self._ended) > ENDED_KEPT:
                del self._ended[next(iter(self._ended))]
            self.changes += 1
        self._publish("ended", {"key": key, "number": number})

    # -- from the server's side ------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        with self._lock:
            reasons = self._status.get("reasons", {})
            playing = [{"key": key, "game": p.job.game, "seats": p.names, "steps": len(p.events),
                        "seconds": round(time.time() - p.started, 1), "reason": reasons.get(key)}
                       for key, p in self._playing.items()]
            status = {key: value for key, value in self._status.items() if key != "reasons"}
            return {**status, "playing": playing, "generation": self.generation}

    def game(self, key: str) -> dict[str, Any] | None:
        """A game in progress, as replay.html#live=KEY shows it, or the
        number of one ended; None for a key it never heard of."""
        with self._lock:
            if key in self._ended:
                return {"key": key, "ended": self._ended[key]}
            playing = self._playing.get(key)
            if playing is None:
                return None
            job, names = playing.job, list(playing.names)
            events, seconds = list(playing.events), tuple(playing.seconds)
        replay = live_replay(job, events, DecisionTimes(self.move_timeout, seconds))
        head = pages.render("live-game.html", "", job=job, names=names,
                            colours=[pages.SEAT_COLOURS[seat % len(pages.SEAT_COLOURS)] for seat in range(len(names))])
        return {"key": key, "game": job.game, "players": len(job.seats), "steps": len(events),
                "head": head, "replay": json.loads(replay)}

    def listen(self) -> asyncio.Queue[tuple[str, Any]]:
        queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        with self._lock:
            self._listeners.append((asyncio.get_running_loop(), queue))
        return queue

    def forget(self, queue: asyncio.Queue[tuple[str, Any]]) -> None:
        with self._lock:
            self._listeners = [(loop, q) for loop, q in self._listeners if q is not queue]

    def _publish(self, kind: str, message: Any) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for loop, queue in listeners:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, (kind, message))
            except RuntimeError:
                pass  # its server has stopped (the loop is closed)


def make_app(out: Path, board: LiveBoard) -> Starlette:
    """The site in ``out`` with the board's ``live/`` beside it."""

    async def status(request: Request) -> Response:
        return JSONResponse(board.status(), headers={"Cache-Control": "no-store"})

    async def game(request: Request) -> Response:
        found = board.game(request.query_params.get("key", ""))
        if found is None:
            return JSONResponse({"error": "no such game in progress"}, status_code=404)
        return JSONResponse(found, headers={"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        queue = board.listen()

        async def stream() -> AsyncIterator[dict[str, str]]:
            told = -1
            try:
                while True:
                    try:
                        kind, message = await asyncio.wait_for(queue.get(), timeout=STATUS_EVERY)
                        yield {"event": kind, "data": json.dumps(message)}
                    except asyncio.TimeoutError:
                        pass
                    if board.changes != told:
                        told = board.changes
                        yield {"event": "status", "data": json.dumps(board.status())}
            finally:
                board.forget(queue)

        return EventSourceResponse(stream(), ping=10, headers={"Cache-Control": "no-store"})

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)  # the site has none: not a missing page for the browser to report

    return Starlette(routes=[
        Route("/favicon.ico", no_icon),
        Route("/live/status.json", status),
        Route("/live/game", game),
        Route("/live/events", events),
        Mount("/", app=_SiteFiles(directory=str(out), html=True, check_dir=False)),
    ])


class _SiteFiles(StaticFiles):
    """The site's files, each read afresh (a build rewrites them in place)."""

    async def get_response(self, path: str, scope: Any) -> Response:
        response = await super().get_response(path, scope)
        response.headers["Cache-Control"] = "no-cache"
        return response


class LiveServer:
    """The site served from a thread of its own while the games run."""

    def __init__(self, out: Path, board: LiveBoard, sock: socket.socket) -> None:
        config = uvicorn.Config(make_app(out, board), log_level="warning", lifespan="off",
                                timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.sock = sock
        host, port = sock.getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        self.address = f"http://{shown}:{port}/"
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, name="arena-live",
                                       daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)
        self.sock.close()
