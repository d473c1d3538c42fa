"""The pipeline's structure: every import points forward, the runtime stands alone, the top level stays small.

Layers, first to last: the foundation (the package itself, errors, diagnostics, options, text) and
the runtime (a leaf: it imports nothing of mcpforge); schema (JSON Schema); openapi (reading a
document); tools; targets; changes (what changed between two tool sets); project (the generated
project's files); output (writing them to disk); the pipeline; client; cli. A module may import
its own layer and earlier ones.
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
    {"changes"},
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
    for path in sorted((SRC / "runtime").rglob("*.py")):
        assert not _imports(path), f"{path.name} must use relative imports only (it is copied into packages)"


# The runtime's folders, one per concern, first to last; the modules at its top come before them all.
RUNTIME = SRC / "runtime"
RUNTIME_LAYERS = ["", "settings", "results", "observe", "access", "calling", "modes", "agents", "serving"]


def _runtime_imports(path: Path) -> list[str]:
    """The runtime modules ``path`` imports, as paths below the runtime (``calling/api``), found by resolving each
    relative import against ``path``'s own folder."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    folder = path.parent.relative_to(RUNTIME).parts
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level == 0:
            continue
        base = list(folder[: len(folder) - (node.level - 1)])
        stem = [*base, *(node.module.split(".") if node.module else [])]
        for alias in node.names:
            candidate = [*stem, alias.name]
            is_module = RUNTIME.joinpath(*candidate).with_suffix(".py").is_file()
            found.append("/".join(candidate if is_module else stem))
    return found


def _runtime_layer(module: str) -> int:
    head = module.split("/", maxsplit=1)[0] if "/" in module else ""
    return RUNTIME_LAYERS.index(head)


def test_the_runtime_is_one_folder_per_concern_and_its_imports_point_forward() -> None:
    folders = sorted(p.name for p in RUNTIME.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert folders == sorted(RUNTIME_LAYERS[1:]), folders
    top = sorted(p.name for p in RUNTIME.glob("*.py"))
    assert top == ["__init__.py", "contract.py", "redact.py"], top
    backward = []
    for path in sorted(RUNTIME.rglob("*.py")):
        module = path.relative_to(RUNTIME).with_suffix("").as_posix()
        for imported in _runtime_imports(path):
            if _runtime_layer(imported) > _runtime_layer(module):
                backward.append(f"{module} imports {imported}")
    assert not backward, backward


def test_the_runtime_layer_check_sees_a_backward_import() -> None:
    """The check above resolves relative imports; a results module importing calling would be caught."""
    module = "results/responses"
    assert _runtime_layer("calling/api") > _runtime_layer(module)
    found = _runtime_imports(RUNTIME / "calling" / "api.py")
    assert "access/callers" in found and "contract" in found and "results/responses" in found


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
