"""The command line's contract, for every command: help with defaults and an example, one table of exit codes.

Exit codes (docs/cli.md): 0 success; 1 any input or user error (a spec that is missing, a folder
or unreachable, an output path that is a file, an unreadable manifest); 2 a usage error of the
command line itself (an unknown option, a bad choice, a missing required option).
"""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import FIXTURES
from helpers import free_port
from mcpforge.cli import main

PETSTORE = FIXTURES / "golden" / "petstore_30" / "openapi.yaml"
COMMANDS = ["generate", "serve", "diff", "validate", "lint", "budget", "tools", "convert"]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout + result.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_defaults_and_an_example(command: str) -> None:
    code, text = run(command, "--help")
    assert code == 0
    assert "Examples:" in text and f"mcpforge {command} " in text.split("Examples:")[1]
    assert "[default:" in text or command in ("convert",), text  # every option with a default shows it


def test_the_top_level_help_lists_every_command() -> None:
    code, text = run("--help")
    assert code == 0 and all(command in text for command in COMMANDS)


@pytest.fixture
def places(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "folder").mkdir()
    (tmp_path / "file.txt").write_text("not json")
    return {
        "missing": str(tmp_path / "missing.yaml"),
        "folder": str(tmp_path / "folder"),
        "file": str(tmp_path / "file.txt"),
        "out": str(tmp_path / "out"),
        "unreachable": f"http://127.0.0.1:{free_port()}/openapi.json",
    }


EXIT_CODES = [
    # (arguments, exit code, words of the message); {name} is one of the places above
    (["generate", "{missing}", "-o", "{out}"], 1, "does not exist"),
    (["generate", "{folder}", "-o", "{out}"], 1, "is a directory"),
    (["generate", str(PETSTORE), "-o", "{file}"], 1, "is not a directory"),
    (["generate", str(PETSTORE)], 1, "no output directory"),
    (["generate", "{unreachable}", "-o", "{out}"], 1, "cannot fetch"),
    (["generate", "ftp://example.com/openapi.json", "-o", "{out}"], 1, "only http and https"),
    (["generate", str(PETSTORE), "-o", "{out}", "--overlay", "{missing}"], 1, "does not exist"),
    (["generate", str(PETSTORE), "-o", "{out}", "--config", "{missing}"], 1, "missing.yaml"),
    (["serve", "{missing}"], 1, "does not exist"),
    (["serve", "{folder}"], 1, "is a directory"),
    (["validate", "{missing}"], 1, "does not exist"),
    (["validate", "{folder}"], 1, "is a directory"),
    (["validate", "{unreachable}"], 1, "cannot fetch"),
    (["lint", "{missing}"], 1, "does not exist"),
    (["lint", "{folder}"], 1, "is a directory"),
    (["budget", "{missing}"], 1, "does not exist"),
    (["budget", "{folder}"], 1, "not an mcpforge output directory"),
    (["convert", "{missing}", "--to", "gemini"], 1, "not a readable JSON file"),
    (["convert", "{folder}", "--to", "gemini"], 1, "not a readable JSON file"),
    (["convert", "{file}", "--to", "gemini"], 1, "not a readable JSON file"),
    (["generate", "--no-such-flag"], 2, "No such option"),
    (["serve", "--no-such-flag"], 2, "No such option"),
    (["validate", "--validate", "wrong", str(PETSTORE)], 2, "Invalid value"),
    (["lint", "--no-such-flag", str(PETSTORE)], 2, "No such option"),
    (["budget"], 2, "Missing argument"),
    (["tools"], 2, "give at least one"),
    (["convert", str(PETSTORE)], 2, "Missing option"),
    (["generate", str(PETSTORE), "-o", "{out}", "--max-tool-name-length", "3"], 2, "Invalid value"),
    (["no-such-command"], 2, "No such command"),
]


@pytest.mark.parametrize(("args", "code", "words"), EXIT_CODES, ids=[" ".join(c[0])[:60] for c in EXIT_CODES])
def test_exit_codes_follow_one_table(args: list[str], code: int, words: str, places: dict[str, str]) -> None:
    exit_code, text = run(*[a.format(**places) for a in args])
    assert (exit_code, words in text) == (code, True), text
    assert "Traceback" not in text


