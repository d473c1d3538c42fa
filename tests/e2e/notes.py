"""The parts of the sign-in tests: the Notes API, MCP tokens from a scripted browser, calls, links, replicas.

oidc-provider plays the authorization servers (``authserver.py``); the Notes API accepts only JWTs
it issued for the API and answers with the subject and the token's id, so a test sees whose account
each call reached.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import re
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import anyio
import httpx
import jwt
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from browser import Browser
from e2e.authserver import AuthServer
from e2e.harness import Project, http_server

API_RESOURCE = "https://notes.example.com/"
CLIENT_REDIRECT = "http://127.0.0.1:9/mcp-client-callback"  # nothing serves it: the browser stops there


class NotesApi:
    """The API: accepts only JWTs the authorization server issued for it, and says whose they are."""

    def __init__(self) -> None:
        self.server: AuthServer | None = None
        self.seen: list[tuple[str, str]] = []  # (subject, token) of every call
        self.refused: set[str] = set()  # subjects whose tokens the API refuses (they revoked the app)

    async def me(self, request: Request) -> JSONResponse:
        assert self.server is not None
        token = request.headers.get("authorization", "").removeprefix("Bearer ")
        try:
            claims = jwt.decode(
                token, self.server.key.public_key(), algorithms=["RS256"], audience=API_RESOURCE,
                issuer=self.server.issuer,
            )  # fmt: skip
        except jwt.InvalidTokenError as exc:
            return JSONResponse({"error": str(exc)}, status_code=401)
        if claims["sub"] in self.refused:
            return JSONResponse({"error": "Invalid access token"}, status_code=401)
        self.seen.append((claims["sub"], token))
        return JSONResponse({"subject": claims["sub"], "token": claims["jti"]})

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/me", self.me), Route("/status", lambda _: JSONResponse({"up": True}))])


def mcp_token(server: AuthServer, browser: Browser, resource: str) -> str:
    """An MCP access token for the person at ``browser`` (authorization code with PKCE, as an MCP client gets one)."""
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    query = httpx.QueryParams(
        response_type="code", client_id="mcp-client", redirect_uri=CLIENT_REDIRECT, scope="openid tools:call",
        resource=resource, code_challenge=challenge, code_challenge_method="S256", state="s",
    )  # fmt: skip
    answer = browser.open(f"{server.issuer}/auth?{query}", stop_at=CLIENT_REDIRECT)
    code = parse_qs(urlsplit(answer.headers["location"]).query)["code"][0]
    response = httpx.post(
        f"{server.issuer}/token",
        data={"grant_type": "authorization_code", "code": code, "redirect_uri": CLIENT_REDIRECT,
              "code_verifier": verifier, "resource": resource},
        auth=("mcp-client", server.clients["mcp-client"]),
    )  # fmt: skip
    response.raise_for_status()
    return str(response.json()["access_token"])


async def call(url: str, token: str, tool: str = "whoAmI") -> types.CallToolResult | MCPError:
    """One tool call through the MCP SDK client with ``token``: its result, or the error it was answered with."""
    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http,
        streamable_http_client(f"{url}/mcp", http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        try:
            return await session.call_tool(tool, {})
        except MCPError as exc:
            return exc


def sign_in_link(url: str, token: str) -> str:
    """The sign-in link a call gets while its caller is not signed in (a client without URL elicitation)."""
    return link_and_code(url, token)[0]


def link_and_code(url: str, token: str) -> tuple[str, str]:
    """The sign-in link a call gets while its caller is not signed in, and the code shown beside it."""
    answer = anyio.run(call, url, token)
    assert isinstance(answer, types.CallToolResult) and answer.is_error, answer
    text = answer.content[0].text if isinstance(answer.content[0], types.TextContent) else ""
    found = re.search(
        r"sign in at (http://\S+/signin/[\w-]+) and check .* the code ([A-Z0-9-]+) .*then call whoAmI", text
    )
    assert found, text
    return found.group(1), found.group(2)


def replica(
    project: Project, env: dict[str, str], port: int, log: Path, *, stateless: bool = True
) -> contextlib.AbstractContextManager[str]:
    """One replica of the server on ``port``, logging to ``log`` (which a restart goes on writing)."""
    return http_server(project, env, *(["--stateless"] * stateless), port=port, log=log)


def counted(exposition: str, name: str) -> dict[str, int]:
    """A counter's totals by outcome, summed over several replicas' expositions."""
    totals: dict[str, int] = {}
    for outcome, value in re.findall(name + r'\{outcome="(\w+)"\} ([0-9.]+)', exposition):
        totals[outcome] = totals.get(outcome, 0) + int(float(value))
    return totals


def structured(result: types.CallToolResult | MCPError) -> Any:
    assert isinstance(result, types.CallToolResult) and not result.is_error, result
    return result.structured_content
