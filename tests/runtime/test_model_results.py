"""What a model meets, against a real paging, throttling, XML-speaking upstream: hints followed to the end.

Every paging style the server recognises is followed call after call, exactly as the result's
``_meta`` and note say, and must visit every item once and stop.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import anyio
import pytest
from mcp import types

from helpers import contract_of, read_body, serve, write_spec
from mcpforge.runtime.calling.api import Api, http_client, retry_after
from mcpforge.runtime.results.responses import NEXT_PAGE_META
from mcpforge.runtime.results.tokens import tokens_of
from mcpforge.runtime.settings.table import read_settings

ITEMS = [{"id": i, "name": f"item {i}: " + "a long description of the item " * 3 + "end"} for i in range(23)]
ITEM = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}
LIST = {"type": "array", "items": ITEM}

SPEC = f"""
openapi: 3.0.3
info: {{title: Pager, version: "1"}}
paths:
  /page:
    get:
      operationId: list-by-page
      parameters:
        - {{name: page, in: query, schema: {{type: integer, default: 1}}}}
        - {{name: per_page, in: query, schema: {{type: integer, default: 10}}}}
      responses: {{"200": {{description: ok, content: {{application/json: {{schema: {json.dumps(LIST)}}}}}}}}}
  /offset:
    get:
      operationId: list-by-offset
      parameters:
        - {{name: offset, in: query, schema: {{type: integer}}}}
        - {{name: limit, in: query, schema: {{type: integer}}}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {{type: object, properties: {{items: {json.dumps(LIST)}, total: {{type: integer}}}}}}
  /cursor:
    get:
      operationId: list-by-cursor
      parameters:
        - {{name: cursor, in: query, schema: {{type: string}}}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties: {{data: {json.dumps(LIST)}, next_cursor: {{type: string, nullable: true}}}}
  /link:
    get:
      operationId: list-by-link
      parameters:
        - {{name: page, in: query, schema: {{type: integer}}}}
        - {{name: archived, in: query, schema: {{type: boolean}}}}
      responses: {{"200": {{description: ok, content: {{application/json: {{schema: {json.dumps(LIST)}}}}}}}}}
  /since:
    get:
      operationId: list-since
      parameters:
        - {{name: per_page, in: query, schema: {{type: integer}}}}
      responses: {{"200": {{description: ok, content: {{application/json: {{schema: {json.dumps(LIST)}}}}}}}}}
  /trips:
    get:
      operationId: get-trips
      parameters:
        - {{name: origin, in: query, required: true, schema: {{type: string}}}}
        - {{name: bicycles, in: query, schema: {{type: boolean}}}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                allOf:
                  - {{type: object, properties: {{data: {json.dumps(LIST)}}}}}
                  - {{type: object, properties: {{links: {{type: object, properties: {{next: {{type: string}}}}}}}}}}
  /pets:
    get:
      operationId: listPets
      responses:
        "200":
          description: ok
          content:
            application/xml: {{schema: {{type: array, xml: {{wrapped: true}}, items: {json.dumps(ITEM)}}}}}
            application/json: {{schema: {json.dumps(LIST)}}}
  /throttled:
    get:
      operationId: throttled
      responses: {{"200": {{description: ok, content: {{application/json: {{schema: {{type: object}}}}}}}}}}
    post:
      operationId: throttledPost
      responses: {{"200": {{description: ok, content: {{application/json: {{schema: {{type: object}}}}}}}}}}
  /busy:
    get:
      operationId: busy
      responses: {{"200": {{description: ok}}}}
  /problem:
    get:
      operationId: problem
      parameters:
        - {{name: limit, in: query, schema: {{type: integer}}}}
      responses: {{"200": {{description: ok}}}}
  /html:
    get:
      operationId: htmlError
      responses: {{"200": {{description: ok}}}}
  /slow:
    get:
      operationId: slow
      responses: {{"200": {{description: ok}}}}
"""


class Pager:
    """A real HTTP API paging 23 items in five styles, answering XML, throttling and failing on purpose."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, dict[str, str]]] = []
        self.throttled = 0
        self.slow_cancelled = threading.Event()  # set in the server's thread

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        await read_body(receive)
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        query = {k: v[-1] for k, v in parse_qs(scope["query_string"].decode(), keep_blank_values=True).items()}
        self.seen.append((scope["method"] + " " + scope["path"], scope["query_string"].decode(), headers))
        if scope["path"] == "/slow":
            with anyio.move_on_after(30):
                if (await receive())["type"] == "http.disconnect":  # the client gave up on the request
                    self.slow_cancelled.set()
            return
        status, extra, body = self.route(scope["method"], scope["path"], query, headers)
        media = next((v for k, v in extra if k == "content-type"), "application/json")
        sent = [(b"content-type", media.encode())] + [(k.encode(), v.encode()) for k, v in extra if k != "content-type"]
        await send({"type": "http.response.start", "status": status, "headers": sent})
        await send(
            {"type": "http.response.body", "body": body if isinstance(body, bytes) else json.dumps(body).encode()}
        )

    def route(self, method: str, path: str, q: dict[str, str], headers: dict[str, str]) -> tuple[int, Any, Any]:
        if path == "/page":
            page, size = int(q.get("page", 1)), int(q.get("per_page", 10))
            return 200, [], ITEMS[(page - 1) * size : page * size]
        if path == "/offset":
            offset, limit = int(q.get("offset", 0)), int(q.get("limit", 7))
            return 200, [], {"items": ITEMS[offset : offset + limit], "total": len(ITEMS)}
        if path == "/cursor":
            start = int(q.get("cursor", "c0")[1:])
            more = start + 5 < len(ITEMS)
            return 200, [], {"data": ITEMS[start : start + 5], "next_cursor": f"c{start + 5}" if more else None}
        if path == "/link":
            assert q.get("archived", "false") in ("true", "false")
            page = int(q.get("page", 1))
            rels = [f'<http://up/link?archived=false&page={page - 1}>; rel="prev"'] if page > 1 else []
            if page * 6 < len(ITEMS):
                rels.append(f'<http://up/link?archived=false&page={page + 1}>; rel="next"')
            return 200, [("link", ", ".join(rels))], ITEMS[(page - 1) * 6 : page * 6]
        if path == "/since":  # pages by a query parameter the document does not declare
            since = int(q.get("since", 0))
            link = f'<http://up/since?since={since + 6}>; rel="next"' if since + 6 < len(ITEMS) else ""
            return 200, [("link", link)], ITEMS[since : since + 6]
        if path == "/trips":
            page = int(q.get("page", 1))
            host = headers["host"]
            more = page * 8 < len(ITEMS)
            following = f"http://{host}/trips?origin={q['origin']}&bicycles=false&page={page + 1}" if more else None
            return 200, [], {"data": ITEMS[(page - 1) * 8 : page * 8], "links": {"next": following}}
        if path == "/pets":
            if "application/json" in headers.get("accept", "").split(",")[0]:
                assert headers["accept"] == "application/json, application/xml;q=0.9"
            pets = "".join(f"<pet id='{i['id']}'><name>{i['name']}</name></pet>" for i in ITEMS[:3])
            return 200, [("content-type", "application/xml")], f"<pets>{pets}</pets>".encode()
        if path == "/throttled":
            self.throttled += 1
            if self.throttled == 1 or method == "POST":
                return 429, [("retry-after", "0")], {"message": "slow down"}
            return 200, [], {"ok": True}
        if path == "/busy":
            return 503, [("retry-after", "120")], {"error": {"message": "down for maintenance"}}
        if path == "/problem":
            problem = {
                "type": "https://example.com/probs/validation",
                "title": "Your request is not valid.",
                "invalid-params": [{"name": "limit", "reason": "must be at most 50"}],
            }
            return 422, [("content-type", "application/problem+json")], problem
        if path == "/html":
            html = b"<html><head><title>500 Internal Server Error</title><style>p{}</style></head>"
            return 500, [("content-type", "text/html")], html + b"<body><h1>Oops</h1><p>Try later.</p></body></html>"
        return 404, [], {"message": "no such path"}


@pytest.fixture(scope="module")
def contract(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return contract_of(write_spec(tmp_path_factory.mktemp("pager"), SPEC))


def run(contract: Any, url: str, body: Any, env: dict[str, str] | None = None) -> Any:
    config: Any = {**contract["server"], "baseUrl": url}
    settings = read_settings(config, {"PAGER_RETRY_MAX_WAIT": "5", **(env or {})})

    async def go() -> Any:
        async with http_client(settings, config) as client:
            data: Any = {**contract, "server": config}
            return await body(Api(data, settings, client))

    return anyio.run(go)


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, types.TextContent))


def follow(api: Api, tool: str, arguments: dict[str, Any]) -> Any:
    """Call, then call again with exactly the arguments the result gives, until it gives none."""

    async def go() -> tuple[list[Any], list[dict[str, Any]]]:
        seen: list[Any] = []
        calls = [arguments]
        while len(calls) < 20:
            result = await api.call(tool, calls[-1])
            assert not result.is_error, text_of(result)
            value = json.loads(result.content[0].text)  # type: ignore[union-attr]
            rows = value if isinstance(value, list) else next(v for v in value.values() if isinstance(v, list))
            seen += [row["id"] for row in rows]
            following = (result.meta or {}).get(NEXT_PAGE_META)
            if following is None:
                return seen, calls
            assert following["tool"] == tool
            # The note the model reads carries the same arguments, whole.
            assert f"call {tool} with {json.dumps(following['arguments'], separators=(',', ':'))}" in text_of(result)
            calls.append(following["arguments"])
        raise AssertionError(f"the hints never stopped: {calls}")

    return go()


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("list-by-page", {}),
        ("list-by-page", {"per_page": 5}),
        ("list-by-offset", {"limit": 7}),
        ("list-by-offset", {}),
        ("list-by-cursor", {}),
        ("list-by-link", {"archived": False}),
        ("get-trips", {"origin": "berlin", "bicycles": False}),
    ],
)
def test_following_the_hints_visits_every_item_once_and_stops(contract: Any, tool: str, arguments: Any) -> None:
    with serve(Pager()) as url:
        seen, calls = run(contract, url, lambda api: follow(api, tool, arguments))
    assert seen == [item["id"] for item in ITEMS], calls
    for call in calls:
        for key, value in arguments.items():
            assert call[key] == value  # typed as the schema says: false stays a boolean


