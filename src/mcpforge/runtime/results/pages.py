"""Pagination hints: the exact arguments of this same tool that fetch the next page.

Read, in order, from a ``Link`` header (GitHub and many others); from a next URL, cursor or page
number in the body (``next_cursor``, ``nextPageToken``, ``@odata.nextLink``, ``links.next``,
``response_metadata.next_cursor``, ``next_page``...); from Stripe-style ``has_more`` with the last
item's ``id``; from ``page`` and ``total_pages``; and last from the tool's own offset or page
number argument and the items this page held. A next URL's query values are typed by the tool's
input schema; a next URL whose query the tool's arguments cannot express travels whole in the
tool's page-URL argument (generated for tools that page that way). The hints stop: an explicit end
(``rel="next"`` absent from a ``Link`` header, a null next key, ``has_more: false``, a short or
empty page, the total reached) gives none. Where the API says more results exist but no argument of
the tool can ask for them (a next link whose query the tool does not take, a cursor without a cursor
argument), the answer is :data:`Paging.UNREACHABLE`, so the model is told rather than left to think
it has everything.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from ..contract import ToolEntry
from .typed import kinds, typed_text

__all__ = ["CONTAINERS", "NEXT_URL_KEYS", "PAGING_ARGS", "SIZE_ARGS", "Paging", "next_page"]

_LINK = re.compile(r'<([^>]*)>\s*;[^,]*?\brel="?([^",;]*)"?', re.IGNORECASE)
CONTAINERS = ("", "meta", "pagination", "paging", "page_info", "pageInfo", "links", "_links", "response_metadata")
# Keys whose value is usually the next page's URL (a tool without a cursor argument follows it whole).
NEXT_URL_KEYS = ("@odata.nextLink", "next_link", "nextLink", "next_url", "nextUrl", "next", "next_page_url")
_NEXT_KEYS = (
    "next_cursor",
    "nextCursor",
    "next_page_token",
    "nextPageToken",
    "next_token",
    "nextToken",
    *NEXT_URL_KEYS,
    "endCursor",
    "continuation",
    "continuationToken",
    "next_page",
    "nextPage",
)
_MORE_KEYS = ("has_more", "hasMore", "hasNextPage", "has_next_page", "more")
_CURSOR_ARGS = (
    "cursor",
    "after",
    "page_token",
    "pageToken",
    "next_token",
    "nextToken",
    "starting_after",
    "continuation",
    "continuationToken",
    "marker",
    "next",
    "token",
    "page_cursor",
    "$skiptoken",
)
_PAGE_ARGS = ("page", "page_number", "pageNumber", "p")
_OFFSET_ARGS = ("offset", "skip", "$skip", "start", "startIndex", "start_index", "from")
SIZE_ARGS = ("per_page", "perPage", "page_size", "pageSize", "limit", "size", "count", "maxResults", "$top", "top")
PAGING_ARGS = frozenset((*_CURSOR_ARGS, *_PAGE_ARGS, *_OFFSET_ARGS))
_TOTAL_KEYS = ("total", "total_count", "totalCount", "total_results", "totalResults", "total_items", "totalItems")
_ITEM_KEYS = ("data", "items", "results", "records", "entries", "values", "value", "list", "objects", "hits", "rows")
_END = object()  # the response says there is no next page


class Paging(Enum):
    """What a response says of a next page when it cannot be given as this tool's arguments."""

    UNREACHABLE = "unreachable"  # more results exist, but no argument of this tool asks for them


def _query_args(entry: ToolEntry) -> dict[str, str]:
    """Query parameter name on the wire -> tool argument."""
    return {b.get("name", b["arg"]): b["arg"] for b in entry["bindings"] if b["in"] == "query"}


def _arg_schema(entry: ToolEntry, arg: str) -> Mapping[str, Any]:
    schema = entry["tool"]["inputSchema"].get("properties", {}).get(arg, {})
    return schema if isinstance(schema, Mapping) else {}


