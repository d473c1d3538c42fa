"""Generated server, installed in a venv, driven by the official MCP client against Prism."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp import types as mcp_types
from mcp.client.streamable_http import streamable_http_client

from e2e.harness import Project, http_server, run_inspector, server_env

TOKEN = "e2e-secret-token-value"


@contextlib.asynccontextmanager
async def stdio_session(project: Project, env: dict[str, str]) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=str(project.command), args=[], env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def list_all(session: ClientSession) -> list[mcp_types.Tool]:
    tools: list[mcp_types.Tool] = []
    cursor: str | None = None
    pages = 0
    while True:
        page = await session.list_tools(params=mcp_types.PaginatedRequestParams(cursor=cursor))
        tools.extend(page.tools)
        pages += 1
        cursor = page.next_cursor
        if cursor is None:
            return tools


def text(result: mcp_types.CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, mcp_types.TextContent))


def test_stdio_lists_every_page_and_calls_tools(petstore: Project, petstore_prism: str) -> None:
    env = server_env(
        petstore, petstore_prism, {f"{petstore.prefix}_PAGE_SIZE": "3", f"{petstore.prefix}_BEARERAUTH_TOKEN": TOKEN}
    )

    async def scenario() -> None:
        async with stdio_session(petstore, env) as session:
            tools = await list_all(session)
            assert [t.name for t in tools] == [t["name"] for t in petstore.tools]
            listed = await session.call_tool("listPets", {"limit": 5, "status": ["available", "sold"]})
            assert not listed.is_error, text(listed)
            assert isinstance(listed.structured_content, dict) and isinstance(listed.structured_content["result"], list)
            created = await session.call_tool("createPet", {"body": {"name": "Rex", "tag": None}})
            assert not created.is_error, text(created)
            shown = await session.call_tool("showPetById", {"petId": 7})
            assert not shown.is_error, text(shown)
            assert shown.structured_content is not None and "name" in shown.structured_content
            deleted = await session.call_tool("deletePet", {"petId": 7})
            assert not deleted.is_error, text(deleted)
            bad = await session.call_tool("listPets", {"limit": 500})
            assert bad.is_error and "limit" in text(bad) and "500" in text(bad)
            unknown = await session.call_tool("noSuchTool", {})
            assert unknown.is_error and "Unknown tool" in text(unknown)
            assert TOKEN not in str(created) + str(shown)

    anyio.run(scenario)


def test_auth_is_required_by_the_upstream(petstore: Project, petstore_prism: str) -> None:
    async def scenario() -> None:
        async with stdio_session(petstore, server_env(petstore, petstore_prism)) as session:
            anonymous = await session.call_tool("showPetById", {"petId": 7})
            assert anonymous.is_error and "HTTP 401" in text(anonymous)
            public = await session.call_tool("listPets", {})  # security: [] on this operation
            assert not public.is_error, text(public)

    anyio.run(scenario)


@pytest.mark.parametrize("flags", [("--stateless", "--json-response"), ()], ids=["stateless-json", "stateful-sse"])
def test_streamable_http(petstore: Project, petstore_prism: str, flags: tuple[str, ...]) -> None:
    env = server_env(
        petstore, petstore_prism, {f"{petstore.prefix}_PAGE_SIZE": "2", f"{petstore.prefix}_BEARERAUTH_TOKEN": TOKEN}
    )
    with http_server(petstore, env, *flags) as base:
        url = base + "/mcp"

        async def scenario() -> None:
            async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                assert len(await list_all(session)) == len(petstore.tools)
                result = await session.call_tool("showPetById", {"petId": 1})
                assert not result.is_error, text(result)

        anyio.run(scenario)


def test_inspector_cli_lists_and_calls(petstore: Project, petstore_prism: str) -> None:
    env = server_env(
        petstore, petstore_prism, {f"{petstore.prefix}_PAGE_SIZE": "0", f"{petstore.prefix}_BEARERAUTH_TOKEN": TOKEN}
    )
    listed: Any = run_inspector([str(petstore.command), "--method", "tools/list"], env)
    assert [t["name"] for t in listed["tools"]] == [t["name"] for t in petstore.tools]
    called: Any = run_inspector(
        [str(petstore.command), "--method", "tools/call", "--tool-name", "showPetById", "--tool-arg", "petId=3"], env
    )
    assert called["isError"] is False and "name" in called["structuredContent"]


def test_python_dash_m_and_help(petstore: Project) -> None:
    result = subprocess.run(
        [str(petstore.python), "-m", petstore.package, "--help"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0 and "--transport" in result.stdout


BAD_ENVIRONMENTS = [
    ("MAX_RESPONSE_BYTES", "1e6"),
    ("TIMEOUT", "-5"),
    ("PORT", "99999"),
    ("LOG_LEVEL", "bogus"),
    ("PAGE_SIZE", "abc"),
    ("BASE_URL", "ftp://x"),
    ("BRIDGE_MAX_BODY", "abc"),
    ("BEARERAUTH_TOKEN", "sk-live-abc\u0007def"),
]


def test_installed_server_refuses_bad_configuration_in_one_line(petstore: Project, petstore_prism: str) -> None:
    for name, value in BAD_ENVIRONMENTS:
        env = server_env(petstore, petstore_prism, {f"{petstore.prefix}_{name}": value})
        result = subprocess.run(
            [str(petstore.command), "--transport", "http"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        lines = result.stderr.strip().splitlines()
        assert result.returncode == 2 and len(lines) == 1, (name, result.stderr)
        assert f"{petstore.prefix}_{name}" in lines[0] and "Traceback" not in result.stderr
        assert "sk-live" not in result.stderr + result.stdout


def test_transport_variable_in_any_case_serves_stdio(petstore: Project, petstore_prism: str) -> None:
    env = server_env(petstore, petstore_prism, {f"{petstore.prefix}_TRANSPORT": "STDIO"})

    async def scenario() -> None:
        async with stdio_session(petstore, env) as session:
            assert len(await list_all(session)) == len(petstore.tools)

    anyio.run(scenario)
