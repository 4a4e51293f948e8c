"""The results database in Datasette (the optional extra ``datasette``):
a real tournament's file served by a real Datasette process, read over
HTTP: arena's plugin describes its tables and columns, and SQL over the
``moves`` view returns the game's moves. Skipped where Datasette is not
installed; under CI (``CI`` set) that fails instead."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import arena, arena_environment, random_bots, whole_events

from arena.sql import METADATA
from arena.store import Store

pytestmark = pytest.mark.slow

MAX_ROWS = 100_000


def _require_datasette() -> None:
    if importlib.util.find_spec("datasette") is None:
        reason = "datasette is not installed (pip install -e '.[datasette]'): skipped the Datasette test"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run it")
        pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as response:
        body: bytes = response.read()
        return body


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """Two random bots' tournament at Ciclovia stored in ``results.db`` (a
    name other than arena's default: the plugin describes any arena file),
    served by Datasette without ``-m``, its cap on rows a query returns
    (1,000 by default) raised over any game's decisions (a random Ciclovia
    game has had 1,195); its base URL and the file."""
    _require_datasette()
    random_bots(tmp_path / "bots", ["rand_a", "rand_b"])
    arena("tournament", "--games", "ciclovia", "--rounds", "1", "--jobs", "2", "--move-timeout", "0.5",
          "--db", "results.db", cwd=tmp_path, check=True, tmpdir=tmp_path)
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "datasette", "serve", str(tmp_path / "results.db"),
                               "--port", str(port), "--setting", "max_returned_rows", str(MAX_ROWS)],
                              cwd=tmp_path, env=arena_environment(tmp_path),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                _get(base + "/-/versions.json")
                break
            except (urllib.error.URLError, ConnectionError):
                if server.poll() is not None or time.monotonic() > deadline:
                    server.kill()
                    raise AssertionError(f"datasette did not start:\n{server.communicate()[0]}") from None
                time.sleep(0.3)
        yield base, tmp_path / "results.db"
    finally:
        server.terminate()
        try:
            server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.communicate()


def test_datasette_serves_the_descriptions_and_sql_reads_the_moves(served):
    base, path = served
    described = json.loads(_get(base + "/-/metadata.json"))["databases"]["results"]
    assert described == json.loads(METADATA.read_text())["databases"]["arena"]
    assert set(described["tables"]) >= {"games", "results", "bots", "ratings", "rating_history", "moves", "events"}
    assert "ISO 8601" in described["tables"]["games"]["columns"]["finished_at_iso"]
    page = _get(base + "/results/games").decode()
    assert described["tables"]["games"]["description"].split(";")[0].replace("'", "&#39;") in page
    with Store(path) as store:
        key = max(store.games(), key=lambda game: game.decisions).key
        decisions = [event for event in whole_events(store, key) if event["kind"] == "decision"]
        seats = store.game(key).seats
    sql = "select seat, bot_id, action from moves where game_key = :key order by event"
    found = json.loads(_get(base + "/results.json?" + urllib.parse.urlencode(
        {"sql": sql, "key": key, "_shape": "array", "_size": "max"})))
    assert len(found) == len(decisions) > 0
    assert [(row["seat"], row["bot_id"], json.loads(row["action"])) for row in found] == \
        [(event["seat"], seats[event["seat"]], event["offered"][event["chosen"]]) for event in decisions]
    rated = json.loads(_get(base + "/results.json?" + urllib.parse.urlencode(
        {"sql": "select count(*) as n from rating_history h join games g on g.key = h.game_key "
                "where h.players = g.players", "_shape": "array"})))
    assert rated[0]["n"] > 0
