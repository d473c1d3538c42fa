"""The MCP server: ``tools/list`` (paginated) and ``tools/call`` over the API, or dynamic mode's meta-tools."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.server.caching import CacheHint
from mcp.shared.exceptions import MCPError
from starlette.requests import Request

from .api import Api, http_client
from .contract import ToolsFile, select_tools
from .dynamic import META_TOOLS, Catalog
from .observe import Observer
from .settings import Settings

__all__ = ["build_server"]


# The MCP Python SDK's client reads at most 1 MiB per server-sent event, and fails the whole listing
# beyond it: over HTTP with server-sent events, a listing is cut into pages of at most this many
# bytes of tools (the JSON-RPC envelope and the event's framing fit in the rest).
SSE_PAGE_BYTES = 768 * 1024


def _page_starts(tools: Sequence[types.Tool], settings: Settings) -> list[int]:
    """Where each tools/list page starts: PAGE_SIZE tools a page, or (0) every tool in one page.

    With PAGE_SIZE 0 over HTTP with server-sent events, a listing larger than
    :data:`SSE_PAGE_BYTES` comes in pages of at most that size instead (stdio and JSON responses
    have no such limit, and keep every tool in one page).
    """
    if settings.page_size > 0:
        return list(range(0, max(len(tools), 1), settings.page_size))
    if settings.transport != "http" or settings.json_response:
        return [0]
    starts, size = [0], 0
    for index, tool in enumerate(tools):
        length = len(tool.model_dump_json(by_alias=True, exclude_none=True))
        if size and size + length > SSE_PAGE_BYTES:
            starts.append(index)
            size = 0
        size += length + 1
    return starts


def build_server(
    data: ToolsFile,
    settings: Settings,
    *,
    toolsets: Sequence[str] | None = None,
    dynamic: bool | None = None,
    observer: Observer | None = None,
) -> Server[Api]:
    """The MCP server for the API described by ``data``.

    ``toolsets`` limits the tools to those tags (default: every tool; an unknown name raises
    ``ValueError`` listing the known ones); ``dynamic`` serves the meta-tools of dynamic mode
    instead of one tool per operation (default: the mode chosen at generation); ``observer`` gets a
    report of each call of an operation (audit log, metrics, traces), and is closed with the server.
    """
    config = data["server"]
    entries = select_tools(data["tools"], toolsets)
    if dynamic is None:
        dynamic = bool(config.get("dynamic"))
    catalog: Catalog | None = None
    if dynamic:
        catalog = Catalog(entries)
        tools = list(META_TOOLS)
        schemas: dict[str, Any] = {tool.name: tool.input_schema for tool in tools}
    else:
        tools = [types.Tool.model_validate(entry["tool"]) for entry in entries]
        schemas = {entry["tool"]["name"]: entry["tool"]["inputSchema"] for entry in entries}
    starts = _page_starts(tools, settings)

    @contextlib.asynccontextmanager
    async def lifespan(_: Server[Api]) -> AsyncIterator[Api]:
        try:
            async with http_client(settings) as client:
                yield Api(data, settings, client, toolsets=toolsets, observer=observer)
        finally:
            if observer is not None:
                observer.close()

    async def list_tools(
        ctx: ServerRequestContext[Api], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        if len(starts) == 1:
            return types.ListToolsResult(tools=tools)
        cursor = params.cursor if params else None
        if cursor is None:
            start = 0
        elif cursor.isdigit() and int(cursor) in starts[1:]:
            start = int(cursor)
        else:
            raise MCPError(code=types.INVALID_PARAMS, message="Invalid cursor")
        index = starts.index(start)
        end = starts[index + 1] if index + 1 < len(starts) else len(tools)
        return types.ListToolsResult(tools=tools[start:end], next_cursor=str(end) if end < len(tools) else None)

    async def call_tool(ctx: ServerRequestContext[Api], params: types.CallToolRequestParams) -> types.CallToolResult:
        # HTTP mode: the request's headers may carry per-user API credentials (never its Authorization).
        headers = dict(ctx.request.headers) if isinstance(ctx.request, Request) else None
        if catalog is not None:
            return await catalog.call(ctx.lifespan_context, params.name, params.arguments, headers=headers)
        return await ctx.lifespan_context.call(params.name, params.arguments, headers=headers)

    return Server(
        config["name"],
        version=config["version"],
        title=config["title"],
        instructions=config.get("instructions"),
        lifespan=lifespan,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        get_tool_input_schema=schemas.get,
        # The tool list is the same for every caller and changes only with a new deployment.
        cache_hints={"tools/list": CacheHint(ttl_ms=settings.tools_cache_ttl * 1000, scope="public")},
    )
