"""The command line: exit codes, messages, and nothing written on failure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from conftest import FIXTURES
from helpers import write_spec
from mcpforge.cli import main

PETSTORE = FIXTURES / "golden" / "petstore_30" / "openapi.yaml"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_generate_writes_manifest_and_summary(tmp_path: Path) -> None:
    code, out, _ = run("generate", str(PETSTORE), "-o", str(tmp_path / "out"), "--include-deprecated")
    assert code == 0
    header, row = out.splitlines()[:2]
    assert header.split()[:6] == ["operations", "tools", "skipped", "excluded", "degraded", "strict-capable"]
    assert row.split()[:5] == ["4", "4", "0", "0", "0"]
    tools = json.loads((tmp_path / "out" / "manifests" / "mcp-tools.json").read_text())
    assert [t["name"] for t in tools] == ["listPets", "createPet", "showPetById", "deletePet"]


def test_deprecated_operations_are_excluded_unless_asked_for(tmp_path: Path) -> None:
    code, out, _ = run("generate", str(PETSTORE), "-o", str(tmp_path / "out"))
    assert code == 0
    assert out.splitlines()[1].split()[:4] == ["4", "3", "0", "1"]
    tools = json.loads((tmp_path / "out" / "manifests" / "mcp-tools.json").read_text())
    assert "deletePet" not in [t["name"] for t in tools]


def test_fatal_errors_are_one_message_and_nothing_is_written(tmp_path: Path) -> None:
    bad = write_spec(
        tmp_path,
        "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n"
        "      responses: {'200': {description: ok, content: {application/json: {schema: "
        "{$ref: '#/components/schemas/Nope'}}}}}\n",
    )
    code, _out, err = run("generate", str(bad), "-o", str(tmp_path / "out"))
    assert code == 1
    assert "Traceback" not in err and err.startswith("error[ref] at /paths/~1a/get/responses/200")
    assert "Nope" in err
    assert not (tmp_path / "out").exists()


def test_refuses_to_overwrite_user_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    code, _, err = run("generate", str(PETSTORE), "-o", str(out))
    assert code == 1 and "did not write (notes.txt)" in err and "--force" in err
    assert (out / "notes.txt").read_text() == "mine" and not (out / "manifests").exists()


def test_regenerating_over_own_output_is_allowed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run("generate", str(PETSTORE), "-o", str(out))[0] == 0
    assert run("generate", str(PETSTORE), "-o", str(out))[0] == 0
    lock = json.loads((out / "mcpforge.lock").read_text())
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == lock["files"]


def test_fail_on_warning_and_strict(tmp_path: Path) -> None:
    spec = FIXTURES / "golden" / "name_collisions" / "openapi.yaml"  # has a duplicate operationId
    assert run("generate", str(spec), "-o", str(tmp_path / "a"))[0] == 0
    code, _, err = run("generate", str(spec), "-o", str(tmp_path / "b"), "--fail-on-warning")
    assert code == 1 and "--fail-on-warning" in err
    code, _, err = run("generate", str(spec), "-o", str(tmp_path / "c"), "--strict")
    assert code == 1 and "error[spec-invalid] at /paths/~1e/get/operationId" in err
    assert not (tmp_path / "c").exists()


def test_validate_command_and_full_validation() -> None:
    code, out, err = run(
        "validate", str(FIXTURES / "golden" / "name_collisions" / "openapi.yaml"), "--validate", "full"
    )
    assert code == 0 and "duplicate-operation-id" in err and "tools" in out


def test_help_for_every_command() -> None:
    for command in ([], ["generate"], ["validate"]):
        code, out, _ = run(*command, "--help")
        assert code == 0 and "Usage:" in out


def test_python_dash_m_entry_point(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mcpforge", "generate", str(PETSTORE), "-o", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_convert_a_saved_tool_list(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run("generate", str(PETSTORE), "-o", str(out))[0] == 0
    listed = json.loads((out / "manifests" / "mcp-tools.json").read_text())
    saved = tmp_path / "tools-list.json"
    saved.write_text(json.dumps({"tools": listed, "nextCursor": None}))  # a tools/list result as saved
    for fmt in ("openai-chat", "anthropic", "gemini"):
        code, converted, _ = run("convert", str(saved), "--to", fmt)
        assert code == 0 and json.loads(converted) == json.loads((out / "manifests" / f"{fmt}.json").read_text())
    code, converted, _ = run(
        "convert", str(saved), "--to", "openai-responses", "--strict", "-o", str(tmp_path / "r.json")
    )
    assert code == 0 and converted == ""
    strict = json.loads((tmp_path / "r.json").read_text())
    assert strict == json.loads((out / "manifests" / "openai-responses-strict.json").read_text())
    bad = tmp_path / "bad.json"
    bad.write_text('[{"name": "x"}]')
    code, _, err = run("convert", str(bad), "--to", "gemini")
    assert code == 1 and "is not an MCP tool list" in err and "Traceback" not in err


def test_tools_command_usage_errors() -> None:
    code, _, err = run("tools", "--format", "gemini")
    assert code == 2 and "give at least one --stdio COMMAND or --http URL" in err
    code, _, err = run("tools", "--http", "ftp://example.com/mcp")
    assert code == 2 and "not an http(s) URL" in err
    code, _, err = run("tools", "--http", "a=http://127.0.0.1:1/mcp", "-H", "b=X-Key: 1")
    assert code == 2 and "unknown server(s): b" in err


def test_generate_writes_nothing_outside_the_output_directory(tmp_path: Path) -> None:
    home, cache, out = tmp_path / "home", tmp_path / "cache", tmp_path / "out"
    home.mkdir()
    cache.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_CACHE_HOME": str(cache), "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mcpforge", "generate", str(PETSTORE), "-o", str(out)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert not any(home.iterdir()) and not any(cache.iterdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "home", "out"]
