"""Endpoint protection pieces: loopback detection, static tokens, token files, RFC 6750 challenges, cache hints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
from mcp.server.auth.middleware.bearer_auth import BearerAuthBackend
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from conftest import FIXTURES
from helpers import contract_of
from mcpforge.runtime.access.endpoint import (
    Protection,
    RequireAccess,
    StaticTokens,
    is_loopback,
    protection,
    read_token_file,
)
from mcpforge.runtime.serving.server import build_server
from mcpforge.runtime.settings.setting import SettingError
from mcpforge.runtime.settings.table import Settings

TOKEN = "a-static-token-0123456789"


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.1.2.3", True), ("::1", True), ("[::1]", True), ("localhost", True),
     ("0.0.0.0", False), ("::", False), ("10.0.0.5", False), ("example.com", False)],
)  # fmt: skip
def test_loopback_addresses(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_static_tokens_are_checked_in_constant_time_and_name_no_one() -> None:
    verifier = StaticTokens([TOKEN, "another-token-abcdefghij"])
    found = anyio.run(verifier.verify_token, "another-token-abcdefghij")
    assert found is not None and found.client_id == "static-2" and found.scopes == []
    assert anyio.run(verifier.verify_token, TOKEN[:-1]) is None


def test_token_files(tmp_path: Path) -> None:
    good = tmp_path / "tokens"
    good.write_text(f"# comment\n\n  {TOKEN}  \n")
    assert read_token_file(str(good), "P_AUTH_TOKENS_FILE") == (TOKEN,)
    short = tmp_path / "short"
    short.write_text("tiny\n")
    with pytest.raises(SettingError, match="P_AUTH_TOKENS_FILE line 1 is too short") as problem:
        read_token_file(str(short), "P_AUTH_TOKENS_FILE")
    assert "tiny" not in str(problem.value)
    with pytest.raises(SettingError, match="cannot read"):
        read_token_file(str(tmp_path / "missing"), "P_AUTH_TOKENS_FILE")


def gate(required: tuple[str, ...] = (), metadata: str | None = None) -> Starlette:
    async def ok(_: Any) -> PlainTextResponse:
        return PlainTextResponse("ok")

    verifier = StaticTokens([TOKEN])
    guard = Protection(verifier=verifier, required_scopes=required, metadata_url=metadata)
    inner = Starlette(routes=[Route("/x", ok)])
    return Starlette(
        routes=[Route("/x", RequireAccess(inner, guard, extra_token="bridge-only-token-0123"))],
        middleware=[
            Middleware(AuthenticationMiddleware, backend=BearerAuthBackend(verifier)),
            Middleware(AuthContextMiddleware),
        ],
    )


def get(app: Starlette, token: str | None) -> httpx.Response:
    async def go() -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client:
            return await client.get("/x", headers=headers)

    return anyio.run(go)


def test_challenges_follow_rfc_6750() -> None:
    app = gate(metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp")
    missing = get(app, None)
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"] == (
        'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp"'
    )
    wrong = get(app, "wrong-token-0000000000000")
    assert wrong.headers["www-authenticate"].startswith('Bearer error="invalid_token", error_description=')
    assert get(app, TOKEN).text == "ok" and get(app, "bridge-only-token-0123").text == "ok"
    scoped = get(gate(required=("tools:call",)), TOKEN)
    assert scoped.status_code == 403 and 'error="insufficient_scope"' in scoped.headers["www-authenticate"]
    assert 'scope="tools:call"' in scoped.headers["www-authenticate"]


def test_tools_list_carries_caching_hints() -> None:
    data = contract_of(FIXTURES / "golden" / "petstore_30" / "openapi.yaml")

    async def listing() -> Any:
        async with Client(build_server(data, Settings(base_url="http://127.0.0.1:9", tools_cache_ttl=600))) as client:
            return await client.list_tools()

    result = anyio.run(listing)
    assert result.ttl_ms == 600_000 and result.cache_scope == "public"


def test_static_tokens_beside_oauth_with_required_scopes_are_let_in() -> None:
    settings = Settings(
        base_url="http://127.0.0.1:9",
        auth_tokens=(TOKEN,),
        oauth_issuer="http://127.0.0.1:9/issuer",
        oauth_resource="http://127.0.0.1:8000/mcp",
        oauth_scopes=("mcp:tools",),
    )
    guard = protection(settings, "P")
    assert guard is not None and guard.required_scopes == ("mcp:tools",)
    inner = Starlette(routes=[Route("/x", lambda _: PlainTextResponse("ok"))])
    app = Starlette(
        routes=[Route("/x", RequireAccess(inner, guard))],
        middleware=[
            Middleware(AuthenticationMiddleware, backend=BearerAuthBackend(guard.verifier)),
            Middleware(AuthContextMiddleware),
        ],
    )
    assert get(app, TOKEN).text == "ok"  # no network: a static token is checked before any OAuth lookup
