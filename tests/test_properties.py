"""Property-based tests over random valid OpenAPI documents (see strategies.py).

Generation never fails, the manifests pass every provider's lint, and for every tool the
arguments built from its input schema validate against it and become an HTTP request without
error (the request is sent to Prism in ``e2e/test_property_prism.py``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from jsonschema import Draft202012Validator

from e2e.argsynth import arguments
from helpers import manifest_lint_errors
from mcpforge.options.model import Options
from mcpforge.pipeline import GenerationResult, generate
from mcpforge.runtime.calling.request import prepare_request  # copied byte for byte into every package
from mcpforge.targets.lint import MANIFEST_FILES, detect_format
from strategies import documents


def generate_document(document: dict[str, Any], tmp: Path) -> GenerationResult:
    spec = tmp / "openapi.json"
    spec.write_text(json.dumps(document), encoding="utf-8")
    return generate(Options(spec=spec))


# The quick loop tries 20 random documents; the whole suite (scripts/test.sh, CI) tries 150.
EXAMPLES = int(os.environ.get("MCPFORGE_PROPERTY_EXAMPLES", "20"))


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(document=documents())
def test_random_documents_generate_lint_clean_and_round_trip(document: dict[str, Any], tmp_path: Path) -> None:
    result = generate_document(document, tmp_path)
    assert not manifest_lint_errors(result.files)
    operations = sum(len(item) for item in document["paths"].values())
    assert len(result.toolset.tools) + result.excluded == operations and result.skipped == 0
    for file in result.files:  # each manifest linted above as its format; that format is what it looks like
        name = file.path.removeprefix("manifests/").removesuffix(".json")
        if name in MANIFEST_FILES and result.toolset.tools:
            assert detect_format(json.loads(file.data)) == MANIFEST_FILES[name], file.path
    data = json.loads(next(f.data for f in result.files if f.path.endswith("/tools.json")))
    for entry in data["tools"]:
        schema = entry["tool"]["inputSchema"]
        args, _ = arguments(schema)
        assert Draft202012Validator(schema).is_valid(args), (entry["tool"]["name"], args)
        request = prepare_request(entry["method"], entry["path"], entry["bindings"], args)
        assert "{" not in request.path and request.method == entry["method"]
        if any(b["in"] == "body" for b in entry["bindings"]) and "body" in args:
            assert request.has_json
