"""OpenAPI -> JSON Schema 2020-12 conversion (provider-rules.md §7)."""

from __future__ import annotations

from typing import Any

import pytest

from mcpforge.errors import RefError
from mcpforge.openapi.convert import Direction, SchemaConverter
from mcpforge.openapi.model import Dialect
from mcpforge.openapi.refs import RefResolver


def _converter(components: dict[str, Any], dialect: Dialect = Dialect.OPENAPI_30) -> SchemaConverter:
    root = {"components": {"schemas": components}, "definitions": components}
    resolver = RefResolver(root, root_dir=None, read_file=lambda _: None)
    return SchemaConverter(resolver, dialect)


def convert(
    schema: Any,
    components: dict[str, Any] | None = None,
    *,
    dialect: Dialect = Dialect.OPENAPI_30,
    direction: Direction = Direction.REQUEST,
) -> Any:
    return _converter(components or {}, dialect).convert(schema, doc="", pointer="/x", direction=direction)


def test_nullable_with_type_and_enum() -> None:
    assert convert({"type": "string", "nullable": True, "enum": ["a", "b"]}) == {
        "type": ["string", "null"],
        "enum": ["a", "b", None],
    }


def test_nullable_without_type_is_no_op_but_with_all_of_wraps() -> None:
    assert convert({"nullable": True, "description": "d"}) == {"description": "d"}
    out = convert(
        {"allOf": [{"$ref": "#/components/schemas/C"}], "nullable": True, "description": "d"}, {"C": {"type": "string"}}
    )
    assert out == {"description": "d", "anyOf": [{"allOf": [{"$ref": "#/$defs/C"}]}, {"type": "null"}]}


def test_nullable_beside_ref_in_30() -> None:
    out = convert(
        {"$ref": "#/components/schemas/C", "nullable": True, "description": "ignored"}, {"C": {"type": "string"}}
    )
    assert out == {"anyOf": [{"$ref": "#/$defs/C"}, {"type": "null"}]}


def test_swagger_x_nullable() -> None:
    assert convert({"type": "integer", "x-nullable": True}, dialect=Dialect.SWAGGER_20) == {"type": ["integer", "null"]}


def test_ref_siblings_ignored_in_30_and_kept_in_31() -> None:
    comps = {"C": {"type": "string"}}
    node = {"$ref": "#/components/schemas/C", "maxLength": 5, "description": "d"}
    assert convert(node, comps) == {"$ref": "#/$defs/C"}
    assert convert(node, comps, dialect=Dialect.OPENAPI_31) == {"$ref": "#/$defs/C", "maxLength": 5, "description": "d"}


def test_boolean_exclusive_bounds_become_numeric() -> None:
    assert convert(
        {"type": "number", "minimum": 0, "exclusiveMinimum": True, "maximum": 9, "exclusiveMaximum": False}
    ) == {"type": "number", "exclusiveMinimum": 0, "maximum": 9}
    assert convert({"type": "number", "exclusiveMinimum": 3}, dialect=Dialect.OPENAPI_31) == {
        "type": "number",
        "exclusiveMinimum": 3,
    }


def test_example_becomes_examples_and_openapi_keywords_are_dropped() -> None:
    out = convert(
        {"type": "string", "example": "x", "xml": {"name": "a"}, "x-foo": 1, "externalDocs": {}, "format": "byte"}
    )
    assert out == {"type": "string", "examples": ["x"], "format": "byte", "contentEncoding": "base64"}


def test_read_only_removed_from_requests_and_write_only_from_responses() -> None:
    comps = {"Id": {"type": "string", "readOnly": True}}
    node = {
        "type": "object",
        "required": ["id", "pw", "name"],
        "properties": {
            "id": {"$ref": "#/components/schemas/Id"},
            "pw": {"type": "string", "writeOnly": True},
            "name": {"type": "string"},
        },
    }
    request = convert(node, comps)
    assert set(request["properties"]) == {"pw", "name"} and request["required"] == ["pw", "name"]
    response = convert(node, comps, direction=Direction.RESPONSE)
    assert set(response["properties"]) == {"id", "name"} and response["required"] == ["id", "name"]


def test_discriminator_tags_each_ref_branch() -> None:
    comps = {
        "Cat": {"type": "object", "properties": {"kind": {"type": "string"}}},
        "Dog": {"type": "object", "properties": {"kind": {"type": "string"}}},
    }
    node = {
        "oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
        "discriminator": {"propertyName": "kind", "mapping": {"cat": "#/components/schemas/Cat"}},
    }
    out = convert(node, comps)
    assert "discriminator" not in out
    assert out["oneOf"][0] == {"$ref": "#/$defs/Cat", "properties": {"kind": {"const": "cat"}}, "required": ["kind"]}
    assert out["oneOf"][1]["properties"] == {"kind": {"const": "Dog"}}  # implicit mapping: the schema name


