"""``arena play --web``: a person plays the random bot in a real browser.

The server runs as a real ``arena`` process, the bots as real bot
processes under the referee; Playwright drives Debian's chromium, clicking
the rings on the board (and the list where a ring holds several actions,
or an action names nothing on the board) to the end of the game. Then the
page closes, or Ctrl-C comes, and no bot process may be left."""

from __future__ import annotations

import random
import re
import signal
import socket
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import websockets.sync.client
from click.testing import CliRunner
from support import ARENA, RANDOM_BOT, arena_environment, processes_running, random_bots
from test_browser import Watched
from websockets.exceptions import InvalidStatus

from arena.cli import main

PHASE = "document.getElementById('play').dataset.phase"


class Server:
    """``arena play GAME --bot rando --web`` as a real process, the random
    bot copied into a folder of the test's own so that its processes can
    be found by their command line."""

    def __init__(self, tmp_path: Path, game: str, *extra: str, bots: tuple[str, ...] = ("rando",),
                 chatty: str | None = None) -> None:
        self.bots = random_bots(tmp_path / "bots", list(bots))
        if chatty:  # this one says a line on stderr as it starts
            line = f"print('{chatty} starts', file=sys.stderr)\n"
            source = RANDOM_BOT.read_text().replace("import sys\n", "import sys\n" + line, 1)
            (self.bots / f"{chatty}.py").write_text(source)
        self.process = subprocess.Popen(
            [*ARENA, "play", game, *(f"--bot={bot}" for bot in bots), "--bots", str(self.bots), "--web",
             "--seed", "11", "--move-timeout", "2", *extra],
            cwd=tmp_path, env=arena_environment(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        self.first_line = self.process.stdout.readline()
        found = re.search(r"(http://127\.0\.0\.1:\d+)/\?token=([\w-]+)", self.first_line)
        assert found, f"no address in {self.first_line!r}; stderr: {self.process.stderr.read()}"
        self.url, self.origin, self.token = found.group(0), found.group(1), found.group(2)

    def bot_processes(self) -> list[str]:
        """Processes still running a bot of this test's folder."""
        return processes_running(self.bots)

    def wait(self) -> tuple[int, str, str]:
        out, err = self.process.communicate(timeout=30)
        return self.process.returncode, out, err


# What a decision offers: the number of actions in each ring on the board,
# and of entries in the list; null once the game is over.
OFFERED = """() => document.getElementById('play').dataset.phase === 'over' ? null : {
    rings: Array.from(document.querySelectorAll('#board .offer-spot')).map(r => r.dataset.offers.split(' ').length),
    buttons: document.querySelectorAll('#p-actions button').length}"""


def play_by_clicking(page, rng: random.Random) -> int:
    """Answer every decision with a click until the game is over; the
    number of decisions made."""
    decisions = 0
    while True:
        page.wait_for_function(f"['decide', 'over'].includes({PHASE})", timeout=60_000)
        offered = page.evaluate(OFFERED)
        if offered is None:
            return decisions
        rings = offered["rings"]
        if rings and rng.random() < 0.8:
            ring = rng.randrange(len(rings))
            page.locator("#board .offer-spot").nth(ring).click(force=True)
            if rings[ring] > 1:  # a ring of several actions picks them out in the list
                picked = page.locator("#p-actions li.picked button")
                assert picked.count() == rings[ring]
                picked.nth(rng.randrange(rings[ring])).click(force=True)
        else:
            page.locator("#p-actions button").nth(rng.randrange(offered["buttons"])).click(force=True)
        decisions += 1


def check_result(page, players: int) -> None:
    places = page.locator("#p-places li")
    assert places.count() == players
    assert any("you (seat" in text for text in places.all_inner_texts())
    assert page.is_visible("#p-again")
    assert page.inner_text("#p-turn").startswith("Game over.")


# A two-seat Slyyde game seldom offers a decision (a black square's
# diagonal): three seats, and play again until one came.
TABLES = {"slyyde": (("rando", "rando2"), "2"), "detour": (("rando",), "1"),
          "ciclovia": (("rando",), "1"), "roundabout": (("rando",), "0")}


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_whole_game_by_clicking(browser, tmp_path, game):
    bots, seat = TABLES[game]
    server = Server(tmp_path, game, "--seat", seat, bots=bots)
    watched = Watched(browser)
    page = watched.page
    rng = random.Random(game)
    try:
        page.goto(server.url + "&speed=0")
        for games in range(1, 5):
            decisions = play_by_clicking(page, rng)
            check_result(page, len(bots) + 1)
            assert page.locator("#p-events li.decision").count() > decisions  # the bots' moves too
            if decisions:
                break
            page.click("#p-again")  # a new game on the same page
            page.wait_for_function(f"document.getElementById('play').dataset.games === '{games + 1}'")
        assert decisions > 0
        watched.assert_clean()
    finally:
        watched.context.close()  # closing the tab stops the server
    code, out, err = server.wait()
    assert code == 0, err
    assert "stopped" in out and not err
    assert server.bot_processes() == []
    assert f"the bots' stderr goes under {Path('logs') / 'bots'}" in server.first_line


@pytest.mark.slow
def test_the_bots_moves_are_animated_and_the_clock_runs_out(browser, tmp_path):
    """At the default speed the bot's moves are animated; with
    --human-timeout a person who does not answer forfeits, as a bot would."""
    server = Server(tmp_path, "roundabout", "--human-timeout", "1")
    watched = Watched(browser)
    page = watched.page
    try:
        page.goto(server.url)
        page.evaluate("""() => { window.animated = 0; new MutationObserver(() => {
            if (document.getElementById('play').dataset.animating === '1') window.animated++; })
            .observe(document.getElementById('play'), {attributes: true}); }""")
        page.wait_for_function(f"{PHASE} === 'over'", timeout=60_000)
        assert "forfeited (timeout" in page.inner_text("#p-forfeits")
        assert "rando won" in page.inner_text("#p-turn")
        assert page.evaluate("window.animated") > 0
        watched.assert_clean()
    finally:
        watched.context.close()
    assert server.wait()[0] == 0
    assert server.bot_processes() == []


@pytest.mark.slow
def test_ctrl_c_mid_game_leaves_nothing_running(browser, tmp_path):
    server = Server(tmp_path, "detour")
    watched = Watched(browser)
    try:
        watched.page.goto(server.url + "&speed=0")
        watched.page.wait_for_function(f"{PHASE} === 'decide'", timeout=30_000)
        assert server.bot_processes()  # the bot is running
        server.process.send_signal(signal.SIGINT)
        code, out, err = server.wait()
        watched.page.wait_for_function(f"{PHASE} === 'closed'")
    finally:
        watched.context.close()
    assert code == 0 and "stopped" in out, err
    assert "Traceback" not in err
    assert server.bot_processes() == []


@pytest.mark.slow
def test_closing_the_page_mid_game_stops_the_bots_and_the_server(browser, tmp_path):
    server = Server(tmp_path, "ciclovia", bots=("rando", "rando2"), chatty="rando2")
    watched = Watched(browser)
    watched.page.goto(server.url + "&speed=0")
    watched.page.wait_for_function(f"{PHASE} === 'decide'", timeout=30_000)
    assert len(server.bot_processes()) >= 2
    watched.context.close()
    code, out, err = server.wait()
    assert code == 0 and "stopped" in out and not err
    assert server.bot_processes() == []
    [log] = (tmp_path / "logs" / "bots").glob("*/*seat2-rando2.stderr.log")  # kept per game and seat
    assert log.read_text() == "rando2 starts\n"


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def _socket_status(url: str, origin: str | None) -> int:
    """The HTTP status of a WebSocket handshake at ``url`` (101 if accepted)."""
    try:
        with websockets.sync.client.connect(url, origin=origin, open_timeout=10) as socket:
            socket.close()
            return 101
    except InvalidStatus as exc:
        return exc.response.status_code


def test_the_page_and_the_socket_need_the_token_and_the_socket_its_own_origin(tmp_path):
    """Only the printed address opens the page, and only a page of the
    server's own origin, with the token, opens a WebSocket; the rest is 403.
    The page's script stays public (it is arena's own, and says nothing)."""
    server = Server(tmp_path, "detour")
    base, token = server.origin, server.token
    socket = base.replace("http://", "ws://") + "/ws"
    try:
        assert _status(server.url) == 200
        assert _status(base + "/") == 403
        assert _status(base + "/?token=" + token[:-1] + ("A" if token[-1] != "A" else "B")) == 403
        assert _status(base + "/static/play.js") == 200
        assert _socket_status(f"{socket}?token={token}", "http://evil.example") == 403
        assert _socket_status(f"{socket}?token={token}", None) == 403
        assert _socket_status(f"{socket}?token=wrong", base) == 403
        assert _socket_status(socket, base) == 403
        assert _socket_status(f"{socket}?token={token}", base) == 101  # the last page closing stops the server
        code, out, err = server.wait()
    finally:
        if server.process.poll() is None:
            server.process.kill()
    assert code == 0 and "stopped" in out, err
    assert server.bot_processes() == []


def _time_wait_sockets(port: int) -> int:
    """Connections of 127.0.0.1:``port`` in TIME-WAIT (/proc/net/tcp: state 06)."""
    rows = Path("/proc/net/tcp").read_text().splitlines()[1:]
    return sum(1 for row in rows if int(row.split()[1].split(":")[1], 16) == port and row.split()[3] == "06")


def _served_and_closed(server: Server) -> None:
    """A page load and a game's socket opened and closed (the last page
    closing stops the server), as real connections."""
    try:
        assert _status(server.url) == 200
        socket_url = server.origin.replace("http://", "ws://") + f"/ws?token={server.token}"
        assert _socket_status(socket_url, server.origin) == 101
        code, out, err = server.wait()
    finally:
        if server.process.poll() is None:
            server.process.kill()
    assert code == 0 and "stopped" in out, err


def test_the_server_starts_again_at_once_on_the_same_port(tmp_path):
    """The closed connections of the last server (in TIME-WAIT for a
    minute) do not keep its port: SO_REUSEADDR."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    _served_and_closed(Server(tmp_path, "detour", "--port", str(port)))
    assert _time_wait_sockets(port), "no connection of the first server is in TIME-WAIT: the test shows nothing"
    again = Server(tmp_path, "detour", "--port", str(port))
    assert again.origin == f"http://127.0.0.1:{port}"
    _served_and_closed(again)


@pytest.mark.parametrize("arguments, message", [
    (["chess", "--bot", "random_bot", "--web"], "unknown game: 'chess'"),
    (["slyyde", "--bot", "nobody", "--web"], "unknown bot: 'nobody'"),
    (["slyyde", "--bot", "random_bot", "--seat", "2", "--web"], "--seat must be 0 to 1"),
    (["detour", "--bot", "random_bot", "--option", "detour.colour=9", "--web"], "detour has no option 'colour'"),
    (["slyyde", "--bot", "random_bot", "--port", "1"], "--port, --open and --human-timeout go with --web"),
])
def test_bad_input_is_one_line(arguments, message):
    result = CliRunner().invoke(main, ["play", *arguments])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.output


def test_a_port_in_use_is_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["play", "slyyde", "--bot", "random_bot", "--web", "--port", str(port)])
    assert result.exit_code == 1
    assert result.output.strip() == f"Error: port {port} is in use on 127.0.0.1: pick another with --port"


@pytest.mark.slow
def test_the_offered_actions_and_the_events_arrive_in_words(browser, tmp_path):
    """Every decide message carries the words of each offered action, and
    every event its words: the game's text view speaking to the person
    ("you"), shown as they are on the buttons and in the list. Hovering or
    focusing an offered wheel turn draws the wheel's new paths first."""
    import json

    from arena.games import get_spec

    server = Server(tmp_path, "detour", "--seat", "1")
    watched = Watched(browser)
    page = watched.page
    messages: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: messages.append(json.loads(frame))))
    previewed = 0
    try:
        page.goto(server.url + "&speed=0")
        while not previewed:
            page.wait_for_function(f"['decide', 'over'].includes({PHASE})", timeout=60_000)
            if page.evaluate(PHASE) == "over":
                page.click("#p-again")
                continue
            decide = [m for m in messages if m["type"] == "decide"][-1]
            start = [m for m in messages if m["type"] == "start"][-1]
            view = get_spec("detour").describer(start["names"], you=start["seat"])
            assert decide["words"] == [view.action(action, decide["state"]) for action in decide["actions"]]
            buttons = page.locator("#p-actions button")
            assert buttons.all_inner_texts() == decide["words"]
            turns = [i for i, action in enumerate(decide["actions"]) if "wheel" in action]
            if turns:
                item = page.locator("#p-actions li").nth(turns[0])
                item.hover()
                ghost = page.locator("#board .dt-preview-wheel")
                assert ghost.count() == 1
                assert ghost.get_attribute("data-turn") == decide["actions"][turns[0]]["turn"]
                page.mouse.move(1, 1)
                assert ghost.count() == 0
                page.locator("#p-actions button").nth(turns[-1]).focus()  # the keyboard too
                assert page.locator("#board .dt-preview-wheel").get_attribute("data-turn") == \
                    decide["actions"][turns[-1]]["turn"]
                previewed += 1
            buttons.first.click()
        events = [m for m in messages if m["type"] == "event"]
        assert events and all(m["words"]["line"] and "{" not in m["words"]["line"] for m in events)
        lines = page.locator("#p-events li").all_inner_texts()
        assert lines and "{" not in "".join(lines)
        assert any(re.match(r"you roll \d and \d", line) for line in lines), lines[:20]
        assert not any(re.search(r"\byou (rolls|moves|has|is|wins)\b", line) for line in lines)
        watched.assert_clean()
    finally:
        watched.context.close()
    code, _, err = server.wait()
    assert code == 0, err
