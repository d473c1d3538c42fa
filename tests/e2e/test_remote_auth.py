"""Issue 12: the MCP endpoint as an OAuth 2.1 resource server, static tokens, the secure default, and
per-user API credentials, with a real authorization server (oidc-provider) and the SDK's own client."""

from __future__ import annotations

import contextlib
import json
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any, cast

import anyio
import httpx
import jwt
import pytest
from mcp import ClientSession
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from e2e.authserver import AuthServer, auth_server, rsa_key
from e2e.harness import Project, http_server, server_env
from e2e.test_server import list_all, text
from helpers import free_port
from mcpforge.client.hub import MemoryTokenStorage

STATIC = "static-endpoint-token-0123456789"
AGENT, AGENT_SECRET = "agent", "agent-secret-0123456789abcdef"
UPSTREAM_TOKEN = "upstream-api-token-abcdef012345"


@contextlib.asynccontextmanager
async def session(url: str, *, headers: dict[str, str] | None = None, auth: Any = None) -> AsyncIterator[ClientSession]:
    client = create_mcp_http_client(headers=headers, auth=auth)
    async with (
        client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as s,
    ):
        await s.initialize()
        yield s


def post(url: str, token: str | None = None) -> httpx.Response:
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    return httpx.post(url, json=body, headers={**headers, "MCP-Protocol-Version": "2025-11-25"}, timeout=10)


