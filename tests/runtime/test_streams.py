"""The event stream answering each POST to /mcp: what sse_starlette's did, with two tasks instead of five."""

from __future__ import annotations

from typing import Any

import anyio
from mcp.server import streamable_http
from sse_starlette.sse import EventSourceResponse

from mcpforge.runtime.serving.streams import PostEventStream, install


async def _answer(stream: PostEventStream, method: str = "POST", disconnect_after: float | None = None) -> list[Any]:
    sent: list[Any] = []

    async def receive() -> Any:
        if disconnect_after is None:
            await anyio.sleep_forever()
        await anyio.sleep(disconnect_after or 0)
        return {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": method, "path": "/mcp", "headers": []}
    await stream(scope, receive, send)
    return sent


def _body(sent: list[Any]) -> bytes:
    return b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def test_events_are_sent_as_they_come_with_a_ping_while_silent_and_the_stream_then_ends() -> None:
    async def scenario() -> tuple[list[Any], list[str]]:
        writer, reader = anyio.create_memory_object_stream[Any](0)
        done: list[str] = []

        async def sender() -> None:
            async with writer:
                await anyio.sleep(0.25)  # a call waiting on someone: silence, then its result
                await writer.send({"event": "message", "data": '{"jsonrpc":"2.0","id":1,"result":{}}'})
            done.append("sender finished")

        with reader:
            stream = PostEventStream(reader, data_sender_callable=sender, headers={"Cache-Control": "no-cache"})
            stream.ping_seconds = 0.1
            return await _answer(stream), done

    sent, done = anyio.run(scenario)
    start = sent[0]
    assert start["status"] == 200
    headers = dict(start["headers"])
    assert headers[b"content-type"] == b"text/event-stream; charset=utf-8" and headers[b"x-accel-buffering"] == b"no"
    assert headers[b"cache-control"] == b"no-cache"  # the SDK's own, kept
    body = _body(sent)
    assert body.count(b": ping\r\n\r\n") >= 2 and body.endswith(
        b'event: message\r\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\r\n\r\n'
    )
    assert sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False} and done == ["sender finished"]


def test_a_client_that_goes_away_ends_the_stream_and_its_sender() -> None:
    async def scenario() -> tuple[list[Any], list[str]]:
        writer, reader = anyio.create_memory_object_stream[Any](0)
        events: list[str] = []

        async def sender() -> None:
            try:
                async with writer:
                    await anyio.sleep(30)
            finally:
                events.append("sender cancelled")

        with anyio.fail_after(5), reader:
            sent = await _answer(PostEventStream(reader, data_sender_callable=sender), disconnect_after=0.1)
        return sent, events

    sent, events = anyio.run(scenario)
    assert events == ["sender cancelled"] and not _body(sent)


def test_only_posts_are_answered_the_lean_way_and_install_replaces_the_sdks_class_once() -> None:
    async def scenario() -> list[Any]:
        writer, reader = anyio.create_memory_object_stream[Any](1)
        await writer.send({"event": "message", "data": "x"})
        writer.close()
        with reader:
            return await _answer(PostEventStream(reader), method="GET")

    sent = anyio.run(scenario)  # a GET stream: sse_starlette's own response (its keep-alive and shutdown watch)
    assert b"data: x" in _body(sent)
    original = streamable_http.EventSourceResponse  # type: ignore[attr-defined]
    try:
        streamable_http.EventSourceResponse = EventSourceResponse  # type: ignore[attr-defined]
        install()
        install()
        installed: Any = streamable_http.EventSourceResponse  # type: ignore[attr-defined]
        assert installed is PostEventStream
    finally:
        streamable_http.EventSourceResponse = original  # type: ignore[attr-defined]