@contextmanager
def files_served(folder: Path) -> Iterator[str]:
    """``folder`` over HTTP on loopback (a real server: the spec is fetched as from any web site)."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(folder), **kwargs)  # type: ignore[arg-type]

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


def test_a_spec_given_as_a_url_generates_what_the_file_does(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "openapi.yaml").write_bytes(PETSTORE.read_bytes())
    with files_served(site) as base:
        assert run("generate", f"{base}/openapi.yaml", "-o", str(tmp_path / "from-url"))[0] == 0
        code, text = run("validate", f"{base}/openapi.yaml")
        assert code == 0 and "tools" in text
        assert run("budget", f"{base}/openapi.yaml")[0] == 0
        assert run("lint", f"{base}/openapi.yaml")[0] == 0
        code, text = run("validate", f"{base}/nothing-here.yaml")
        assert code == 1 and "HTTP 404" in text
    assert run("generate", str(site / "openapi.yaml"), "-o", str(tmp_path / "from-file"))[0] == 0
    url_lock = json.loads((tmp_path / "from-url" / "mcpforge.lock").read_text())
    file_lock = json.loads((tmp_path / "from-file" / "mcpforge.lock").read_text())
    assert url_lock == file_lock  # same name, hash, tools and files
    for manifest in (tmp_path / "from-file" / "manifests").iterdir():
        assert (tmp_path / "from-url" / "manifests" / manifest.name).read_bytes() == manifest.read_bytes()


def test_a_url_specs_relative_refs_are_remote_and_need_the_flag(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "pet.json").write_text(json.dumps({"type": "object", "properties": {"name": {"type": "string"}}}))
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Split", "version": "1"},
        "servers": [{"url": "https://split.example"}],
        "paths": {
            "/pets": {
                "get": {
                    "operationId": "listPets",
                    "responses": {
                        "200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "pet.json"}}}}
                    },
                }
            }
        },
    }
    (site / "openapi.json").write_text(json.dumps(spec))
    with files_served(site) as base:
        code, text = run("generate", f"{base}/openapi.json", "-o", str(tmp_path / "refused"), "--strict")
        assert code == 1 and f"remote $ref '{base}/pet.json' refused" in text and "--allow-remote-refs" in text
        out = tmp_path / "allowed"
        assert run("generate", f"{base}/openapi.json", "-o", str(out), "--allow-remote-refs", "--strict")[0] == 0
    (tool,) = json.loads((out / "manifests" / "mcp-tools.json").read_text())
    assert tool["outputSchema"]["properties"]["name"] == {"type": "string"}


def test_budget_and_generate_say_what_each_mode_costs_and_recommend_one_for_large_apis(tmp_path: Path) -> None:
    code, text = run("budget", str(PETSTORE), "--json")
    small = json.loads(text)
    assert code == 0 and small["recommendation"] is None
    assert small["modes"]["tools"] == {"tools": len(small["tools"]), "tokens": small["totalTokens"]}
    assert small["modes"]["search"]["tools"] == 4 and small["modes"]["search"]["tokens"] < 1_500
    paths = {f"/things{i}/{{id}}": {"get": {"operationId": f"getThing{i}", "parameters": [
        {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}, "description": "x" * 200}
    ], "responses": {"200": {"description": "ok"}}}} for i in range(150)}  # fmt: skip
    spec = tmp_path / "large.json"
    spec.write_text(json.dumps({"openapi": "3.1.0", "info": {"title": "L", "version": "1"}, "paths": paths}))
    code, text = run("budget", str(spec), "--top", "0")
    assert code == 0 and "recommended: --mode search for this API (150 tools)" in text
    code, text = run("generate", str(spec), "-o", str(tmp_path / "out"))
    assert code == 0 and "up front: tools mode ~" in text and "recommended: --mode search" in text
    assert (tmp_path / "out" / "manifests" / "anthropic-deferred.json").is_file()
