"""Shared test configuration: paths and the ``--update-golden`` switch."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


def _find_corpus() -> Path:
    """The shared corpus of real documents: ``$MCPFORGE_CORPUS``, else the nearest ``shared/corpus``
    beside the checkout or in a folder above it (a clone may sit anywhere below the workspace)."""
    given = os.environ.get("MCPFORGE_CORPUS")
    if given:
        return Path(given)
    for parent in ROOT.parents:
        candidate = parent / "shared" / "corpus"
        if candidate.is_dir():
            return candidate
    return ROOT.parent / "shared" / "corpus"


CORPUS = _find_corpus()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="Rewrite fixtures/golden/*/expected and diagnostics.txt from the current output.",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden")) or os.environ.get("UPDATE_GOLDEN") == "1"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests under ``tests/e2e`` (installed servers, Prism, Node tools, real peers) are marked ``e2e``."""
    e2e = pytest.mark.e2e
    for item in items:
        if "e2e" in item.path.parts:
            item.add_marker(e2e)
