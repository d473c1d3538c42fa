"""The event stream that answers each POST to ``/mcp``: the MCP SDK's, with a tenth of its per-call work.

Over streamable HTTP, the SDK answers every request POSTed to ``/mcp`` with a server-sent event
stream (unless JSON responses are on): usually one event, the result. It builds that stream with
``sse_starlette``'s ``EventSourceResponse``, made for long-lived streams: five tasks per response
(the body, keep-alive pings, the client's disconnect, the server's shutdown signal, the data
sender), each in a cancel-on-finish wrapper. At 50 sessions that is a fifth of a call's CPU.

:class:`PostEventStream` keeps the same contract for a POST's answer with two tasks: the SDK's data
sender, and a watch for the client going away; the events are sent from the response's own task,
encoded by ``sse_starlette``, with a keep-alive comment after :data:`PING_SECONDS` of silence (a
call waiting on a person's sign-in). A server shutting down lets a POST's answer finish, as it
lets any in-flight call. Every other stream (``GET /mcp``, long-lived) stays ``sse_starlette``'s.
:func:`install` puts it in place: the SDK's ``streamable_http`` module names the class once, and
the SDK documents no other way to choose it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

import anyio
from mcp.server import streamable_http
from sse_starlette.event import ensure_bytes
from sse_starlette.sse import EventSourceResponse
from starlette.types import Receive, Scope, Send

__all__ = ["PING_SECONDS", "PostEventStream", "install"]

logger = logging.getLogger(__name__)
PING_SECONDS = 15.0  # as sse_starlette: proxies close a connection silent for longer (nginx: 60 s)
_SEP = "\r\n"


class PostEventStream:
    """An event stream answering one POST: ``content``'s events, while ``data_sender_callable`` feeds it."""

    def __init__(
        self,
        content: Any,
        *,
        data_sender_callable: Callable[[], Coroutine[Any, Any, None]] | None = None,
        headers: Mapping[str, str] | None = None,
        **others: Any,
    ) -> None:
        self._content = content
        self._sender = data_sender_callable
        self._headers = dict(headers or {})
        self._others = others
        self.ping_seconds = PING_SECONDS

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Send the stream; a GET (or anything but a plain POST) goes to ``sse_starlette``'s response."""
        if scope.get("type") != "http" or scope.get("method") != "POST" or self._others:
            fallback = EventSourceResponse(
                self._content, data_sender_callable=self._sender, headers=self._headers, **self._others
            )
            await fallback(scope, receive, send)
            return
        # The headers sse_starlette sends: no caching, no buffering by a proxy (nginx reads X-Accel-Buffering).
        given = {k.lower(): v for k, v in self._headers.items()}
        given = {"cache-control": "no-store", **given, "connection": "keep-alive", "x-accel-buffering": "no"}
        given["content-type"] = "text/event-stream; charset=utf-8"
        headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in given.items()]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        watching = anyio.CancelScope()
        async with anyio.create_task_group() as tasks:
            if self._sender is not None:
                tasks.start_soon(self._sender)
            tasks.start_soon(_until_disconnect, receive, watching, tasks.cancel_scope)
            await self._events(send)
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            watching.cancel()  # answered: the client may stay; the sender finishes its own cleanup

    async def _events(self, send: Send) -> None:
        """Each event as it comes; a comment after ``ping_seconds`` without one keeps proxies from closing."""
        receive_event = self._content.receive
        while True:
            with anyio.move_on_after(self.ping_seconds) as waiting:
                try:
                    event = await receive_event()
                except anyio.EndOfStream:
                    return
            if waiting.cancelled_caught:
                await send({"type": "http.response.body", "body": b": ping" + _SEP.encode() * 2, "more_body": True})
                continue
            await send({"type": "http.response.body", "body": ensure_bytes(event, _SEP), "more_body": True})


async def _until_disconnect(receive: Receive, watching: anyio.CancelScope, response: anyio.CancelScope) -> None:
    """Cancel the response (``response``) when the client goes away, until ``watching`` is cancelled."""
    with watching:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                response.cancel()
                return


def install() -> None:
    """Answer POSTs to ``/mcp`` with :class:`PostEventStream` (the SDK's transport names its stream class once)."""
    if getattr(streamable_http, "EventSourceResponse", None) is not EventSourceResponse:
        logger.debug("the MCP SDK's stream class is not sse_starlette's: left as it is")
        return
    streamable_http.EventSourceResponse = PostEventStream  # type: ignore[attr-defined,assignment]
