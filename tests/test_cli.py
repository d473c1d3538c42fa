"""The command line: exit codes, messages, and nothing written on failure."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from conftest import FIXTURES
from helpers import write_spec
from mcpforge.cli import PYTHON_GC_THRESHOLDS, main, tune_gc

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


def test_convert_makes_names_valid_reports_each_rename_and_writes_the_mapping(tmp_path: Path) -> None:
    listed = [
        {"name": name, "description": "d", "inputSchema": {"type": "object"}}
        for name in ("files.read", "files_read", "github/create_issue", "d\u00e9j\u00e0", "x" * 90)
    ]
    source = tmp_path / "tools.json"
    source.write_text(json.dumps({"tools": listed}))
    mapping = tmp_path / "names.json"
    code, out, err = run("convert", str(source), "--to", "openai-chat", "--mapping", str(mapping))
    assert code == 0
    names = [t["function"]["name"] for t in json.loads(out)]
    assert names[:4] == ["files_read_2", "files_read", "github_create_issue", "deja"] and len(names[4]) == 64
    assert json.loads(mapping.read_text()) == {
        "files_read_2": "files.read",
        "github_create_issue": "github/create_issue",
        "deja": "d\u00e9j\u00e0",
        names[4]: "x" * 90,
    }
    assert err.count("warning: ") == 4 and "files.read: renamed 'files_read_2'" in err
    linted = tmp_path / "chat.json"
    linted.write_text(out)
    assert run("lint", str(linted))[0] == 0  # its own output passes lint
    code, out, err = run("convert", str(source), "--to", "gemini")
    assert code == 0 and next(t["name"] for t in json.loads(out)) == "files.read"  # Gemini accepts dots
    assert "3 tool(s) renamed for gemini; pass --mapping FILE" in err


def test_lint_refuses_what_is_not_a_tool_list_and_names_gemini_rules(tmp_path: Path) -> None:
    numbers = tmp_path / "numbers.json"
    numbers.write_text("[1, 2, 3]")
    code, _, err = run("lint", str(numbers))
    assert code == 1 and "neither an OpenAPI document nor a tool list" in err
    gemini = tmp_path / "gemini.json"
    gemini.write_text(json.dumps([{"name": "github/create_issue", "description": "", "parametersJsonSchema": {}}]))
    code, out, _ = run("lint", str(gemini), "--format", "gemini")
    assert code == 1 and "gemini names must be 1-64 characters of A-Z a-z 0-9 _ . -" in out


def test_a_damaged_lock_is_named_with_what_to_do(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run("generate", str(PETSTORE), "-o", str(out))[0] == 0
    lock = out / "mcpforge.lock"
    lock.write_text("<<<<<<< HEAD\n" + lock.read_text() + "=======\n{}\n>>>>>>> theirs\n")
    code, _, err = run("generate", str(PETSTORE), "-o", str(out))
    assert code == 1 and "mcpforge.lock is damaged (it holds merge-conflict markers)" in err
    assert "git checkout -- mcpforge.lock" in err and "did not write" not in err
    lock.write_text("{not json")
    code, _, err = run("generate", str(PETSTORE), "-o", str(out))
    assert code == 1 and "is damaged" in err


def test_tool_name_length_has_a_sensible_range(tmp_path: Path) -> None:
    for bad in ("0", "3", "65"):
        code, _, err = run("generate", str(PETSTORE), "-o", str(tmp_path / "out"), "--max-tool-name-length", bad)
        assert code == 2 and "16<=x<=64" in err
    (tmp_path / "mcpforge.toml").write_text("max-tool-name-length = 8\n")
    code, _, err = run(
        "generate", str(PETSTORE), "-o", str(tmp_path / "out"), "--config", str(tmp_path / "mcpforge.toml")
    )
    assert code == 1 and "max-tool-name-length" in err and "at least 16" in err


def test_an_override_name_taken_by_another_operation_is_an_error(tmp_path: Path) -> None:
    config = tmp_path / "mcpforge.toml"
    config.write_text('[overrides.listPets]\nname = "createPet"\n')
    code, _, err = run("generate", str(PETSTORE), "-o", str(tmp_path / "out"), "--config", str(config))
    assert code == 1 and "GET /pets (listPets)" in err and "POST /pets (createPet)" in err
    assert not (tmp_path / "out").exists()


def test_validate_lists_every_problem(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path,
        """openapi: 3.0.3
info: {title: Bad, version: "1"}
paths:
  /a:
    get:
      operationId: a
      parameters: [{$ref: '#/components/parameters/Missing'}]
      responses: {"200": {description: ok}}
  /b:
    post:
      operationId: b
      requestBody: {content: {application/json: {schema: {$ref: 'other.yaml#/X'}}}}
      responses: {"200": {description: ok}}
  /c:
    get:
      operationId: c
      responses: {"200": {description: ok}}
