"""The connections to the API: one aiohttp connection pool, for the API's requests and the token endpoints'.

The API's requests (every tool call) go straight through aiohttp: the URL and body are built once
by :mod:`.request`, sent as they are, and the answer is streamed back. Two costs are avoided that
way, both measured at 50 sessions (``bench/bench_serving.py``): httpx's own pool (httpcore) walks
every pooled connection before each request and asks each idle socket whether the server closed
it, a sixth of the server's CPU; and httpx's request and URL models parse and re-encode every
call's URL, another fifth of what a call costs over server-sent events. aiohttp keeps idle
connections per host in a queue and takes one in constant time, and a URL marked encoded is sent
as it is.

Token endpoints (OAuth client credentials, refresh, sign-in) keep httpx's API through
:class:`_PooledTransport`, over the same pool. Redirects are never followed (a redirect could
carry an API key to another host) and no cookie the API sets is kept (one pool serves every caller).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any, Self

import aiohttp
import httpx
from yarl import URL

__all__ = ["Answer", "Upstream", "UpstreamError", "UpstreamTimeout"]


class UpstreamError(Exception):
    """A request to the API failed before it was answered in full; the message names what failed."""


class UpstreamTimeout(UpstreamError):
    """The API did not connect, answer or send its answer in time."""


@dataclass(frozen=True, slots=True)
class Answer:
    """An answer of the API, its body still on the connection (read with :meth:`chunks`)."""

    status: int
    reason: str
    headers: Mapping[str, str]  # case-insensitive
    url: str
    response: aiohttp.ClientResponse

    async def chunks(self) -> AsyncIterator[bytes]:
        """The body as it arrives, Content-Encoding decoded."""
        try:
            async for chunk in self.response.content.iter_any():
                yield chunk
        except TimeoutError as exc:
            raise UpstreamTimeout(f"ReadTimeout: {exc}") from exc
        except aiohttp.ClientPayloadError as exc:
            raise UpstreamError(f"RemoteProtocolError: {exc}") from exc
        except aiohttp.ClientError as exc:
            raise UpstreamError(f"ReadError: {exc}") from exc


def _failure(exc: BaseException) -> UpstreamError:
    if isinstance(exc, aiohttp.ServerTimeoutError | aiohttp.ConnectionTimeoutError):
        return UpstreamTimeout(f"ConnectTimeout: {exc or 'connecting timed out'}")
    if isinstance(exc, TimeoutError):
        return UpstreamTimeout(f"PoolTimeout: {exc or 'no connection was free in time'}")
    if isinstance(exc, aiohttp.ClientConnectorError):
        return UpstreamError(f"ConnectError: cannot connect to {exc.host}:{exc.port} ({_reason(exc.os_error)})")
    return UpstreamError(f"{type(exc).__name__}: {exc}")


def _reason(error: OSError) -> str:
    """Why a connection failed, in the system's words ("Connection refused"), without aiohttp's internals.

    asyncio words a refused connection "Connect call failed ('127.0.0.1', 9)"; its errno says why.
    """
    if isinstance(error.errno, int) and error.errno > 0:
        return os.strerror(error.errno)
    return str(error.strerror or error or type(error).__name__)


class Upstream:
    """The API's connections (at most ``max_connections``), with the server's timeout and User-Agent."""

    def __init__(self, *, timeout: float, user_agent: str, max_connections: int = 100) -> None:
        self._timeout = aiohttp.ClientTimeout(
            total=None,  # no limit for the whole exchange: a streamed answer is bounded by the runtime itself
            connect=timeout,  # waiting for a free connection of the pool
            sock_connect=min(10.0, timeout),
            sock_read=timeout,
        )
        self._user_agent = user_agent
        self._max_connections = max_connections
        self._session: aiohttp.ClientSession | None = None
        no_cookies = CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))
        self.http = httpx.AsyncClient(
            timeout=httpx.Timeout(timeout, connect=min(10.0, timeout)),
            follow_redirects=False,
            transport=_PooledTransport(self),
            cookies=no_cookies,
        )

    def session(self) -> aiohttp.ClientSession:
        """The pool: made on first use, inside the running event loop (aiohttp binds it to that loop)."""
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._max_connections, limit_per_host=0, ttl_dns_cache=300)
            self._session = aiohttp.ClientSession(
                connector=connector,
                auto_decompress=False,  # each request says (httpx decodes its own)
                cookie_jar=aiohttp.DummyCookieJar(),  # no cookie travels from one caller's call to another's
                skip_auto_headers=("User-Agent", "Accept-Encoding", "Accept", "Content-Type"),
            )
        return self._session

    @contextlib.asynccontextmanager
    async def request(
        self, method: str, url: str, headers: Mapping[str, str], body: bytes | None = None
    ) -> AsyncIterator[Answer]:
        """Send a request (``url`` already percent-encoded, query included); the answer while its body is read.

        Raises :class:`UpstreamTimeout` or :class:`UpstreamError` when it fails.
        """
        sent = {"User-Agent": self._user_agent, "Accept-Encoding": "gzip, deflate", **headers}
        try:
            response = await self.session().request(
                method,
                URL(url, encoded=True),
                headers=sent,
                data=body,
                allow_redirects=False,
                timeout=self._timeout,
                auto_decompress=True,
                compress=None,
            )
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise _failure(exc) from exc
        try:
            yield Answer(response.status, response.reason or "", response.headers, str(response.url), response)
        finally:
            response.release()

    async def aclose(self) -> None:
        """Close the pool."""
        await self.http.aclose()
        if self._session is not None:
            await self._session.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()


class _Body(httpx.AsyncByteStream):
    """A response body read from aiohttp as it arrives; closing it gives the connection back."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self._response = response

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._response.content.iter_any():
                yield chunk
        except TimeoutError as exc:
            raise httpx.ReadTimeout(f"reading the response timed out: {exc}") from exc
        except aiohttp.ClientError as exc:
            raise httpx.ReadError(str(exc)) from exc

    async def aclose(self) -> None:
        self._response.release()


class _PooledTransport(httpx.AsyncBaseTransport):
    """httpx requests (token endpoints) sent through the API's pool."""

    def __init__(self, upstream: Upstream) -> None:
        self._upstream = upstream

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request``; the response's body streams from the connection."""
        body = await request.aread()
        headers = [(key.decode("latin-1"), value.decode("latin-1")) for key, value in request.headers.raw]
        limits = request.extensions.get("timeout", {})
        timeout = aiohttp.ClientTimeout(
            total=None, connect=limits.get("pool"), sock_connect=limits.get("connect"), sock_read=limits.get("read")
        )
        try:
            response = await self._upstream.session().request(
                request.method,
                URL(str(request.url), encoded=True),
                headers=headers,
                data=body or None,
                allow_redirects=False,
                timeout=timeout,
                compress=None,
            )
        except (aiohttp.ClientError, TimeoutError) as exc:
            # The httpx error of the same name (ConnectError, ConnectTimeout, PoolTimeout...), as its own pool raises.
            name, _, message = str(_failure(exc)).partition(": ")
            kind = getattr(httpx, name, None)
            if not (isinstance(kind, type) and issubclass(kind, httpx.TransportError)):
                kind, message = httpx.TransportError, f"{name}: {message}"
            raise kind(message, request=request) from exc
        raw_headers: Any = list(response.raw_headers)
        return httpx.Response(
            status_code=response.status,
            headers=raw_headers,
            stream=_Body(response),
            extensions={"http_version": b"HTTP/1.1", "reason_phrase": (response.reason or "").encode("latin-1")},
            request=request,
        )
