"""The pipeline's structure: every import points forward, the runtime stands alone, the top level stays small.

Layers, first to last: the foundation (the package itself, errors, diagnostics, options, text) and
the runtime (a leaf: it imports nothing of mcpforge); schema (JSON Schema); openapi (reading a
document); tools; targets; project (the generated project's files); output (writing them to
disk); the pipeline; client; cli. A module may import its own layer and earlier ones.
"""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

SRC = ROOT / "src" / "mcpforge"
LAYERS = [
    {"mcpforge", "errors", "diagnostics", "options", "text", "runtime"},
    {"schema"},
    {"openapi"},
    {"tools"},
    {"targets"},
    {"project"},
    {"output"},
    {"pipeline"},
    {"client"},
    {"cli", "__main__"},
]
TOP_LEVEL_MODULES = 5
LONGEST_MODULE = 500


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


def test_the_top_level_holds_at_most_five_modules_and_every_package_is_a_layer() -> None:
    modules = sorted(p.name for p in SRC.glob("*.py"))
    assert len(modules) <= TOP_LEVEL_MODULES, modules
    packages = {p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()}
    assert packages <= set().union(*LAYERS), packages - set().union(*LAYERS)


def test_no_module_is_longer_than_500_lines() -> None:
    long = {
        str(p.relative_to(SRC)): n
        for p in SRC.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > LONGEST_MODULE
    }
    assert not long, long
