"""Client API: connect to MCP servers, get their tools in a provider's format, run that provider's calls.

``ToolHub`` opens one session per server (a stdio command or a streamable HTTP URL), lists every
tool following pagination, and aggregates them under names unique across servers (colliding
names are prefixed with the server's name; ``mapping`` leads back to each server's real name).
It runs OpenAI Chat, OpenAI Responses and Anthropic tool calls through MCP and returns exactly
the messages each provider expects next.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

from mcp import ClientSession, StdioServerParameters, stdio_client, types
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

from mcpforge.runtime.agents import toolcalls
from mcpforge.targets.convert import convert_tools
from mcpforge.text.names import aggregate_tool_names

__all__ = ["ClientCredentials", "HubTool", "MemoryTokenStorage", "ServerTarget", "ToolHub", "first_error"]

_NAMED = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)=(.+)$", re.DOTALL)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClientCredentials:
    """OAuth 2.1 client credentials for a protected server (the SDK discovers its authorization server)."""

    client_id: str
    client_secret: str = field(repr=False)
    scope: str | None = None
    issuer: str | None = None  # the authorization server the credentials belong to (checked when given)


class MemoryTokenStorage:
    """The SDK's token storage, in memory: tokens live as long as the hub."""

    def __init__(self) -> None:
        self._tokens: OAuthToken | None = None
        self._client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        """The stored tokens."""
        return self._tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        """Store tokens."""
        self._tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        """The stored client information."""
        return self._client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        """Store client information."""
        self._client = client_info


