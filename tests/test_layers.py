"""The packages are layers that only point down (docs/explanation/architecture.md):
import-linter's contracts in pyproject.toml, checked here as in CI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from support import REPO

LINT_IMPORTS = str(Path(sys.executable).parent / "lint-imports")


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the arena package under ``root``, with the
    contracts of ``root``'s pyproject.toml."""
    env = dict(os.environ, PYTHONPATH=str(root))
    return subprocess.run([LINT_IMPORTS, "--no-cache"], cwd=root, env=env, capture_output=True, text=True,
                          timeout=120)


def test_every_import_contract_is_kept():
    checked = lint_imports(REPO)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "0 broken" in checked.stdout


def test_an_import_pointing_up_breaks_the_layers(tmp_path: Path):
    shutil.copytree(REPO / "arena", tmp_path / "arena", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", tmp_path)
    with (tmp_path / "arena" / "games" / "dice.py").open("a") as dice:
        dice.write("\nfrom arena.play import referee  # noqa\n")
    checked = lint_imports(tmp_path)
    assert checked.returncode != 0
    assert "arena.games.dice -> arena.play.referee" in checked.stdout
