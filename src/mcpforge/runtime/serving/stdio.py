"""The stdio transport: the MCP SDK's, with the calls in flight answered after stdin closes.

The SDK ends a session at the end of stdin and cancels the calls still running (each answered
"Connection closed"): a client that writes its requests and closes its end, as a shell pipe or a
batch script does, loses their answers. Here the end of stdin is passed on only once every request
read has been answered (or cancelled by the client), for at most the server's ``SHUTDOWN_TIMEOUT``
seconds. The streams are wrapped, not replaced: the SDK reads them by duck typing (``async with``,
``async for``, ``send``), and its own stdio transport still owns the process's file descriptors.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

import anyio
from mcp.shared.message import SessionMessage
from mcp.types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

__all__ = ["InFlight", "serve_stdio"]

_CANCELLED = "notifications/cancelled"


class InFlight:
    """The ids of the requests read and not yet answered."""

    def __init__(self) -> None:
        self._ids: set[Any] = set()
        self._settled = anyio.Event()
        self._settled.set()

    def started(self, request_id: Any) -> None:
        """A request was read."""
        self._ids.add(request_id)
        if self._settled.is_set():
            self._settled = anyio.Event()

    def ended(self, request_id: Any) -> None:
        """A request was answered, or the client cancelled it (it gets no answer)."""
        self._ids.discard(request_id)
        if not self._ids:
            self._settled.set()

    async def settled(self, timeout: float) -> None:
        """Return once no request is in flight, or after ``timeout`` seconds."""
        with anyio.move_on_after(timeout):
            await self._settled.wait()


class _Wrapped:
    """One of the SDK's streams, entered, exited and read through as it is (what is added: the subclass's)."""

    def __init__(self, inner: Any, flight: InFlight) -> None:
        self._inner, self._flight = inner, flight

    async def __aenter__(self) -> _Wrapped:
        await self._inner.__aenter__()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> bool | None:
        return bool(await self._inner.__aexit__(kind, error, trace))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _Reading(_Wrapped):
    """The SDK's read stream, whose end waits for the requests read from it to be answered."""

    def __init__(self, inner: Any, flight: InFlight, timeout: float) -> None:
        super().__init__(inner, flight)
        self._timeout = timeout

    @property
    def last_context(self) -> Any:
        """The sender's context of the last message (the SDK reads it when the stream carries one)."""
        return getattr(self._inner, "last_context", None)

    def __aiter__(self) -> _Reading:
        return self

    async def __anext__(self) -> Any:
        try:
            item = await self._inner.__anext__()
        except StopAsyncIteration:
            await self._flight.settled(self._timeout)
            raise
        message = item.message if isinstance(item, SessionMessage) else None
        if isinstance(message, JSONRPCRequest):
            self._flight.started(message.id)
        elif isinstance(message, JSONRPCNotification) and message.method == _CANCELLED:
            self._flight.ended((message.params or {}).get("requestId"))
        return item


class _Writing(_Wrapped):
    """The SDK's write stream, noting each request answered."""

    async def send(self, item: Any) -> None:
        """Send ``item``; an answer ends its request's flight once it is handed to stdout's writer."""
        await self._inner.send(item)
        message = item.message if isinstance(item, SessionMessage) else None
        if isinstance(message, JSONRPCResponse | JSONRPCError):
            self._flight.ended(message.id)


def serve_stdio(server: Any, timeout: float) -> None:
    """Run ``server`` over stdin and stdout until stdin ends and its requests are answered."""
    from mcp.server.stdio import stdio_server  # noqa: PLC0415 - HTTP mode never loads it

    async def serve() -> None:
        async with stdio_server() as (read_stream, write_stream):
            flight = InFlight()
            await server.run(
                _Reading(read_stream, flight, timeout),
                _Writing(write_stream, flight),
                server.create_initialization_options(),
            )

    anyio.run(serve)