@dataclass(frozen=True, slots=True, kw_only=True)
class ServerTarget:
    """How to reach one MCP server: a stdio command, or a streamable HTTP URL with headers or OAuth credentials."""

    name: str
    command: tuple[str, ...] = ()
    env: Mapping[str, str] | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    oauth: ClientCredentials | None = None

    @classmethod
    def stdio(
        cls, command: str | Sequence[str], *, name: str | None = None, env: Mapping[str, str] | None = None
    ) -> ServerTarget:
        """A server started as a subprocess (``command`` is split like a shell would)."""
        argv = tuple(shlex.split(command) if isinstance(command, str) else command)
        if not argv:
            raise ValueError("empty server command")
        return cls(name=name or argv[0].rsplit("/", 1)[-1], command=argv, env=env)

    @classmethod
    def http(
        cls,
        url: str,
        *,
        name: str | None = None,
        headers: Mapping[str, str] | None = None,
        oauth: ClientCredentials | None = None,
    ) -> ServerTarget:
        """A server at a streamable HTTP endpoint (for example ``http://127.0.0.1:8000/mcp``).

        ``headers`` may carry a bearer token; ``oauth`` client credentials get one from the server's
        authorization server, discovered from its 401 (the MCP SDK's client-credentials flow).
        """
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {url!r}")
        return cls(name=name or parts.hostname, url=url, headers=dict(headers or {}), oauth=oauth)

    @classmethod
    def parse(
        cls,
        text: str,
        *,
        http: bool,
        headers: Mapping[str, str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> ServerTarget:
        """``[NAME=]COMMAND`` or ``[NAME=]URL`` as the command line takes them."""
        match = _NAMED.match(text)
        name, target = (match.group(1), match.group(2)) if match else (None, text)
        return cls.http(target, name=name, headers=headers) if http else cls.stdio(target, name=name, env=env)


def first_error(exc: BaseException) -> tuple[BaseException, str]:
    """The first exception inside task-group wrappers, and the first line of its message."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc, (str(exc).splitlines() or [""])[0]


def _reason(exc: BaseException, timeout: float | None) -> str:
    """One line on why a server could not be listed (a time-out says how long was waited)."""
    exc, text = first_error(exc)
    if timeout is not None and ("timed out" in text.lower() or isinstance(exc, TimeoutError)):
        return f"no answer within {timeout:g} s (it may be waiting for input, or not be an MCP server)"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


@dataclass(frozen=True, slots=True)
class HubTool:
    """One aggregated tool: the name it is exposed under, its server, its real name and definition."""

    name: str
    server: str
    original: str
    tool: Mapping[str, Any]  # the MCP Tool in wire form, renamed


class ToolHub:
    """Sessions with several MCP servers and their tools under one namespace (``async with``)."""

    def __init__(
        self,
        servers: Sequence[ServerTarget],
        *,
        max_name_length: int = 64,
        concurrency: int = 8,
        call_timeout: float | None = 300.0,
        connect_timeout: float | None = 30.0,
    ) -> None:
        names = [s.name for s in servers]
        if len(set(names)) != len(names):
            raise ValueError(f"server names must be unique: {', '.join(names)}")
        self._servers = list(servers)
        self._max = max_name_length
        self._concurrency = concurrency
        self._call_timeout = call_timeout  # seconds one tool call may take; a timeout is an error result
        self._connect_timeout = connect_timeout  # seconds a server may take to answer initialize or tools/list
        self._stack = AsyncExitStack()
        self._sessions: dict[str, ClientSession] = {}
        self.tools: list[HubTool] = []
        self._by_name: dict[str, HubTool] = {}

    async def __aenter__(self) -> ToolHub:
        try:
            listed: list[tuple[str, types.Tool]] = []
            for target in self._servers:
                try:
                    session = await self._connect(target)
                    self._sessions[target.name] = session
                    listed += [(target.name, tool) for tool in await _list_all(session)]
                except Exception as exc:
                    raise ConnectionError(f"server {target.name!r}: {_reason(exc, self._connect_timeout)}") from exc
        except BaseException:
            await self._stack.aclose()  # stops every server process started so far
            raise
        names = aggregate_tool_names([(server, tool.name) for server, tool in listed], max_length=self._max)
        for (server, tool), name in zip(listed, names, strict=True):
            wire = tool.model_dump(mode="json", by_alias=True, exclude_none=True)
            self.tools.append(HubTool(name, server, tool.name, {**wire, "name": name}))
        self._by_name = {t.name: t for t in self.tools}
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self._stack.aclose()

    async def _connect(self, server: ServerTarget) -> ClientSession:
        if server.url is not None:
            auth = None
            if server.oauth is not None:
                auth = ClientCredentialsOAuthProvider(
                    server_url=server.url,
                    storage=MemoryTokenStorage(),
                    client_id=server.oauth.client_id,
                    client_secret=server.oauth.client_secret,
                    scope=server.oauth.scope,
                    issuer=server.oauth.issuer,
                )
            client = await self._stack.enter_async_context(
                create_mcp_http_client(headers=dict(server.headers), auth=auth)
            )
            read, write = await self._stack.enter_async_context(streamable_http_client(server.url, http_client=client))
        else:
            params = StdioServerParameters(
                command=server.command[0],
                args=list(server.command[1:]),
                env=dict(server.env) if server.env is not None else None,
            )
            read, write = await self._stack.enter_async_context(stdio_client(params))
        session = await self._stack.enter_async_context(
            ClientSession(read, write, read_timeout_seconds=self._connect_timeout)
        )
        await session.initialize()
        return session

    @property
    def mapping(self) -> dict[str, dict[str, str]]:
        """Exposed name -> ``{"server": ..., "tool": real name}``."""
        return {t.name: {"server": t.server, "tool": t.original} for t in self.tools}

    def manifest(self, fmt: str = "mcp", *, strict: bool = False) -> list[dict[str, Any]]:
        """Every tool in ``fmt``: mcp, openai-chat, openai-responses, anthropic or gemini."""
        return convert_tools([t.tool for t in self.tools], fmt, strict=strict).tools

    async def call(self, name: str, arguments: Mapping[str, Any] | None = None) -> types.CallToolResult:
        """Call a tool by its exposed name on the server that has it."""
        tool = self._by_name.get(name)
        if tool is None:
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=f"Unknown tool: {name!r}")], is_error=True
            )
        return await self._sessions[tool.server].call_tool(
            tool.original, dict(arguments or {}), read_timeout_seconds=self._call_timeout
        )

    async def openai_chat(self, tool_calls: Any) -> list[dict[str, Any]]:
        """Chat ``tool_calls`` (or the assistant message) -> ``role: tool`` messages, in order."""
        return await toolcalls.execute_openai_chat(tool_calls, self.call, concurrency=self._concurrency)

    async def openai_responses(self, items: Any) -> list[dict[str, Any]]:
        """Responses ``function_call`` items (or the response) -> ``function_call_output`` items."""
        return await toolcalls.execute_openai_responses(items, self.call, concurrency=self._concurrency)

    async def anthropic(self, blocks: Any) -> list[dict[str, Any]]:
        """Anthropic ``tool_use`` blocks (or the message) -> ``tool_result`` blocks."""
        return await toolcalls.execute_anthropic(blocks, self.call, concurrency=self._concurrency)


async def _list_all(session: ClientSession) -> list[types.Tool]:
    tools: list[types.Tool] = []
    cursor: str | None = None
    seen: set[str] = set()
    while True:
        page = await session.list_tools(params=types.PaginatedRequestParams(cursor=cursor))
        tools.extend(page.tools)
        cursor = page.next_cursor
        if cursor is None or cursor in seen:  # a server repeating a cursor must not loop forever
            return tools
        seen.add(cursor)
