"""The MCP server: ``tools/list`` (paginated) and ``tools/call`` over the API, or search or code mode's tools."""

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

from ..access.signin import Link, SignIn, SignInDeferred
from ..calling.api import Api, http_client
from ..contract import SearchFile, ToolsFile, load_package_search, select_tools
from ..modes.code import CodeMode
from ..modes.search import META_TOOLS, Catalog
from ..observe.observer import Observer
from ..settings.table import Settings

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


MULTI_ROUND_TRIP = "2026-07-28"  # the protocol version whose tool calls carry input requests (MRTR)
SIGN_IN_INPUT = "sign_in"  # the key of the sign-in elicitation among a call's input requests


async def _ask_to_sign_in(
    ctx: ServerRequestContext[Api], settings: Settings, responses: types.InputResponses | None, link: Link
) -> bool:
    """Ask the MCP client to open ``link`` (URL-mode elicitation); True once the caller is signed in.

    Clients that declare URL-mode elicitation get it: on protocol 2026-07-28 as the call's input
    request (the client calls again with the person's answer, on any replica); before it as an
    ``elicitation/create`` request during the call, or, where the connection cannot carry one
    (stateless HTTP), the URL-elicitation-required error. Other clients get the link in an error
    result (False), which a model can show.
    """
    capabilities = ctx.session.client_capabilities
    elicitation = capabilities.elicitation if capabilities else None
    sign_in = ctx.lifespan_context.sign_in
    if elicitation is None or elicitation.url is None or sign_in is None:
        return False
    if ctx.protocol_version >= MULTI_ROUND_TRIP:
        answer = (responses or {}).get(SIGN_IN_INPUT)
        if answer is None:
            request = types.ElicitRequest(
                params=types.ElicitRequestURLParams(message=link.message, url=link.url, elicitation_id=link.id)
            )
            raise SignInDeferred(types.InputRequiredResult(input_requests={SIGN_IN_INPUT: request}), link)
        accepted = isinstance(answer, types.ElicitResult) and answer.action == "accept"
        return accepted and await sign_in.wait(link, settings.sign_in_wait)
    if not settings.stateless:
        try:
            answer = await ctx.session.elicit_url(link.message, link.url, link.id, related_request_id=ctx.request_id)
        except NoBackChannelError:
            pass
        else:
            done = answer.action == "accept" and await sign_in.wait(link, settings.sign_in_wait)
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
    mode: str | None = None,
    search: SearchFile | None = None,
    observer: Observer | None = None,
    sign_in: SignIn | None = None,
    protected: bool = False,
) -> Server[Api]:
    """The MCP server for the API described by ``data``.

    ``toolsets`` limits the tools to those tags (default: every tool; an unknown name raises
    ``ValueError`` listing the known ones); ``mode`` ``search`` serves the meta-tools of search mode
    instead of one tool per operation, ``code`` code mode's search and execute (default: the mode
    chosen at generation), over ``search``
    (default: the package's ``search.json``, else what ``tools.json`` says); ``observer`` gets a
    report of each call of an operation (audit log, metrics, traces), and is closed with the server;
    ``sign_in`` lets callers sign in to the API (``protected``: the endpoint names its callers).
    """
    config = data["server"]
    entries = select_tools(data["tools"], toolsets)
    catalog: Catalog | None = None
    code: CodeMode | None = None
    served = mode or config["mode"]
    if served == "search":
        catalog = Catalog(entries, search if search is not None else load_package_search())
        tools = list(META_TOOLS)
        schemas: dict[str, Any] = {tool.name: tool.input_schema for tool in tools}
    elif served == "code":
        found = search if search is not None else load_package_search()
        code = CodeMode(entries, found, settings, config["envPrefix"])
        tools = list(code.tools)
        schemas = {tool.name: tool.input_schema for tool in tools}
    else:
        tools = [types.Tool.model_validate(entry["tool"]) for entry in entries]
        schemas = {entry["tool"]["name"]: entry["tool"]["inputSchema"] for entry in entries}
    starts = _page_starts(tools, settings)

    @contextlib.asynccontextmanager
    async def lifespan(_: Server[Api]) -> AsyncIterator[Api]:
        try:
            async with http_client(settings, config) as client:
                yield Api(
                    data, settings, client, toolsets=toolsets, observer=observer, sign_in=sign_in, protected=protected
                )
        finally:
            if code is not None:
                await code.sandbox.close()
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

    async def call_tool(
        ctx: ServerRequestContext[Api], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        # HTTP mode: the request's headers may carry per-user API credentials (never its Authorization).
        headers = dict(ctx.request.headers) if isinstance(ctx.request, Request) else None
        prompt = functools.partial(_ask_to_sign_in, ctx, settings, params.input_responses)
        api = ctx.lifespan_context
        try:
            if catalog is not None:
                return await catalog.call(api, params.name, params.arguments, headers=headers, prompt=prompt)
            if code is not None:
                return await code.call(api, params.name, params.arguments, headers=headers, prompt=prompt)
            return await api.call(params.name, params.arguments, headers=headers, prompt=prompt)
        except SignInDeferred as deferred:
            answer: types.InputRequiredResult = deferred.answer
            return answer

    server = Server(
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
    if observer is None or observer.tracing is None:
        # The SDK wraps every message in an OpenTelemetry span, a tenth of a call's CPU even with no
        # exporter (its comment says to drop it from the list to opt out): only when tracing is on.
        server.middleware = [m for m in server.middleware if type(m).__name__ != "OpenTelemetryMiddleware"]
    return server
