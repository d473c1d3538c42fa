"""OpenAPI 3.2 operations end to end through the runtime, against a real local upstream (uvicorn on loopback).

QUERY and additional methods (LINK) are sent as written; an ``in: querystring`` parameter becomes
the whole query string; JSON Lines and server-sent events are read as lists of items, a stream
that never ends is cut by STREAM_SECONDS or the result budget, and a JSON Lines request body is
written one item per line.
"""

from __future__ import annotations

import json
import time
from typing import Any

import anyio
import pytest
from mcp import types

from conftest import FIXTURES
from helpers import contract_of, read_body, serve
from mcpforge.runtime.calling.api import Api, http_client
from mcpforge.runtime.settings.table import read_settings

SPEC = FIXTURES / "golden" / "openapi_32" / "openapi.yaml"
EVENTS = [{"id": str(i), "kind": "deploy" if i % 2 else "build", "at": "2026-11-22T10:00:00Z"} for i in range(5)]


class Upstream:
    """Answers the events API; records method, path, query and body of each request."""

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = await read_body(receive)
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        method, path = scope["method"], scope["path"]
        self.seen.append(
            {"method": method, "path": path, "query": scope["query_string"].decode(), "body": body, "headers": headers}
        )

        async def start(status: int, media: str) -> None:
            await send(
                {"type": "http.response.start", "status": status, "headers": [(b"content-type", media.encode())]}
            )

        async def chunk(data: bytes, more: bool = True) -> None:
            await send({"type": "http.response.body", "body": data, "more_body": more})

        if path in ("/events/stream", "/events/flood"):
            gone = anyio.Event()

            async def watch() -> None:  # the client hanging up ends an endless stream
                while (await receive())["type"] != "http.disconnect":
                    pass
                gone.set()

            async with anyio.create_task_group() as group:
                group.start_soon(watch)
                if path == "/events/stream":
                    await start(200, "text/event-stream")
                    for event in EVENTS:
                        await chunk(f"event: created\nid: {event['id']}\ndata: {json.dumps(event)}\n\n".encode())
                    while not gone.is_set():  # ...and then it never ends: keep-alive comments, as live streams send
                        await anyio.sleep(0.05)
                        await chunk(b": keep-alive\n\n")
                else:
                    await start(200, "application/x-ndjson")
                    line = json.dumps({**EVENTS[0], "pad": "x" * 200}).encode() + b"\n"
                    while not gone.is_set():  # endless and fast: the result budget stops the read
                        await chunk(line * 50)
                        await anyio.sleep(0)
                group.cancel_scope.cancel()
            return
        if path == "/events/export" and method == "GET":
            await start(200, "application/jsonl")
            await chunk(b"".join(json.dumps(e).encode() + b"\n" for e in EVENTS), more=False)
            return
        if method in ("QUERY", "GET") and path in ("/events/search", "/events/filter"):
            await start(200, "application/json")
            await chunk(json.dumps(EVENTS[:2]).encode(), more=False)
            return
        await start(204, "text/plain")
        await chunk(b"", more=False)


@pytest.fixture(scope="module")
def contract() -> Any:
    return contract_of(SPEC)


def run_calls(
    contract: Any, base_url: str, calls: list[tuple[str, dict[str, Any]]], env: dict[str, str] | None = None
) -> list[types.CallToolResult]:
    config: Any = {**contract["server"], "baseUrl": base_url}
    data: Any = {**contract, "server": config}

    async def run() -> list[types.CallToolResult]:
        settings = read_settings(config, {"EVENTS_STREAM_SECONDS": "1", **(env or {})})
        async with http_client(settings, config) as client:
            api = Api(data, settings, client)
            return [await api.call(name, args) for name, args in calls]

    return anyio.run(run)


def test_query_and_additional_methods_are_sent_as_written(contract: Any) -> None:
    upstream = Upstream()
    with serve(upstream) as url:
        found, linked = run_calls(
            contract,
            url,
            [
                ("searchEvents", {"body": {"text": "deploy", "kinds": ["deploy"]}}),
                ("linkEvent", {"id": "7", "Link": "</events/8>; rel=next"}),
            ],
        )
    assert not found.is_error and found.structured_content == {"result": EVENTS[:2]}
    assert not linked.is_error
    search, link = upstream.seen
    assert (search["method"], search["path"], json.loads(search["body"])) == (
        "QUERY",
        "/events/search",
        {"text": "deploy", "kinds": ["deploy"]},
    )
    assert (link["method"], link["path"], link["headers"]["link"]) == ("LINK", "/events/7", "</events/8>; rel=next")


def test_querystring_parameter_is_the_whole_query(contract: Any) -> None:
    upstream = Upstream()
    with serve(upstream) as url:
        (result,) = run_calls(contract, url, [("filterEvents", {"filter": {"kind": "deploy now", "limit": 2}})])
    assert not result.is_error
    assert upstream.seen[0]["query"] == "kind=deploy%20now&limit=2"


def test_json_lines_response_becomes_a_list_and_request_items_are_lines(contract: Any) -> None:
    upstream = Upstream()
    with serve(upstream) as url:
        exported, imported = run_calls(
            contract, url, [("exportEvents", {"fields": ["id"]}), ("importEvents", {"body": EVENTS[:2]})]
        )
    assert exported.structured_content == {"result": [{"id": e["id"]} for e in EVENTS]}
    assert not imported.is_error
    sent = upstream.seen[1]
    assert sent["headers"]["content-type"] == "application/x-ndjson"
    assert [json.loads(line) for line in sent["body"].decode().splitlines()] == EVENTS[:2]


def test_an_endless_event_stream_is_cut_by_the_time_limit_with_parsed_events(contract: Any) -> None:
    started = time.monotonic()
    with serve(Upstream()) as url:
        (result,) = run_calls(contract, url, [("streamEvents", {})])
    elapsed = time.monotonic() - started
    assert not result.is_error, result.content
    assert result.structured_content is not None
    events = result.structured_content["result"]
    assert [e["data"] for e in events] == EVENTS  # JSON data parsed, as the itemSchema's contentMediaType says
    assert events[0]["event"] == "created" and events[0]["id"] == "0"
    notes = [c.text for c in result.content if isinstance(c, types.TextContent)]
    assert any("time limit" in note for note in notes)
    assert elapsed < 5  # 1 s of STREAM_SECONDS: the upstream would go on for ever


def test_a_flooding_stream_stops_at_the_result_budget(contract: Any) -> None:
    flood = dict(next(t for t in contract["tools"] if t["tool"]["name"] == "exportEvents"))
    flood["path"] = "/events/flood"
    flood["tool"] = {**flood["tool"], "name": "flood"}
    data = {**contract, "tools": [*contract["tools"], flood]}
    with serve(Upstream()) as url:
        (result,) = run_calls(data, url, [("flood", {})], {"EVENTS_MAX_RESULT_TOKENS": "2000"})
    assert not result.is_error
    text = "".join(c.text for c in result.content if isinstance(c, types.TextContent))
    assert len(text) < 2000 * 4 + 2000  # the budget, plus its notes
    assert "result budget" in text
