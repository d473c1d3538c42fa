"""Deferred manifests: every tool behind Anthropic's and OpenAI's own tool search, checked with their SDK types."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, get_type_hints

import pytest
from pydantic import TypeAdapter

from conftest import FIXTURES
from helpers import case_options
from mcpforge.options.model import DeferredManifests, Options
from mcpforge.pipeline import generate
from mcpforge.targets.deferred import DEFER_FROM, namespaces_of, responses_deferred
from mcpforge.targets.lint import lint_manifest

DEFERRED = ("manifests/anthropic-deferred.json", "manifests/openai-responses-deferred.json")


def manifests(options: Options) -> dict[str, Any]:
    result = generate(options)
    return {f.path: json.loads(f.data) for f in result.files if f.path.startswith("manifests/")}


def typed(value: Any, kind: Any) -> None:
    """``value`` validates as the SDK's TypedDict ``kind`` and has no key the type does not declare."""
    TypeAdapter(kind).validate_python(value)
    assert set(value) <= set(get_type_hints(kind)), sorted(set(value) - set(get_type_hints(kind)))


@pytest.mark.xdist_group("provider-sdks")  # the SDKs take seconds to import: one worker does
@pytest.mark.parametrize("case", ["petstore_30", "openapi_32", "hostile", "name_collisions"])
def test_deferred_manifests_are_the_providers_own_types(case: str) -> None:
    from anthropic.types import ToolParam, ToolSearchToolBm25_20251119Param
    from openai.types.responses import NamespaceToolParam, ToolSearchToolParam
    from openai.types.responses.namespace_tool_param import ToolFunction

    spec = next((FIXTURES / "golden" / case).glob("openapi.*"))
    options = dataclasses.replace(case_options(spec), deferred_manifests=DeferredManifests.ALWAYS)
    found = manifests(options)
    mcp_names = [tool["name"] for tool in found["manifests/mcp-tools.json"]]

    search, *anthropic = found["manifests/anthropic-deferred.json"]
    typed(search, ToolSearchToolBm25_20251119Param)
    for tool, plain in zip(anthropic, found["manifests/anthropic.json"], strict=True):
        typed(tool, ToolParam)
        assert tool == {**plain, "defer_loading": True}  # the same tool, held back

    search, *namespaces = found["manifests/openai-responses-deferred.json"]
    typed(search, ToolSearchToolParam)
    plain_by_name = {tool["name"]: tool for tool in found["manifests/openai-responses.json"]}
    inside = []
    for namespace in namespaces:
        typed({**namespace, "tools": []}, NamespaceToolParam)
        assert namespace["tools"] and namespace["description"]
        for tool in namespace["tools"]:
            typed(tool, ToolFunction)
            assert tool == {**plain_by_name[tool["name"]], "defer_loading": True}
            inside.append(tool["name"])
    assert sorted(inside) == sorted(mcp_names)  # every tool in exactly one namespace
    for path in DEFERRED:
        assert lint_manifest(found[path]) == [], path


def test_written_from_50_tools_unless_asked(tmp_path: Path) -> None:
    small = manifests(case_options(FIXTURES / "golden" / "petstore_30" / "openapi.yaml"))
    assert not set(DEFERRED) & set(small)
    paths = {f"/things{i}": {"get": {"operationId": f"getThing{i}", "responses": {"200": {"description": "ok"}}}}
             for i in range(DEFER_FROM)}  # fmt: skip
    spec = {"openapi": "3.1.0", "info": {"title": "Many", "version": "1"}, "paths": paths}
    document = tmp_path / "many.json"
    document.write_text(json.dumps(spec), encoding="utf-8")
    assert set(DEFERRED) <= set(manifests(Options(spec=document)))
    never = Options(spec=document, deferred_manifests=DeferredManifests.NEVER)
    assert not set(DEFERRED) & set(manifests(never))


def test_namespaces_are_toolsets_with_valid_distinct_names_and_the_documents_words() -> None:
    toolsets = [("pets",), ("Pets!",), ("pets",), (), ("a" * 80,), ("store",)]
    found = namespaces_of(toolsets, {"pets": "  Everything about\n your pets.  ", "store": "x" * 500})
    assert [(n.name, n.members) for n in found] == [
        ("pets", (0, 2)), ("Pets_2", (1,)), ("untagged", (3,)), ("a" * 60, (4,)), ("store", (5,))
    ]  # fmt: skip
    assert found[0].description == "Everything about your pets."
    assert found[1].description == "The API's Pets! operation."
    assert len(found[4].description) <= 300


def test_lint_finds_deferred_tools_without_a_tool_search_and_empty_namespaces() -> None:
    tool = {"type": "function", "name": "t", "parameters": {"type": "object", "properties": {}}, "strict": False}
    _, namespace = responses_deferred([tool], namespaces_of([("x",)], {}))
    codes = {f.code for f in lint_manifest([namespace], "openai-responses")}
    assert codes == {"deferred-without-search"}
    empty = {"type": "namespace", "name": "bad name", "description": "", "tools": []}
    codes = {f.code for f in lint_manifest([{"type": "tool_search"}, empty], "openai-responses")}
    assert codes == {"invalid-name", "namespace-description", "empty-namespace"}
    anthropic = [{"name": "t", "description": "d", "input_schema": {"type": "object"}, "defer_loading": True}]
    assert {f.code for f in lint_manifest(anthropic, "anthropic")} == {"deferred-without-search"}


@pytest.mark.xdist_group("provider-sdks")
def test_code_mode_manifests_are_the_providers_own_types_and_lint_clean() -> None:
    from anthropic.types import ToolParam
    from openai.types.chat import ChatCompletionFunctionToolParam
    from openai.types.responses import FunctionToolParam

    found = manifests(case_options(FIXTURES / "golden" / "petstore_30" / "openapi.yaml"))
    kinds = {"code-openai-chat": ChatCompletionFunctionToolParam, "code-openai-responses": FunctionToolParam,
             "code-anthropic": ToolParam}  # fmt: skip
    for name, kind in kinds.items():
        tools = found[f"manifests/{name}.json"]
        assert len(tools) == 2
        for tool in tools:
            typed(tool, kind)
    for name in ("code-mcp-tools", "code-openai-chat", "code-openai-responses", "code-anthropic", "code-gemini"):
        assert lint_manifest(found[f"manifests/{name}.json"]) == [], name
    chat = found["manifests/code-openai-chat.json"]
    assert [t["function"]["name"] for t in chat] == ["search_api", "execute"] and all(
        t["function"]["strict"] for t in chat
    )
