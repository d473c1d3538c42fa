"""The API's connection pool (aiohttp under httpx): what httpx's own pool did, bytes for bytes, and no more."""

from __future__ import annotations

import asyncio
import gzip
from typing import Any

import anyio
import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from helpers import free_port, serve
from mcpforge.runtime.calling.api import http_client
from mcpforge.runtime.calling.transport import PooledTransport
from mcpforge.runtime.settings.table import Settings

PEERS: list[Any] = []


async def echo(request: Request) -> JSONResponse:
    PEERS.append(request.client.port if request.client else None)
    return JSONResponse(
        {
            "method": request.method,
            "query": request.url.query,
            "headers": {k: v for k, v in request.headers.items() if k in ("x-one", "cookie", "content-type")},
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


def client(timeout: float = 5.0) -> httpx.AsyncClient:
    """The runtime's own client for the API."""
    return http_client(Settings(base_url="http://127.0.0.1:9", timeout=timeout))


def test_requests_and_responses_pass_unchanged_and_connections_are_reused() -> None:
    PEERS.clear()
    with serve(APP) as base:

        async def scenario() -> list[Any]:
            async with client() as http:
                posted = await http.post(
                    f"{base}/echo", params={"q": "a b", "n": "1"}, json={"x": [1, "é"]}, headers={"X-One": "1"}
                )
                again = [(await http.get(f"{base}/echo")).json() for _ in range(3)]
                unpacked = await http.get(f"{base}/zipped")
                return [posted.status_code, posted.json(), again[-1], unpacked.json(), posted.reason_phrase]

        status, posted, last, unpacked, reason = anyio.run(scenario)
    assert status == 200 and reason == "OK"
    assert posted == {
        "method": "POST",
        "query": "q=a+b&n=1",
        "headers": {"x-one": "1", "content-type": "application/json"},
        "body": '{"x":[1,"é"]}',
    }
    assert last["headers"] == {}  # the cookie the API set is not sent back: no state between callers
    assert unpacked == {"packed": True}  # Content-Encoding decoded, as httpx does
    assert len(set(PEERS)) == 1  # one kept-alive connection for the four requests


def test_redirects_are_not_followed_and_errors_are_httpx_errors() -> None:
    with serve(APP) as base:

        async def scenario() -> tuple[int, str, type[BaseException], type[BaseException]]:
            async with client(timeout=0.5) as http:
                moved = await http.get(f"{base}/moved")
                errors = []
                for url in (f"{base}/slow", f"http://127.0.0.1:{free_port()}/closed"):
                    try:
                        await http.get(url)
                    except httpx.HTTPError as exc:
                        errors.append(type(exc))
                return moved.status_code, moved.headers["location"], errors[0], errors[1]

        status, location, slow_error, closed_error = anyio.run(scenario)
    assert (status, location) == (302, "https://elsewhere.example/steal")
    assert issubclass(slow_error, httpx.TimeoutException)
    assert issubclass(closed_error, httpx.ConnectError)


def test_a_stream_is_read_as_it_arrives_and_a_cancelled_read_leaves_the_pool_usable() -> None:
    with serve(APP) as base:

        async def scenario() -> tuple[int, dict[str, Any]]:
            async with client() as http:
                seen = 0
                with anyio.move_on_after(0.3):
                    async with http.stream("GET", f"{base}/endless") as response:
                        async for chunk in response.aiter_bytes():
                            seen += len(chunk)
                return seen, (await http.get(f"{base}/echo")).json()

        seen, after = anyio.run(scenario)
    assert seen > 0 and after["method"] == "GET"


@pytest.mark.parametrize("closing", ["aclose", "context"])
def test_closing_the_client_closes_the_pool(closing: str) -> None:
    with serve(APP) as base:

        async def scenario() -> bool:
            transport = PooledTransport()
            http = httpx.AsyncClient(transport=transport)
            if closing == "aclose":
                await http.get(f"{base}/echo")
                await http.aclose()
            else:
                async with http:
                    await http.get(f"{base}/echo")
            return transport._session is not None and transport._session.closed

        assert anyio.run(scenario)
