"""Property-based tests over random valid OpenAPI documents (see strategies.py).

Generation never fails, the manifests pass every provider's lint, and for every tool the
arguments built from its input schema validate against it and become an HTTP request without
error (the request is sent to Prism in ``e2e/test_property_prism.py``).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from hypothesis import HealthCheck, given, settings
from jsonschema import Draft202012Validator

from e2e.argsynth import arguments
from mcpforge.diagnostics import Severity
from mcpforge.options import Options
from mcpforge.pipeline import GenerationResult, generate
from mcpforge.targets.lint import detect_format, lint_manifest
from strategies import documents

ROOT = Path(__file__).resolve().parent.parent


def _http_module() -> ModuleType:
    """The generated ``http.py`` (stdlib only, identical in every generated package)."""
    result = generate(Options(spec=ROOT / "examples" / "petstore.yaml"))
    folder = Path(tempfile.mkdtemp(prefix="mcpforge-http-"))
    path = folder / "generated_http.py"
    path.write_text(next(f.text for f in result.files if f.path.endswith("/http.py")), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("generated_http", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["generated_http"] = module  # dataclasses look their module up while being created
    spec.loader.exec_module(module)
    return module


HTTP = _http_module()


def generate_document(document: dict[str, Any], tmp: Path) -> GenerationResult:
    spec = tmp / "openapi.json"
    spec.write_text(json.dumps(document), encoding="utf-8")
    return generate(Options(spec=spec))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(document=documents())
def test_random_documents_generate_lint_clean_and_round_trip(document: dict[str, Any], tmp_path: Path) -> None:
    result = generate_document(document, tmp_path)
    assert not [d for d in result.diagnostics if d.severity is not Severity.INFO and d.code.startswith("lint-")]
    operations = sum(len(item) for item in document["paths"].values())
    assert len(result.toolset.tools) + result.excluded == operations and result.skipped == 0
    for file in result.files:
        if file.path.startswith("manifests/"):
            manifest = json.loads(file.data)
            kind = None if "strict" in file.path else detect_format(manifest)
            errors = [f for f in lint_manifest(manifest, kind) if f.severity == "error"]
            assert not errors, (file.path, errors[:2])
    data = json.loads(next(f.data for f in result.files if f.path.endswith("/tools.json")))
    for entry in data["tools"]:
        schema = entry["tool"]["inputSchema"]
        args, _ = arguments(schema)
        assert Draft202012Validator(schema).is_valid(args), (entry["tool"]["name"], args)
        request = HTTP.prepare_request(entry["method"], entry["path"], entry["bindings"], args)
        assert "{" not in request.path and request.method == entry["method"]
        if any(b["in"] == "body" for b in entry["bindings"]) and "body" in args:
            assert request.has_json
