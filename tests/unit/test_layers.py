"""The pipeline's structure: every import points forward, and the runtime stands alone.

Layers, first to last: foundation modules (errors, diagnostics, text, naming, options, interrupts,
handover, worker, memo) and the runtime (a leaf: it imports nothing of mcpforge); schema; openapi;
tools; targets; render; the pipeline and configuration; client; cli. A module may import its own
layer and earlier ones.
"""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

SRC = ROOT / "src" / "mcpforge"
LAYERS = [
    {
        "mcpforge",
        "errors",
        "diagnostics",
        "text",
        "naming",
        "options",
        "interrupts",
        "handover",
        "worker",
        "memo",
        "runtime",
    },
    {"schema"},
    {"openapi"},
    {"tools"},
    {"targets"},
    {"render"},
    {"pipeline", "config"},
    {"client"},
    {"cli", "__main__"},
]


def _layer(module: str) -> int:
    parts = module.split(".")
    head = parts[1] if len(parts) > 1 else parts[0]
    return next(i for i, layer in enumerate(LAYERS) if head in layer)


def _module(path: Path) -> str:
    relative = path.relative_to(SRC.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
    return [name for name in found if name == "mcpforge" or name.startswith("mcpforge.")]


def test_every_import_points_forward() -> None:
    backward = []
    for path in sorted(SRC.rglob("*.py")):
        module = _module(path)
        for imported in _imports(path):
            if _layer(imported) > _layer(module):
                backward.append(f"{module} imports {imported}")
    assert not backward, backward


def test_the_runtime_imports_nothing_of_mcpforge() -> None:
    for path in sorted((SRC / "runtime").glob("*.py")):
        assert not _imports(path), f"{path.name} must use relative imports only (it is copied into packages)"
