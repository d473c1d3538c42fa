"""OpenAPI 3.2 as a first-class input: every new thing that changes what a tool is, and unknown versions."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FIXTURES
from helpers import build, tool, write_spec
from mcpforge.diagnostics import Diagnostics
from mcpforge.errors import SpecValidationError
from mcpforge.openapi.load import load_document
from mcpforge.openapi.model import Dialect
from mcpforge.options.model import Options
from mcpforge.pipeline import generate

EVENTS = FIXTURES / "golden" / "openapi_32" / "openapi.yaml"


def codes(diags: Diagnostics) -> list[str]:
    return [d.code for d in diags.freeze()]


def test_every_32_operation_becomes_a_tool_with_its_wire_method() -> None:
    toolset, diags = build(EVENTS)
    found = {(t.operation.http_method, t.operation.path): t.name for t in toolset.tools}
    assert found == {
        ("QUERY", "/events/search"): "searchEvents",
        ("GET", "/events/filter"): "filterEvents",
        ("GET", "/events/stream"): "streamEvents",
        ("GET", "/events/export"): "exportEvents",
        ("POST", "/events/export"): "importEvents",
        ("GET", "/events/{id}"): "getEvent",
        ("LINK", "/events/{id}"): "linkEvent",
    }
    assert not [d for d in diags.freeze() if d.severity.value != "info"]
    search = tool(toolset, "searchEvents")
    assert search.annotations["readOnlyHint"] is True  # QUERY is safe and idempotent, like GET
    assert tool(toolset, "linkEvent").annotations["readOnlyHint"] is False


def test_querystring_parameter_and_sequential_media() -> None:
    toolset, _ = build(EVENTS)
    filtered = tool(toolset, "filterEvents")
    assert [(b.arg, b.location, b.content_type) for b in filtered.bindings] == [
        ("filter", "querystring", "application/x-www-form-urlencoded")
    ]
    assert filtered.input_schema["properties"]["filter"]["properties"]["limit"] == {"type": "integer"}
    # A JSON Lines body from a $ref'd Media Type Object (components.mediaTypes): a list of its itemSchema.
    exported = tool(toolset, "exportEvents")
    assert exported.output_wrapped and exported.select_arg == "fields"
    assert exported.output_schema["properties"]["result"]["type"] == "array"
    assert set(exported.output_schema["properties"]["result"]["items"]["properties"]) == {"id", "kind", "at"}
    # Server-sent events: JSON data (contentMediaType) is described as parsed, not as a string.
    streamed = tool(toolset, "streamEvents").output_schema["properties"]["result"]["items"]
    assert streamed["properties"]["data"] != {"type": "string"}
    body = tool(toolset, "importEvents").input_schema["properties"]["body"]
    assert body["type"] == "array" and "application/x-ndjson" in body["description"]
    assert [b.body_kind for b in tool(toolset, "importEvents").bindings] == ["sequence"]


def test_tag_hierarchy_shapes_toolsets_and_selection() -> None:
    toolset, _ = build(EVENTS)
    assert tool(toolset, "filterEvents").toolsets == ("search", "events")  # beta is a badge, not a toolset
    assert tool(toolset, "streamEvents").toolsets == ("streams", "events")  # no kind: navigation
    chosen, _ = build(EVENTS, Options(include_tags=("events",)))  # a parent takes in its children
    assert {t.name for t in chosen.tools} == {
        "searchEvents",
        "filterEvents",
        "streamEvents",
        "exportEvents",
        "getEvent",
    }
    no_beta, _ = build(EVENTS, Options(exclude_tags=("beta",)))  # a badge still selects
    assert "filterEvents" not in {t.name for t in no_beta.tools}


def test_tag_problems_are_reported(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path,
        """openapi: 3.2.0
info: {title: T, version: "1"}
tags:
  - {name: a, parent: b}
  - {name: b, parent: a}
  - {name: c, parent: nowhere}
paths:
  /x:
    get:
      tags: [a]
      responses: {"200": {description: ok}}
""",
    )
    toolset, diags = build(spec)
    assert codes(diags).count("tag-cycle") == 2 and "unknown-tag-parent" in codes(diags)
    assert toolset.tools[0].toolsets == ("a", "b")  # the cycle ends the chain, it does not hang


def test_self_sets_the_base_of_relative_refs(tmp_path: Path) -> None:
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "pet.yaml").write_text("Pet: {type: object, properties: {name: {type: string}}}\n")
    spec = write_spec(
        tmp_path,
        """openapi: 3.2.0
$self: https://example.com/api/openapi.yaml
info: {title: T, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "https://example.com/api/schemas/pet.yaml#/Pet"}
""",
    )
    toolset, _ = build(spec)
    assert toolset.tools[0].output_schema == {"type": "object", "properties": {"name": {"type": "string"}}}


def test_32_fields_in_older_documents_and_bad_additional_operations_are_reported(tmp_path: Path) -> None:
    older = write_spec(
        tmp_path,
        """openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /x:
    query: {responses: {"200": {description: ok}}}
    get: {operationId: getX, responses: {"200": {description: ok}}}
""",
    )
    toolset, diags = build(older)
    assert [t.name for t in toolset.tools] == ["getX"] and "openapi-3.2-field" in codes(diags)
    bad = write_spec(
        tmp_path,
        """openapi: 3.2.0
info: {title: T, version: "1"}
paths:
  /x:
    additionalOperations:
      GET: {responses: {"200": {description: ok}}}
      "BAD METHOD": {responses: {"200": {description: ok}}}
      PURGE: {operationId: purgeX, responses: {"200": {description: ok}}}
""",
        "bad.yaml",
    )
    toolset, diags = build(bad)
    assert [t.name for t in toolset.tools] == ["purgeX"]
    assert codes(diags).count("invalid-additional-operation") == 2


def test_unknown_versions_are_a_warning_and_fatal_under_strict(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path,
        'openapi: 3.3.0\ninfo: {title: T, version: "1"}\n'
        'paths: {/x: {get: {operationId: getX, responses: {"200": {description: ok}}}}}\n',
    )
    document = load_document(spec)
    assert document.dialect is Dialect.OPENAPI_32 and not document.known_version
    result = generate(Options(spec=spec))
    assert [d.code for d in result.diagnostics if d.code == "unknown-openapi-version"]
    with pytest.raises(SpecValidationError, match="newer than mcpforge knows"):
        generate(Options(spec=spec, strict=True))


def test_discriminator_default_mapping_accepts_other_values(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path,
        """openapi: 3.2.0
info: {title: T, version: "1"}
paths:
  /pets:
    post:
      operationId: addPet
      requestBody:
        content:
          application/json:
            schema:
              oneOf: [{$ref: "#/components/schemas/Cat"}, {$ref: "#/components/schemas/Other"}]
              discriminator: {propertyName: kind, mapping: {cat: Cat}, defaultMapping: Other}
      responses: {"204": {description: ok}}
components:
  schemas:
    Cat: {type: object, properties: {kind: {type: string}, claws: {type: boolean}}}
    Other: {type: object, properties: {kind: {type: string}}}
""",
    )
    from jsonschema import Draft202012Validator

    toolset, _ = build(spec)
    schema = tool(toolset, "addPet").input_schema
    validator = Draft202012Validator(schema)
    assert validator.is_valid({"body": {"kind": "cat", "claws": True}})
    assert validator.is_valid({"body": {"kind": "hamster"}})  # the default branch
    assert validator.is_valid({"body": {}})  # no discriminating property: the default branch too
