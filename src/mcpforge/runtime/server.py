"""The MCP server: ``tools/list`` (paginated) and ``tools/call`` over the API, or dynamic mode's meta-tools."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Sequence
from typing import Any

from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.server.caching import CacheHint
from mcp.shared.exceptions import MCPError, NoBackChannelError, UrlElicitationRequiredError
from starlette.requests import Request

from .api import Api, http_client
from .contract import ToolsFile, select_tools
from .dynamic import META_TOOLS, Catalog
from .observe import Observer
from .settings import Settings
from .signin import Link, SignIn

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


# How long a call waits, after the person accepted a sign-in elicitation, for the sign-in to finish.
SIGN_IN_WAIT = 300.0


async def _ask_to_sign_in(ctx: ServerRequestContext[Api], settings: Settings, link: Link) -> bool:
    """Ask the MCP client to open ``link``: a URL-mode elicitation, the call going on once signed in.

    A client without URL-mode elicitation, or a connection that cannot carry a request to the
    client (stateless HTTP), gets the URL-elicitation-required error instead: it shows the link,
    and the call is made again after the sign-in.
    """
    capabilities = ctx.session.client_capabilities
    elicitation = capabilities.elicitation if capabilities else None
    sign_in = ctx.lifespan_context.sign_in
    if elicitation is not None and elicitation.url is not None and not settings.stateless and sign_in is not None:
        try:
            answer = await ctx.session.elicit_url(link.message, link.url, link.id, related_request_id=ctx.request_id)
        except NoBackChannelError:
            pass
        else:
            if answer.action != "accept":
                return False
            done = await sign_in.wait(link, SIGN_IN_WAIT)
            if done:
                await ctx.session.send_elicit_complete(link.id, related_request_id=ctx.request_id)
            return done
    params = types.ElicitRequestURLParams(message=link.message, url=link.url, elicitation_id=link.id)
    raise UrlElicitationRequiredError([params], message=link.message)


def build_server(
    data: ToolsFile,
    settings: Settings,
    *,
    toolsets: Sequence[str] | None = None,
    dynamic: bool | None = None,
    observer: Observer | None = None,
    sign_in: SignIn | None = None,
    protected: bool = False,
) -> Server[Api]:
    """The MCP server for the API described by ``data``.

    ``toolsets`` limits the tools to those tags (default: every tool; an unknown name raises
    ``ValueError`` listing the known ones); ``dynamic`` serves the meta-tools of dynamic mode
    instead of one tool per operation (default: the mode chosen at generation); ``observer`` gets a
    report of each call of an operation (audit log, metrics, traces), and is closed with the server;
    ``sign_in`` lets callers sign in to the API (``protected``: the endpoint names its callers).
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
                yield Api(
                    data, settings, client, toolsets=toolsets, observer=observer, sign_in=sign_in, protected=protected
                )
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
        prompt = functools.partial(_ask_to_sign_in, ctx, settings)
        if catalog is not None:
            return await catalog.call(
                ctx.lifespan_context, params.name, params.arguments, headers=headers, prompt=prompt
            )
        return await ctx.lifespan_context.call(params.name, params.arguments, headers=headers, prompt=prompt)

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
