"""The generated server under upstream faults, over streamable HTTP in its own process.

Timeouts (before and during the body), connection refused, 5xx, invalid JSON with a JSON content
type, a huge body, CR/LF in a header value, 100 concurrent calls, and secrets: the test sets two
credentials, runs every call at DEBUG log level, and scans all the server wrote and returned.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client

from conftest import FIXTURES
from e2e.harness import wait_for_port
from helpers import free_port, serve
from mcpforge.options.model import Options
from mcpforge.output.write import write_tree
from mcpforge.pipeline import generate

API_KEY = "key-4f9a0c2e7b1d"
TOKEN = "tok-9d8c7b6a5f4e"
HUGE = 30_000_000


class Misbehaving:
    """An ASGI upstream: slow, broken, huge, and one that echoes every credential it receives."""

    def __init__(self) -> None:
        self.headers_seen: list[dict[str, str]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        path = scope["path"]
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        self.headers_seen.append(headers)

        async def start(status: int, media: str) -> None:
            await send(
                {"type": "http.response.start", "status": status, "headers": [(b"content-type", media.encode())]}
            )

        if path == "/slow-headers":
            await asyncio.sleep(3)
            await start(200, "text/plain")
            await send({"type": "http.response.body", "body": b"late"})
        elif path == "/slow-body":
            await start(200, "text/plain")
            await send({"type": "http.response.body", "body": b"first part ", "more_body": True})
            await asyncio.sleep(3)
            await send({"type": "http.response.body", "body": b"never read"})
        elif path == "/bad-json":
            await start(200, "application/json")
            await send({"type": "http.response.body", "body": b'{"unterminated": '})
        elif path == "/huge":
            await start(200, "text/plain")
            chunk = b"y" * 1_000_000
            for _ in range(HUGE // len(chunk)):
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b""})
        elif path == "/server-error":
            await start(500, "text/html")
            await send({"type": "http.response.body", "body": b"<html><body>Internal Server Error</body></html>"})
        elif path == "/leak":
            await start(502, "application/json")
            echoed = {"query": scope["query_string"].decode(), "authorization": headers.get("authorization")}
            await send({"type": "http.response.body", "body": json.dumps(echoed).encode()})
        elif path.startswith("/echo/"):
            await asyncio.sleep(0.01)
            await start(200, "application/json")
            await send({"type": "http.response.body", "body": json.dumps({"n": int(path.rsplit("/", 1)[1])}).encode()})
        else:
            await start(404, "text/plain")
            await send({"type": "http.response.body", "body": b"not found"})


@pytest.fixture(scope="module")
def faults_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("faults") / "gen"
    write_tree(generate(Options(spec=FIXTURES / "specs" / "faults.yaml")).files, out)
    return out


@contextlib.contextmanager
def server_process(project: Path, base_url: str, log: Path) -> Iterator[str]:
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(project / "src"),
        "FAULTS_BASE_URL": base_url,
        "FAULTS_TIMEOUT": "1",
        "FAULTS_MAX_RESPONSE_BYTES": "200000",
        "FAULTS_KEY_API_KEY": API_KEY,
        "FAULTS_BEARER_TOKEN": TOKEN,
    }
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "faults_mcp", "--transport", "http", "--port", str(port), "--log-level", "DEBUG"],
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for_port(port, proc)
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            proc.terminate()
            proc.wait(timeout=10)


@contextlib.asynccontextmanager
async def session(url: str) -> AsyncIterator[ClientSession]:
    async with streamable_http_client(url) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        yield client


def text(result: types.CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, types.TextContent))


def test_faults_become_error_results_and_the_server_keeps_serving(faults_project: Path, tmp_path: Path) -> None:
    upstream = Misbehaving()
    log = tmp_path / "server.log"
    results: list[types.CallToolResult] = []

    async def scenario(url: str) -> None:
        async with session(url) as client:

            async def call(name: str, args: dict[str, Any] | None = None) -> types.CallToolResult:
                result = await client.call_tool(name, args or {})
                results.append(result)
                return result

            slow = await call("slowHeaders")
            assert slow.is_error and "did not answer within 1 s" in text(slow)
            stalled = await call("slowBody")
            assert stalled.is_error and "did not answer within 1 s" in text(stalled)
            broken = await call("badJson")
            assert broken.is_error and "invalid JSON" in text(broken) and '{"unterminated": ' in text(broken)
            huge = await call("huge")
            assert not huge.is_error and "Response truncated to the first 200,000 bytes" in text(huge)
            assert len(text(huge)) < 201_000
            failed = await call("serverError")
            assert failed.is_error and text(failed).startswith("HTTP 500") and "Internal Server Error" in text(failed)
            leaked = await call("leak")
            assert leaked.is_error and "HTTP 502" in text(leaked) and "***" in text(leaked)
            echo_tool = next(t for t in (await client.list_tools()).tools if t.name == "echo")
            note = next(name for name in echo_tool.input_schema["properties"] if name != "n")  # X-Note, made portable
            injected = await call("echo", {"n": 1, note: "ok\r\nX-Injected: yes"})
            assert injected.is_error and "must not contain CR, LF" in text(injected)
            assert all("x-injected" not in seen for seen in upstream.headers_seen)
            fine = await call("echo", {"n": 7, note: "plain"})
            assert not fine.is_error and fine.structured_content == {"n": 7}

            outcomes: dict[int, types.CallToolResult] = {}

            async def one(n: int) -> None:
                outcomes[n] = await client.call_tool("echo", {"n": n})

            async with anyio.create_task_group() as group:
                for n in range(100):
                    group.start_soon(one, n)
            assert sorted(outcomes) == list(range(100))
            assert all(not r.is_error and r.structured_content == {"n": n} for n, r in outcomes.items())
            results.extend(outcomes.values())

    with serve(upstream) as base_url, server_process(faults_project, base_url, log) as url:
        anyio.run(scenario, url)

    refused_log = tmp_path / "refused.log"
    with server_process(faults_project, f"http://127.0.0.1:{free_port()}", refused_log) as url:

        async def refused() -> None:
            async with session(url) as client:
                result = await client.call_tool("echo", {"n": 1})
                results.append(result)
                assert result.is_error and "ConnectError" in text(result)

        anyio.run(refused)

    # The upstream did receive the credentials (so the scan below is meaningful)...
    assert any(seen.get("authorization") == f"Bearer {TOKEN}" for seen in upstream.headers_seen)
    # ...and they appear nowhere the server wrote or answered, even at DEBUG level.
    written = log.read_text(errors="replace") + refused_log.read_text(errors="replace")
    assert "HTTP request: GET http" in written  # every request URL is logged at DEBUG, its key redacted
    answered = json.dumps([r.model_dump(mode="json") for r in results])
    for secret in (API_KEY, TOKEN):
        assert secret not in written and secret not in answered
