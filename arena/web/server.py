"""The play server: one page, one WebSocket, a game per connection.

Starlette serves the page, the site's drawing helpers (arena/site/static,
the same files the replays use) and each game's board data and drawing
(arena.site.pages.board_data, as the site writes them); uvicorn runs it on
127.0.0.1. Each game runs the ordinary referee (``play_game``) in a thread
of its own, the bots as real bot processes (``BotSeat``) under the usual
limits and the person as a ``BrowserSeat``. The page closing abandons the
game (its bots are killed); the last page closing, or Ctrl-C, stops the
server.

Messages, one JSON object each. To the page: ``start`` (seat, names,
state), ``event`` (an event of the record, its words and the state after
it), ``decide`` (state, actions, each action's words, timeout_ms), ``out`` (the person ran out of
time and is out: message), ``end`` (placements, forfeits, scores, the
final state) and ``error`` (message). From the page:
``start`` (a game, again after the last ended) and ``choose`` (index).

The server is for the person who started it, not for every program on the
machine nor every page in their browser: the printed address carries a
random token (``secrets``), which the page and the WebSocket require, and
the WebSocket also requires the server's own Origin (so a page from
elsewhere that learnt the port cannot drive a game, even with a rebound
DNS name). Anything else gets 403. The page's static parts (its script and
style, the site's board drawings and the boards' data) stay public: they
are arena's own files, published with the site, and say nothing of the
game being played.
"""

from __future__ import annotations

import asyncio
import errno
import json
import queue
import secrets
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.websockets import WebSocket, WebSocketDisconnect

from arena.errors import ArenaError
from arena.games import get_game, get_spec
from arena.games.events import replay
from arena.model import Limits
from arena.play.person import PersonAgainstBots
from arena.play.referee import play_game
from arena.resources import package_path
from arena.site import pages
from arena.web.seat import LEFT, BrowserSeat, PersonLeft, WatchedSeat

# How long the server waits for a page to come back (a reload) after the
# last one closed, before it stops.
RECONNECT_GRACE = 1.0


@dataclass(frozen=True)
class PlaySetup(PersonAgainstBots):
    """What every game of this server plays: the bots around the person
    (the key drawn for this server unless --seed was given), the limits,
    and where the bots' stderr goes (a file per game and seat, as arena
    play keeps it)."""

    limits: Limits
    human_timeout: float | None
    log_dir: Path


