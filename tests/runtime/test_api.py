"""The runtime against a real local upstream (uvicorn on loopback): OAuth2, response kinds, errors, secrets."""

from __future__ import annotations

import base64
import json
from typing import Any

import anyio
import pytest
from mcp import types

from conftest import FIXTURES
from helpers import contract_of, free_port, read_body, serve
from mcpforge.runtime.calling.api import Api, http_client
from mcpforge.runtime.results.tokens import tokens_of
from mcpforge.runtime.settings.table import read_settings

SECRET = "sk-live-very-secret-value"
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
)


class Upstream:
    """A small real HTTP API (ASGI, served by uvicorn on loopback) that records what it saw."""

    def __init__(self, token: bytes = b'{"access_token": "tok-123", "expires_in": 3600}') -> None:
        self.token_requests = 0
        self.page_requests = 0
        self.token = token
        self.seen: list[dict[str, Any]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = await read_body(receive)
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        self.seen.append({"path": scope["path"], "query": scope["query_string"].decode(), "headers": headers})
        status, media, payload = self.route(scope["path"], headers, scope["query_string"].decode(), body)
        sent = [(b"content-type", media.encode())]
        if scope["path"] == "/page":
            sent.append((b"link", b'<http://up/page?page=2&per_page=100>; rel="next"'))
        await send({"type": "http.response.start", "status": status, "headers": sent})
        await send({"type": "http.response.body", "body": payload})

    def route(self, path: str, headers: dict[str, str], query: str, body: bytes) -> tuple[int, str, bytes]:
        if path == "/token":
            self.token_requests += 1
            assert headers.get("authorization", "").startswith("Basic ")
            return 200, "application/json", self.token
        if path == "/json":
            if headers.get("authorization") != "Bearer tok-123":
                return 401, "application/json", b'{"message": "no token"}'
            return 200, "application/json", b'{"n": 1}'
        if path == "/page":
            self.page_requests += 1
            items = [
                {"id": i, "name": f"item {i}", "body": "x" * 3000, "owner": {"login": "o", "id": 7}} for i in range(100)
            ]
            return 200, "application/json", json.dumps(items).encode()
        if path.endswith("/echo"):
            echoed = {"path": path, "query": query, "label": headers.get("x-label")}
            return 200, "application/json", json.dumps(echoed).encode()
        if path == "/list":
            return 200, "application/json", b'["a", "b"]'
        if path == "/text":
            return 200, "text/plain; charset=utf-8", "héllo".encode()
        if path == "/image":
            return 200, "image/png", PNG
        if path == "/binary":
            return 200, "application/pdf", b"%PDF-1.4 ..."
        if path == "/huge":
            return 200, "text/plain", b"x" * 5000
        if path == "/error":
            return 503, "application/json", b'{"error": "maintenance"}'
        if path == "/feed":  # a next link that echoes the query credential, as some APIs do
            page = 2 if "page=2" in query else 1
            following = {"next": f"{headers['host']}/feed?{query}&page=2"} if page == 1 else {}
            following = {k: "http://" + v for k, v in following.items()}
            return 200, "application/json", json.dumps({"items": [f"p{page}"], **following}).encode()
        if path == "/echo-secret":
            return 400, "text/plain", f"bad key {query}".encode()
        if path == "/drift":
            return 200, "application/json", b'{"n": "not a number"}'
        return 404, "text/plain", b"not found"


@pytest.fixture(scope="module")
def data() -> Any:
    return contract_of(FIXTURES / "specs" / "runtime.yaml")


def call_all(
    data: Any,
    base_url: str,
    calls: list[tuple[str, dict[str, Any]]],
    env: dict[str, str],
    *,
    token_url: str | None = None,
) -> list[types.CallToolResult]:
    config: Any = {**data["server"], "baseUrl": base_url}
    config["securitySchemes"] = {
        k: {**v, **({"tokenUrl": token_url or base_url + "/token"} if "tokenUrl" in v else {})}
        for k, v in config["securitySchemes"].items()
    }
    contract: Any = {**data, "server": config}

    async def run() -> list[types.CallToolResult]:
        settings = read_settings(config, {"RUNTIME_MAX_RESPONSE_BYTES": "1024", **env})
        async with http_client(settings, config) as client:
            api = Api(contract, settings, client)
            return [await api.call(name, args) for name, args in calls]

    return anyio.run(run)


def text(result: types.CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, types.TextContent))


