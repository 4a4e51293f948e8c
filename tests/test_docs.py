"""The documentation cannot rot: the reference made from the code is current
(and a new option shows in it), the limits' defaults are the options', the
site builds with every link checked (mkdocs --strict) and works in a real
browser, the README stays short, and the tutorials' commands and code run as
written, from an empty folder."""

from __future__ import annotations

import functools
import http.server
import importlib.util
import os
import re
import shlex
import subprocess
import sys
import threading
from pathlib import Path

import click
import pytest
from support import arena_environment

from arena.cli import main as arena_main

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
BLOCK = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```", re.S | re.M)


def generator():
    spec = importlib.util.spec_from_file_location("docs_generate", DOCS / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_reference_is_current():
    assert generator().main(["--check"]) == 0, "run python docs/generate.py"


def test_a_new_option_appears_in_the_commands_reference(monkeypatch):
    tournament = arena_main.commands["tournament"]
    fake = click.Option(["--fake-option-for-docs"], default=3, show_default=True, help="Only a test's.")
    monkeypatch.setattr(tournament, "params", [*tournament.params, fake])
    page = generator().cli_reference(arena_main)
    section = page[page.index("## arena tournament"):]
    section = section.split("\n## ")[0]  # tournament is the last command
    assert "| `--fake-option-for-docs INTEGER` | Only a test's.  [default: 3] |" in section
    assert "--fake-option-for-docs" not in generator().cli_reference(click.Group("other"))


def test_every_command_is_in_the_reference():
    page = (DOCS / "reference" / "cli.md").read_text()
    for name, command in arena_main.commands.items():
        assert f"## arena {name}\n" in page
        for param in command.params:
            if isinstance(param, click.Option):
                assert any(f"`{flag}" in page for flag in param.opts), (name, param.opts)


def _limit_defaults() -> dict[str, str]:
    rows = {}
    for line in (DOCS / "reference" / "limits.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`--"):
            rows[cells[0].strip("`")] = cells[1]
    return rows


def test_the_limits_reference_gives_the_options_defaults():
    documented = _limit_defaults()
    options = {opt: param for param in arena_main.commands["tournament"].params
               if isinstance(param, click.Option) for opt in param.opts}
    assert len(documented) >= 12
    for flag, default in documented.items():
        actual = options[flag].default
        words = {True: "on", False: "off"}.get(actual, str(actual)) if isinstance(actual, bool) else str(actual)
        if isinstance(actual, float):
            words = f"{actual:g} s"
        assert default == words, f"{flag}: documented {default!r}, the option's default is {words!r}"


def test_the_readme_is_short_and_keeps_its_two_commands():
    readme = (REPO / "README.md").read_text()
    assert len(readme.splitlines()) <= 150
    assert "Run a real tournament" in readme and "Run the tests" in readme


def build_docs(out: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                            cwd=REPO, capture_output=True, text=True, timeout=300,
                            env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert result.returncode == 0, result.stderr[-3000:]


def test_the_pages_the_leaderboard_names_exist():
    named = set()
    for path in (REPO / "arena" / "site" / "templates").glob("*.html"):
        named |= set(re.findall(r"docs/((?:explanation|how-to|reference|tutorials)/[a-z0-9-]+\.md)", path.read_text()))
    assert {"explanation/ratings.md", "explanation/how-a-game-counts.md"} <= named
    assert [page for page in sorted(named) if not (DOCS / page).is_file()] == []


def test_the_site_builds_strictly(tmp_path):
    build_docs(tmp_path / "site")
    for page in ("index.html", "tutorials/first-bot/index.html", "reference/cli/index.html",
                 "reference/games/detour/index.html", "reference/protocol/index.html",
                 "reference/games-api/index.html"):
        assert (tmp_path / "site" / page).is_file(), page
    api = (tmp_path / "site" / "reference" / "games-api" / "index.html").read_text()
    assert "legal_actions" in api and "GameSpec" in api  # mkdocstrings rendered the docstrings


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args) -> None:  # noqa: A002 (the standard library's name)
        pass


