"""OpenAPI Overlays 1.0 and 1.1: applied before anything else, in order, through RFC 9535 JSONPath."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import write_spec
from mcpforge.diagnostics import Diagnostics
from mcpforge.errors import OverlayError
from mcpforge.openapi.load import load_document
from mcpforge.options.model import Options
from mcpforge.pipeline import generate

SPEC = """openapi: 3.1.0
info: {title: Pets, version: "1"}
servers: [{url: "https://old.example.com"}]
paths:
  /pets:
    get:
      operationId: listPets
      tags: [pets]
      parameters:
        - {name: limit, in: query, schema: {type: string}}
        - {name: debug, in: query, schema: {type: boolean}}
      responses: {"200": {description: ok}}
  /internal/stats:
    get:
      operationId: stats
      x-internal: true
      responses: {"200": {description: ok}}
"""


def overlay(tmp_path: Path, text: str, name: str = "overlay.yaml") -> Path:
    return write_spec(tmp_path, text, name)


def tools_of(spec: Path, *overlays: Path) -> dict[str, Any]:
    result = generate(Options(spec=spec, overlay=overlays))
    return {t["name"]: t for t in result.mcp}


def test_update_remove_and_copy_change_the_tools(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, SPEC)
    fix = overlay(
        tmp_path,
        """overlay: 1.1.0
info: {title: Fixes, version: "1"}
actions:
  - target: $.paths['/pets'].get.parameters[?@.name == 'limit']
    description: limit is a number, and say what it does
    update: {description: How many pets to return., schema: {type: integer, maximum: 100}}
  - target: $.paths['/pets'].get.parameters[?@.name == 'debug']
    remove: true
  - target: $.paths[?@.get['x-internal'] == true]
    remove: true
  - target: $.servers
    update: {url: "https://new.example.com", description: added}
  - target: $.paths['/pets'].get
    copy: $.info
""",
    )
    tools = tools_of(spec, fix)
    assert list(tools) == ["listPets"]
    limit = tools["listPets"]["inputSchema"]["properties"]["limit"]
    assert limit == {"type": "integer", "maximum": 100, "description": "How many pets to return."}
    assert "debug" not in tools["listPets"]["inputSchema"]["properties"]
    document = load_document(spec, overlays=[fix])
    assert [s["url"] for s in document.root["servers"]] == ["https://old.example.com", "https://new.example.com"]
    assert document.root["paths"]["/pets"]["get"]["title"] == "Pets"  # copied from $.info


def test_overlays_apply_in_order_and_count_in_the_digest(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, SPEC)
    first = overlay(
        tmp_path,
        "overlay: 1.0.0\ninfo: {title: a, version: '1'}\nactions:\n" "  - {target: $.info, update: {title: First}}\n",
        "first.yaml",
    )
    second = overlay(
        tmp_path,
        "overlay: 1.0.0\ninfo: {title: b, version: '1'}\nactions:\n" "  - {target: $.info.title, update: Second}\n",
        "second.yaml",
    )
    plain, both, reversed_ = (load_document(spec, overlays=o) for o in ([], [first, second], [second, first]))
    assert both.root["info"]["title"] == "Second" and reversed_.root["info"]["title"] == "First"
    assert len({plain.digest, both.digest, reversed_.digest}) == 3
    assert [name for name, _ in both.overlays] == ["first.yaml", "second.yaml"]


def test_a_target_that_matches_nothing_is_a_warning(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, SPEC)
    stale = overlay(
        tmp_path,
        "overlay: 1.0.0\ninfo: {title: a, version: '1'}\nactions:\n"
        "  - {target: \"$.paths['/gone'].get\", description: old fix, update: {summary: x}}\n",
    )
    diags = Diagnostics()
    load_document(spec, overlays=[stale], diags=diags)
    (found,) = diags.freeze()
    assert found.code == "overlay-no-match" and "old fix" in found.message and found.pointer == "/actions/0/target"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("info: {title: a}\nactions: []\n", "no 'overlay' version"),
        ("overlay: 2.0.0\ninfo: {title: a}\nactions: [{target: $, update: {}}]\n", "applies 1.0 and 1.1"),
        ("overlay: 1.0.0\ninfo: {title: a}\nactions: []\n", "has no actions"),
        ("overlay: 1.0.0\ninfo: {title: a}\nactions: [{target: 'paths', update: {}}]\n", "not a JSONPath"),
        ("overlay: 1.0.0\ninfo: {title: a}\nactions: [{target: '$.[', update: {}}]\n", "invalid JSONPath"),
        ("overlay: 1.0.0\ninfo: {title: a}\nactions: [{target: '$.info', update: 3}]\n", "the update must be one"),
        (
            "overlay: 1.0.0\ninfo: {title: a}\nactions: [{target: '$.info', update: {title: [1]}}]\n",
            "cannot merge array into the primitive",
        ),
        ("overlay: 1.1.0\ninfo: {title: a}\nactions: [{target: '$.info', copy: '$.paths.*'}]\n", "exactly one"),
    ],
)
def test_bad_overlays_are_one_clear_error(tmp_path: Path, text: str, fragment: str) -> None:
    spec = write_spec(tmp_path, SPEC)
    with pytest.raises(OverlayError, match=fragment):
        load_document(spec, overlays=[overlay(tmp_path, text)])


def test_overlays_from_the_configuration_file_and_the_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from mcpforge.cli import main

    write_spec(tmp_path, SPEC)
    edited = overlay(
        tmp_path,
        "overlay: 1.0.0\ninfo: {title: a, version: '1'}\nactions:\n"
        "  - {target: \"$.paths['/pets'].get\", update: {description: From the overlay.}}\n",
    )
    (tmp_path / "mcpforge.toml").write_text('spec = "openapi.yaml"\noutput = "out"\noverlay = ["overlay.yaml"]\n')
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["generate"]).exit_code == 0
    lock = json.loads((tmp_path / "out" / "mcpforge.lock").read_text())
    assert [o["name"] for o in lock["spec"]["overlays"]] == ["overlay.yaml"]
    tools = json.loads((tmp_path / "out" / "manifests" / "mcp-tools.json").read_text())
    assert "From the overlay." in tools[0]["description"]
    assert runner.invoke(main, ["generate", "--check"]).exit_code == 0
    edited.write_text(edited.read_text().replace("From", "Now from"))
    assert runner.invoke(main, ["generate", "--check"]).exit_code == 1  # an edited overlay is a change