def _typed(entry: ToolEntry, arg: str, values: Sequence[str]) -> Any:
    """A query value (repeated for exploded arrays) as the argument's schema types it."""
    schema = _arg_schema(entry, arg)
    if "array" in kinds(schema):
        items = schema.get("items", {})
        parts = list(values) if len(values) > 1 else [p for v in values for p in v.split(",") if p]
        return [typed_text(p, items if isinstance(items, Mapping) else {}) for p in parts]
    return typed_text(values[-1], schema)


def _from_url(entry: ToolEntry, url: str, arguments: Mapping[str, Any]) -> dict[str, Any] | Paging | None:
    """The arguments a next URL asks for; the whole URL in the page-URL argument when they cannot say it.

    :data:`Paging.UNREACHABLE` when the URL asks for something the tool cannot (a query parameter it
    does not take, another path); None when it asks for exactly this call again.
    """
    by_wire = _query_args(entry)
    grouped: dict[str, list[str]] = {}
    for name, value in parse_qsl(urlsplit(url).query, keep_blank_values=True):
        grouped.setdefault(name, []).append(value)
    page_url = entry.get("pageUrl")
    unknown = [name for name in grouped if name not in by_wire]
    if page_url and (unknown or not grouped):
        return {page_url: url}
    changes: dict[str, Any] = {}
    for name, values in grouped.items():
        arg = by_wire.get(name)
        if arg is None:
            continue  # a parameter the tool does not take (often one the API repeats unchanged)
        typed = _typed(entry, arg, values)
        if arguments.get(arg) != typed:
            changes[arg] = typed
    if page_url and page_url in arguments:
        changes[page_url] = None  # the declared arguments say it all: the URL is dropped
    if not changes:
        return Paging.UNREACHABLE if unknown or not grouped else None
    return changes


def _link_next(header: str) -> str | object | None:
    """The ``rel="next"`` URL; :data:`_END` when the header pages (first, prev, last) but has no next."""
    paging = False
    for url, rel in _LINK.findall(header):
        rels = str(rel).lower().split()
        if "next" in rels:
            return str(url)
        paging = paging or bool({"prev", "previous", "first", "last"} & set(rels))
    return _END if paging else None


def _find_next(body: Mapping[str, Any]) -> tuple[str, Any] | object | None:
    """``(key, value)`` of the next-page marker, :data:`_END` when the body says there is none, else None."""
    for container in CONTAINERS:
        node = body.get(container) if container else body
        if not isinstance(node, Mapping):
            continue
        if any(node.get(key) is False for key in _MORE_KEYS):
            return _END
        for key in _NEXT_KEYS:
            if key not in node:
                continue
            value = node[key]
            if isinstance(value, str | int) and not isinstance(value, bool) and value not in ("", 0):
                return key, value
            if isinstance(value, Mapping) and isinstance(value.get("href"), str):  # HAL: _links.next.href
                return key, value["href"]
            if value is None or value in ("", 0, False):
                return _END
    return None


def _first(entry: ToolEntry, names: Sequence[str]) -> str | None:
    by_wire = _query_args(entry)
    return next((by_wire[name] for name in names if name in by_wire), None)


def _cursor_arg(entry: ToolEntry, key: str) -> str | None:
    by_wire = _query_args(entry)
    stem = key.lower().removeprefix("next_").removeprefix("next").lstrip("_")
    for wire, arg in by_wire.items():
        if wire.lower().replace("_", "") == stem.replace("_", "") and stem:
            return arg
    return _first(entry, _CURSOR_ARGS)


def _items(body: Any) -> list[Any] | None:
    """The list of items a page holds: the body itself, or its one list of records."""
    if isinstance(body, list):
        return body
    if not isinstance(body, Mapping):
        return None
    for key in _ITEM_KEYS:
        if isinstance(body.get(key), list):
            return list(body[key])
    lists = [v for v in body.values() if isinstance(v, list)]
    return lists[0] if len(lists) == 1 else None


def _number(body: Mapping[str, Any], keys: Sequence[str]) -> int | None:
    for container in CONTAINERS:
        node = body.get(container) if container else body
        if isinstance(node, Mapping):
            for key in keys:
                value = node.get(key)
                if isinstance(value, int) and not isinstance(value, bool):
                    return value
    return None


