"""``mcpforge serve SPEC``: the server ``generate`` would write, run from the document, driven by the MCP SDK client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from mcp import ClientSession, StdioServerParameters, stdio_client, types
from mcp.client.streamable_http import streamable_http_client
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from conftest import FIXTURES
from helpers import case_options, free_port, serve
from mcpforge.cli import main
from mcpforge.pipeline import contract, generate

PETSTORE = FIXTURES / "golden" / "petstore_30" / "openapi.yaml"
SEEN: list[dict[str, Any]] = []


async def _pets(request: Request) -> JSONResponse:
    SEEN.append({"path": request.url.path, "query": dict(request.query_params)})
    return JSONResponse([{"id": 1, "name": "Rex"}])


UPSTREAM = Starlette(routes=[Route("/v1/pets", _pets)])


def _generated_tools(tmp_path: Path, *extra: str) -> list[dict[str, Any]]:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["generate", str(PETSTORE), "-o", str(out), *extra])
    assert result.exit_code == 0, result.output
    tools: list[dict[str, Any]] = json.loads((out / "manifests" / "mcp-tools.json").read_text())
    return tools


def _listed(tools: list[types.Tool]) -> list[dict[str, Any]]:
    return [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in tools]


@pytest.mark.e2e  # `mcpforge serve` as a process: seconds each, with the end-to-end tier
def test_serve_lists_what_generate_writes_and_calls_the_api_over_stdio(tmp_path: Path) -> None:
    expected = _generated_tools(tmp_path, "--exclude-operations", "deletePet")
    with serve(UPSTREAM) as upstream:
        env = {**os.environ, "PETSTORE_BASE_URL": f"{upstream}/v1"}
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "mcpforge", "serve", str(PETSTORE), "--exclude-operations", "deletePet"],
            env=env,
        )

        async def scenario() -> None:
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                listed = await session.list_tools()
                assert listed.next_cursor is None
                got = _listed(listed.tools)
                assert [t["name"] for t in got] == [t["name"] for t in expected]
                for mine, theirs in zip(got, expected, strict=True):
                    assert mine["inputSchema"] == theirs["inputSchema"], mine["name"]
                    assert mine.get("description") == theirs.get("description")
                result = await session.call_tool("listPets", {"limit": 3, "status": ["available", "sold"]})
                assert not result.is_error, result.content
                assert result.structured_content == {"result": [{"id": 1, "name": "Rex"}]}

        anyio.run(scenario)
    assert SEEN[-1] == {"path": "/v1/pets", "query": {"limit": "3", "status": "available,sold"}}


@pytest.mark.e2e  # `mcpforge serve` as a process: seconds each, with the end-to-end tier
def test_serve_over_http_takes_the_servers_own_options_after_the_double_dash(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "PETSTORE_BASE_URL": "http://127.0.0.1:9/v1"}
    args = [sys.executable, "-m", "mcpforge", "serve", str(PETSTORE), "--include-tags", "pets"]
    server = subprocess.Popen(
        [*args, "--", "--transport", "http", "--port", str(port), "--stateless"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stderr is not None
        line = server.stderr.readline()
        deadline = time.monotonic() + 30
        while "serving MCP at" not in line and time.monotonic() < deadline and line:
            line = server.stderr.readline()
        assert f"petstore-mcp: serving MCP at http://127.0.0.1:{port}/mcp" in line

        async def scenario() -> list[str]:
            url = f"http://127.0.0.1:{port}/mcp"
            async with streamable_http_client(url) as (read, write, *_), ClientSession(read, write) as session:
                await session.initialize()
                return [t.name for t in (await session.list_tools()).tools]

        names = anyio.run(scenario)
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=30)
    assert names == [t["name"] for t in _generated_tools(tmp_path, "--include-tags", "pets")]
    assert out == ""  # nothing but the protocol would ever go to stdout


async def _slow_pets(request: Request) -> JSONResponse:
    await anyio.sleep(float(request.query_params.get("limit", "1")) / 10)  # limit=5: half a second
    return JSONResponse([{"id": 1, "name": "Rex"}])


def _piped(messages: list[dict[str, Any]], env: dict[str, str]) -> list[dict[str, Any]]:
    """What the server writes to stdout for ``messages`` written to its stdin, which is then closed."""
    lines = "".join(json.dumps(message) + "\n" for message in messages)
    done = subprocess.run(
        [sys.executable, "-m", "mcpforge", "serve", str(PETSTORE)],
        input=lines,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.e2e  # `mcpforge serve` as a process: seconds each, with the end-to-end tier
def test_calls_in_flight_when_stdin_closes_are_answered() -> None:
    # A client that writes its requests and closes its end (a shell pipe) still reads every answer;
    # the MCP SDK alone cancels them at the end of stdin ("Connection closed").
    hello = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "pipe", "version": "1"}},
    }
    started = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "listPets", "arguments": {"limit": 5}},
    }
    cancelled = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}
    with serve(Starlette(routes=[Route("/v1/pets", _slow_pets)])) as upstream:
        env = {**os.environ, "PETSTORE_BASE_URL": f"{upstream}/v1"}
        answers = {answer["id"]: answer for answer in _piped([hello, started, call], env)}
        assert answers[2]["result"]["structuredContent"] == {"result": [{"id": 1, "name": "Rex"}]}
        # A call the client cancelled gets no answer (as MCP says), and the end of stdin does not wait for it.
        assert [answer["id"] for answer in _piped([hello, started, call, cancelled], env)] == [1]
        # Nor past SHUTDOWN_TIMEOUT: a call still running then (6 s upstream, 1 s allowed) is cancelled.
        slow = {**call, "params": {"name": "listPets", "arguments": {"limit": 60}}}
        began = time.monotonic()
        late = _piped([hello, started, slow], {**env, "PETSTORE_SHUTDOWN_TIMEOUT": "1"})
        assert time.monotonic() - began < 6
        assert late[-1]["id"] == 2 and late[-1]["error"]["message"] == "Connection closed"


def test_serve_passes_help_through_and_refuses_a_bad_server_option() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mcpforge", "serve", str(PETSTORE), "--", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "PETSTORE_BASE_URL" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "mcpforge", "serve", str(PETSTORE), "--", "--transport", "carrier-pigeon"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "carrier-pigeon" in bad.stderr and "Traceback" not in bad.stderr


def test_serve_runs_the_contract_generate_writes() -> None:
    # `serve` makes tools.json without writing a package: the same data, setting by setting and tool by tool.
    for spec in (PETSTORE, FIXTURES / "specs" / "runtime.yaml", FIXTURES / "specs" / "signin.yaml"):
        options = case_options(spec)
        written = generate(options)
        tools_json = next(f.data for f in written.files if f.path.endswith("/tools.json"))
        assert contract(options)[0] == json.loads(tools_json)