def test_non_loopback_needs_protection(petstore: Project, petstore_prism: str, tmp_path: Path) -> None:
    env = server_env(petstore, petstore_prism)
    refused = subprocess.run(
        [str(petstore.command), "--transport", "http", "--host", "0.0.0.0", "--port", str(free_port())],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert refused.returncode == 2 and "refusing to serve 0.0.0.0 without protection" in refused.stderr
    assert "PETSTORE_AUTH_TOKENS" in refused.stderr and "PETSTORE_OAUTH_ISSUER" in refused.stderr
    short = subprocess.run(
        [str(petstore.command), "--transport", "http"],
        env={**env, "PETSTORE_AUTH_TOKENS": f"{STATIC},tiny"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert short.returncode == 2 and "PETSTORE_AUTH_TOKENS (value 2 of 2) is too short" in short.stderr
    assert "tiny" not in short.stderr


def test_static_tokens_guard_a_public_address(petstore: Project, petstore_prism: str, tmp_path: Path) -> None:
    tokens = tmp_path / "tokens"
    tokens.write_text(f"# team tokens\n{STATIC}\n\nsecond-token-abcdefghijklmnop\n")
    env = server_env(petstore, petstore_prism, {"PETSTORE_AUTH_TOKENS_FILE": str(tokens)})
    with http_server(petstore, env, "--host", "0.0.0.0", "--stateless", "--json-response") as base:
        missing = post(base + "/mcp")
        assert missing.status_code == 401 and missing.headers["www-authenticate"] == "Bearer"
        wrong = post(base + "/mcp", "not-a-token-at-all-000000")
        assert wrong.status_code == 401 and 'error="invalid_token"' in wrong.headers["www-authenticate"]
        assert post(base + "/mcp", "second-token-abcdefghijklmnop").status_code == 200
        assert httpx.get(base + "/healthz").json() == {"status": "ok"}
        assert httpx.get(base + "/readyz").json() == {"status": "ready"}

        async def scenario() -> None:
            async with session(base + "/mcp", headers={"Authorization": f"Bearer {STATIC}"}) as client:
                assert len(await list_all(client)) == len(petstore.tools)

        anyio.run(scenario)


@pytest.fixture(scope="module")
def oauth(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[AuthServer, int, int]]:
    jwt_port, opaque_port = free_port(), free_port()
    resources = {
        f"http://127.0.0.1:{jwt_port}/mcp": {"scope": "tools:call tools:admin", "format": "jwt"},
        f"http://127.0.0.1:{opaque_port}/mcp": {"scope": "tools:call", "format": "opaque"},
        "http://127.0.0.1:1/other": {"scope": "tools:call", "format": "jwt"},
    }
    clients = {AGENT: AGENT_SECRET, "mcp-server": "mcp-server-secret-0123456789"}
    with auth_server(resources, clients, tmp_path_factory.mktemp("as")) as server:
        yield server, jwt_port, opaque_port


def oauth_env(petstore: Project, upstream: str, issuer: str, resource: str, **extra: str) -> dict[str, str]:
    settings = {
        "PETSTORE_OAUTH_ISSUER": issuer,
        "PETSTORE_OAUTH_RESOURCE": resource,
        "PETSTORE_OAUTH_SCOPES": "tools:call",
        "PETSTORE_BEARERAUTH_TOKEN": UPSTREAM_TOKEN,
        **extra,
    }
    return server_env(petstore, upstream, settings)


def test_the_sdk_client_discovers_the_authorization_server_and_calls_tools(
    petstore: Project, petstore_prism: str, oauth: tuple[AuthServer, int, int], tmp_path: Path
) -> None:
    server, port, _ = oauth
    resource = f"http://127.0.0.1:{port}/mcp"
    env = oauth_env(petstore, petstore_prism, server.issuer, resource, PETSTORE_LOG_LEVEL="DEBUG")
    log = tmp_path / "server.log"
    with http_server(petstore, env, "--stateless", "--json-response", port=port, log=log) as base:
        challenge = post(base + "/mcp")
        assert challenge.status_code == 401
        metadata_url = f"http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp"
        assert challenge.headers["www-authenticate"] == f'Bearer resource_metadata="{metadata_url}"'
        metadata = httpx.get(metadata_url).json()
        assert metadata["resource"] == resource and metadata["authorization_servers"] == [server.issuer]
        provider = ClientCredentialsOAuthProvider(
            server_url=resource,
            storage=MemoryTokenStorage(),
            client_id=AGENT,
            client_secret=AGENT_SECRET,
            scope="tools:call",
            issuer=server.issuer,
        )

        async def scenario() -> str:
            async with session(resource, auth=provider) as client:
                assert len(await list_all(client)) == len(petstore.tools)
                shown = await client.call_tool("showPetById", {"petId": 3})
                assert not shown.is_error, text(shown)
                tokens = await provider.context.storage.get_tokens()
                assert tokens is not None
                return tokens.access_token

        access_token = anyio.run(scenario)
        # A token in the query string is never accepted, and never printed by the access log.
        assert post(f"{base}/mcp?access_token={access_token}").status_code == 401
    claims = jwt.decode(access_token, options={"verify_signature": False})
    assert claims["aud"] == resource and claims["iss"] == server.issuer
    written = log.read_text(errors="replace")
    assert f"{petstore.command.name}: serving MCP at http://127.0.0.1:{port}/mcp" in written.splitlines()
    assert "/mcp?access_token=*** HTTP/1.1" in written
    assert access_token not in written and UPSTREAM_TOKEN not in written and AGENT_SECRET not in written


def test_tokens_that_must_be_refused(
    petstore: Project, petstore_prism: str, oauth: tuple[AuthServer, int, int]
) -> None:
    server, port, _ = oauth
    resource = f"http://127.0.0.1:{port}/mcp"
    env = oauth_env(petstore, petstore_prism, server.issuer, resource)
    now = int(time.time())
    good = server.token(AGENT, resource)
    header, _, signature = good.split(".")
    tampered_payload = jwt.utils.base64url_encode(
        json.dumps(
            {**jwt.decode(good, options={"verify_signature": False}), "scope": "tools:admin tools:call"}
        ).encode()
    ).decode()
    none_token = jwt.encode(
        {"iss": server.issuer, "aud": resource, "exp": now + 300}, cast(Any, None), algorithm="none"
    )
    refused = {
        "wrong audience": server.token(AGENT, "http://127.0.0.1:1/other"),
        "wrong issuer": server.mint({"aud": resource, "scope": "tools:call", "iss": "http://127.0.0.1:1"}),
        "expired": server.mint({"aud": resource, "scope": "tools:call", "exp": now - 120}),
        "not yet valid": server.mint({"aud": resource, "scope": "tools:call", "nbf": now + 600}),
        "tampered signature": f"{header}.{tampered_payload}.{signature}",
        "alg none": none_token,
        "key not in the JWKS": server.mint({"aud": resource, "scope": "tools:call"}, key=rsa_key(), kid="stranger"),
        "no audience": server.mint({"scope": "tools:call"}),
    }
    with http_server(petstore, env, "--stateless", "--json-response", port=port) as base:
        assert post(base + "/mcp", good).status_code == 200
        crafted_ok = server.mint({"aud": resource, "scope": "tools:call"})
        assert post(base + "/mcp", crafted_ok).status_code == 200  # the crafting itself is right
        for why, token in refused.items():
            answer = post(base + "/mcp", token)
            assert answer.status_code == 401, why
            assert answer.headers["www-authenticate"].startswith('Bearer error="invalid_token"'), why
        no_scope = post(base + "/mcp", server.mint({"aud": resource, "scope": "tools:admin"}))
        assert no_scope.status_code == 403
        challenge = no_scope.headers["www-authenticate"]
        assert 'error="insufficient_scope"' in challenge and 'scope="tools:call"' in challenge


def test_opaque_tokens_go_through_introspection(
    petstore: Project, petstore_prism: str, oauth: tuple[AuthServer, int, int]
) -> None:
    server, _, port = oauth
    resource = f"http://127.0.0.1:{port}/mcp"
    env = oauth_env(
        petstore,
        petstore_prism,
        server.issuer,
        resource,
        PETSTORE_OAUTH_CLIENT_ID="mcp-server",
        PETSTORE_OAUTH_CLIENT_SECRET="mcp-server-secret-0123456789",
    )
    opaque = server.token(AGENT, resource)
    assert opaque.count(".") != 2
    with http_server(petstore, env, "--stateless", "--json-response", port=port) as base:
        assert post(base + "/mcp", opaque).status_code == 200
        assert post(base + "/mcp", opaque).status_code == 200  # from the introspection cache
        assert post(base + "/mcp", "opaque-but-unknown-token-000").status_code == 401
        jwt_for_elsewhere = server.token(AGENT, "http://127.0.0.1:1/other")
        assert post(base + "/mcp", jwt_for_elsewhere).status_code == 401


def test_per_user_credentials_and_the_bridge(petstore: Project, petstore_prism: str, tmp_path: Path) -> None:
    env = server_env(
        petstore,
        petstore_prism,
        {
            "PETSTORE_AUTH_TOKENS": STATIC,
            "PETSTORE_PER_USER_CREDENTIALS": "all",
            "PETSTORE_BEARERAUTH_TOKEN": UPSTREAM_TOKEN,  # the owner's: never used for a user without one
            "PETSTORE_BRIDGE": "true",
            "PETSTORE_LOG_LEVEL": "DEBUG",
        },
    )
    user_secret = "alice-upstream-token-987654321"
    log = tmp_path / "server.log"
    with http_server(petstore, env, "--stateless", "--json-response", log=log) as base:

        async def scenario() -> None:
            headers = {"Authorization": f"Bearer {STATIC}"}
            async with session(base + "/mcp", headers=headers) as anonymous:
                refused = await anonymous.call_tool("showPetById", {"petId": 1})
                assert refused.is_error and "X-Petstore-Bearerauth-Token" in text(refused)
            async with session(base + "/mcp", headers={**headers, "X-Petstore-Bearerauth-Token": user_secret}) as alice:
                shown = await alice.call_tool("showPetById", {"petId": 1})
                assert not shown.is_error, text(shown)

        anyio.run(scenario)
        bridge = httpx.post(
            base + "/openai/execute-tools",
            json={"tool_calls": [{"id": "c1", "function": {"name": "showPetById", "arguments": '{"petId": 2}'}}]},
            headers={"Authorization": f"Bearer {STATIC}", "X-Petstore-Bearerauth-Token": user_secret},
            timeout=30,
        )
        assert bridge.status_code == 200 and not bridge.json()["messages"][0]["content"].startswith("Error")
        assert httpx.post(base + "/openai/execute-tools", json={"tool_calls": []}).status_code == 401
    written = log.read_text(errors="replace")
    assert "showPetById" in written or "GET /pets" in written  # DEBUG logging did happen
    assert user_secret not in written and UPSTREAM_TOKEN not in written and STATIC not in written


def test_mcpforge_tools_connects_with_client_credentials(
    petstore: Project, petstore_prism: str, oauth: tuple[AuthServer, int, int], tmp_path: Path
) -> None:
    server, port, _ = oauth
    resource = f"http://127.0.0.1:{port}/mcp"
    env = oauth_env(petstore, petstore_prism, server.issuer, resource)
    with http_server(petstore, env, "--stateless", "--json-response", port=port):
        import os
        import sys

        mcpforge = Path(sys.executable).parent / "mcpforge"
        listed = subprocess.run(
            [
                str(mcpforge), "tools", "--http", f"pets={resource}", "--oauth-client-id", f"pets={AGENT}",
                "--oauth-issuer", f"pets={server.issuer}", "--oauth-scope", "pets=tools:call", "--format", "mcp",
            ],
            env={**os.environ, "MCPFORGE_OAUTH_CLIENT_SECRET": AGENT_SECRET},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )  # fmt: skip
        assert listed.returncode == 0, listed.stderr
        assert len(json.loads(listed.stdout)) == len(petstore.tools)
