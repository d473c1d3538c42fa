"""The connections to the API: an httpx transport whose connection pool is aiohttp's.

Why not httpx's own pool (httpcore): before each request it walks every pooled connection and,
for each idle one, asks the socket whether the server closed it (a system call, through several
layers of attribute lookups). Under 50 concurrent sessions that walk was a sixth of the server's
CPU time, and keeping more connections alive made it worse. aiohttp keeps idle connections per
host in a queue and takes one in constant time. The rest of the runtime keeps httpx's API
(requests, streamed responses, timeouts, errors): this module only moves bytes, so requests and
results are the same whichever pool carries them (the runtime's tests run through it).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import httpx

__all__ = ["PooledTransport"]

_CHUNK = 64 * 1024


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
        except aiohttp.ClientPayloadError as exc:
            raise httpx.RemoteProtocolError(str(exc)) from exc
        except aiohttp.ClientError as exc:
            raise httpx.ReadError(str(exc)) from exc

    async def aclose(self) -> None:
        self._response.release()


def _timeout(request: httpx.Request) -> aiohttp.ClientTimeout:
    limits = request.extensions.get("timeout", {})
    return aiohttp.ClientTimeout(
        total=None,  # no limit for the whole exchange: a streamed answer is bounded by the runtime itself
        connect=limits.get("pool"),
        sock_connect=limits.get("connect"),
        sock_read=limits.get("read"),
    )


class PooledTransport(httpx.AsyncBaseTransport):
    """Requests sent through one aiohttp session (its pool: ``max_connections`` at most)."""

    def __init__(self, *, max_connections: int = 100) -> None:
        self._max_connections = max_connections
        self._session: aiohttp.ClientSession | None = None

    def _client(self) -> aiohttp.ClientSession:
        # Made on first use, inside the running event loop (aiohttp binds the session to it).
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._max_connections, limit_per_host=0, ttl_dns_cache=300)
            self._session = aiohttp.ClientSession(
                connector=connector,
                auto_decompress=False,  # httpx decodes Content-Encoding, as for its own pool
                cookie_jar=aiohttp.DummyCookieJar(),  # no cookie travels from one caller's call to another's
                skip_auto_headers=("User-Agent", "Accept-Encoding", "Accept", "Content-Type"),
            )
        return self._session

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request``; the response's body streams from the connection."""
        body = await request.aread()
        headers = [(key.decode("latin-1"), value.decode("latin-1")) for key, value in request.headers.raw]
        try:
            response = await self._client().request(
                request.method,
                str(request.url),
                headers=headers,
                data=body or None,
                allow_redirects=False,
                timeout=_timeout(request),
                compress=None,
            )
        except aiohttp.ServerTimeoutError as exc:
            raise httpx.ConnectTimeout(str(exc) or "connecting timed out", request=request) from exc
        except TimeoutError as exc:
            raise httpx.PoolTimeout(str(exc) or "no connection was free in time", request=request) from exc
        except aiohttp.ClientConnectorError as exc:
            raise httpx.ConnectError(str(exc), request=request) from exc
        except aiohttp.ClientError as exc:
            raise httpx.TransportError(str(exc), request=request) from exc
        raw_headers: Any = list(response.raw_headers)
        return httpx.Response(
            status_code=response.status,
            headers=raw_headers,
            stream=_Body(response),
            extensions={"http_version": b"HTTP/1.1", "reason_phrase": (response.reason or "").encode("latin-1")},
            request=request,
        )

    async def aclose(self) -> None:
        """Close every pooled connection."""
        if self._session is not None:
            await self._session.close()
