"""Pagination hints: the arguments of this same tool that fetch the next page.

Read, in order, from a ``Link: <...>; rel="next"`` header (GitHub and many others); from a next URL,
cursor or page number in the body (``next_cursor``, ``nextPageToken``, ``@odata.nextLink``,
``response_metadata.next_cursor``, ``links.next``, ``next_page``...); from Stripe-style ``has_more``
with the last item's ``id``; or from ``page`` and ``total_pages``. Only values that map onto the
tool's own query arguments become a hint; anything else is left out rather than guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from .contract import ToolEntry

__all__ = ["next_page"]

_LINK = re.compile(r'<([^>]*)>\s*;[^,]*?\brel="?([^",;]*)"?', re.IGNORECASE)
_CONTAINERS = ("", "meta", "pagination", "paging", "page_info", "pageInfo", "links", "_links", "response_metadata")
_NEXT_KEYS = (
    "next_cursor",
    "nextCursor",
    "next_page_token",
    "nextPageToken",
    "next_token",
    "nextToken",
    "@odata.nextLink",
    "next_link",
    "nextLink",
    "next_url",
    "nextUrl",
    "next",
    "endCursor",
    "continuation",
    "continuationToken",
    "next_page",
    "nextPage",
)
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


def _query_args(entry: ToolEntry) -> dict[str, str]:
    """Query parameter name on the wire -> tool argument."""
    return {b.get("name", b["arg"]): b["arg"] for b in entry["bindings"] if b["in"] == "query"}


def _typed(entry: ToolEntry, arg: str, value: str) -> Any:
    schema = entry["tool"]["inputSchema"].get("properties", {}).get(arg, {})
    kind = schema.get("type") if isinstance(schema, Mapping) else None
    kinds = kind if isinstance(kind, list) else [kind]
    if ("integer" in kinds or "number" in kinds) and value.lstrip("-").isdigit():
        return int(value)
    return value


def _from_url(entry: ToolEntry, url: str, arguments: Mapping[str, Any]) -> dict[str, Any] | None:
    by_wire = _query_args(entry)
    changes: dict[str, Any] = {}
    for name, value in parse_qsl(urlsplit(url).query, keep_blank_values=True):
        arg = by_wire.get(name)
        typed = _typed(entry, arg, value) if arg else value
        if arg is None:
            continue  # a parameter the tool does not take (often one the API repeats unchanged)
        if arguments.get(arg) != typed:
            changes[arg] = typed
    return changes or None


def _link_next(header: str) -> str | None:
    for url, rel in _LINK.findall(header):
        if "next" in str(rel).lower().split():
            return str(url)
    return None


def _find_next(body: Mapping[str, Any]) -> tuple[str, Any] | None:
    for container in _CONTAINERS:
        node = body.get(container) if container else body
        if not isinstance(node, Mapping):
            continue
        for key in _NEXT_KEYS:
            value = node.get(key)
            if isinstance(value, str | int) and not isinstance(value, bool) and value not in ("", 0):
                return key, value
            if isinstance(value, Mapping) and isinstance(value.get("href"), str):  # HAL: _links.next.href
                return key, value["href"]
    return None


def _cursor_arg(entry: ToolEntry, key: str) -> str | None:
    by_wire = _query_args(entry)
    stem = key.lower().removeprefix("next_").removeprefix("next").lstrip("_")
    for wire, arg in by_wire.items():
        if wire.lower().replace("_", "") == stem.replace("_", "") and stem:
            return arg
    return next((by_wire[name] for name in _CURSOR_ARGS if name in by_wire), None)


def _page_arg(entry: ToolEntry) -> str | None:
    by_wire = _query_args(entry)
    return next((by_wire[name] for name in _PAGE_ARGS if name in by_wire), None)


def _from_body(entry: ToolEntry, body: Any, arguments: Mapping[str, Any]) -> dict[str, Any] | None:
    if not isinstance(body, Mapping):
        return None
    found = _find_next(body)
    if found is not None:
        key, value = found
        if isinstance(value, str) and (value.startswith(("http://", "https://", "/", "?"))):
            return _from_url(entry, value, arguments)
        if isinstance(value, int) or (key in ("next_page", "nextPage") and str(value).isdigit()):
            page = _page_arg(entry)
            return {page: int(value)} if page else None
        cursor = _cursor_arg(entry, key)
        return {cursor: value} if cursor else None
    data = body.get("data")
    by_wire = _query_args(entry)
    if body.get("has_more") is True and isinstance(data, list) and data and "starting_after" in by_wire:
        last = data[-1]
        if isinstance(last, Mapping) and isinstance(last.get("id"), str | int):
            return {by_wire["starting_after"]: last["id"]}
    page, total = body.get("page") or body.get("current_page"), body.get("total_pages") or body.get("last_page")
    if isinstance(page, int) and isinstance(total, int) and page < total and _page_arg(entry):
        return {_page_arg(entry) or "page": page + 1}
    return None


def next_page(entry: ToolEntry, link_header: str, body: Any, arguments: Mapping[str, Any]) -> dict[str, Any] | None:
    """The full arguments of this tool for the next page, or None when there is none (or it cannot be said)."""
    changes = None
    url = _link_next(link_header) if link_header else None
    if url is not None:
        changes = _from_url(entry, url, arguments)
    if changes is None:
        changes = _from_body(entry, body, arguments)
    if not changes:
        return None
    return {**arguments, **changes}
