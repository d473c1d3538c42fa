"""Shared test configuration: paths and the ``--update-golden`` switch."""

from __future__ import annotations

import gc
import importlib
import os
import sys
from pathlib import Path

import pytest

# The tests keep bytecode (theirs as pytest rewrites them, mcpforge's, the SDKs') even where
# PYTHONDONTWRITEBYTECODE is set, as sandboxes and CI images often do: compiling it all again costs
# every run of the fast tier seconds per worker. __pycache__ is ignored by git.
sys.dont_write_bytecode = False

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


# The shared corpus of real documents, found as the benchmarks find it (bench/shared_corpus.py).
sys.path.insert(0, str(ROOT / "bench"))
CORPUS: Path = importlib.import_module("shared_corpus").CORPUS


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="Rewrite fixtures/golden/*/expected and diagnostics.txt from the current output.",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden")) or os.environ.get("UPDATE_GOLDEN") == "1"


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The fast tier (``-m "not e2e"``) does not import the end-to-end modules at all.

    Every test under ``tests/e2e`` is marked ``e2e`` (below), so the fast tier would deselect them
    all; importing them first (the OpenAI, Anthropic and Agents SDKs: seconds per worker) is wasted.
    """
    if collection_path.name == "e2e" and config.getoption("markexpr") == "not e2e":
        return True
    return None


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """Nothing is collected at exit: the process ends, and the OS takes its memory back at once.

    The interpreter's last collections walk every object the SDKs built (the MCP, OpenAI and
    Anthropic types: hundreds of thousands); each test process spent 1 to 4 s in them after its
    last test, and the fast tier waited for its workers that long.
    """
    gc.freeze()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests under ``tests/e2e`` (installed servers, Prism, Node tools, real peers) are marked ``e2e``."""
    e2e = pytest.mark.e2e
    for item in items:
        if "e2e" in item.path.parts:
            item.add_marker(e2e)
