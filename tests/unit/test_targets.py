"""Provider manifests: provider-rules.md §11 cases, the basics, and external oracles."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pydantic import TypeAdapter

from mcpforge.diagnostics import Diagnostics
from mcpforge.targets.anthropic import anthropic_strict_schema
from mcpforge.targets.convert import chat_to_responses, to_anthropic, to_gemini, to_openai_chat, to_openai_responses
from mcpforge.targets.lint import lint_manifest
from mcpforge.targets.manifests import provider_manifests
from mcpforge.targets.openai import Scrubbed, openai_parameters
from mcpforge.targets.openai_strict import NotStrict, Strictified, strict_schema


def tool(schema: dict[str, Any], name: str = "t") -> dict[str, Any]:
    return {"name": name, "description": "d", "inputSchema": schema}


def test_1_no_argument_tool_gets_properties() -> None:
    schema = {"type": "object", "additionalProperties": False}
    (chat,), _ = to_openai_chat([tool(schema)])
    assert chat["function"]["parameters"] == {"type": "object", "additionalProperties": False, "properties": {}}
    assert strict_schema(schema) == {"type": "object", "additionalProperties": False, "properties": {}, "required": []}
    (anthropic,), _ = to_anthropic([tool(schema)])
    assert anthropic["input_schema"]["properties"] == {}
    assert "parametersJsonSchema" not in to_gemini([tool(schema)])[0]


def test_2_free_form_object_is_not_narrowed() -> None:
    with pytest.raises(NotStrict, match="free-form"):
        strict_schema({"type": "object"})
    (chat,), notes = to_openai_chat([tool({"type": "object"})], strict=True)
    assert chat["function"]["strict"] is False and "free-form" in notes[0]


def test_the_null_an_optional_enum_gains_counts_toward_the_enum_limit() -> None:
    def schema(required: list[str]) -> dict[str, Any]:
        sizes = {"a": list(range(600)), "b": list(range(398))}  # 998 values, 1,000 with two nulls
        return {
            "type": "object",
            "properties": {name: {"type": "integer", "enum": values} for name, values in sizes.items()},
            "required": required,
        }

    assert strict_schema(schema(["a"]))["properties"]["b"]["enum"][-1] is None  # 999 values: strict
    assert strict_schema(schema([]))["properties"]["a"]["enum"][-1] is None  # 1,000: still strict
    schema_over = schema([])
    schema_over["properties"]["c"] = {"type": "integer", "enum": [7]}  # 1,002 with three nulls
    with pytest.raises(NotStrict, match="more than 1000 enum values"):
        strict_schema(schema_over)
    (chat,), _ = to_openai_chat([tool(schema_over)], strict=True)
    assert chat["function"]["strict"] is False
    assert not [f for f in lint_manifest([chat], "openai-chat") if f.code == "strict-limit"]


def test_strict_conversion_is_shared_between_tools_and_still_counts_every_use() -> None:
    many: dict[str, Any] = {"type": "integer", "enum": list(range(600))}  # one object, used twice
    memo = Strictified()
    first = strict_schema({"type": "object", "properties": {"a": many}, "required": ["a"]}, memo)
    second = strict_schema({"type": "object", "properties": {"b": many}, "required": ["b"]}, memo)
    assert first["properties"]["a"] is second["properties"]["b"]  # converted once
    assert many == {"type": "integer", "enum": list(range(600))}  # and the input untouched
    both = {"type": "object", "properties": {"a": many, "b": many}, "required": ["a", "b"]}
    with pytest.raises(NotStrict, match="more than 1000 enum values"):  # 1,200: a shared use counts again
        strict_schema(both, memo)
    optional = strict_schema({"type": "object", "properties": {"a": many}}, memo)["properties"]["a"]
    assert optional["enum"][-1] is None and None not in first["properties"]["a"]["enum"]  # shared, not changed


def test_3_optional_default_becomes_nullable_and_described() -> None:
    schema = {"type": "object", "properties": {"unit": {"type": "string", "enum": ["C", "F"], "default": "C"}}}
    out = strict_schema(schema)
    assert out["properties"]["unit"] == {
        "type": ["string", "null"],
        "enum": ["C", "F", None],
        "description": '(default: "C")',
    }
    assert out["required"] == ["unit"] and out["additionalProperties"] is False
    (plain,), _ = to_openai_chat([tool(schema)])
    assert "default" not in plain["function"]["parameters"]["properties"]["unit"]


def test_4_and_5_ref_siblings_and_single_all_of() -> None:
    defs = {"Addr": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
    schema = {
        "type": "object",
        "properties": {
            "home": {"$ref": "#/$defs/Addr", "description": "home"},
            "work": {"allOf": [{"$ref": "#/$defs/Addr"}], "description": "w"},
        },
        "required": ["home", "work"],
        "$defs": defs,
    }
    out = strict_schema(schema)
    assert out["properties"]["home"]["description"] == "home" and "$ref" not in out["properties"]["home"]
    assert out["properties"]["work"]["properties"] == {"city": {"type": "string"}}


def test_6_discriminated_union_becomes_any_of() -> None:
    schema = {
        "type": "object",
        "required": ["pet"],
        "properties": {
            "pet": {
                "oneOf": [
                    {"type": "object", "properties": {"kind": {"const": "cat"}}, "required": ["kind"]},
                    {"type": "object", "properties": {"kind": {"const": "dog"}}, "required": ["kind"]},
                ]
            }
        },
    }
    out = strict_schema(schema)
    assert "oneOf" not in out["properties"]["pet"]
    assert out["properties"]["pet"]["anyOf"][0]["properties"]["kind"] == {"const": "cat", "type": "string"}


def test_8_9_nullable_enum_and_exclusive_bounds_for_gemini() -> None:
    gemini = to_gemini(
        [
            tool(
                {
                    "type": "object",
                    "properties": {
                        "n": {"type": "integer", "exclusiveMinimum": 0},
                        "x": {"type": "number", "exclusiveMaximum": 1.5},
                        "c": {"const": "a"},
                    },
                }
            )
        ]
    )[0]["parametersJsonSchema"]["properties"]
    assert gemini["n"] == {"type": "integer", "minimum": 1}
    assert gemini["x"] == {"type": "number", "description": "(less than 1.5)"}
    assert gemini["c"] == {"enum": ["a"]}


def test_gemini_converts_a_shared_subschema_once_but_a_reference_with_siblings_per_tool() -> None:
    shared = {"type": "object", "properties": {"id": {"type": "integer", "exclusiveMinimum": 0}}}
    annotated = {"$ref": "#/$defs/Kind", "description": "the kind"}  # one object in both tools

    def tool_with(kind: dict[str, Any]) -> dict[str, Any]:
        return tool({"type": "object", "properties": {"owner": shared, "kind": annotated}, "$defs": {"Kind": kind}})

    first, second = to_gemini([tool_with({"type": "string"}), tool_with({"type": "integer"})])
    one, two = first["parametersJsonSchema"]["properties"], second["parametersJsonSchema"]["properties"]
    assert one["owner"] is two["owner"]  # converted once, shared as the input was
    assert one["owner"]["properties"]["id"] == {"type": "integer", "minimum": 1}
    assert one["kind"] == {"type": "string", "description": "the kind"}  # each tool's own definition
    assert two["kind"] == {"type": "integer", "description": "the kind"}


def test_11_12_formats_and_lookaround() -> None:
    schema = {
        "type": "object",
        "required": ["u", "p"],
        "properties": {"u": {"type": "string", "format": "uri"}, "p": {"type": "string", "pattern": "^(?!/).+$"}},
    }
    out = strict_schema(schema)
    assert out["properties"]["u"] == {"type": "string", "description": "(format: uri)"}
    assert "pattern" not in out["properties"]["p"]
    assert "pattern" not in openai_parameters(schema)["properties"]["p"]  # dropped non-strict too
    assert anthropic_strict_schema(schema)["properties"]["u"]["format"] == "uri"


def test_13_14_17_maps_recursion_untyped() -> None:
    with pytest.raises(NotStrict):
        strict_schema(
            {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}
        )
    with pytest.raises(NotStrict, match="without a type"):
        strict_schema({"type": "object", "properties": {"x": {"description": "anything"}}})
    tree = {
        "type": "object",
        "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/T"}}},
        "$defs": {"T": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/T"}}}}},
    }
    assert "$defs" in strict_schema(tree)  # OpenAI strict allows recursion through $defs
    with pytest.raises(NotStrict, match="recursive"):
        anthropic_strict_schema(tree)


def test_19_responses_strict_is_always_explicit_and_chat_conversion() -> None:
    (responses,), _ = to_openai_responses([tool({"type": "object", "properties": {}})])
    assert responses["strict"] is False
    converted, warnings = chat_to_responses(
        [
            {
                "type": "function",
                "function": {"name": "ok", "parameters": {"type": "object", "properties": {}}, "strict": True},
            },
            {"type": "function", "function": {"name": "no.dots", "parameters": {"type": "object"}}},
            {"type": "web_search"},
            {"type": "function", "function": {"name": "plain"}},
        ]
    )
    assert [t.get("name", t["type"]) for t in converted] == ["ok", "web_search", "plain"]
    assert converted[0]["strict"] is True and converted[2]["strict"] is False
    assert len(warnings) == 1 and "no.dots" in warnings[0]


def test_default_removal_everywhere_and_input_untouched() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "array", "items": {"type": "string", "default": "x"}, "default": []},
            "m": {"type": "object", "additionalProperties": {"type": "integer", "default": 1}},
            "u": {"anyOf": [{"type": "string", "default": "s"}, {"type": "null"}]},
            "default": {"type": "string", "enum": ["keep", "me"], "default": "keep"},
        },
        "$defs": {"D": {"type": "string", "default": "d"}},
    }
    before = copy.deepcopy(schema)
    params = openai_parameters(schema)
    assert schema == before
    assert "default" not in str({k: v for k, v in params["properties"].items() if k != "default"})
    assert params["properties"]["default"] == {"type": "string", "enum": ["keep", "me"]}
    assert params["$defs"]["D"] == {"type": "string"}


def test_data_is_left_whole_when_defaults_are_removed() -> None:
    """An enum, a const or an example holding objects is data: a "default" key there is a value."""
    members = [{"default": True, "id": 1}, {"default": False, "id": 2}]
    schema = {
        "type": "object",
        "properties": {
            "choice": {"type": "object", "enum": members, "examples": [{"default": True, "id": 1}]},
            "fixed": {"const": {"default": 3}},
            "enum": {"type": "string", "default": "named enum: still a schema"},
        },
    }
    params = openai_parameters(schema)
    assert params["properties"]["choice"] == {
        "type": "object",
        "enum": members,
        "examples": [{"default": True, "id": 1}],
    }
    assert params["properties"]["fixed"] == {"const": {"default": 3}}
    assert params["properties"]["enum"] == {"type": "string"}
    closed = {"type": "object", "properties": {"id": {"type": "integer"}}, "enum": members}
    strict = strict_schema(openai_parameters({"type": "object", "properties": {"choice": closed}}))
    assert strict["properties"]["choice"]["enum"] == [*members, None]  # optional: null joins the enum


def test_empty_tool_list() -> None:
    assert to_openai_chat([]) == ([], []) and to_gemini([]) == [] and chat_to_responses([]) == ([], [])


@pytest.mark.xdist_group("provider-sdks")  # the SDKs take seconds to import: one worker does
@pytest.mark.parametrize("strict", [False, True])
def test_oracles_on_a_generated_manifest(strict: bool) -> None:
    import json

    from agents.strict_schema import ensure_strict_json_schema
    from anthropic.lib._parse._transform import transform_schema
    from openai.types.chat import ChatCompletionFunctionToolParam
    from openai.types.responses import FunctionToolParam

    from conftest import FIXTURES

    chat_type, responses_type = TypeAdapter(ChatCompletionFunctionToolParam), TypeAdapter(FunctionToolParam)

    for case in sorted((FIXTURES / "golden").glob("*/expected/manifests/mcp-tools.json")):
        tools = json.loads(case.read_text())
        chat, _ = to_openai_chat(tools, strict=strict)
        responses, _ = to_openai_responses(tools, strict=strict)
        for c, r in zip(chat, responses, strict=True):
            chat_type.validate_python(c)
            responses_type.validate_python(r)
            if r["strict"]:
                assert ensure_strict_json_schema(copy.deepcopy(r["parameters"])) == r["parameters"]
        anthropic, _ = to_anthropic(tools, strict=True)
        for a in anthropic:
            if a.get("strict"):
                assert transform_schema(copy.deepcopy(a["input_schema"])) == a["input_schema"]


def test_7_root_union_of_a_foreign_tool_is_folded() -> None:
    schema = {
        "type": "object",
        "description": "Find a route.",
        "oneOf": [
            {"properties": {"route": {"type": "string"}}, "required": ["route"]},
            {"properties": {"file": {"type": "string"}, "line": {"type": "integer"}}, "required": ["file"]},
        ],
    }
    (anthropic,), _ = to_anthropic([tool(schema)])
    folded = anthropic["input_schema"]
    assert not {"oneOf", "anyOf", "allOf"} & set(folded)
    assert set(folded["properties"]) == {"route", "file", "line"} and "required" not in folded
    assert "exactly one of these argument sets: {route} | {file}" in folded["description"]
    (chat,), _ = to_openai_chat([tool(schema)], strict=True)
    assert not {"oneOf", "anyOf", "allOf"} & set(chat["function"]["parameters"])
    assert "oneOf" in schema  # the input is untouched


def test_scrubbing_a_subschema_shared_by_tools_once_gives_what_scrubbing_each_gives() -> None:
    shared: dict[str, Any] = {
        "type": "object",
        "properties": {"default": {"type": "string", "default": "x"}, "n": {"type": "integer"}},
    }
    untouched: dict[str, Any] = {"type": "string", "enum": ["a", "b"]}
    schemas = [
        {"type": "object", "properties": {"a": shared, "u": untouched}},
        {"type": "object", "properties": {"b": shared, "u": untouched}, "default": {}},
    ]
    memo = Scrubbed()
    together = [openai_parameters(s, memo) for s in schemas]
    assert together == [openai_parameters(copy.deepcopy(s)) for s in schemas]
    assert together[0]["properties"]["a"] is together[1]["properties"]["b"]  # scrubbed once, shared
    # a property named "default" stays; its own default goes
    assert together[0]["properties"]["a"]["properties"]["default"] == {"type": "string"}
    assert together[0]["properties"]["u"] is untouched  # unchanged parts are the input's own
    assert "default" in shared["properties"]["default"]  # the input is not mutated


def test_strict_inlining_a_reference_with_siblings_changes_neither_input_nor_definition() -> None:
    pet = {"type": "object", "properties": {"name": {"type": "string", "format": "name"}}, "required": []}
    params: dict[str, Any] = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/Pet", "description": "first"}, "b": {"$ref": "#/$defs/Pet"}},
        "required": ["a", "b"],
        "$defs": {"Pet": pet},
    }
    before = copy.deepcopy(params)
    strict = strict_schema(params)
    assert params == before
    inlined = strict["properties"]["a"]
    assert inlined["description"] == "first"
    assert inlined["properties"]["name"] == {"type": ["string", "null"], "description": "(format: name)"}
    assert strict["$defs"]["Pet"]["required"] == ["name"]
    assert strict_schema(params) == strict  # converting again gives the same: nothing shared was changed


def test_tools_that_share_an_input_schema_are_converted_once_to_what_each_alone_gives() -> None:
    schema = {  # one object in two tools, as the builder shares equal schemas (/me/x and /users/{id}/x)
        "type": "object",
        "properties": {"top": {"type": "integer", "default": 10, "exclusiveMinimum": 0}},
        "additionalProperties": False,
    }
    tools = [
        {"name": "a", "description": "A", "inputSchema": schema},
        {"name": "b", "description": "B", "inputSchema": schema},
        {"name": "c", "description": "C", "inputSchema": {"type": "object", "properties": {}}},
    ]
    before = copy.deepcopy(tools)
    manifests = dict(provider_manifests(tools, Diagnostics()))
    assert tools == before  # the tools are not mutated
    for name, convert in (("openai-chat", False), ("openai-chat-strict", True)):
        chat = manifests[name]
        assert chat[0]["function"]["parameters"] is chat[1]["function"]["parameters"]  # made once, shared
        assert chat == to_openai_chat(before, strict=convert)[0]  # as each tool alone gives
    gemini = manifests["gemini"]
    assert (
        gemini[0]["parametersJsonSchema"]
        == gemini[1]["parametersJsonSchema"]
        == {
            "type": "object",
            "properties": {"top": {"type": "integer", "minimum": 1}},
            "additionalProperties": False,
        }
    )
    assert gemini == to_gemini(before)
