"""Issue 6's CI story: generate, commit, edit the spec, ``--check`` reports it, regenerate, names stay."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from mcpforge.cli import main

V1 = """
openapi: 3.0.3
info: {title: Shop, version: "1"}
servers: [{url: "https://shop.example/v1"}]
paths:
  /a:
    get:
      operationId: "get/a"
      responses: {"200": {description: ok}}
  /b:
    get:
      operationId: listB
      responses: {"200": {description: ok}}
  /c:
    post:
      operationId: makeC
      parameters:
        - {name: x, in: query, schema: {type: string}}
        - {name: n, in: query, schema: {type: integer}}
      responses: {"200": {description: ok}}
"""

# Paths reordered, /b removed, x now required, n now a string, and /z added whose exact
# operationId "get_a" would take the name of /a's tool if names were assigned from scratch.
V2 = """
openapi: 3.0.3
info: {title: Shop, version: "1"}
servers: [{url: "https://shop.example/v1"}]
paths:
  /z:
    get:
      operationId: get_a
      responses: {"200": {description: ok}}
  /c:
    post:
      operationId: makeC
      parameters:
        - {name: x, in: query, required: true, schema: {type: string}}
        - {name: n, in: query, schema: {type: string}}
      responses: {"200": {description: ok}}
  /a:
    get:
      operationId: "get/a"
      responses: {"200": {description: ok}}
"""


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout + result.stderr


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_check_reports_changes_and_regeneration_keeps_names(tmp_path: Path) -> None:
    spec, out = tmp_path / "shop.yaml", tmp_path / "out"
    spec.write_text(V1)
    assert run("generate", str(spec), "-o", str(out))[0] == 0
    lock = json.loads((out / "mcpforge.lock").read_text())
    assert lock["tools"] == {"GET /a": "get_a", "GET /b": "listB", "POST /c": "makeC"}
    assert lock["spec"]["name"] == "shop.yaml" and len(lock["spec"]["sha256"]) == 64
    assert lock["options"]["max-tool-name-length"] == 64 and lock["version"]
    assert run("generate", str(spec), "-o", str(out), "--check") == (
        0,
        "0 file(s) out of date; 0 tool change(s), 0 breaking\n" f"{out} is up to date\n",
    )

    spec.write_text(V2)
    before = snapshot(out)
    code, text = run("generate", str(spec), "-o", str(out), "--check")
    assert code == 1
    assert snapshot(out) == before  # check mode writes nothing
    changes = [line.strip() for line in text.splitlines() if line.startswith("  ")]
    assert changes == [
        "ok        get_a_2: new tool (GET /z)  [tool-added]",
        "BREAKING  listB: no longer generated (GET /b)  [tool-removed]",
        "BREAKING  makeC: argument x: now required  [argument-required]",
        "BREAKING  makeC: argument n: type integer -> string  [type-changed]",
    ]
    assert "out of date; 4 tool change(s), 3 breaking" in text

    assert run("generate", str(spec), "-o", str(out))[0] == 0
    lock = json.loads((out / "mcpforge.lock").read_text())
    assert lock["tools"] == {"GET /z": "get_a_2", "POST /c": "makeC", "GET /a": "get_a"}
    assert run("generate", str(spec), "-o", str(out), "--check")[0] == 0

    # Without the lock file, names come from the spec alone: the exact operationId wins the name.
    fresh = tmp_path / "fresh"
    assert run("generate", str(spec), "-o", str(fresh))[0] == 0
    assert json.loads((fresh / "mcpforge.lock").read_text())["tools"]["GET /z"] == "get_a"


def test_check_fails_when_output_is_missing_or_edited(tmp_path: Path) -> None:
    spec, out = tmp_path / "shop.yaml", tmp_path / "out"
    spec.write_text(V1)
    code, text = run("generate", str(spec), "-o", str(out), "--check")
    assert code == 1 and "listB: new tool (GET /b)  [tool-added]" in text and not out.exists()
    assert run("generate", str(spec), "-o", str(out))[0] == 0
    readme = out / "README.md"
    readme.write_text(readme.read_text() + "edited\n")
    code, text = run("generate", str(spec), "-o", str(out), "--check")
    assert code == 1 and "1 file(s) out of date; 0 tool change(s), 0 breaking" in text


def test_an_output_keeps_the_project_name_it_was_generated_with(tmp_path: Path) -> None:
    """A default name that an earlier mcpforge (or an earlier title) gave stays: the lock lists its package."""
    spec, out = tmp_path / "shop.yaml", tmp_path / "out"
    spec.write_text(V1)
    assert run("generate", str(spec), "-o", str(out), "--name", "Shop OpenAPI Spec v1")[0] == 0
    assert (out / "src" / "shop_openapi_spec_v1_mcp" / "tools.json").is_file()
    spec.write_text(V1.replace("title: Shop", "title: The Shop API"))
    assert run("generate", str(spec), "-o", str(out))[0] == 0
    assert (out / "src" / "shop_openapi_spec_v1_mcp" / "tools.json").is_file()
    assert "SHOP_OPENAPI_SPEC_V1_BASE_URL" in (out / ".env.example").read_text()
    assert run("generate", str(spec), "-o", str(out), "--check")[0] == 0
    fresh = tmp_path / "fresh"
    assert run("generate", str(spec), "-o", str(fresh))[0] == 0
    assert (fresh / "src" / "shop_mcp" / "tools.json").is_file()  # a new output gets the default name


def test_the_changelog_and_version_follow_what_changed_for_clients(tmp_path: Path) -> None:
    spec, out = tmp_path / "shop.yaml", tmp_path / "out"
    spec.write_text(V1)
    assert run("generate", str(spec), "-o", str(out), "--changelog")[0] == 0
    first = (out / "CHANGELOG.md").read_text()
    assert "## 0.1.0\n\nGenerated from Shop 1 (shop.yaml): 3 tools.\n" in first
    assert 'version = "0.1.0"' in (out / "pyproject.toml").read_text()
    assert run("generate", str(spec), "-o", str(out), "--changelog")[0] == 0
    assert (out / "CHANGELOG.md").read_text() == first  # nothing changed: no entry, same version

    spec.write_text(V1.replace("operationId: listB", "operationId: listB\n      description: Every B."))
    assert run("generate", str(spec), "-o", str(out), "--changelog")[0] == 0
    assert (
        "## 0.1.1\n\nRegenerated from Shop 1 (shop.yaml).\n\nCompatible:\n\n- `listB`: the tool's description changed"
        in (out / "CHANGELOG.md").read_text()
    )
    spec.write_text(V2)
    code, text = run("generate", str(spec), "-o", str(out), "--changelog", "--check")
    assert code == 1 and "BREAKING  listB: no longer generated (GET /b)  [tool-removed]" in text
    assert run("generate", str(spec), "-o", str(out), "--changelog")[0] == 0
    changelog = (out / "CHANGELOG.md").read_text()
    assert changelog.index("## 1.0.0") < changelog.index("## 0.1.1") < changelog.index("## 0.1.0")
    assert "Breaking for clients that call these tools:\n\n- `listB`: no longer generated (GET /b)" in changelog
    assert 'version = "1.0.0"' in (out / "pyproject.toml").read_text()
    assert json.loads((out / "mcpforge.lock").read_text())["packageVersion"] == "1.0.0"
    assert run("generate", str(spec), "-o", str(out), "--changelog", "--check")[0] == 0