def _start(entry: ToolEntry, arg: str, arguments: Mapping[str, Any], fallback: int) -> int:
    """The argument's value in this call, else its documented default or minimum, else ``fallback``."""
    value = arguments.get(arg)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    schema = _arg_schema(entry, arg)
    for key in ("default", "minimum"):
        if isinstance(schema.get(key), int) and not isinstance(schema.get(key), bool):
            return int(schema[key])
    return fallback


def _by_count(entry: ToolEntry, body: Any, arguments: Mapping[str, Any]) -> dict[str, Any] | None:
    """Offset or page-number paging from the tool's own arguments: the next offset or page, until a short page."""
    offset, page = _first(entry, _OFFSET_ARGS), _first(entry, _PAGE_ARGS)
    items = _items(body)
    if (offset is None and page is None) or not items:
        return None
    size_arg = _first(entry, SIZE_ARGS)
    size = _start(entry, size_arg, arguments, 0) if size_arg else 0
    total = _number(body, _TOTAL_KEYS) if isinstance(body, Mapping) else None
    if offset is not None:
        start = _start(entry, offset, arguments, 0)
        if (total is not None and start + len(items) >= total) or (size and len(items) < size):
            return None
        return {offset: start + len(items)}
    assert page is not None
    if size and len(items) < size:
        return None
    current = _start(entry, page, arguments, 1)
    if total is not None and size and current * size >= total:
        return None
    return {page: current + 1}


def _from_body(entry: ToolEntry, body: Any, arguments: Mapping[str, Any]) -> dict[str, Any] | Paging | object | None:
    if not isinstance(body, Mapping):
        return _by_count(entry, body, arguments)
    found = _find_next(body)
    if found is _END:
        return _END
    if isinstance(found, tuple):
        key, value = found
        if isinstance(value, str) and (value.startswith(("http://", "https://", "/", "?"))):
            return _from_url(entry, value, arguments)
        page = _first(entry, _PAGE_ARGS)
        if isinstance(value, int) or (key in ("next_page", "nextPage") and str(value).isdigit()):
            return {page: int(value)} if page else Paging.UNREACHABLE
        cursor = _cursor_arg(entry, key)
        if cursor is None:
            return Paging.UNREACHABLE
        return {cursor: _typed(entry, cursor, [str(value)]) if isinstance(value, str) else value}
    data = body.get("data")
    starting_after = _first(entry, ("starting_after",))
    if body.get("has_more") is True and isinstance(data, list) and data and starting_after:
        last = data[-1]
        if isinstance(last, Mapping) and isinstance(last.get("id"), str | int):
            return {starting_after: last["id"]}
    page, total = body.get("page") or body.get("current_page"), body.get("total_pages") or body.get("last_page")
    page_arg = _first(entry, _PAGE_ARGS)
    if isinstance(page, int) and isinstance(total, int):
        if page >= total:
            return _END
        if page_arg:
            return {page_arg: page + 1}
        more = True  # pages are left, and no argument names one: the tool's own offset, if it has one
    else:
        more = any(body.get(key) is True for key in _MORE_KEYS)
    counted = _by_count(entry, body, arguments)
    if counted is None and more:
        return Paging.UNREACHABLE
    return counted


def next_page(
    entry: ToolEntry, link_header: str, body: Any, arguments: Mapping[str, Any]
) -> dict[str, Any] | Paging | None:
    """The full arguments of this tool for the next page; None when there is none; or that it cannot be asked."""
    changes: dict[str, Any] | Paging | object | None = None
    if link_header:
        url = _link_next(link_header)
        changes = _from_url(entry, url, arguments) if isinstance(url, str) else url
    if changes is None or changes is Paging.UNREACHABLE:
        said = _from_body(entry, body, arguments)
        # A body's marker says "more" only of a page of items (a record may have a field named "next").
        if said is Paging.UNREACHABLE and not _items(body):
            said = None
        changes = said if changes is None or isinstance(said, dict) else changes
    if changes is Paging.UNREACHABLE:
        return Paging.UNREACHABLE
    if not isinstance(changes, dict) or not changes:
        return None
    following = {**arguments, **changes}
    return {key: value for key, value in following.items() if value is not None}
