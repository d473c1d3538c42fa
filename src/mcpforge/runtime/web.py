"""HTTP mode: the streamable HTTP MCP endpoint at ``/mcp``, and the OpenAI bridge when it is enabled."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

from mcp.server import Server
from starlette.applications import Starlette

from .api import Api, http_client
from .bridge import bridge_routes
from .contract import ToolsFile
from .settings import Settings

__all__ = ["http_app"]


def http_app(
    server: Server[Api], data: ToolsFile, settings: Settings, *, toolsets: Sequence[str] | None = None
) -> Starlette:
    """The ASGI application of HTTP mode."""
    app = server.streamable_http_app(
        streamable_http_path="/mcp",
        stateless_http=settings.stateless,
        json_response=settings.json_response,
        host=settings.host,
    )
    if settings.bridge_token:
        _add_bridge(app, data, settings, toolsets)
    return app


def _add_bridge(app: Starlette, data: ToolsFile, settings: Settings, toolsets: Sequence[str] | None) -> None:
    """The OpenAI bridge's routes, with an API of their own opened by the app's lifespan."""
    holder: dict[str, Api] = {}
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(application: Any) -> AsyncIterator[Any]:
        async with http_client(settings) as client, inner(application) as state:
            holder["api"] = Api(data, settings, client, toolsets=toolsets)
            yield state

    routes = bridge_routes(
        settings.bridge_token, lambda: holder["api"], max_body=settings.bridge_max_body, toolsets=toolsets
    )
    app.router.routes.extend(routes)
    app.router.lifespan_context = lifespan
