"""The generated runtime against a real local upstream: OAuth2, response kinds, errors, secrets."""

from __future__ import annotations

import base64
import contextlib
import importlib
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
import uvicorn
from mcp import types

from conftest import FIXTURES
from e2e.harness import free_port, read_body
from mcpforge.generate import GenerateOptions, generate
from mcpforge.render.write import write_tree

SECRET = "sk-live-very-secret-value"
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
)


class Upstream:
    """A small real HTTP API (ASGI, served by uvicorn on loopback) that records what it saw."""

    def __init__(self) -> None:
        self.token_requests = 0
        self.seen: list[dict[str, Any]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = await read_body(receive)
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        self.seen.append({"path": scope["path"], "query": scope["query_string"].decode(), "headers": headers})
        status, media, payload = self.route(scope["path"], headers, scope["query_string"].decode(), body)
        await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", media.encode())]})
        await send({"type": "http.response.body", "body": payload})

    def route(self, path: str, headers: dict[str, str], query: str, body: bytes) -> tuple[int, str, bytes]:
        if path == "/token":
            self.token_requests += 1
            assert headers.get("authorization", "").startswith("Basic ")
            return 200, "application/json", b'{"access_token": "tok-123", "expires_in": 3600}'
        if path == "/json":
            if headers.get("authorization") != "Bearer tok-123":
                return 401, "application/json", b'{"message": "no token"}'
            return 200, "application/json", b'{"n": 1}'
        if path == "/list":
            return 200, "application/json", b'["a", "b"]'
        if path == "/text":
            return 200, "text/plain; charset=utf-8", "héllo".encode()
        if path == "/image":
            return 200, "image/png", PNG
        if path == "/binary":
            return 200, "application/pdf", b"%PDF-1.4 ..."
        if path == "/huge":
            return 200, "text/plain", b"x" * 5000
        if path == "/error":
            return 503, "application/json", b'{"error": "maintenance"}'
        if path == "/echo-secret":
            return 400, "text/plain", f"bad key {query}".encode()
        if path == "/drift":
            return 200, "application/json", b'{"n": "not a number"}'
        return 404, "text/plain", b"not found"


@contextlib.contextmanager
def serve(app: Any) -> Iterator[str]:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("runtime") / "gen"
    result = generate(GenerateOptions(spec=FIXTURES / "specs" / "runtime.yaml"))
    write_tree(result.files, out)
    sys.path.insert(0, str(out / "src"))
    try:
        return importlib.import_module("runtime_mcp.server"), importlib.import_module("runtime_mcp.runtime")
    finally:
        sys.path.remove(str(out / "src"))


def call_all(
    runtime: Any, base_url: str, calls: list[tuple[str, dict[str, Any]]], env: dict[str, str]
) -> list[types.CallToolResult]:
    server, rt = runtime

    async def run() -> list[types.CallToolResult]:
        config = {**server.CONFIG}
        config["securitySchemes"] = {
            k: {**v, **({"tokenUrl": base_url + "/token"} if "tokenUrl" in v else {})}
            for k, v in config["securitySchemes"].items()
        }
        settings = rt.Settings.from_env(
            config, {**env, "RUNTIME_BASE_URL": base_url, "RUNTIME_MAX_RESPONSE_BYTES": "1000"}
        )
        data = {**server.DATA, "server": config}
        async with httpx.AsyncClient() as client:
            api = rt.Api(data, settings, client)
            return [await api.call(name, args) for name, args in calls]

    return anyio.run(run)


def text(result: types.CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, types.TextContent))


def test_oauth2_client_credentials_token_is_fetched_once_and_cached(runtime: Any) -> None:
    upstream = Upstream()
    env = {"RUNTIME_CC_CLIENT_ID": "client", "RUNTIME_CC_CLIENT_SECRET": SECRET}
    with serve(upstream) as url:
        results = call_all(runtime, url, [("getJson", {}), ("getJson", {})], env)
    assert [r.is_error for r in results] == [False, False]
    assert results[0].structured_content == {"n": 1}
    assert upstream.token_requests == 1


def test_response_kinds(runtime: Any) -> None:
    upstream = Upstream()
    with serve(upstream) as url:
        listed, plain, image, binary, huge, error, drift = call_all(
            runtime,
            url,
            [
                ("getList", {}),
                ("getText", {}),
                ("getImage", {}),
                ("getBinary", {}),
                ("getHuge", {}),
                ("getError", {}),
                ("getDrift", {}),
            ],
            {"RUNTIME_KEY_API_KEY": SECRET},
        )
    assert listed.structured_content == {"result": ["a", "b"]} and not listed.is_error
    assert "api_key=" + SECRET in upstream.seen[0]["query"]
    assert text(plain) == "héllo"
    assert isinstance(image.content[0], types.ImageContent) and base64.b64decode(image.content[0].data) == PNG
    assert isinstance(binary.content[0], types.EmbeddedResource)
    assert binary.content[0].resource.mime_type == "application/pdf"
    assert "truncated" in text(huge) and len(text(huge)) < 1200
    assert error.is_error and "HTTP 503" in text(error) and "maintenance" in text(error)
    assert drift.is_error and "does not match its documented schema" in text(drift)


def test_secrets_never_appear_in_results(runtime: Any) -> None:
    with serve(Upstream()) as url:
        (echoed,) = call_all(runtime, url, [("echoSecret", {})], {"RUNTIME_KEY_API_KEY": SECRET})
    assert echoed.is_error and SECRET not in str(echoed.model_dump()) and "***" in text(echoed)


def test_connection_refused_and_unknown_tool(runtime: Any) -> None:
    refused, unknown = call_all(runtime, f"http://127.0.0.1:{free_port()}", [("getText", {}), ("nope", {})], {})
    assert refused.is_error and "failed" in text(refused)
    assert unknown.is_error and "Unknown tool" in text(unknown)
