"""Generated projects as a whole: their Python compiles, is ruff and ``mypy --strict`` clean, and black-stable.

The runtime modules are mcpforge's own (checked with the project); what is rendered per API is
checked here, in complete generated packages, so imports between rendered and copied modules count.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import black
import pytest

from conftest import FIXTURES
from helpers import write_project

CASES = sorted(p for p in (FIXTURES / "golden").iterdir() if p.is_dir())
BIN = Path(sys.executable).parent
MODE = black.Mode(line_length=120, target_versions={black.mode.TargetVersion.PY311})


def _spec(case: Path) -> Path:
    return next(p for p in sorted(case.iterdir()) if p.name.startswith("openapi."))


@pytest.fixture(scope="module")
def projects(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, str]]:
    root = tmp_path_factory.mktemp("generated")
    return [(root / case.name, write_project(_spec(case), root / case.name)) for case in CASES]


def test_rendered_python_compiles_and_is_black_stable(projects: list[tuple[Path, str]]) -> None:
    for root, package in projects:
        for name in ("__init__.py", "__main__.py"):
            source = (root / "src" / package / name).read_text(encoding="utf-8")
            compile(source, name, "exec")
            assert black.format_str(source, mode=MODE) == source, f"{root.name}/{name} is not black-clean"


def test_generated_packages_pass_ruff(projects: list[tuple[Path, str]]) -> None:
    config = projects[0][0] / "pyproject.toml"
    packages = [str(root / "src" / package) for root, package in projects]
    result = subprocess.run(
        [str(BIN / "ruff"), "check", "--config", str(config), "--no-cache", *packages],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for both packages: the second check reuses what the first learnt of the MCP SDK and httpx."""
    return tmp_path_factory.mktemp("mypy-cache")


# Slow (mypy reads the MCP SDK, httpx and Starlette): with the end-to-end tests. The runtime it checks is
# mcpforge's own, which test.sh checks with mypy --strict before any test runs.
@pytest.mark.e2e
@pytest.mark.parametrize("case", ["petstore_30", "hostile"])
def test_generated_package_passes_mypy_strict(projects: list[tuple[Path, str]], case: str, mypy_cache: Path) -> None:
    root, package = next(p for p in projects if p[0].name == case)
    result = subprocess.run(
        [
            str(BIN / "mypy"),
            "--config-file",
            str(root / "pyproject.toml"),
            "--cache-dir",
            str(mypy_cache),
            str(root / "src" / package),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout
