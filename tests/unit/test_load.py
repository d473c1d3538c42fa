"""Reading documents: formats, bounds, dialects and $ref resolution across files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import build, parse, write_spec
from mcpforge.errors import RefError, SpecFormatError, SpecReadError
from mcpforge.openapi.load import LoadLimits, load_document, parse_text
from mcpforge.openapi.model import Dialect

MINI = """
openapi: 3.0.0
info: {title: t, version: "1"}
paths:
  /a:
    get:
      operationId: a
      responses: {"200": {description: ok}}
"""


def test_yaml_and_json_with_dialects(tmp_path: Path) -> None:
    assert load_document(write_spec(tmp_path, MINI)).dialect is Dialect.OPENAPI_30
    doc = {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc))
    assert load_document(path).dialect is Dialect.SWAGGER_20
    assert load_document(write_spec(tmp_path, MINI.replace("3.0.0", "3.1.0"))).dialect is Dialect.OPENAPI_31


def test_yaml_keeps_dates_as_strings_and_keys_as_strings() -> None:
    data = parse_text(b"a: 2020-01-01\n200: {x: 1}\non: 1\n", name="x.yaml")
    assert data == {"a": "2020-01-01", "200": {"x": 1}, "true": 1}


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        (b"{not json", SpecReadError, "line 1"),
        (b"a: [1, 2\n", SpecReadError, "not valid YAML"),
        (b"- just a list\n", SpecFormatError, "not a mapping"),
        (b"title: nothing\n", SpecFormatError, "neither 'openapi' nor 'swagger'"),
        (b"openapi: 2.5.0\n", SpecFormatError, "unsupported OpenAPI version"),
        (b"\xff\xfe\x00", SpecReadError, "not UTF-8"),
    ],
)
def test_bad_documents_get_one_clear_error(tmp_path: Path, text: bytes, error: type[Exception], fragment: str) -> None:
    path = tmp_path / "spec.yaml"
    path.write_bytes(text)
    with pytest.raises(error, match=fragment):
        load_document(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SpecReadError, match="does not exist"):
        load_document(tmp_path / "nope.yaml")


def test_yaml_bomb_is_rejected_quickly() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 12)]
    with pytest.raises(SpecReadError, match="anchor"):
        parse_text("\n".join(lines).encode(), name="bomb.yaml", limits=LoadLimits(max_yaml_nodes=100_000))


def test_size_limit() -> None:
    with pytest.raises(SpecReadError, match="more than the limit"):
        parse_text(b"{}" * 100, name="big.json", limits=LoadLimits(max_bytes=10))


def test_relative_file_refs_resolve_and_outside_refs_are_refused(tmp_path: Path) -> None:
    (tmp_path / "schemas").mkdir()
    write_spec(
        tmp_path / "schemas",
        "Pet: {type: object, properties: {tag: {$ref: '#/Tag'}}}\n" "Tag: {type: string}\n",
        "pet.yaml",
    )
    spec = write_spec(
        tmp_path,
        MINI.replace(
            'responses: {"200": {description: ok}}',
            'responses: {"200": {description: ok, content: {application/json: {schema: '
            '{$ref: "schemas/pet.yaml#/Pet"}}}}}',
        ),
    )
    toolset, _ = build(spec)
    assert toolset.tools[0].output_schema == {"type": "object", "properties": {"tag": {"type": "string"}}}
    outside = write_spec(
        tmp_path / "schemas",
        MINI.replace(
            'responses: {"200": {description: ok}}',
            'responses: {"200": {description: ok, content: {application/json: {schema: {$ref: "../../x.yaml#/A"}}}}}',
        ),
        "outside.yaml",
    )
    with pytest.raises(RefError, match="outside the spec's folder"):
        parse(outside)


def test_remote_refs_are_refused_by_default(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path,
        MINI.replace(
            'responses: {"200": {description: ok}}',
            'responses: {"200": {description: ok, content: {application/json: {schema: '
            '{$ref: "https://example.com/s.yaml#/A"}}}}}',
        ),
    )
    with pytest.raises(RefError, match=r"remote \$ref .* refused") as info:
        parse(spec)
    assert info.value.hint is not None and "--allow-remote-refs" in info.value.hint


def test_parameter_ref_cycle_is_a_clear_error(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path,
        """
        openapi: 3.0.0
        info: {title: t, version: "1"}
        paths:
          /a:
            $ref: "#/paths/~1b"
          /b:
            $ref: "#/paths/~1a"
    """,
    )
    with pytest.raises(RefError, match="reference cycle"):
        parse(spec)
