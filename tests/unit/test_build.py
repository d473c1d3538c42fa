"""Tool definitions: schemas, bindings, descriptions, annotations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import FIXTURES
from helpers import build, tool, write_spec
from mcpforge.diagnostics import Diagnostics
from mcpforge.options.model import Options
from mcpforge.pipeline import build as pipeline_build
from mcpforge.pipeline import generate
from mcpforge.runtime.results.media import media_kind

PETSTORE = FIXTURES / "golden" / "petstore_30" / "openapi.yaml"


def test_input_schema_shape_and_bindings() -> None:
    toolset, _ = build(PETSTORE)
    list_pets = tool(toolset, "listPets")
    schema = list_pets.input_schema
    assert schema["type"] == "object" and schema["required"] == []
    assert schema["properties"]["limit"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 100,
        "default": 20,
        "description": "How many pets to return (at most 100).",
    }
    assert schema["properties"]["status"]["items"]["enum"] == ["available", "pending", "sold"]
    bindings = {b.arg: b for b in list_pets.bindings}
    assert (bindings["status"].style, bindings["status"].explode) == ("form", False)
    # A name every target accepts is kept as written: no renaming, no "(header parameter ...)" note.
    assert bindings["X-Request-Id"].wire_name == "X-Request-Id" and bindings["X-Request-Id"].location == "header"
    assert "parameter" not in schema["properties"]["X-Request-Id"].get("description", "")
    show = tool(toolset, "showPetById")
    assert show.input_schema["required"] == ["petId"]


def test_body_argument_and_read_only_removed() -> None:
    toolset, _ = build(PETSTORE)
    create = tool(toolset, "createPet")
    body = create.input_schema["properties"]["body"]
    assert create.input_schema["required"] == ["body"]
    assert body["properties"]["name"] == {"type": "string", "examples": ["Rex"]}
    assert body["properties"]["tag"] == {"type": ["string", "null"]}
    assert create.bindings[-1].location == "body" and create.bindings[-1].body_kind == "json"


def test_output_schema_is_an_object_and_wrapped_otherwise() -> None:
    toolset, _ = build(PETSTORE)
    show = tool(toolset, "showPetById")
    assert show.output_schema is not None and show.output_schema["type"] == "object" and not show.output_wrapped
    list_pets = tool(toolset, "listPets")
    assert list_pets.output_wrapped
    assert list_pets.output_schema == {
        "type": "object",
        "properties": {
            "result": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "tag": {"type": ["string", "null"]},
                        "id": {"type": "integer"},
                    },
                },
            }
        },
    }
    assert tool(toolset, "deletePet").output_schema is None
    no_outputs, _ = build(PETSTORE, Options(output_schemas=False))
    assert all(t.output_schema is None for t in no_outputs.tools)


def test_annotations_from_methods() -> None:
    toolset, _ = build(PETSTORE)
    assert tool(toolset, "listPets").annotations == {"readOnlyHint": True, "openWorldHint": True}
    assert tool(toolset, "deletePet").annotations == {
        "readOnlyHint": False,
        "destructiveHint": True,
        "idempotentHint": True,
        "openWorldHint": True,
    }
    assert tool(toolset, "createPet").annotations == {"readOnlyHint": False, "openWorldHint": True}


def test_descriptions_are_bounded_marked_and_name_auth() -> None:
    toolset, _ = build(PETSTORE)
    assert tool(toolset, "deletePet").description == "[Deprecated] Delete a pet. Auth: bearer token."
    assert tool(toolset, "listPets").description.startswith("List pets. Returns pets, newest first.")
    assert "Auth" not in tool(toolset, "listPets").description  # security: [] overrides the global one
    assert tool(toolset, "listPets").title == "List pets"


def test_long_descriptions_are_cut_at_word_boundaries(tmp_path: Path) -> None:
    words = " ".join(f"word{i}" for i in range(200))
    spec = write_spec(
        tmp_path,
        f"""
        openapi: 3.0.3
        info: {{title: t, version: "1"}}
        paths:
          /a:
            get:
              operationId: a
              summary: "{words}"
              description: "{words}"
              responses: {{"200": {{description: ok}}}}
    """,
    )
    toolset, _ = build(spec, Options(summary_max=50, description_max=120))
    a = toolset.tools[0]
    assert len(a.description) <= 120 and a.description.endswith("…")
    assert a.title is not None and len(a.title) <= 50
    assert all(w.startswith("word") for w in a.description.rstrip("…").replace(".", "").split())


def test_form_multipart_text_and_binary_bodies() -> None:
    toolset, _ = build(FIXTURES / "golden" / "bodies" / "openapi.yaml")
    form = tool(toolset, "submitForm").input_schema["properties"]["body"]
    assert form["required"] == ["email"] and set(form["properties"]) == {"email", "tags", "meta"}
    upload = tool(toolset, "uploadFile")
    files = upload.input_schema["properties"]["body"]["properties"]
    assert files["file"]["contentEncoding"] == "base64" and "base64" in files["file"]["description"]
    assert files["attachments"]["items"]["contentEncoding"] == "base64"
    assert upload.bindings[-1].fields["file"].is_file and not upload.bindings[-1].fields["description"].is_file
    raw = tool(toolset, "putRaw")
    assert raw.input_schema["properties"]["body"]["contentEncoding"] == "base64"
    assert raw.bindings[-1].body_kind == "binary"
    text = tool(toolset, "postText")
    assert text.bindings[-1].content_type == "application/json"  # JSON preferred over text/csv
    assert tool(toolset, "postXml").input_schema["properties"]["body"]["type"] == "string"


def test_body_kinds() -> None:
    assert media_kind("application/vnd.api+json; charset=utf-8") == "json"
    assert media_kind("*/*") == "json"
    assert media_kind("application/x-www-form-urlencoded") == "form"
    assert media_kind("multipart/form-data") == "multipart"
    assert media_kind("application/atom+xml") == "text"
    assert media_kind("image/png") == "binary"


def test_argument_description_max_reaches_descriptions_inside_schemas(tmp_path: Path) -> None:
    long = " ".join(f"word{i}" for i in range(60))
    spec = write_spec(
        tmp_path,
        f"""
        openapi: 3.0.3
        info: {{title: t, version: "1"}}
        paths:
          /a:
            post:
              operationId: a
              parameters:
                - {{name: q, in: query, schema: {{type: string, description: "{long}"}}}}
              requestBody:
                content:
                  application/json:
                    schema: {{type: object, properties: {{x: {{type: string, description: "{long}"}}}}}}
              responses: {{"200": {{description: ok}}}}
    """,
    )
    diags = Diagnostics()
    built = pipeline_build(Options(spec=spec, argument_description_max=40), diags)
    schema: Any = built.toolset.tools[0].input_schema
    assert len(schema["properties"]["q"]["description"]) <= 40
    assert len(schema["properties"]["body"]["properties"]["x"]["description"]) <= 40


def test_a_parameter_repeated_across_operations_is_one_argument_object(tmp_path: Path) -> None:
    """Every later stage memoizes by identity, so a repeated argument is converted and checked once."""
    toolset, diags = build(
        write_spec(
            tmp_path,
            """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /a:
            get:
              operationId: getA
              parameters:
                - {name: $top, in: query, description: How many., schema: {type: integer, minimum: 1}}
              responses: {"200": {description: ok}}
          /b:
            get:
              operationId: getB
              parameters:
                - {name: $top, in: query, description: How many., schema: {type: integer, minimum: 1}}
                - {name: $skip, in: query, schema: {type: integer, minimum: 1}}
              responses: {"200": {description: ok}}
    """,
        )
    )
    a, b = tool(toolset, "getA"), tool(toolset, "getB")
    assert a.input_schema["properties"]["top"] is b.input_schema["properties"]["top"]
    assert a.input_schema["properties"]["top"] == {
        "type": "integer",
        "minimum": 1,
        "description": "How many. (query parameter '$top')",
    }
    assert b.input_schema["properties"]["skip"]["description"] == "The query parameter '$skip'."
    assert a.bindings[0] is b.bindings[0] and a.bindings[0].wire_name == "$top"
    renamed = [d.operation for d in diags if d.code == "argument-renamed"]
    assert renamed == ["GET /a (getA)", "GET /b (getB)", "GET /b (getB)"]  # each operation still says so


def test_tools_with_equal_schemas_share_one_object(tmp_path: Path) -> None:
    """As /me/x and /users/{id}/x: each later stage then analyses, converts and encodes it once."""
    toolset, _ = build(
        write_spec(
            tmp_path,
            """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /me/notes:
            get:
              operationId: myNotes
              parameters:
                - {name: top, in: query, schema: {type: integer, minimum: 1}}
              responses: {"200": {description: ok, content: {application/json: {schema: {type: object}}}}}
          /team/notes:
            get:
              operationId: teamNotes
              parameters:
                - {name: top, in: query, schema: {type: integer, minimum: 1}}
              responses: {"200": {description: ok, content: {application/json: {schema: {type: object}}}}}
          /team/notes/count:
            get:
              operationId: countNotes
              parameters:
                - {name: top, in: query, schema: {type: integer, minimum: 2}}
              responses: {"200": {description: ok, content: {application/json: {schema: {type: object}}}}}
          /odd:
            get:
              operationId: odd
              parameters:
                - {name: n, in: query, schema: {type: integer, enum: [123456789012345678901234567890]}}
              responses: {"200": {description: ok}}
    """,
        )
    )
    mine, team, count = tool(toolset, "myNotes"), tool(toolset, "teamNotes"), tool(toolset, "countNotes")
    assert mine.input_schema is team.input_schema and mine.output_schema is team.output_schema
    assert count.input_schema is not team.input_schema  # equal only: minimum 2, not 1
    assert count.input_schema["properties"]["top"]["minimum"] == 2
    # A schema orjson cannot spell (an integer beyond 64 bits) is kept as it is, not shared.
    assert tool(toolset, "odd").input_schema["properties"]["n"]["enum"] == [123456789012345678901234567890]


def test_argument_description_limit_covers_the_rename_note(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path,
        """
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths:
          /items:
            get:
              operationId: get-items
              parameters:
                - name: "filter[name]"
                  in: query
                  description: Only items whose name contains this text, compared without regard to case.
                  schema: {type: string}
                - {name: only-performed-by, in: query, description: Who performed it., schema: {type: string}}
              responses: {"200": {description: ok}}
        """,
    )
    for limit in (40, 60, 200):
        toolset, _ = build(spec, Options(argument_description_max=limit))
        (only,) = toolset.tools
        assert only.name == "get-items"
        properties: Any = only.input_schema["properties"]  # type: ignore[index]
        assert set(properties) == {"filter_name", "only-performed-by"}
        assert properties["only-performed-by"]["description"] == "Who performed it."
        described = properties["filter_name"]["description"]
        assert len(described) <= limit and "filter[name]" in described


def _descriptions(node: Any, found: list[str]) -> list[str]:
    """Every schema description in ``node`` (not properties *named* description)."""
    if isinstance(node, dict):
        if isinstance(node.get("description"), str):
            found.append(node["description"])
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                for sub in value.values():
                    _descriptions(sub, found)
            elif key != "description":
                _descriptions(value, found)
    elif isinstance(node, list):
        for item in node:
            _descriptions(item, found)
    return found


def test_the_argument_description_limit_covers_every_note_in_every_manifest() -> None:
    """A file field's note, a renamed parameter's wire name, strict mode's and Gemini's keyword notes."""
    spec = FIXTURES / "specs" / "notes-in-descriptions.yaml"
    result = generate(Options(spec=spec, argument_description_max=40))
    api = [f for f in result.files if f.path.startswith("manifests/") and not f.path.startswith("manifests/code-")]
    manifests = {f.path: f.data for f in api}  # code mode's manifests hold its own two tools, not the API's
    assert len(manifests) == 7
    for path, data in manifests.items():
        found = _descriptions([{k: v for k, v in t.items() if k != "description"} for t in json.loads(data)], [])
        assert found and max(map(len, found)) <= 40, (path, [d for d in found if len(d) > 40])
    # The notes are still said where they fit: the file field, and what strict mode took out.
    content = _descriptions(json.loads(manifests["manifests/mcp-tools.json"]), [])
    assert any("base64" in d for d in content) and any("query parameter 'filter[name]'" in d for d in content)
    strict = _descriptions(json.loads(manifests["manifests/openai-chat-strict.json"]), [])
    assert any("minLength: 3" in d for d in strict)
    # Code mode's manifests too: their arguments' descriptions are held to the same limit.
    code = {f.path: json.loads(f.data) for f in result.files if f.path.startswith("manifests/code-")}
    assert len(code) == 5
    for path, tools in code.items():
        said = _argument_descriptions(tools, [])
        assert said and max(map(len, said)) <= 40, (path, [d for d in said if len(d) > 40])


def _argument_descriptions(node: Any, found: list[str]) -> list[str]:
    """The description of every property of every schema in ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                found += [sub["description"] for sub in value.values() if "description" in sub]
            _argument_descriptions(value, found)
    elif isinstance(node, list):
        for item in node:
            _argument_descriptions(item, found)
    return found
