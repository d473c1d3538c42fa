"""HTTP mode: the MCP endpoint at ``/mcp``, its protection, health checks, and the optional OpenAI bridge.

Assembled from the MCP SDK's pieces (its session manager and ASGI endpoint, its bearer-token
authentication and auth context, its RFC 9728 metadata route) rather than its ready-made app, so
that ``/healthz`` and ``/readyz`` stay outside authentication, the bridge shares the endpoint's
protection, and readiness turns 503 as soon as shutdown begins (a load balancer then stops
sending new calls while in-flight ones finish).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import urlsplit

from mcp.server import Server
from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
from mcp.server.auth.middleware.bearer_auth import BearerAuthBackend
from mcp.server.auth.routes import create_protected_resource_routes
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..access.endpoint import Protection, RequireAccess, is_loopback
from ..access.signin import SignIn
from ..access.signin_pages import Identity, sign_in_routes
from ..agents.bridge import bridge_routes
from ..calling.api import Api, http_client
from ..contract import SearchFile, ToolsFile, load_package_search, select_tools
from ..modes.code import CodeMode
from ..observe.observer import Observer
from ..settings.table import Settings
from .streams import install as install_post_streams

__all__ = ["Lifecycle", "http_app", "transport_security"]


@dataclass
class Lifecycle:
    """Whether the server takes new work (``/readyz``), and the API the bridge calls through."""

    ready: bool = False
    api: Api | None = None
    code: CodeMode | None = None  # code mode, when the server runs in it: the bridge runs its tools

    def bridge_api(self) -> Api:
        """The running API (the bridge's routes exist only while it runs)."""
        if self.api is None:
            raise RuntimeError("the server is not running")
        return self.api

    def bridge_code(self) -> CodeMode | None:
        """Code mode, when the server runs in it."""
        return self.code


def transport_security(settings: Settings) -> TransportSecuritySettings | None:
    """DNS-rebinding protection: the hosts ``ALLOWED_HOSTS`` names, else the OAuth resource's, else loopback names."""
    hosts = list(settings.allowed_hosts)
    if not hosts and settings.oauth_resource:
        hosts = [urlsplit(settings.oauth_resource).netloc]
    if not hosts and is_loopback(settings.host):
        hosts = ["127.0.0.1", "localhost", "[::1]"]
    if not hosts:
        return None  # behind a proxy whose Host names vary: documented, and ALLOWED_HOSTS turns it on
    allowed = [h for host in hosts for h in ([host] if ":" in host.strip("[]") else [host, f"{host}:*"])]
    origins = [f"{scheme}://{h}" for h in allowed for scheme in ("http", "https")]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=allowed, allowed_origins=origins
    )