def test_a_next_url_the_arguments_cannot_say_travels_in_the_page_url_argument(contract: Any) -> None:
    trips = next(e for e in contract["tools"] if e["tool"]["name"] == "get-trips")
    assert trips["pageUrl"] == "page_url" and "page_url" in trips["tool"]["inputSchema"]["properties"]
    assert "pageUrl" not in next(e for e in contract["tools"] if e["tool"]["name"] == "list-by-page")
    with serve(Pager()) as url:
        foreign, other_path = run(
            contract,
            url,
            lambda api: _gather(
                api.call("get-trips", {"origin": "x", "page_url": "http://evil.example/trips?page=2"}),
                api.call("get-trips", {"origin": "x", "page_url": url + "/busy?page=2"}),
            ),
        )
    assert foreign.is_error and "not a URL of this API" in text_of(foreign)
    assert other_path.is_error and "not a page of GET /trips" in text_of(other_path)


def test_more_results_no_argument_can_ask_for_are_said_not_hidden(contract: Any) -> None:
    with serve(Pager()) as url:
        (first,) = run(contract, url, lambda api: _gather(api.call("list-since", {})))
    assert [row["id"] for row in json.loads(first.content[0].text)] == list(range(6))
    assert first.content[-1].text == (
        "[More results exist, but no argument of this tool asks for the next page: "
        "narrow the request with its arguments to see the rest.]"
    )
    assert NEXT_PAGE_META not in (first.meta or {})


