"""The API's own words from an error response: one short line a model can act on.

Understood shapes: RFC 9457 problem details (``title``, ``detail``, ``invalid-params``), ``message``,
``error`` (a string or ``{"message": ...}``), ``error_description``, ``errors[]`` (strings or objects
with ``message``/``detail`` and a field), FastAPI's ``detail[]`` (``loc``, ``msg``). A field the API
blames is named as the tool's argument when it is one. An HTML error page becomes its title or
first words; other text is left to the caller to quote.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["api_message", "html_line"]

_MAX = 500  # characters of the API's message kept
_MAX_ITEMS = 5  # field errors listed
_TAG = re.compile(r"<[^>]*>")
_DROPPED = re.compile(r"<(script|style|head)\b.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_TITLE = re.compile(r"<title[^>]*>(.*?)</title\s*>", re.IGNORECASE | re.DOTALL)
_FIELD_KEYS = ("name", "field", "param", "parameter", "path", "pointer", "property", "loc", "location")
_TEXT_KEYS = ("reason", "message", "msg", "detail", "description", "title")


def _short(text: str, limit: int = _MAX) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def html_line(text: str) -> str:
    """An HTML page as one short line: its title and first words, without markup."""
    title = _TITLE.search(text)
    body = _TAG.sub(" ", _DROPPED.sub(" ", text))
    words = " ".join(html.unescape(body).split())
    head = " ".join(html.unescape(_TAG.sub("", title.group(1))).split()) if title else ""
    if head and words.startswith(head):
        words = words[len(head) :].strip()
    return _short(f"{head}: {words}" if head and words else head or words, 200)


def _string(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _field(item: Mapping[str, Any], wire: Mapping[str, str]) -> str | None:
    for key in _FIELD_KEYS:
        value = item.get(key)
        if isinstance(value, list):  # FastAPI: ["query", "limit"]; keep the last name
            value = next((str(v) for v in reversed(value) if isinstance(v, str | int)), None)
        if isinstance(value, str) and value:
            name = value.rsplit("/", 1)[-1].rsplit(".", 1)[-1] if key == "pointer" or "/" in value else value
            arg = wire.get(name)
            return f"argument {arg!r}" if arg else repr(value)
    return None


def _items(items: list[Any], wire: Mapping[str, str]) -> str | None:
    lines = []
    for item in items[:_MAX_ITEMS]:
        if isinstance(item, str):
            lines.append(item)
        elif isinstance(item, Mapping):
            text = next((t for key in _TEXT_KEYS if (t := _string(item.get(key)))), None)
            field = _field(item, wire)
            if text or field:
                lines.append(f"{field}: {text}" if field and text else text or f"{field} is invalid")
    if not lines:
        return None
    more = f" (and {len(items) - _MAX_ITEMS} more)" if len(items) > _MAX_ITEMS else ""
    return "; ".join(lines) + more


def _from_json(body: Any, wire: Mapping[str, str]) -> str | None:
    if isinstance(body, list):
        return _items(body, wire)
    if not isinstance(body, Mapping):
        return _string(body)
    error = body.get("error")
    if isinstance(error, Mapping):
        nested = _from_json(error, wire)
        if nested:
            return nested
    head = next(
        (
            t
            for t in (
                _string(body.get("detail")),
                _string(body.get("message")),
                _string(error),
                _string(body.get("error_description")),
                _string(body.get("title")),
                _string(body.get("msg")),
            )
            if t
        ),
        None,
    )
    if isinstance(error, str) and head and head != error and _string(body.get("error_description")) == head:
        head = f"{error}: {head}"
    details = None
    for key in ("invalid-params", "invalid_params", "errors", "detail", "details", "violations", "fieldErrors"):
        if isinstance(body.get(key), list):
            details = _items(body[key], wire)
            if details:
                break
    if head and details:
        return f"{head} ({details})"
    return head or details


def api_message(body: Any, media: str, text: str, wire: Mapping[str, str]) -> str:
    """The API's message from an error response ("" when none is found); ``wire`` maps parameter names to arguments."""
    if body is not None:
        found = _from_json(body, wire)
        return _short(found) if found else ""
    if media in ("text/html", "application/xhtml+xml") or text.lstrip()[:15].lower().startswith(("<!doctype", "<html")):
        return html_line(text)
    return ""