class _NoStandaloneStream:
    """Stateless mode: ``GET /mcp`` is answered 405 at once.

    A stateless server has no session to send anything on later, so the event stream a GET opens
    would stay idle and open until the client or a proxy gave up (the MCP specification lets a
    server refuse it with 405).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            response = JSONResponse(
                {"error": "this server is stateless: it opens no event stream; POST requests to /mcp"},
                status_code=405,
                headers={"Allow": "POST, DELETE"},
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


async def _live(_: Request) -> Response:
    return JSONResponse({"status": "ok"})


def http_app(
    server: Server[Api],
    data: ToolsFile,
    settings: Settings,
    guard: Protection | None,
    *,
    toolsets: Sequence[str] | None = None,
    observer: Observer | None = None,
    sign_in: SignIn | None = None,
    identity: Identity | None = None,
    mode: str = "tools",
    search: SearchFile | None = None,
) -> tuple[ASGIApp, Lifecycle]:
    """The ASGI application of HTTP mode (``guard``: the endpoint's protection), and its lifecycle.

    ``observer`` is the server's (the bridge's calls are reported with the MCP endpoint's); with
    ``METRICS`` on, its metrics are served at ``/metrics`` behind the endpoint's protection. With
    ``sign_in``, the sign-in pages are served under ``/signin`` (``identity``: where a person proves
    to be the caller, when the endpoint uses OAuth). In ``mode`` ``code``, the bridge lists and runs
    code mode's tools (over ``search``, default: the package's ``search.json``).
    """
    install_post_streams()
    manager = StreamableHTTPSessionManager(
        app=server,
        json_response=settings.json_response,
        stateless=settings.stateless,
        security_settings=transport_security(settings),
    )
    lifecycle = Lifecycle()

    async def ready(_: Request) -> Response:
        if not lifecycle.ready:
            return JSONResponse({"status": "not ready"}, status_code=503)
        if sign_in is not None and not await sign_in.store.ping():
            # Calls of signed-in users would fail here: a load balancer sends them to a replica that works.
            return JSONResponse({"status": "not ready", "reason": "the token store does not answer"}, status_code=503)
        return JSONResponse({"status": "ready"})

    endpoint: Any = StreamableHTTPASGIApp(manager)
    if settings.stateless:
        endpoint = _NoStandaloneStream(endpoint)
    mcp: ASGIApp = RequireAccess(endpoint, guard) if guard else endpoint
    routes: list[BaseRoute] = [
        Route("/healthz", _live, methods=["GET"]),
        Route("/readyz", ready, methods=["GET"]),
    ]
    if guard and guard.resource and guard.issuer:
        # Plain strings: as pydantic URLs the issuer would gain a trailing slash that clients reject.
        routes += create_protected_resource_routes(
            resource_url=cast(Any, guard.resource),
            authorization_servers=[cast(Any, guard.issuer)],
            scopes_supported=list(guard.required_scopes) or None,
        )
    if settings.metrics and observer is not None and observer.metrics is not None:
        metrics: Any = observer.metrics
        routes.append(Route("/metrics", endpoint=RequireAccess(metrics, guard) if guard else metrics))
    if settings.bridge or settings.bridge_token:
        routes += _bridge(lifecycle, guard, settings, toolsets)
    if sign_in is not None:
        routes += sign_in_routes(sign_in, identity, server_title=data["server"]["title"])
    middleware = []
    if guard is not None:
        middleware = [
            Middleware(AuthenticationMiddleware, backend=BearerAuthBackend(guard.verifier)),
            Middleware(AuthContextMiddleware),
        ]
        mcp = AuthenticationMiddleware(AuthContextMiddleware(mcp), backend=BearerAuthBackend(guard.verifier))

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with manager.run(), http_client(settings, data["server"]) as client:
            lifecycle.api = Api(
                data,
                settings,
                client,
                toolsets=toolsets,
                observer=observer,
                sign_in=sign_in,
                protected=guard is not None,
            )
            if mode == "code" and (settings.bridge or settings.bridge_token):  # the bridge runs code mode's tools
                entries = select_tools(data["tools"], toolsets)
                found = search if search is not None else load_package_search()
                lifecycle.code = CodeMode(entries, found, settings, data["server"]["envPrefix"])
            lifecycle.ready = True
            try:
                yield
            finally:
                lifecycle.ready = False
                if lifecycle.code is not None:
                    await lifecycle.code.sandbox.close()
                if sign_in is not None:
                    await sign_in.close()

    return _Front(mcp, Starlette(routes=routes, middleware=middleware, lifespan=lifespan)), lifecycle


class _Front:
    """``/mcp`` straight to its endpoint, which every call takes; anything else through Starlette's routing.

    The endpoint is wrapped in the same protection and auth context as the routes (when protected);
    it skips only the router and Starlette's exception middleware, which had nothing to do for it
    (uvicorn answers an unhandled error with a 500 the same way) and cost a twentieth of a call.
    """

    def __init__(self, mcp: ASGIApp, app: Starlette) -> None:
        self.mcp = mcp
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/mcp":
            await self.mcp(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def _bridge(
    lifecycle: Lifecycle, guard: Protection | None, settings: Settings, toolsets: Sequence[str] | None
) -> list[BaseRoute]:
    """The bridge's routes: behind the endpoint's protection (its own token also accepted), or its token alone."""
    if guard is None:
        return list(
            bridge_routes(
                lifecycle.bridge_api,
                token=settings.bridge_token,
                max_body=settings.bridge_max_body,
                toolsets=toolsets,
                code=lifecycle.bridge_code,
            )
        )
    routes = bridge_routes(
        lifecycle.bridge_api,
        token=None,
        max_body=settings.bridge_max_body,
        toolsets=toolsets,
        code=lifecycle.bridge_code,
    )
    return [
        Route(route.path, endpoint=RequireAccess(route.app, guard, extra_token=settings.bridge_token or None))
        for route in routes
    ]