async def _gather(*calls: Any) -> list[Any]:
    return [await call for call in calls]


def test_xml_answers_become_json_and_fields_select_from_them(contract: Any) -> None:
    with serve(Pager()) as url:
        whole, picked = run(
            contract,
            url,
            lambda api: _gather(api.call("listPets", {}), api.call("listPets", {"fields": ["name"]})),
        )
    expected = ITEMS[:3]
    assert not whole.is_error and json.loads(whole.content[0].text) == expected
    assert whole.structured_content == {"result": expected}
    assert json.loads(picked.content[0].text) == [{"name": item["name"]} for item in ITEMS[:3]]


def test_throttling_is_retried_when_safe_and_otherwise_says_when_to_retry(contract: Any) -> None:
    pager = Pager()
    with serve(pager) as url:
        retried, posted, busy = run(
            contract,
            url,
            lambda api: _gather(api.call("throttled", {}), api.call("throttledPost", {}), api.call("busy", {})),
        )
    assert not retried.is_error and retried.structured_content == {"ok": True}
    # POST without an Idempotency-Key is never repeated; a 120 s Retry-After is over the 5 s cap: no wait.
    assert [s[0] for s in pager.seen] == ["GET /throttled", "GET /throttled", "POST /throttled", "GET /busy"]
    assert posted.is_error and text_of(posted) == "HTTP 429 Too Many Requests: slow down Retry after 0 s."
    assert busy.is_error and text_of(busy) == "HTTP 503 Service Unavailable: down for maintenance Retry after 120 s."
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0 and retry_after("soon") is None


def test_errors_carry_the_apis_own_message_naming_the_argument(contract: Any) -> None:
    with serve(Pager()) as url:
        problem, page = run(
            contract, url, lambda api: _gather(api.call("problem", {"limit": 99}), api.call("htmlError", {}))
        )
    assert problem.is_error and text_of(problem) == (
        "HTTP 422 Unprocessable Entity: Your request is not valid. (argument 'limit': must be at most 50)"
    )
    assert problem.structured_content is not None and problem.structured_content["status"] == 422
    assert (
        page.is_error and text_of(page) == "HTTP 500 Internal Server Error: 500 Internal Server Error: Oops Try later."
    )


def test_results_stay_within_the_budget_text_and_structure_together(contract: Any, tmp_path: Path) -> None:
    del tmp_path
    with serve(Pager()) as url:
        (result,) = run(
            contract,
            url,
            lambda api: _gather(api.call("list-by-page", {"per_page": 23})),
            {"PAGER_MAX_RESULT_TOKENS": "500"},
        )
    total = sum(tokens_of(c.text) for c in result.content if isinstance(c, types.TextContent))
    total += tokens_of(json.dumps(result.structured_content)) if result.structured_content is not None else 0
    assert total <= 500 and "shortened" in text_of(result)


def test_a_cancelled_call_cancels_its_upstream_request(contract: Any) -> None:
    pager = Pager()
    with serve(pager) as url:

        async def cancel(api: Api) -> bool:
            with anyio.move_on_after(0.5):
                await api.call("slow", {})
            for _ in range(100):
                if pager.slow_cancelled.is_set():
                    return True
                await anyio.sleep(0.05)
            return False

        assert run(contract, url, cancel)