components:
  schemas:
    Loop: {$ref: '#/components/schemas/Loop'}
""",
    )
    code, out, err = run("validate", str(spec))
    assert code == 0 and "1 tools" in out
    for fragment in ("/components/parameters/Missing", "other.yaml", "reference cycle", "operation skipped"):
        assert fragment in err
    code, _, err = run("validate", str(spec), "--exclude-operations", "c")
    assert code == 0  # exclusion is applied after parsing: the broken operations are still listed
    broken = write_spec(
        tmp_path,
        spec.read_text().replace("operationId: c\n", "operationId: c\n      parameters: [{$ref: '#/nope'}]\n"),
        "broken.yaml",
    )
    code, _, err = run("validate", str(broken))
    assert code == 1 and err.count("unresolved-ref") >= 4 and "error[ref]" in err  # every problem, then the fatal one


def _program(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mcpforge", *args], capture_output=True, text=True, check=False)


def test_the_program_ends_with_the_commands_exit_code_and_all_its_output(tmp_path: Path) -> None:
    done = _program("generate", str(PETSTORE), "-o", str(tmp_path / "out"))
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1].startswith(f"Wrote {tmp_path / 'out'}")
    assert (tmp_path / "out" / "mcpforge.lock").is_file()
    missing = _program("generate", str(tmp_path / "missing.yaml"), "-o", str(tmp_path / "other"))
    assert (missing.returncode, missing.stderr.splitlines()[0]) == (
        1,
        f"error[spec-read]: {tmp_path / 'missing.yaml'} does not exist",
    )
    usage = _program("generate", "--no-such-flag")
    assert usage.returncode == 2
    assert "No such option" in usage.stderr
    stale = _program("generate", str(PETSTORE), "-o", str(tmp_path / "out"), "--check", "--include-deprecated")
    assert stale.returncode == 1
    assert "out of date" in stale.stderr


def test_output_to_a_closed_pipe_ends_the_program_with_status_1_and_no_traceback(tmp_path: Path) -> None:
    # `true` exits at once: the summary, buffered for the pipe, meets a closed pipe when flushed.
    script = (
        f'"{sys.executable}" -m mcpforge generate "{PETSTORE}" -o "{tmp_path / "out"}" | true; exit ${{PIPESTATUS[0]}}'
    )
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "Exception ignored" not in done.stderr
    assert (tmp_path / "out" / "mcpforge.lock").is_file()


def test_the_validate_flag_chooses_the_level_on_the_command_line(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path,
        """
        openapi: 3.0.3
        info: {title: t}
        servers: [{url: "https://api.example.com"}]
        paths:
          /a:
            get:
              operationId: getA
              responses: {"200": {summary: no description}}
        """,
    )
    out = str(tmp_path / "out")

    def codes(*flags: str) -> set[str]:
        code, _, err = run("generate", str(spec), "-o", out, "--force", *flags)
        assert code == 0, err
        return {line.split("[", 1)[1].split("]", 1)[0] for line in err.splitlines() if line.startswith("warning[")}

    assert "missing-info" in codes() and "invalid-spec" not in codes()  # basic, the default
    assert {"missing-info", "invalid-spec"} <= codes("--validate", "full")  # openapi-spec-validator ran
    assert not {"missing-info", "invalid-spec"} & codes("--validate", "none")


def test_serve_restores_pythons_collector_settings() -> None:
    # The generator's rare collections (tune_gc) suit a run that makes no cycles, not a server's hours.
    tune_gc()
    try:
        result = CliRunner().invoke(main, ["serve", str(PETSTORE), "--", "--help"])
        assert result.exit_code == 0, result.output
        assert "--transport" in result.output
        assert gc.get_threshold() == PYTHON_GC_THRESHOLDS != (1_000_000, 30, 30)
    finally:
        gc.set_threshold(*PYTHON_GC_THRESHOLDS)


def test_help_lists_the_commands_as_click_would_without_importing_them() -> None:
    # The group's table of short help is a copy: it must say what each command's own help says.
    for width in (60, 80, 100):
        ours, clicks = click.HelpFormatter(width=width), click.HelpFormatter(width=width)
        with click.Context(main) as ctx:
            main.format_commands(ctx, ours)
            click.Group.format_commands(main, ctx, clicks)
        assert ours.getvalue() == clicks.getvalue()
    code = "import sys\nfrom mcpforge.cli import main\nmain(['--help'], standalone_mode=False)\n"
    code += "print(list(sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "generate  Generate the MCP server" in result.stdout
    loaded = result.stdout.splitlines()[-1]
    assert "'mcpforge.cli.generate'" not in loaded and "'mcpforge.cli.flags'" not in loaded
