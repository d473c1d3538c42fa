"""Rendering helpers: JSON output is byte-identical to the stdlib's, whatever the encoder."""

from __future__ import annotations

import json
from typing import Any

from conftest import FIXTURES
from mcpforge.diagnostics import Diagnostics
from mcpforge.options.model import Options
from mcpforge.pipeline import build, targets
from mcpforge.project.files import SharedParts, dump_compact, dump_json, encode, encode_each, manifest_file
from mcpforge.project.project import project_parts, render_project
from mcpforge.targets.openai import with_parameters


def test_json_matches_stdlib_including_unicode_and_big_ints() -> None:
    data: dict[str, Any] = {"a": [1, 2.5, {"b": 'é\u2028"\\', "c": []}], "e": {}, "g": None, "h": True}
    assert dump_json(data).decode() == json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    big = {"max": 2**70}
    assert dump_json(big).decode() == json.dumps(big, indent=2) + "\n"


def test_a_manifest_from_a_generator_is_the_manifest_from_a_list() -> None:
    tools: list[Any] = [{"name": "a", "n": 2**70}, {"name": "é", "inputSchema": {"type": "object"}}]
    assert manifest_file("m.json", (encode(t) for t in tools)).data == manifest_file("m.json", encode_each(tools)).data
    assert json.loads(manifest_file("m.json", encode_each(tools)).data) == tools
    assert manifest_file("m.json", iter([])).data == manifest_file("m.json", []).data == b"[]\n"
    assert manifest_file("m.json", [b'{"a":1}', b'{"b":2}']).data == b'[\n{"a":1},\n{"b":2}\n]\n'  # a tool a line


def test_shared_parts_are_encoded_once_and_spliced_whatever_the_encoder() -> None:
    shared = SharedParts()
    params = {"type": "object", "maximum": 2**70}  # beyond orjson: the stdlib fallback splices too
    first, second = shared(params), shared(params)
    assert first is second
    assert shared({"type": "object", "maximum": 2**70}) is not first  # equal but another object
    tools = [{"name": "a", "parameters": first}, {"name": "b", "parameters": second}]
    expected = [json.dumps({"name": n, "parameters": params}, separators=(",", ":")).encode() for n in "ab"]
    assert encode_each(tools) == expected
    assert dump_compact(tools[0]) == expected[0] + b"\n"


def test_with_parameters_replaces_chat_and_responses_parameters_without_mutating() -> None:
    function: dict[str, Any] = {"name": "a", "parameters": {"type": "object"}, "strict": False}
    chat: dict[str, Any] = {"type": "function", "function": function}
    flat: dict[str, Any] = {"type": "function", "name": "a", "parameters": {"type": "object"}, "strict": False}
    assert with_parameters(chat, lambda p: "P") == {"type": "function", "function": {**function, "parameters": "P"}}
    assert with_parameters(flat, lambda p: "P") == {**flat, "parameters": "P"}
    assert chat["function"]["parameters"] == flat["parameters"] == {"type": "object"}
    other = {"type": "web_search"}
    assert with_parameters(other, lambda p: "P") is other


def test_tools_json_with_the_encoded_mcp_tools_spliced_is_the_same_file() -> None:
    options = Options(spec=FIXTURES / "golden" / "petstore_30" / "openapi.yaml")
    diags = Diagnostics()
    toolset = build(options, diags).toolset
    made = targets(toolset, options, diags)
    spliced = {f.path: f.data for f in render_project(project_parts(toolset, (), encoded_tools=made.encoded_mcp))}
    encoded = {f.path: f.data for f in render_project(project_parts(toolset, ()))}
    assert spliced == encoded