def bind(port: int, host: str = "127.0.0.1", option: str = "--port") -> socket.socket:
    """A listening socket on ``host`` (port 0: the system picks one);
    ``option`` is the one that names the port, for the error."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    except socket.gaierror as exc:
        raise ArenaError(f"cannot listen on {host!r}: {exc.strerror}") from None
    sock = socket.socket(family, socket.SOCK_STREAM)
    # The last server's closed connections stay in TIME-WAIT for a minute:
    # without SO_REUSEADDR its port could not be listened on again until
    # they expire. (It still refuses a port another socket listens on.)
    # uvicorn is handed this socket, so its own binding never applies.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ArenaError(f"port {port} is in use on {host}: pick another with {option}") from None
        raise ArenaError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    # Many small messages a move (events, then the next decision): without
    # TCP_NODELAY (which accepted sockets inherit) Nagle's algorithm and
    # delayed acknowledgements hold each exchange back some 40 ms.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.listen(16)
    return sock


class _Game:
    """One game in its thread: the referee, the bots and the person."""

    def __init__(self, setup: PlaySetup, number: int, send: Callable[[dict[str, Any]], None]) -> None:
        self.setup, self.number, self.send = setup, number, send
        self.choices: queue.Queue[Any] = queue.Queue()
        self.left = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"play-{number}", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def done(self) -> bool:
        return not self.thread.is_alive()

    def abandon(self) -> None:
        """The page is gone: the next call to any seat ends the game."""
        self.left.set()
        self.choices.put(LEFT)

    def _run(self) -> None:
        setup = self.setup
        job = setup.job(self.number)
        bots = setup.bot_seats(job, setup.limits, setup.log_dir)
        person = BrowserSeat(self.send, self.choices, setup.human_timeout)
        seats = setup.seating(person, [WatchedSeat(bot, self.left) for bot in bots])
        try:
            record = play_game(job, seats, setup.limits.move_timeout)
        except PersonLeft:
            return
        except Exception as exc:  # a bug: said on the page and the terminal, not lost in a thread
            self.send({"type": "error", "message": f"the game stopped: {exc!r}"})
            print(f"arena: the game stopped: {exc!r}", file=sys.stderr)
            return
        finally:
            for bot in bots:
                bot.close()
        *_, final = replay(get_game(setup.game), len(seats), setup.options, record.events)
        self.send({"type": "end", **record.result.to_json(),
                   "scores": None if record.scores is None else list(record.scores),
                   "names": list(job.seats), "seed": setup.key.seed, "state": final.to_json()})


class _Connections:
    """The pages open now and every game started, so that the last page
    closing stops the server and stopping leaves no game running."""

    def __init__(self) -> None:
        self.open = 0
        self.games: list[_Game] = []
        self.server: uvicorn.Server | None = None

    async def closed(self) -> None:
        self.open -= 1
        if self.open == 0:
            await asyncio.sleep(RECONNECT_GRACE)
            if self.open == 0 and self.server is not None:
                self.server.should_exit = True

    def end_all(self) -> None:
        for game in self.games:
            game.abandon()
        for game in self.games:
            game.thread.join()


def _token_matches(given: str | None, token: str) -> bool:
    return given is not None and secrets.compare_digest(given.encode(), token.encode())


def make_app(setup: PlaySetup, connections: _Connections, token: str, origin: str) -> Starlette:
    """The play server's app: ``token`` is required on the page and the
    WebSocket (``?token=``), and ``origin`` (the server's own) on the
    WebSocket."""
    templates = Jinja2Templates(directory=str(package_path("arena.web", "templates")))
    boards = dict(pages.board_data())

    async def page(request: Request) -> Response:
        if not _token_matches(request.query_params.get("token"), token):
            return Response("forbidden: open the address arena play printed", status_code=403,
                            media_type="text/plain")
        return templates.TemplateResponse(request, "play.html", {
            "game": setup.game, "rules": get_spec(setup.game).rules_path(), "players": len(setup.bots) + 1,
            "seat": setup.seat,
            "names": setup.names(), "human_timeout": setup.human_timeout})

    async def board(request: Request) -> Response:
        name, kind = request.path_params["name"], request.path_params["kind"]
        text = boards.get(f"data/{name}.{kind}")
        if text is None:
            return Response("no such board", status_code=404, media_type="text/plain")
        return Response(text, media_type="text/javascript" if kind == "js" else "text/css")

    async def play_socket(websocket: WebSocket) -> None:
        if (websocket.headers.get("origin") != origin
                or not _token_matches(websocket.query_params.get("token"), token)):
            await websocket.close()  # before the handshake is accepted: uvicorn answers 403
            return
        await websocket.accept()
        connections.open += 1
        loop = asyncio.get_running_loop()
        outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        def send(message: dict[str, Any]) -> None:
            try:
                loop.call_soon_threadsafe(outbox.put_nowait, message)
            except RuntimeError:
                pass  # the server has stopped (its loop is closed): no page to tell

        async def forward() -> None:
            while True:
                await websocket.send_text(json.dumps(await outbox.get(), separators=(",", ":")))

        sender = asyncio.create_task(forward())
        game: _Game | None = None
        try:
            while True:
                try:
                    message = json.loads(await websocket.receive_text())
                except ValueError:
                    continue  # not JSON: not from our page; nothing to answer
                kind = message.get("type") if isinstance(message, dict) else None
                if kind == "start" and (game is None or game.done()):
                    game = _Game(setup, len(connections.games), send)
                    connections.games.append(game)
                    game.start()
                elif kind == "choose" and game is not None:
                    game.choices.put(message.get("index"))
        except WebSocketDisconnect:
            pass
        finally:
            if game is not None:
                game.abandon()
                await asyncio.to_thread(game.thread.join)
            sender.cancel()
            await connections.closed()

    routes = [
        Route("/", page),
        Route("/data/{name:str}.{kind:str}", board),
        WebSocketRoute("/ws", play_socket),
        Mount("/site", app=StaticFiles(directory=str(package_path("arena.site", "static"))), name="site"),
        Mount("/static", app=StaticFiles(directory=str(package_path("arena.web", "static"))), name="static"),
    ]
    return Starlette(routes=routes)


def serve(setup: PlaySetup, sock: socket.socket, open_page: bool, say: Callable[[str], None]) -> None:
    """Serve on ``sock`` until the last page closes or Ctrl-C; then end
    every game (their bots are killed) before returning."""
    connections = _Connections()
    host, port = sock.getsockname()[:2]
    origin = f"http://{host}:{port}"
    token = secrets.token_urlsafe(32)
    config = uvicorn.Config(make_app(setup, connections, token, origin), log_level="warning", lifespan="off",
                            ws="websockets-sansio")
    server = uvicorn.Server(config)
    connections.server = server
    url = f"{origin}/?token={token}"
    say(f"arena: play {setup.game} at {url} (closing the page or Ctrl-C stops the server); "
        f"the bots' stderr goes under {setup.log_dir / 'bots'}")
    if open_page:
        webbrowser.open(url)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # uvicorn re-raises the Ctrl-C it handled, once it has shut down
    finally:
        connections.end_all()
        sock.close()
    say("arena: the play server stopped")