def test_oauth2_client_credentials_token_is_fetched_once_and_cached(data: Any) -> None:
    upstream = Upstream()
    env = {"RUNTIME_CC_CLIENT_ID": "client", "RUNTIME_CC_CLIENT_SECRET": SECRET}
    with serve(upstream) as url:
        results = call_all(data, url, [("getJson", {}), ("getJson", {})], env)
    assert [r.is_error for r in results] == [False, False]
    assert results[0].structured_content == {"n": 1}
    assert upstream.token_requests == 1


def test_response_kinds(data: Any) -> None:
    upstream = Upstream()
    with serve(upstream) as url:
        listed, plain, image, binary, huge, error, drift = call_all(
            data,
            url,
            [
                ("getList", {}),
                ("getText", {}),
                ("getImage", {}),
                ("getBinary", {}),
                ("getHuge", {}),
                ("getError", {}),
                ("getDrift", {}),
            ],
            {"RUNTIME_KEY_API_KEY": SECRET},
        )
    assert listed.structured_content == {"result": ["a", "b"]} and not listed.is_error
    assert "api_key=" + SECRET in upstream.seen[0]["query"]
    assert text(plain) == "héllo"
    assert isinstance(image.content[0], types.ImageContent) and base64.b64decode(image.content[0].data) == PNG
    assert isinstance(binary.content[0], types.EmbeddedResource)
    assert binary.content[0].resource.mime_type == "application/pdf"
    assert "truncated" in text(huge) and len(text(huge)) < 1200
    assert error.is_error and "HTTP 503" in text(error) and "maintenance" in text(error)
    assert drift.is_error and "does not match its documented schema" in text(drift)


def test_secrets_never_appear_in_results(data: Any) -> None:
    with serve(Upstream()) as url:
        (echoed,) = call_all(data, url, [("echoSecret", {})], {"RUNTIME_KEY_API_KEY": SECRET})
    assert echoed.is_error and SECRET not in str(echoed.model_dump()) and "***" in text(echoed)


def test_a_next_link_that_echoes_the_key_is_shown_without_it_and_still_works(data: Any) -> None:
    upstream = Upstream()
    with serve(upstream) as url:
        (first,) = call_all(data, url, [("getFeed", {})], {"RUNTIME_KEY_API_KEY": SECRET})
        following = first.meta["mcpforge/nextPage"]["arguments"]  # type: ignore[index]
        (second,) = call_all(data, url, [("getFeed", following)], {"RUNTIME_KEY_API_KEY": SECRET})
    assert SECRET not in str(first.model_dump()) and "api_key=***" in text(first)
    assert second.structured_content == {"items": ["p2"]} and not second.is_error
    # The server sent its own key once, not the redacted echo beside it.
    assert upstream.seen[-1]["query"] == f"page=2&api_key={SECRET}"


def test_connection_refused_and_unknown_tool(data: Any) -> None:
    refused, unknown = call_all(data, f"http://127.0.0.1:{free_port()}", [("getText", {}), ("nope", {})], {})
    assert refused.is_error and "failed" in text(refused)
    assert unknown.is_error and "Unknown tool" in text(unknown)


def test_base_url_path_and_query_are_kept() -> None:
    data = contract_of(FIXTURES / "specs" / "runtime.yaml")
    with serve(Upstream()) as url:
        (echoed,) = call_all(data, url + "/api/v2/?k=1", [("echo", {"q": "x y"})], {})
    assert echoed.structured_content == {"path": "/api/v2/echo", "query": "k=1&q=x+y", "label": None}


def test_argument_errors_name_the_argument(data: Any) -> None:
    with serve(Upstream()) as url:
        header, long_query = call_all(data, url, [("echo", {"X-Label": "café"}), ("echo", {"q": "x" * 10_000_000})], {})
    assert header.is_error and text(header) == (
        "argument 'X-Label' (header X-Label): HTTP header values must be ASCII; 'é' at position 3 is not"
    )
    assert long_query.is_error and "argument 'q' (10,000,002 characters)" in text(long_query)
    assert "over the limit of 32,768" in text(long_query)


