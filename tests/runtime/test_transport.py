"""The API's connections (aiohttp's pool): requests sent as built, answers streamed, failures named."""

from __future__ import annotations

import asyncio
import gzip
import json
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from helpers import free_port, serve
from mcpforge.runtime.calling.api import http_client
from mcpforge.runtime.calling.transport import Upstream, UpstreamError, UpstreamTimeout
from mcpforge.runtime.settings.table import Settings

SERVER: Any = {"name": "notes-mcp", "version": "1.0"}

PEERS: list[Any] = []


async def echo(request: Request) -> JSONResponse:
    PEERS.append(request.client.port if request.client else None)
    return JSONResponse(
        {
            "method": request.method,
            "query": request.url.query,
            "headers": {
                k: v for k, v in request.headers.items() if k in ("x-one", "cookie", "content-type", "user-agent")
            },
            "body": (await request.body()).decode(),
        },
        headers={"Set-Cookie": "session=abc; Path=/"},
    )


async def zipped(_: Request) -> Response:
    return Response(
        gzip.compress(b'{"packed": true}'), headers={"Content-Encoding": "gzip"}, media_type="application/json"
    )


async def moved(_: Request) -> RedirectResponse:
    return RedirectResponse("https://elsewhere.example/steal", status_code=302)


async def slow(_: Request) -> PlainTextResponse:
    await asyncio.sleep(2)
    return PlainTextResponse("late")


async def endless(_: Request) -> StreamingResponse:
    async def chunks() -> Any:
        while True:
            yield b"data: tick\n\n"
            await asyncio.sleep(0.01)

    return StreamingResponse(chunks(), media_type="text/event-stream")


APP = Starlette(
    routes=[
        Route("/echo", echo, methods=["GET", "POST"]),
        Route("/zipped", zipped),
        Route("/moved", moved),
        Route("/slow", slow),
        Route("/endless", endless),
    ]
)


def upstream(timeout: float = 5.0) -> Upstream:
    """The runtime's own connections to the API."""
    return http_client(Settings(base_url="http://127.0.0.1:9", timeout=timeout), SERVER)


async def exchange(pool: Upstream, method: str, url: str, body: bytes | None = None, **headers: str) -> Any:
    """One request through the pool: (status, reason, headers, body)."""
    async with pool.request(method, url, headers, body) as answer:
        content = b"".join([chunk async for chunk in answer.chunks()])
        return answer.status, answer.reason, dict(answer.headers), content


def test_requests_go_as_built_answers_come_decoded_and_connections_are_reused() -> None:
    PEERS.clear()
    with serve(APP) as base:

        async def scenario() -> list[Any]:
            async with upstream() as pool:
                posted = await exchange(pool, "POST", f"{base}/echo?q=a+b&n=%C3%A9", b'{"x":1}',
                                        **{"X-One": "1", "Content-Type": "application/json"})  # fmt: skip
                again = [await exchange(pool, "GET", f"{base}/echo") for _ in range(3)]
                unpacked = await exchange(pool, "GET", f"{base}/zipped")
                return [posted, again[-1], unpacked]

        posted, last, unpacked = anyio.run(scenario)
    status, reason, _, body = posted
    assert (status, reason) == (200, "OK")
    assert json.loads(body) == {
        "method": "POST",
        "query": "q=a+b&n=%C3%A9",  # sent exactly as encoded
        "headers": {"x-one": "1", "content-type": "application/json", "user-agent": "notes-mcp/1.0 (mcpforge)"},
        "body": '{"x":1}',
    }
    assert json.loads(last[3])["headers"] == {"user-agent": "notes-mcp/1.0 (mcpforge)"}  # no cookie sent back
    assert json.loads(unpacked[3]) == {"packed": True}  # Content-Encoding decoded
    assert len(set(PEERS)) == 1  # one kept-alive connection for the four requests


def test_redirects_are_not_followed_and_failures_say_what_failed() -> None:
    with serve(APP) as base:

        async def scenario() -> list[Any]:
            async with upstream(timeout=0.5) as pool:
                moved = await exchange(pool, "GET", f"{base}/moved")
                failures = []
                for url in (f"{base}/slow", f"http://127.0.0.1:{free_port()}/closed"):
                    try:
                        await exchange(pool, "GET", url)
                    except UpstreamError as exc:
                        failures.append(exc)
                return [moved, *failures]

        moved, slow, closed = anyio.run(scenario)
    assert (moved[0], moved[2]["Location"]) == (302, "https://elsewhere.example/steal")
    assert isinstance(slow, UpstreamTimeout)
    assert not isinstance(closed, UpstreamTimeout) and str(closed).startswith(
        "ConnectError: cannot connect to 127.0.0.1:"
    )
    # What a model reads says why, in the system's words, without aiohttp's internals ("ssl:default").
    assert str(closed).endswith("(Connection refused)") and "ssl" not in str(closed)


def test_a_stream_is_read_as_it_arrives_and_a_cancelled_read_leaves_the_pool_usable() -> None:
    with serve(APP) as base:

        async def scenario() -> tuple[int, Any]:
            async with upstream() as pool:
                seen = 0
                with anyio.move_on_after(0.3):
                    async with pool.request("GET", f"{base}/endless", {}) as answer:
                        async for chunk in answer.chunks():
                            seen += len(chunk)
                return seen, await exchange(pool, "GET", f"{base}/echo")

        seen, after = anyio.run(scenario)
    assert seen > 0 and json.loads(after[3])["method"] == "GET"


def test_token_endpoints_keep_httpx_through_the_same_pool_and_closing_closes_it() -> None:
    PEERS.clear()
    with serve(APP) as base:

        async def scenario() -> tuple[Any, bool]:
            pool = upstream()
            async with pool:
                answer = await pool.http.post(f"{base}/echo", data={"grant_type": "client_credentials"})
                await exchange(pool, "GET", f"{base}/echo")
                session = pool.session()
            return answer.json(), session.closed

        answer, closed = anyio.run(scenario)
    assert answer["body"] == "grant_type=client_credentials" and closed
    assert len(set(PEERS)) == 1  # httpx's request and the API's shared the connection
