"""The conformance lint: each rule fires on a manifest that breaks it, and never on our own output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from conftest import FIXTURES
from mcpforge.cli import main
from mcpforge.targets.lint import detect_format, lint_manifest


def codes(data: Any, fmt: Any = None, **kwargs: Any) -> set[str]:
    return {f.code for f in lint_manifest(data, fmt, **kwargs)}


def chat(name: str, params: Any, strict: bool = False, description: str = "d") -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": params, "strict": strict},
    }


def test_names_with_client_prefix() -> None:
    ok = {"type": "object", "properties": {}}
    assert codes([chat("a.b", ok)]) == {"invalid-name"}
    assert codes([chat("x" * 60, ok)], client_prefix="mcp__server__") == {"name-too-long"}
    assert codes([{"name": "1abc", "description": ""}], "gemini") == {"gemini-name"}


def test_schema_rules() -> None:
    assert codes([chat("t", {"anyOf": [{"type": "object"}]})]) == {"root-not-object"}
    assert codes([chat("t", {"type": "object", "properties": {}, "oneOf": [{}]})]) == {"root-combinator"}
    assert codes([chat("t", {"type": "object"})]) == {"missing-properties"}
    assert codes([chat("t", {"type": "object", "properties": {"a": {"type": "array"}}})]) == {"array-without-items"}
    long = chat("t", {"type": "object", "properties": {}}, description="x" * 1100)
    assert codes([long]) == {"long-description"}
    many = [chat(f"t{i}", {"type": "object", "properties": {}}) for i in range(129)]
    assert codes(many) == {"too-many-tools"}


def test_strict_rules() -> None:
    params = {
        "type": "object",
        "properties": {"a": {"type": "string", "default": "x", "format": "uri", "pattern": "^(?!a)"}},
        "required": [],
    }
    found = codes([chat("t", params, strict=True)])
    assert found == {
        "strict-keyword",
        "strict-format",
        "strict-lookaround",
        "strict-additional-properties",
        "strict-required",
    }


def test_strict_size_limits() -> None:
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(11):
        deep = {"type": "object", "properties": {"a": deep}, "required": ["a"], "additionalProperties": False}
    assert "strict-limit" in codes([chat("t", deep, strict=True)])
    wide = {
        "type": "object",
        "required": ["e"],
        "additionalProperties": False,
        "properties": {"e": {"type": "string", "enum": [str(i) for i in range(1001)]}},
    }
    assert codes([chat("t", wide, strict=True)]) == {"strict-limit"}


def test_gemini_rules() -> None:
    decl = {
        "name": "t",
        "parametersJsonSchema": {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A", "description": "d"}, "b": {"type": "string", "pattern": "x"}},
        },
    }
    assert codes([decl], "gemini") == {"gemini-ref-siblings", "gemini-keyword"}


def test_data_is_not_linted_as_a_schema() -> None:
    """Values of enum, const, default and examples are instances: their keys are not keywords."""
    array = {"type": "array"}  # a schema without items; as data, just an object
    data = {"type": "object", "default": array, "const": array, "enum": [array], "examples": [array]}
    named = {"type": "object", "properties": {"default": array}}
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": {"data": data, "named": named}}}
    findings = lint_manifest([tool], "mcp")
    assert [(f.code, f.path) for f in findings] == [
        ("array-without-items", "$[0].inputSchema.properties.named.properties.default")
    ]


def test_detect_format() -> None:
    assert detect_format([chat("t", {})]) == "openai-chat"
    assert detect_format([{"type": "function", "name": "t", "parameters": {}, "strict": False}]) == "openai-responses"
    assert detect_format([{"name": "t", "input_schema": {}}]) == "anthropic"
    assert detect_format([{"name": "t", "description": ""}, {"name": "u", "parametersJsonSchema": {}}]) == "gemini"
    assert detect_format({"tools": [{"name": "t", "inputSchema": {}}]}) == "mcp"


def test_lint_command_on_specs_and_manifests(tmp_path: Path) -> None:
    runner = CliRunner()
    clean = runner.invoke(main, ["lint", str(FIXTURES / "golden" / "petstore_30" / "openapi.yaml")])
    assert clean.exit_code == 0 and "0 error(s)" in clean.stdout
    bad = tmp_path / "tools.json"
    bad.write_text(json.dumps([chat("bad.name", {"type": "object"})]))
    result = runner.invoke(main, ["lint", str(bad)])
    assert result.exit_code == 1 and "invalid-name" in result.stdout and "missing-properties" in result.stdout
    prefixed = runner.invoke(
        main,
        [
            "lint",
            str(FIXTURES / "golden" / "name_collisions" / "openapi.yaml"),
            "--client-prefix",
            "mcp__a_long_server_name__",
        ],
    )
    assert prefixed.exit_code == 1 and "name-too-long" in prefixed.stdout
