"""Counts in words agree in number with the count, in every line the CLI
prints a count in ("1 pods" was one)."""

from __future__ import annotations

from support import arena, random_bots

from arena.play.plan import PodBalance
from arena.plurals import plural


def test_a_count_of_one_is_singular_and_any_other_plural():
    assert plural(1, "pod") == "1 pod"
    assert [plural(n, "game") for n in (0, 2, 28)] == ["0 games", "2 games", "28 games"]
    assert plural(3, "match", "matches") == "3 matches" and plural(1, "match", "matches") == "1 match"


def test_a_single_pod_is_one_pod():
    balance = PodBalance("roundabout", 4, 4, 1, True, (1, 1), (1, 1))
    assert balance.describe().startswith("roundabout with 4 players: 1 pod of 4 bots (every combination)")


def test_one_solo_game_is_one_game(tmp_path):
    random_bots(tmp_path / "bots", ["alpha"])
    result = arena("solo", "slyyde", "alpha", "--games", "1", cwd=tmp_path, check=True)
    assert "alpha solo slyyde: 1 game this series, average " in result.stdout
    assert "all stored: 1 game, average " in result.stdout
