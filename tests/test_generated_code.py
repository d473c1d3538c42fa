"""The generated Python passes the same checks as ours: it compiles, ruff and mypy --strict are clean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES

PACKAGES = sorted(p for p in (FIXTURES / "golden").glob("*/expected/src/*") if p.is_dir())
BIN = Path(sys.executable).parent
# Every generated pyproject.toml carries the same ruff and mypy settings; use one of them.
CONFIG = PACKAGES[0].parent.parent / "pyproject.toml"


def test_every_golden_case_has_a_package() -> None:
    assert len(PACKAGES) == len([p for p in (FIXTURES / "golden").iterdir() if p.is_dir()])
    settings = {(p.parent.parent / "pyproject.toml").read_text().split("[tool.ruff]")[1] for p in PACKAGES}
    assert len(settings) == 1


def test_generated_python_compiles() -> None:
    for package in PACKAGES:
        for source in sorted(package.glob("*.py")):
            compile(source.read_text(encoding="utf-8"), str(source), "exec")


def test_generated_python_passes_ruff() -> None:
    result = subprocess.run(
        [str(BIN / "ruff"), "check", "--config", str(CONFIG), "--no-cache", *map(str, PACKAGES)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout


def test_generated_python_passes_mypy_strict(tmp_path: Path) -> None:
    result = subprocess.run(
        [str(BIN / "mypy"), "--config-file", str(CONFIG), "--cache-dir", str(tmp_path), *map(str, PACKAGES)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout
