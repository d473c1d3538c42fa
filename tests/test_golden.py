"""Golden tests: the whole generated tree of each fixture case, byte for byte.

Update after an intended change with ``pytest tests/test_golden.py --update-golden``
(or ``UPDATE_GOLDEN=1``) and review ``git diff fixtures/``. The runtime modules copied into every
package are not golden files: they are mcpforge's own, checked to be exact copies below.
"""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from helpers import case_options
from mcpforge.diagnostics import format_text
from mcpforge.pipeline import generate
from mcpforge.project.project import runtime_sources

CASES = sorted(p for p in (FIXTURES / "golden").iterdir() if p.is_dir())
HINT = "run `pytest tests/test_golden.py --update-golden` and review `git diff fixtures/`"


def _spec(case: Path) -> Path:
    return next(p for p in sorted(case.iterdir()) if p.name.startswith("openapi."))


def _expected_tree(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*")) if p.is_file()
    }


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_golden(case: Path, update_golden: bool) -> None:
    result = generate(case_options(_spec(case)))
    copied = {name for name, _ in runtime_sources()}
    actual = {f.path: f.text for f in result.files if not _is_runtime_copy(f.path, copied)}
    diagnostics = format_text(result.diagnostics)
    expected_dir = case / "expected"
    if update_golden:
        shutil.rmtree(expected_dir, ignore_errors=True)
        for path, content in actual.items():
            (expected_dir / path).parent.mkdir(parents=True, exist_ok=True)
            (expected_dir / path).write_text(content, encoding="utf-8", newline="\n")
        (case / "diagnostics.txt").write_text(diagnostics, encoding="utf-8", newline="\n")
        return
    expected = _expected_tree(expected_dir)
    assert sorted(actual) == sorted(expected), f"file lists differ; {HINT}"
    for path in sorted(actual):
        if actual[path] != expected[path]:
            diff = "".join(
                difflib.unified_diff(
                    expected[path].splitlines(True),
                    actual[path].splitlines(True),
                    f"expected/{path}",
                    f"actual/{path}",
                    n=2,
                )
            )
            pytest.fail(f"{case.name}/{path} differs ({HINT}):\n{diff[:6000]}")
    assert diagnostics == (case / "diagnostics.txt").read_text(encoding="utf-8"), HINT


def _is_runtime_copy(path: str, copied: set[str]) -> bool:
    parts = path.split("/", 2)
    return len(parts) == 3 and parts[0] == "src" and parts[2] in copied


def test_runtime_is_copied_byte_for_byte() -> None:
    source = ROOT / "src" / "mcpforge" / "runtime"
    modules = sorted(path for p in source.rglob("*.py") if (path := p.relative_to(source).as_posix()) != "__init__.py")
    result = generate(case_options(_spec(FIXTURES / "golden" / "petstore_30")))
    package = next(f.path.split("/")[1] for f in result.files if f.path.endswith("/tools.json"))
    files = {f.path: f.data for f in result.files}
    assert {name for name, _ in runtime_sources()} == set(modules)
    assert {"serving/cli.py", "calling/api.py", "access/signin.py", "settings/__init__.py"} <= set(modules)
    for name in modules:
        assert files[f"src/{package}/{name}"] == (source / name).read_bytes(), name


def test_every_template_has_a_substitution() -> None:
    templates = sorted((ROOT / "templates").rglob("*.jinja"))
    assert templates
    for template in templates:
        assert "{{" in template.read_text(encoding="utf-8"), f"{template} has nothing to render: copy it instead"