@pytest.mark.slow
def test_the_site_in_a_real_browser(tmp_path, browser):
    from test_browser import Watched

    build_docs(tmp_path / "site")
    handler = functools.partial(QuietHandler, directory=str(tmp_path / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    watched = Watched(browser)
    try:
        page = watched.page
        page.goto(f"{base}/")
        assert page.locator("h1").first.inner_text().startswith("arena")
        page.locator("nav a", has_text="Your first bot").first.click()
        page.wait_for_url("**/tutorials/first-bot/")
        assert "bots/my_bot.py" in page.content()
        page.goto(f"{base}/reference/cli/")
        assert page.locator("h2#arena-tournament").count() == 1
        page.locator("label.md-search__icon, .md-search__input").first.click()
        # Typed key by key, as a reader does: Material reads the query on keyup
        # (and once when its index is ready), so fill(), which sends only an
        # input event, found nothing whenever the index was ready before it.
        page.locator("input.md-search__input").press_sequentially("pentanomial")
        results = page.locator(".md-search-result__item")
        results.first.wait_for(timeout=15_000)
        assert results.count() >= 1
        watched.assert_clean()
    finally:
        watched.context.close()
        server.shutdown()
        server.server_close()


def run_tutorial(page: Path, folder: Path) -> list[tuple[str, subprocess.CompletedProcess]]:
    """Every command (``$ `` lines of console blocks) and file (blocks with a
    ``title``) of a tutorial, in order, from an empty ``folder``, as a reader
    would: ``arena`` and ``python3`` are the installed ones, and
    ``$ARENA_CHECKOUT`` is this repository."""
    env = arena_environment(None)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["ARENA_CHECKOUT"] = str(REPO)
    cwd = folder
    ran = []
    for language, info, body in BLOCK.findall(page.read_text()):
        title = re.search(r'title="([^"]+)"', info)
        if title:
            (cwd / title.group(1)).write_text(body)
            continue
        if language != "console":
            continue
        for line in body.splitlines():
            if not line.startswith("$ "):
                continue
            command = line[2:]
            if command.startswith("cd "):
                cwd = cwd / shlex.split(command)[1]
                continue
            result = subprocess.run(command, shell=True, cwd=cwd, env=env, capture_output=True, text=True,
                                    timeout=600)
            assert result.returncode == 0, f"$ {command}\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
            ran.append((command, result))
    return ran


@pytest.mark.slow
def test_your_first_bot_as_written(tmp_path):
    ran = run_tutorial(DOCS / "tutorials" / "first-bot.md", tmp_path)
    outputs = {command.split()[1] if command.startswith("arena ") else command: result.stdout
               for command, result in ran}
    assert "my_bot is fit for a tournament" in outputs["check"]
    standings = outputs["standings"]
    assert re.search(r"^slyyde\s+my_bot\s", standings, re.M), standings
    assert (tmp_path / "first-bot" / "leaderboard" / "replay.html").is_file()


@pytest.mark.slow
def test_your_first_competition_as_written(tmp_path):
    ran = run_tutorial(DOCS / "tutorials" / "first-competition.md", tmp_path)
    standings = ran[-1][1].stdout
    for bot in ("random_bot", "greedy_bot"):
        assert re.search(rf"^slyyde\s+{bot}\s", standings, re.M), standings


@pytest.mark.slow
def test_a_bot_in_another_language_as_written(tmp_path, node, gpp):
    ran = run_tutorial(DOCS / "how-to" / "compiled-bots.md", tmp_path)
    checked = [result.stdout for command, result in ran if command.startswith("arena check")]
    assert len(checked) == 3
    for name, output in zip(("first_js", "java_first", "example_bot"), checked):
        assert f"{name} is fit for a tournament" in output, output
