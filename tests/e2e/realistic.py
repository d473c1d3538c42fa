"""A local upstream that serves realistic pages: each operation's documented example, its item repeated up
to the page size the call asks for, with a ``Link`` header to the next page.

Operations without a documented example get a value built from their response schema.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

from e2e.argsynth import build as build_value
from helpers import read_body
from mcpforge.diagnostics import Diagnostics
from mcpforge.openapi.load import load_document
from mcpforge.openapi.parse import parse_api
from mcpforge.openapi.refs import join_pointer
from mcpforge.runtime.results.media import is_json

PAGE_SIZE_PARAMETERS = ("per_page", "perPage", "page_size", "pageSize", "limit", "size", "count", "maxResults")
DEFAULT_PAGE = 30


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    example: Any


def _example(document: Any, media: Any, pointer: str) -> Any:
    resolver = document.resolver
    media, _, _ = resolver.follow(media, "", where=pointer)
    if not isinstance(media, dict):
        return None
    if "example" in media:
        return media["example"]
    for name, example in (media.get("examples") or {}).items():
        value, _, _ = resolver.follow(example, "", where=join_pointer(pointer, "examples", name))
        if isinstance(value, dict) and "value" in value:
            return value["value"]
    return None


def routes(spec: Path) -> list[Route]:
    """Every GET operation with a JSON success response, and the example it serves."""
    document = load_document(spec)
    api = parse_api(document, Diagnostics())
    found = []
    for op in api.operations:
        if op.method != "get":
            continue
        success = sorted((r for r in op.responses if r.status.startswith("2")), key=lambda r: r.status)
        media = next((m for r in success for m in r.contents if is_json(m.content_type) and m.schema), None)
        if media is None:
            continue
        raw_item = document.root["paths"][op.path]
        raw_item, _, _ = document.resolver.follow(raw_item, "", where=join_pointer("/paths", op.path))
        raw_response = (raw_item["get"].get("responses") or {}).get(success[0].status, {})
        raw_response, _, _ = document.resolver.follow(raw_response, "", where=op.pointer)
        content = (raw_response.get("content") or {}).get(media.content_type)
        example = _example(document, content, join_pointer(op.pointer, "responses", success[0].status))
        if example is None:
            example = build_value(media.schema, api.defs.response)
        found.append(Route("GET", op.path, example))
    return found


def _page(example: Any, size: int) -> tuple[Any, bool]:
    """The example with its list (or the first list field of an object) grown or cut to ``size`` items."""
    if isinstance(example, list) and example:
        return [example[0]] * size, True
    if isinstance(example, dict):
        for key, value in example.items():
            if isinstance(value, list) and value and isinstance(value[0], dict):
                return {**example, key: [value[0]] * size}, True
    return example, False


def _pattern(path: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^{}]+\})", path)
    return re.compile("^" + "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts) + "$")


class ExampleUpstream:
    """ASGI app answering with the example page of the operation the test is calling (``current``).

    Tests call one tool at a time and set ``current`` first, so overlapping path templates never
    serve the wrong example; without it, the path template with the most literal text that matches
    the request wins (what a benchmark calling another server needs).
    """

    def __init__(self, spec: Path) -> None:
        self.routes = {(r.method, r.path): r for r in routes(spec)}
        self.current: tuple[str, str] | None = None
        literal = lambda r: len(re.sub(r"\{[^{}]+\}", "", r.path))  # noqa: E731
        self._patterns = [(_pattern(r.path), r) for r in sorted(self.routes.values(), key=literal, reverse=True)]

    def match(self, method: str, path: str) -> Route | None:
        """The route serving ``path``."""
        if self.current is not None:
            return self.routes.get(self.current)
        return next((r for pattern, r in self._patterns if r.method == method and pattern.match(path)), None)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        await read_body(receive)
        path = scope["path"]
        query = dict(parse_qsl(scope["query_string"].decode()))
        route = self.match(scope["method"], path)
        headers = [(b"content-type", b"application/json")]
        if route is None:
            await send({"type": "http.response.start", "status": 404, "headers": headers})
            await send({"type": "http.response.body", "body": b'{"message": "Not Found"}'})
            return
        size_name = next((n for n in PAGE_SIZE_PARAMETERS if n in query), None)
        size = min(int(query[size_name]), 100) if size_name and query[size_name].isdigit() else DEFAULT_PAGE
        body, paged = _page(route.example, max(size, 1))
        if paged:
            page = query.get("page", "1")
            following = {**query, "page": str(int(page) + 1) if page.isdigit() else page + "-next"}
            headers.append((b"link", f'<http://upstream{path}?{urlencode(following)}>; rel="next"'.encode()))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": json.dumps(body).encode()})
