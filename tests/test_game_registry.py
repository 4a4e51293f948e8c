"""Games as plug-ins: the registry loads the "arena.games" entry points once,
leaves a broken plug-in out with one line saying which and why (the others
still load), and each game's rules document is installed package data that
a boxed bot can open at the path game_start gives, and that ``arena rules``
prints."""

from __future__ import annotations

import re
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import REPO, arena, python_bot, random_bots

import arena.games as registry
from arena.cli import main
from arena.errors import ArenaError
from arena.games import GAMES, SPECS, broken_plugins, get_game, get_spec
from arena.games.spec import GameSpec

OWN = ["ciclovia", "detour", "roundabout", "slyyde"]


@pytest.fixture
def entry_points_of(monkeypatch):
    """Make the registry see these entry points (arena's own plus the given
    ones), loaded afresh; the real registry comes back afterwards."""
    def install(extra: list[tuple[str, str]]):
        real = [EntryPoint(name, f"arena.games.{name}:SPEC", registry.GROUP) for name in OWN]
        fake = [EntryPoint(name, value, registry.GROUP) for name, value in extra]
        monkeypatch.setattr(registry, "entry_points", lambda group: real + fake if group == registry.GROUP else [])
        registry._load.cache_clear()
    yield install
    registry._load.cache_clear()


def test_arenas_own_games_are_registered_through_the_entry_point_group():
    assert sorted(GAMES) == OWN and broken_plugins() == {}
    for name in OWN:
        spec = get_spec(name)
        assert isinstance(spec, GameSpec) and spec.name == name and get_game(name) is spec.game
        assert spec.rules_path() == (REPO / "arena" / "games" / name / "rules.md").resolve()
        # the repository keeps the documents visible in seeds/, as relative symlinks
        seed = REPO / "seeds" / f"{name}.md"
        assert seed.is_symlink() and not Path(seed.readlink()).is_absolute() and seed.resolve() == spec.rules_path()


def test_an_unknown_game_names_the_games_there_are():
    available = r"\(available: ciclovia, detour, roundabout, slyyde\)"
    with pytest.raises(ArenaError, match=rf"^unknown game: 'chess' {available}$"):
        get_spec("chess")


def test_a_broken_plug_in_is_left_out_with_one_line_and_the_others_load(entry_points_of, capsys):
    entry_points_of([("gone", "arena_no_such_module:SPEC"), ("lie", "arena.games.detour:GAME"),
                     ("alias", "arena.games.slyyde:SPEC")])
    assert sorted(SPECS) == OWN
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "arena: game plug-in 'alias' left out: arena.games.slyyde:SPEC is the game 'slyyde', registered as 'alias'",
        "arena: game plug-in 'gone' left out: arena_no_such_module:SPEC does not load: "
        "ModuleNotFoundError: No module named 'arena_no_such_module'",
        "arena: game plug-in 'lie' left out: arena.games.detour:GAME is a Game, not a GameSpec"]
    assert sorted(broken_plugins()) == ["alias", "gone", "lie"]
    assert sorted(GAMES) == OWN and capsys.readouterr().err == ""  # loaded once, said once
    listing = CliRunner().invoke(main, ["games"])
    assert listing.exit_code == 0
    assert "gone         not loaded: arena_no_such_module:SPEC does not load" in listing.output


def test_arena_games_lists_every_game_with_its_installed_rules_document():
    listing = CliRunner().invoke(main, ["games"])
    assert listing.exit_code == 0
    for name in OWN:
        assert re.search(rf"^{name} +\d-4 players.* rules: {re.escape(str(get_spec(name).rules_path()))}$",
                         listing.output, re.MULTILINE), listing.output


def test_arena_rules_prints_the_document_and_an_unknown_game_is_one_line():
    printed = CliRunner().invoke(main, ["rules", "detour"])
    assert printed.exit_code == 0 and printed.output == get_spec("detour").rules_path().read_text(encoding="utf-8")
    unknown = CliRunner().invoke(main, ["rules", "chess"])
    assert unknown.exit_code == 1
    assert unknown.output == "Error: unknown game: 'chess' (available: ciclovia, detour, roundabout, slyyde)\n"


READER = """
    import json, sys
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            print(json.dumps({"type": "hello", "name": "reader", "games": ["slyyde"]}), flush=True)
        elif message["type"] == "game_start":
            with open(message["rules"], encoding="utf-8") as rules:
                sys.stderr.write("read: " + rules.readline())
            sys.stderr.flush()
        elif message["type"] == "decide":
            print(json.dumps({"type": "action", "action": message["actions"][0]}), flush=True)
        elif message["type"] == "bye":
            break
"""


def test_a_boxed_bot_opens_the_rules_document_at_the_path_game_start_gives(tmp_path):
    random_bots(tmp_path / "bots", ["quiet"])
    python_bot(tmp_path / "bots", "reader", READER)
    arena("match", "reader", "quiet", "--game", "slyyde", "--log-dir", "kept", "--move-timeout", "5",
          cwd=tmp_path, check=True)  # in its box (bubblewrap), the default
    logs = list((tmp_path / "kept" / "bots").rglob("*reader.stderr.log"))
    assert len(logs) == 2
    for log in logs:
        assert log.read_text() == "read: # Slyyde, as arena plays it\n"
