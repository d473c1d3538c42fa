"""Hostile documents: each is refused with one clear error, or generated in bounded time and size.

(Injection through every string that reaches generated code is the ``hostile`` golden case and
``test_hostile_output.py``; YAML anchor bombs, remote refs and refs outside the folder are in
``unit/test_load.py``.)
"""

from __future__ import annotations

import json
import time
import tracemalloc
from pathlib import Path

import pytest

from helpers import write_spec
from mcpforge.errors import MCPForgeError, RefError, SpecReadError
from mcpforge.options.model import Options
from mcpforge.pipeline import generate

HEAD = 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\n'


def refused(spec: Path, error: type[MCPForgeError], fragment: str, *, seconds: float = 5.0) -> MCPForgeError:
    started = time.perf_counter()
    with pytest.raises(error) as info:
        generate(Options(spec=spec))
    assert time.perf_counter() - started < seconds
    assert fragment in info.value.render() and "\n" not in info.value.message
    return info.value


def test_deeply_nested_json_is_refused_quickly(tmp_path: Path) -> None:
    spec = tmp_path / "deep.json"
    depth = 100_000
    spec.write_text(
        '{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "x": '
        + "[" * depth
        + "]" * depth
        + "}"
    )
    refused(spec, SpecReadError, "nests too deeply")


def test_deeply_nested_yaml_schema_is_refused(tmp_path: Path) -> None:
    nested = "{type: object, properties: {a: " * 400 + "{type: string}" + "}}" * 400
    media = f"{{application/json: {{schema: {nested}}}}}"
    spec = write_spec(
        tmp_path, HEAD + f"paths:\n  /a:\n    get:\n      responses: {{'200': {{description: ok, content: {media}}}}}\n"
    )
    refused(spec, SpecReadError, "nests too deeply")


def test_enormous_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    spec = tmp_path / "huge.json"
    with spec.open("wb") as handle:
        handle.truncate(300 * 1024 * 1024)  # sparse: 300 MB without writing them
    tracemalloc.start()
    try:
        refused(spec, SpecReadError, "more than the limit", seconds=1.0)
        assert tracemalloc.get_traced_memory()[1] < 10 * 1024 * 1024
    finally:
        tracemalloc.stop()


def test_parameter_ref_cycle_is_a_clear_error(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path,
        HEAD + """
paths:
  /a:
    get:
      parameters: [{$ref: "#/components/parameters/A"}]
      responses: {"200": {description: ok}}
components:
  parameters:
    A: {$ref: "#/components/parameters/B"}
    B: {$ref: "#/components/parameters/A"}
""",
    )
    error = refused(spec, RefError, "reference cycle")
    assert error.location is not None and "/paths/~1a/get/parameters/0" in error.location


def test_path_item_ref_outside_the_folder_and_remote_parameter_refs_are_refused(tmp_path: Path) -> None:
    inner = tmp_path / "specs"
    inner.mkdir()
    (tmp_path / "secret.yaml").write_text("get: {responses: {'200': {description: ok}}}\n")
    outside = write_spec(inner, HEAD + "paths:\n  /a: {$ref: '../secret.yaml'}\n", "outside.yaml")
    refused(outside, RefError, "outside the spec's folder")
    remote = write_spec(
        inner,
        HEAD + "paths:\n  /a:\n    get:\n      parameters: [{$ref: 'http://169.254.169.254/latest/p.yaml'}]\n"
        "      responses: {'200': {description: ok}}\n",
        "remote.yaml",
    )
    refused(remote, RefError, "refused")


def test_exponential_ref_fan_out_stays_linear(tmp_path: Path) -> None:
    """Each schema uses the next one twice: inlining everything would be 2**40 nodes."""
    levels = 40
    schemas = {
        f"S{i}": {
            "type": "object",
            "properties": {
                "left": {"$ref": f"#/components/schemas/S{i + 1}"},
                "right": {"$ref": f"#/components/schemas/S{i + 1}"},
            },
        }
        for i in range(levels)
    }
    schemas[f"S{levels}"] = {"type": "string"}
    document = {
        "openapi": "3.0.3",
        "info": {"title": "fan", "version": "1"},
        "paths": {
            "/a": {
                "post": {
                    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}}},
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}},
                        }
                    },
                }
            }
        },
        "components": {"schemas": schemas},
    }
    spec = tmp_path / "fan.json"
    spec.write_text(json.dumps(document))
    started = time.perf_counter()
    result = generate(Options(spec=spec))
    assert time.perf_counter() - started < 10
    assert sum(len(f.data) for f in result.files) < 5_000_000
    tool = json.loads(next(f.data for f in result.files if f.path == "manifests/mcp-tools.json"))[0]
    assert len(json.dumps(tool["inputSchema"])) < 20_000


def test_thousands_of_operations_and_enormous_strings_generate_in_bounded_time(tmp_path: Path) -> None:
    description = "word " * 200_000  # a 1 MB description
    paths = {
        f"/r{i}": {
            "get": {
                "operationId": f"op{i}",
                "description": description if i == 0 else "d",
                "responses": {"200": {"description": "ok"}},
            }
        }
        for i in range(3_000)
    }
    spec = tmp_path / "many.json"
    spec.write_text(json.dumps({"openapi": "3.0.3", "info": {"title": "many", "version": "1"}, "paths": paths}))
    started = time.perf_counter()
    result = generate(Options(spec=spec))
    assert time.perf_counter() - started < 20
    assert len(result.toolset.tools) == 3_000 and len(result.toolset.tools[0].description) <= 300