def test_boolean_subschemas_in_31_and_30() -> None:
    assert convert({"type": "object", "properties": {"a": True, "b": False}}, dialect=Dialect.OPENAPI_31) == {
        "type": "object",
        "properties": {"a": True, "b": False},
    }
    # additionalProperties may be a boolean in 3.0 too; elsewhere 3.0 has no boolean schemas
    assert convert({"type": "object", "additionalProperties": False}) == {
        "type": "object",
        "additionalProperties": False,
    }
    assert convert({"type": "array", "items": False}) == {"type": "array", "items": {"not": {}}}


def test_arrays_always_get_items_and_file_becomes_base64() -> None:
    assert convert({"type": "array"}) == {"type": "array", "items": {}}
    assert convert({"type": "file"}, dialect=Dialect.SWAGGER_20) == {"contentEncoding": "base64", "type": "string"}


def test_circular_references_terminate_in_defs() -> None:
    comps = {"Node": {"type": "object", "properties": {"next": {"$ref": "#/components/schemas/Node"}}}}
    converter = _converter(comps)
    out = converter.convert({"$ref": "#/components/schemas/Node"}, doc="", pointer="/x", direction=Direction.REQUEST)
    assert out == {"$ref": "#/$defs/Node"}
    assert converter.definitions(report=lambda _: None).request["Node"] == {
        "type": "object",
        "properties": {"next": {"$ref": "#/$defs/Node"}},
    }


def test_a_response_definition_converted_late_reports_its_problems_then() -> None:
    comps = {"Pet": {"type": "object", "properties": {"a": [1, 2]}}}
    converter = _converter(comps)
    converter.convert({"$ref": "#/components/schemas/Pet"}, doc="", pointer="/x", direction=Direction.RESPONSE)
    assert converter.problems == []  # not converted yet: only an output shape may need it
    late: list[tuple[str, str]] = []
    defs = converter.definitions(report=late.append)
    assert defs.response["Pet"] == {"type": "object", "properties": {"a": {}}}
    assert late == [("/components/schemas/Pet/properties/a", "schema is a list, not an object; any value is accepted")]
    assert defs.response["Pet"] and len(late) == 1  # converted once, reported once


def test_pure_reference_loop_is_a_clear_error() -> None:
    comps = {"A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/A"}}
    with pytest.raises(RefError, match="reference cycle"):
        convert({"$ref": "#/components/schemas/A"}, comps)


def test_unresolvable_reference_names_its_location() -> None:
    with pytest.raises(RefError) as info:
        convert({"$ref": "#/components/schemas/Missing"})
    assert info.value.location == "/x"


def test_hostile_depth_and_garbage_are_loosened_not_crashes() -> None:
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(200):
        deep = {"type": "object", "properties": {"a": deep}}
    converter = _converter({})
    converter.convert(deep, doc="", pointer="/x", direction=Direction.REQUEST)
    assert converter.problems and "deeper" in converter.problems[0][1]
    assert convert({"type": "object", "properties": {"a": "not a schema"}}) == {
        "type": "object",
        "properties": {"a": {}},
    }


def test_a_schema_repeated_by_content_is_converted_once_unless_it_has_a_problem() -> None:
    converter = _converter({"Pet": {"type": "object", "properties": {"name": {"type": "string"}}}})
    page = {"type": "integer", "minimum": 1, "nullable": True}

    def run(node: Any, pointer: str, direction: Direction = Direction.REQUEST) -> Any:
        return converter.convert(node, doc="", pointer=pointer, direction=direction)

    first = run(dict(page), "/paths/~1a/get/parameters/0/schema")
    assert run(dict(page), "/paths/~1b/get/parameters/0/schema") is first  # equal content: one result
    assert first == {"type": ["integer", "null"], "minimum": 1}
    assert run({"minimum": 1, "type": "integer", "nullable": True}, "/c") is not first  # other key order
    assert run({"type": "integer", "minimum": 1.0, "nullable": True}, "/d") == {  # 1.0 is not 1
        "type": ["integer", "null"],
        "minimum": 1.0,
    }
    listing = {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}
    assert run(listing, "/e", Direction.RESPONSE) is not run(listing, "/f")  # directions differ
    broken = {"type": "object", "properties": {"x": 5}}
    run(broken, "/g")
    run(broken, "/h")
    assert [pointer for pointer, _ in converter.problems] == ["/g/properties/x", "/h/properties/x"]
