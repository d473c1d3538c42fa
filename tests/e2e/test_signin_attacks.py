"""Sign-in attacked as an attacker would: real oidc-provider (rotating refresh tokens), Redis, two replicas.

Each test reproduces findings of the sign-in security review and checks that the attack is now
refused or survived: a forged confirmation (1), two replicas refreshing a rotating token at once and
a revoked grant (2), an unprotected endpoint with a public address (3), a store that cannot read
a record during a key rotation (4), a planted cookie (5: over https only, see
tests/runtime/test_signin.py), and flows cancelled by strangers, mixed-up answers, calls held by an
elicitation never followed, readiness while the store is down (6).
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

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
from e2e.authserver import AuthServer, auth_server
from e2e.harness import Project, generate_project, server_env
from e2e.notes import API_RESOURCE, NotesApi, call, counted, link_and_code, replica, sign_in_link, structured
from helpers import free_port, redis_server, serve

pytestmark = pytest.mark.e2e

PEOPLE = {
    "alice": "alice-mcp-token-0123456789abcdef",
    "mallory": "mallory-mcp-token-0123456789abcdef",
    "carol": "carol-mcp-token-0123456789abcdef",
}
AUTH_TOKENS = ",".join(f"{name}:{token}" for name, token in PEOPLE.items())


def notes_client(public: str) -> dict[str, Any]:
    """The API's OAuth client at oidc-provider: this server's registration, its callback at ``public``."""
    return {
        "notes-client": {"client_secret": "notes-secret-0123456789", "redirect_uris": [f"{public}/signin/callback"],
                         "scope": "openid notes", "default_resource": API_RESOURCE},
    }  # fmt: skip


def sign_in_env(project: Project, upstream: str, server: AuthServer, public: str, **extra: str) -> dict[str, str]:
    return server_env(project, upstream, {
        "NOTES_AUTH_TOKENS": AUTH_TOKENS,
        "NOTES_PUBLIC_URL": public,
        "NOTES_NOTESAUTH_CLIENT_ID": "notes-client",
        "NOTES_NOTESAUTH_CLIENT_SECRET": server.clients["notes-client"],
        "NOTES_NOTESAUTH_AUTHORIZATION_URL": f"{server.issuer}/auth",
        "NOTES_NOTESAUTH_TOKEN_URL": f"{server.issuer}/token",
        "NOTES_METRICS": "true",
        "NOTES_LOG_LEVEL": "INFO",
        **extra,
    })  # fmt: skip


def hidden_fields(page: httpx.Response) -> dict[str, str]:
    return dict(re.findall(r"<input type=hidden name=(\w+) value='([^']*)'>", page.text))


def scrape(urls: list[str], counter: str) -> dict[str, int]:
    token = PEOPLE["alice"]
    exposition = "".join(httpx.get(f"{u}/metrics", headers={"Authorization": f"Bearer {token}"}).text for u in urls)
    return counted(exposition, counter)


def test_forged_confirmations_strangers_and_mixed_up_answers_attach_nothing(e2e_python: Path, tmp_path: Path) -> None:
    project = generate_project(FIXTURES / "specs" / "signin.yaml", tmp_path / "notes", e2e_python)
    ports = [free_port(), free_port()]
    urls = [f"http://127.0.0.1:{p}" for p in ports]
    public = urls[0]
    notes = NotesApi()
    resources = {API_RESOURCE: {"scope": "notes", "format": "jwt", "ttl": 600}}
    with (
        auth_server(resources, {}, tmp_path, interactive=notes_client(public), rotate_refresh_tokens=True) as server,
        redis_server(tmp_path) as redis_url,
        serve(notes.app()) as upstream,
        contextlib.closing(Browser("alice")) as alice,
        contextlib.closing(Browser("mallory")) as mallory,
        contextlib.closing(Browser("carol")) as carol,
    ):
        notes.server = server
        env = sign_in_env(project, upstream, server, public, NOTES_TOKEN_KEY=Fernet.generate_key().decode(),
                          NOTES_REDIS_URL=redis_url)  # fmt: skip
        logs = [tmp_path / "replica-1.log", tmp_path / "replica-2.log"]
        with replica(project, env, ports[0], logs[0]), replica(project, env, ports[1], logs[1]):
            # alice connects her account the honest way: the page names her and repeats her code.
            link, code = link_and_code(urls[1], PEOPLE["alice"])
            page = httpx.get(link)
            assert "alice (access token 1)" in page.text and code in page.text and "whoAmI" in page.text
            assert "connected" in alice.open(link).text  # her browser now has a session and consent there
            assert structured(anyio.run(call, urls[1], PEOPLE["alice"]))["subject"] == "alice"

            # Finding 1: mallory makes alice's browser confirm mallory's link, from mallory's own page.
            trap = sign_in_link(urls[1], PEOPLE["mallory"])
            stolen = hidden_fields(mallory.client.get(trap))  # mallory's own page: a form token, for her cookie
            forgeries = [
                ({}, {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}),  # a plain auto-submit
                (stolen, {"Origin": "null"}),  # with mallory's token, from a page with no-referrer
                (stolen, {}),  # a client sending neither header
            ]
            for data, headers in forgeries:
                answer = alice.client.post(trap, data=data, headers=headers, follow_redirects=False)
                assert answer.status_code == 403, (data, headers, answer.text)
            assert httpx.get(trap).status_code == 200  # not used up either: nothing happened
            still = anyio.run(call, urls[0], PEOPLE["mallory"])
            assert isinstance(still, types.CallToolResult) and still.is_error and "/signin/" in str(still.content)
            assert {subject for subject, _ in notes.seen} == {"alice"}  # mallory never reached alice's account

            # Finding 6: a stranger who learns a state can neither finish nor cancel that sign-in.
            started = mallory.open(trap, stop_at=f"{server.issuer}/auth")
            state = parse_qs(urlsplit(started.headers["location"]).query)["state"][0]
            for stranger in (httpx.get, alice.client.get):  # no cookie at all; another person's browser
                answer = stranger(f"{public}/signin/callback", params={"state": state, "code": "forged"})
                assert answer.status_code == 400
            assert "connected" in mallory.open(started.headers["location"]).text
            assert structured(anyio.run(call, urls[0], PEOPLE["mallory"]))["subject"] == "mallory"

            # RFC 9207: an answer naming another authorization server than the one the flow went to.
            link = sign_in_link(urls[0], PEOPLE["carol"])
            started = carol.open(link, stop_at=f"{server.issuer}/auth")
            state = parse_qs(urlsplit(started.headers["location"]).query)["state"][0]
            mixed = carol.client.get(f"{public}/signin/callback",
                                     params={"state": state, "code": "x", "iss": "http://127.0.0.1:9"})  # fmt: skip
            assert mixed.status_code == 400 and "another authorization server" in mixed.text
            assert scrape(urls, "mcp_sign_ins_total")["refused"] == 4  # three forgeries, one mix-up
        logged = "".join(log.read_text() for log in logs)
        assert state not in logged and "state=***" in logged  # the access log masks it
        assert not any(token in logged for token in PEOPLE.values())

    # Finding 3: without protection, a public address would make every caller one user: refused at start.
    unprotected = {k: v for k, v in env.items() if k != "NOTES_AUTH_TOKENS"}
    unprotected["NOTES_PUBLIC_URL"] = "https://mcp.example.com"
    refused = subprocess.run([str(project.command), "--transport", "http"], env=unprotected, capture_output=True,
                            text=True, timeout=60, check=False)  # fmt: skip
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert "NOTES_AUTH_TOKENS" in refused.stderr


def test_two_replicas_refresh_a_rotating_token_once_and_a_revoked_grant_asks_to_sign_in_again(
    e2e_python: Path, tmp_path: Path
) -> None:
    project = generate_project(FIXTURES / "specs" / "signin.yaml", tmp_path / "notes", e2e_python)
    ports = [free_port(), free_port()]
    urls = [f"http://127.0.0.1:{p}" for p in ports]
    notes = NotesApi()
    resources = {API_RESOURCE: {"scope": "notes", "format": "jwt", "ttl": 4}}  # refreshed after 4 s
    with (
        contextlib.ExitStack() as redis_running,
        auth_server(resources, {}, tmp_path, interactive=notes_client(urls[0]), rotate_refresh_tokens=True) as server,
        serve(notes.app()) as upstream,
        contextlib.closing(Browser("alice")) as alice,
    ):
        redis_url = redis_running.enter_context(redis_server(tmp_path))
        notes.server = server
        env = sign_in_env(project, upstream, server, urls[0], NOTES_TOKEN_KEY=Fernet.generate_key().decode(),
                          NOTES_REDIS_URL=redis_url)  # fmt: skip
        logs = [tmp_path / "replica-1.log", tmp_path / "replica-2.log"]
        with replica(project, env, ports[0], logs[0]), replica(project, env, ports[1], logs[1]):
            assert "connected" in alice.open(sign_in_link(urls[0], PEOPLE["alice"])).text

            async def at_once(count: int) -> list[Any]:
                answers: list[Any] = []

                async def one(url: str) -> None:
                    answers.append(await call(url, PEOPLE["alice"]))

                async with anyio.create_task_group() as group:
                    for index in range(count):
                        group.start_soon(one, urls[index % 2])
                return answers

            for rounds in (1, 2):  # twice: the grant survives the first round's refresh
                time.sleep(5)  # the API token has expired: every call below needs a refreshed one
                answers = anyio.run(at_once, 8)
                assert [structured(a)["subject"] for a in answers] == ["alice"] * 8
                assert scrape(urls, "mcp_token_refreshes_total") == {"ok": rounds}  # one refresh for 8 calls

            # alice revokes the app at the API: a refused token is renewed once, then dropped with a new link.
            notes.refused.add("alice")
            refused = anyio.run(call, urls[1], PEOPLE["alice"])
            assert isinstance(refused, types.CallToolResult) and refused.is_error
            assert "sign in at" in str(refused.content) and "then call whoAmI again" in str(refused.content)
            assert scrape(urls, "mcp_token_refreshes_total") == {"ok": 3}
            notes.refused.clear()
            again = anyio.run(call, urls[0], PEOPLE["alice"])  # the record is gone: a link again, not a 401
            assert isinstance(again, types.CallToolResult) and again.is_error and "/signin/" in str(again.content)

            # Finding 6: while the store is down, readiness says so (a balancer moves people elsewhere).
            assert all(httpx.get(f"{u}/readyz").status_code == 200 for u in urls)
            redis_running.close()
            assert all(httpx.get(f"{u}/readyz").status_code == 503 for u in urls)
            assert all(httpx.get(f"{u}/healthz").status_code == 200 for u in urls)


def test_a_key_rotation_in_the_documented_order_keeps_everyone_signed_in(e2e_python: Path, tmp_path: Path) -> None:
    """Finding 4: two replicas sharing a folder store, their TOKEN_KEY lists changed one at a time."""
    project = generate_project(FIXTURES / "specs" / "signin.yaml", tmp_path / "notes", e2e_python)
    ports = [free_port(), free_port()]
    urls = [f"http://127.0.0.1:{p}" for p in ports]
    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    notes = NotesApi()
    resources = {API_RESOURCE: {"scope": "notes", "format": "jwt", "ttl": 3}}
    folder = tmp_path / "tokens"
    logs = [tmp_path / "replica-1.log", tmp_path / "replica-2.log"]
    with (
        auth_server(resources, {}, tmp_path, interactive=notes_client(urls[0]), rotate_refresh_tokens=True) as server,
        serve(notes.app()) as upstream,
        contextlib.closing(Browser("alice")) as alice,
    ):
        notes.server = server
        env = sign_in_env(project, upstream, server, urls[0], NOTES_TOKEN_DIR=str(folder))

        def replicas(first: str, second: str) -> contextlib.ExitStack:
            stack = contextlib.ExitStack()
            stack.enter_context(replica(project, {**env, "NOTES_TOKEN_KEY": first}, ports[0], logs[0]))
            stack.enter_context(replica(project, {**env, "NOTES_TOKEN_KEY": second}, ports[1], logs[1]))
            return stack

        def whoami(url: str) -> Any:
            time.sleep(3.5)  # expired: this call refreshes, and writes the record anew with its replica's first key
            return anyio.run(call, url, PEOPLE["alice"])

        with replicas(old, old):
            assert "connected" in alice.open(sign_in_link(urls[0], PEOPLE["alice"])).text
        with replicas(old, f"{old},{new}"):  # step 1: the new key added second, one replica at a time
            assert structured(whoami(urls[1]))["subject"] == "alice"
        with replicas(f"{old},{new}", f"{old},{new}"):
            assert structured(whoami(urls[0]))["subject"] == "alice"
        with replicas(f"{new},{old}", f"{old},{new}"):  # step 2: moved first, one replica at a time
            assert structured(whoami(urls[0]))["subject"] == "alice"  # sealed with the new key now...
            assert structured(anyio.run(call, urls[1], PEOPLE["alice"]))["subject"] == "alice"  # ...read here too
        # The wrong order: a replica that never got the new key cannot read the record; it must not delete it.
        with replicas(f"{new},{old}", old):
            for _ in range(2):
                lost = anyio.run(call, urls[1], PEOPLE["alice"])
                assert isinstance(lost, types.CallToolResult) and lost.is_error and "/signin/" in str(lost.content)
            assert structured(anyio.run(call, urls[0], PEOPLE["alice"]))["subject"] == "alice"  # still signed in
    warned = logs[1].read_text().count("does not decrypt with this replica's TOKEN_KEY")
    assert warned == 1  # once, however often it is read


def test_an_elicitation_accepted_but_never_followed_holds_no_call_for_long(e2e_python: Path, tmp_path: Path) -> None:
    """Finding 6: calls wait SIGN_IN_WAIT (here 3 s), then say how to go on; the store is read at a bounded rate."""
    project = generate_project(FIXTURES / "specs" / "signin.yaml", tmp_path / "notes", e2e_python)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    notes = NotesApi()
    resources = {API_RESOURCE: {"scope": "notes", "format": "jwt", "ttl": 600}}
    people = {f"person{n}": f"person{n}-mcp-token-0123456789abcdef" for n in range(10)}
    with (
        auth_server(resources, {}, tmp_path, interactive=notes_client(url)) as server,
        redis_server(tmp_path) as redis_url,
        serve(notes.app()) as upstream,
        contextlib.closing(redis.Redis.from_url(redis_url)) as store,
    ):
        env = sign_in_env(project, upstream, server, url, NOTES_TOKEN_KEY=Fernet.generate_key().decode(),
                          NOTES_REDIS_URL=redis_url, NOTES_SIGN_IN_WAIT="3",
                          NOTES_AUTH_TOKENS=",".join(people.values()))  # fmt: skip

        async def accept_without_opening(context: Any, params: Any) -> types.ElicitResult:
            return types.ElicitResult(action="accept")

        async def session(token: str, mode: Any) -> types.CallToolResult:
            async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http:
                transport = streamable_http_client(f"{url}/mcp", http_client=http)
                async with Client(transport, mode=mode, elicitation_callback=accept_without_opening) as client:
                    return await client.call_tool("whoAmI", {})

        async def everyone() -> list[types.CallToolResult]:
            results: list[types.CallToolResult] = []

            async def one(index: int, token: str) -> None:
                results.append(await session(token, "legacy" if index % 2 else "auto"))

            async with anyio.create_task_group() as group:
                for index, token in enumerate(people.values()):
                    group.start_soon(one, index, token)
            return results

        with replica(project, env, port, tmp_path / "server.log", stateless=False):
            reads_before = int(store.info("commandstats").get("cmdstat_get", {}).get("calls", 0))
            began = time.monotonic()
            results = anyio.run(everyone)
            took = time.monotonic() - began
            reads = int(store.info("commandstats")["cmdstat_get"]["calls"]) - reads_before
    assert took < 10, took  # 3 s of waiting each, side by side (it was 300 s)
    assert len(results) == 10 and all(r.is_error for r in results)
    assert all("sign in at" in str(r.content) and "then call whoAmI again" in str(r.content) for r in results)
    # Each call reads its tokens twice (before and after the prompt); the waiting adds one read per person
    # per 2 s round: about 40 in all, where one read a second per call made about 50 more.
    assert reads <= 45, reads