def test_token_endpoint_failures_name_the_endpoint(data: Any) -> None:
    env = {"RUNTIME_CC_CLIENT_ID": "client", "RUNTIME_CC_CLIENT_SECRET": SECRET}
    with serve(Upstream(token=b'{"token_type": "bearer"}')) as url:
        (no_token,) = call_all(data, url, [("getJson", {})], env)
        refused_url = f"http://127.0.0.1:{free_port()}/token"
        (refused,) = call_all(data, url, [("getJson", {})], env, token_url=refused_url)
    assert no_token.is_error and text(no_token) == (
        f"the OAuth2 token endpoint {url}/token answered without an access_token (HTTP 200)"
    )
    assert refused.is_error and text(refused).startswith(f"the OAuth2 token request to {refused_url} failed: Connect")
    assert SECRET not in text(no_token) + text(refused)


def test_missing_credentials_are_named_when_the_api_refuses(data: Any) -> None:
    with serve(Upstream()) as url:
        (refused,) = call_all(data, url, [("getJson", {})], {})
    assert refused.is_error and text(refused).startswith("HTTP 401")
    assert "no credentials are configured for this operation: set RUNTIME_CC_TOKEN" in text(refused)


def test_large_results_fit_the_budget_as_valid_json_with_a_note_and_the_next_page(data: Any) -> None:
    upstream = Upstream()
    with serve(upstream) as url:
        full, picked, wrong = call_all(
            data,
            url,
            [
                ("getPage", {"per_page": 100}),
                ("getPage", {"per_page": 100, "fields": ["id", "owner.login"]}),
                ("getPage", {"fields": ["nmae"]}),
            ],
            {"RUNTIME_MAX_RESULT_TOKENS": "5000", "RUNTIME_MAX_RESPONSE_BYTES": "5000000"},
        )
    texts = [c.text for c in full.content if isinstance(c, types.TextContent)]
    # Text and structuredContent (the same value: the tool has an output schema) together within the budget.
    assert sum(tokens_of(t) for t in texts) + tokens_of(json.dumps(full.structured_content)) <= 5000
    items = json.loads(texts[0])
    assert full.structured_content == {"result": items} and 0 < len(items) < 100
    assert texts[1].startswith("[Result shortened to fit the budget of 5,000 tokens: kept the first")
    assert "ask only for the fields you need with 'fields'" in texts[1] and "'per_page'" in texts[1]
    assert 'call getPage with {"per_page":100,"page":2}' in texts[1]
    assert full.meta == {
        "mcpforge/shortened": [
            f"kept the first {len(items)} of 100 items of the result ({100 - len(items)} left out)",
            f"shortened {len(items)} string(s) to 2,000 characters (marked …)",
        ],
        "mcpforge/nextPage": {"tool": "getPage", "arguments": {"per_page": 100, "page": 2}},
    }
    selected = json.loads(picked.content[0].text)  # type: ignore[union-attr]
    assert len(selected) == 100 and selected[0] == {"id": 0, "owner": {"login": "o"}}
    assert picked.content[1].text == (  # type: ignore[union-attr]
        '[More results: call getPage with {"per_page":100,"fields":["id","owner.login"],"page":2}]'
    )
    assert (
        wrong.is_error
        and text(wrong) == "fields: unknown field 'nmae'; fields available at the top level: body, id, name, owner"
    )
    assert upstream.page_requests == 2  # the bad selection was refused before any request


def test_a_missing_credential_names_every_accepted_alternative() -> None:
    from mcpforge.runtime.access.credentials import Credentials, TokenCache

    schemes: Any = {
        "key": {"type": "apiKey", "in": "header", "name": "X-Key", "env": {"apiKey": "P_KEY_API_KEY"}},
        "bearer": {"type": "http", "scheme": "bearer", "env": {"token": "P_BEARER_TOKEN"}},
        "basic": {
            "type": "http",
            "scheme": "basic",
            "env": {"username": "P_BASIC_USERNAME", "password": "P_BASIC_PASSWORD"},
        },
    }
    security = [[["key", []]], [["bearer", []]], [["basic", []]]]
    credentials = Credentials(schemes, {"P_BASIC_USERNAME": "me"}, TokenCache())
    names = {"P_KEY_API_KEY": "X-P-Key-Api-Key", "P_BEARER_TOKEN": "X-P-Bearer-Token"}
    assert credentials.missing(security, names) == ["X-P-Key-Api-Key", "X-P-Bearer-Token", "P_BASIC_PASSWORD"]
    assert Credentials(schemes, {"P_BEARER_TOKEN": "t"}, TokenCache()).missing(security) == []
