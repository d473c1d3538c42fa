"""Per-user sign-in to an OAuth API end to end: oidc-provider, Redis, nginx before two replicas, the SDK client.

oidc-provider plays both authorization servers: the MCP endpoint's (people get MCP tokens from it)
and the API's (people sign in to the API there; its access tokens are JWTs for the API, expiring
after a few seconds so a refresh is needed). Scripted browsers log in as alice and bob.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

import anyio
import httpx
import pytest
import redis
from cryptography.fernet import Fernet
from mcp import types
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from browser import Browser
from conftest import FIXTURES
from e2e.authserver import auth_server
from e2e.harness import generate_project, nginx, nginx_in_front, server_env, wait_for_port
from e2e.notes import (
    API_RESOURCE,
    CLIENT_REDIRECT,
    NotesApi,
    call,
    counted,
    mcp_token,
    replica,
    sign_in_link,
    structured,
)
from helpers import free_port, redis_server, serve
from otlp import Receiver

pytestmark = pytest.mark.e2e


def test_two_people_sign_in_to_the_api_through_two_replicas(e2e_python: Path, tmp_path: Path) -> None:
    project = generate_project(FIXTURES / "specs" / "signin.yaml", tmp_path / "notes", e2e_python)
    ports, listen = [free_port(), free_port()], free_port()
    urls = [f"http://127.0.0.1:{p}" for p in ports]
    public = f"http://127.0.0.1:{listen}"  # nginx, with the generated configuration, in front of both
    resource = f"{public}/mcp"
    callbacks = [f"{public}/signin/callback"]
    notes = NotesApi()
    interactive = {
        "mcp-client": {"client_secret": "mcp-client-secret-0123456789", "redirect_uris": [CLIENT_REDIRECT],
                       "scope": "openid tools:call"},
        "mcpforge-server": {"client_secret": "identity-secret-0123456789", "redirect_uris": callbacks,
                            "scope": "openid"},
        "notes-client": {"client_secret": "notes-secret-0123456789", "redirect_uris": callbacks,
                         "scope": "openid notes",
                         "default_resource": API_RESOURCE},
    }  # fmt: skip
    resources = {
        resource: {"scope": "tools:call", "format": "jwt", "ttl": 600},
        API_RESOURCE: {"scope": "notes", "format": "jwt", "ttl": 4},
    }
    logs = [tmp_path / "replica-1.log", tmp_path / "replica-2.log"]
    receiver = Receiver()
    conf = nginx_in_front((project.root / "deploy" / "nginx.conf").read_text(), ports, listen)
    with (
        auth_server(resources, {}, tmp_path, interactive=interactive) as server,
        redis_server(tmp_path) as redis_url,
        serve(notes.app()) as upstream,
        serve(receiver.app()) as collector,
        nginx(conf, tmp_path / "nginx") as proxy,
        contextlib.closing(Browser("alice")) as alice,
        contextlib.closing(Browser("bob")) as bob,
        contextlib.closing(redis.Redis.from_url(redis_url)) as store,
    ):
        notes.server = server
        env = server_env(project, upstream, {
            "NOTES_OAUTH_ISSUER": server.issuer,
            "NOTES_OAUTH_RESOURCE": resource,
            "NOTES_OAUTH_CLIENT_ID": "mcpforge-server",
            "NOTES_OAUTH_CLIENT_SECRET": server.clients["mcpforge-server"],
            "NOTES_ALLOWED_HOSTS": ",".join(urlsplit(u).netloc for u in [public, *urls]),
            "NOTES_PUBLIC_URL": public,
            "NOTES_NOTESAUTH_CLIENT_ID": "notes-client",
            "NOTES_NOTESAUTH_CLIENT_SECRET": server.clients["notes-client"],
            "NOTES_NOTESAUTH_AUTHORIZATION_URL": f"{server.issuer}/auth",
            "NOTES_NOTESAUTH_TOKEN_URL": f"{server.issuer}/token",
            "NOTES_TOKEN_KEY": Fernet.generate_key().decode(),
            "NOTES_REDIS_URL": redis_url,
            "NOTES_METRICS": "true",
            "NOTES_LOG_LEVEL": "DEBUG",
            "OTEL_EXPORTER_OTLP_ENDPOINT": collector,
            "OTEL_BSP_SCHEDULE_DELAY": "100",
        })  # fmt: skip
        wait_for_port(listen, proxy)
        tokens = {"alice": mcp_token(server, alice, resource), "bob": mcp_token(server, bob, resource)}
        links: list[str] = []
        with replica(project, env, ports[0], logs[0]), replica(project, env, ports[1], logs[1]):
            # Not signed in: the call answers with a link to the public sign-in page (nginx, either replica).
            assert structured(anyio.run(call, public, tokens["alice"], "getStatus")) == {"up": True}
            link = sign_in_link(public, tokens["alice"])
            links.append(link)
            assert link.startswith(f"{public}/signin/")
            page = httpx.get(link)
            assert "alice" in page.text and "Notes API" in page.text
            assert page.headers["referrer-policy"] == "no-referrer" and page.headers["cache-control"] == "no-store"

            # Forwarded to bob: he must prove to be alice first, so his account is not attached to her.
            refused = bob.open(link)
            assert refused.status_code == 403 and "someone else" in refused.text
            assert httpx.get(link).status_code == 410  # used up
            link = sign_in_link(public, tokens["alice"])
            links.append(link)

            finished = alice.open(link)
            assert finished.status_code == 200 and "connected" in finished.text, finished.text
            # Signed in through nginx: each replica finds alice's tokens in Redis.
            assert structured(anyio.run(call, urls[0], tokens["alice"]))["subject"] == "alice"
            assert structured(anyio.run(call, urls[1], tokens["alice"]))["subject"] == "alice"

            link = sign_in_link(public, tokens["bob"])
            links.append(link)
            assert "connected" in bob.open(link).text
            assert structured(anyio.run(call, public, tokens["bob"]))["subject"] == "bob"
            assert structured(anyio.run(call, public, tokens["alice"]))["subject"] == "alice"

            # The API's tokens live 4 s: after that, the next call refreshes alice's first.
            first = notes.seen[-1][1]
            time.sleep(5)
            assert structured(anyio.run(call, urls[0], tokens["alice"]))["subject"] == "alice"
            assert notes.seen[-1][1] != first
            scraped = "".join(httpx.get(f"{u}/metrics", headers={"Authorization": f"Bearer {tokens['alice']}"}).text
                              for u in urls)  # fmt: skip
            assert counted(scraped, "mcp_token_refreshes_total") == {"ok": 1}
            # Links: alice's forwarded one, her own, bob's.
            assert counted(scraped, "mcp_sign_ins_total") == {"started": 3, "refused": 1, "completed": 2}

        # Everyone reached the API with their own token only.
        assert {subject for subject, _ in notes.seen} == {"alice", "bob"}
        # Redis holds nothing readable: no token, no subject, no scheme name.
        kept = b"".join(cast(bytes, k) + cast(bytes, store.get(k) or b"") for k in store.keys("*"))
        assert kept and not any(t.encode() in kept for _, t in notes.seen)
        assert not any(w in kept for w in (b"alice", b"bob", b"notesAuth", *(t.encode() for t in tokens.values())))

        # Restarted, both replicas still know both people.
        with replica(project, env, ports[0], logs[0]), replica(project, env, ports[1], logs[1]):
            assert structured(anyio.run(call, urls[1], tokens["bob"]))["subject"] == "bob"
            assert structured(anyio.run(call, urls[0], tokens["alice"]))["subject"] == "alice"

        # Traced: each API request below its tool call; no token in any exported byte.
        spans = receiver.wait_for({"tools/call whoAmI": len(notes.seen), "GET /me": len(notes.seen)})
        calls = {s.span_id for s in spans if s.name == "tools/call whoAmI"}
        assert all(s.parent_id in calls for s in spans if s.name == "GET /me")
        exported = b"".join(receiver.bodies)
        assert not any(t.encode() in exported for t in [*(t for _, t in notes.seen), *tokens.values()])

    logged = "".join(log.read_text() for log in logs)
    assert "/signin/" in logged and "GET /me" in logged  # the logs are there, at DEBUG
    secrets_seen = [t for _, t in notes.seen] + list(tokens.values()) + [link.rsplit("/", 1)[1] for link in links]
    assert not [s for s in secrets_seen if s in logged]


def test_a_client_with_url_elicitation_signs_in_during_the_call(e2e_python: Path, tmp_path: Path) -> None:
    """A stateful session: the call asks the client to open the link, waits for the sign-in, then answers."""
    project = generate_project(FIXTURES / "specs" / "signin.yaml", tmp_path / "notes", e2e_python)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    notes = NotesApi()
    interactive = {
        "notes-client": {"client_secret": "notes-secret-0123456789", "redirect_uris": [f"{url}/signin/callback"],
                         "scope": "openid notes", "default_resource": API_RESOURCE},
    }  # fmt: skip
    people = {"carol": "carol-mcp-token-0123456789abcdef", "dave": "dave-mcp-token-0123456789abcdef"}
    asked: list[str] = []
    with (
        auth_server({API_RESOURCE: {"scope": "notes", "format": "jwt", "ttl": 600}}, {}, tmp_path,
                    interactive=interactive) as server,
        serve(notes.app()) as upstream,
    ):  # fmt: skip
        notes.server = server
        env = server_env(project, upstream, {
            "NOTES_AUTH_TOKENS": ",".join(people.values()),
            "NOTES_NOTESAUTH_CLIENT_ID": "notes-client",
            "NOTES_NOTESAUTH_CLIENT_SECRET": server.clients["notes-client"],
            "NOTES_NOTESAUTH_AUTHORIZATION_URL": f"{server.issuer}/auth",
            "NOTES_NOTESAUTH_TOKEN_URL": f"{server.issuer}/token",
            "NOTES_TOKEN_KEY": Fernet.generate_key().decode(),
            "NOTES_TOKEN_DIR": str(tmp_path / "tokens"),
        })  # fmt: skip

        async def session_of(person: str, mode: Any = "auto") -> types.CallToolResult:
            """``person``'s call through the SDK's Client: 2026-07-28 (input requests) or "legacy" (2025-11-25)."""

            async def open_link(context: Any, params: Any) -> types.ElicitResult:
                assert isinstance(params, types.ElicitRequestURLParams)
                asked.append(params.url)
                with contextlib.closing(Browser(person)) as browser:
                    page = await anyio.to_thread.run_sync(browser.open, params.url)
                assert "connected" in page.text, page.text
                return types.ElicitResult(action="accept")

            async with create_mcp_http_client(headers={"Authorization": f"Bearer {people[person]}"}) as http:
                transport = streamable_http_client(f"{url}/mcp", http_client=http)
                async with Client(transport, mode=mode, elicitation_callback=open_link) as client:
                    return await client.call_tool("whoAmI", {})

        # Sessions (not stateless): a 2025-11-25 client can be sent an elicitation/create during the call.
        with replica(project, env, port, tmp_path / "server.log", stateless=False) as _:
            assert structured(anyio.run(session_of, "carol"))["subject"] == "carol"
            assert structured(anyio.run(session_of, "dave", "legacy"))["subject"] == "dave"  # elicitation/create
            assert structured(anyio.run(session_of, "carol", "legacy"))["subject"] == "carol"  # no second sign-in
        assert len(asked) == 2 and all(link.startswith(f"{url}/signin/") for link in asked)
        # Kept in the folder, encrypted: nothing there names a person or holds a token.
        kept = b"".join(path.read_bytes() for path in (tmp_path / "tokens").iterdir())
        assert kept and not any(word in kept for word in (b"carol", b"dave", *(t.encode() for _, t in notes.seen)))
        with replica(project, env, port, tmp_path / "server.log") as _:  # restarted: still signed in
            assert structured(anyio.run(session_of, "dave"))["subject"] == "dave"
        assert len(asked) == 2
