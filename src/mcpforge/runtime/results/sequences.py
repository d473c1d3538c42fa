"""Sequential media types (OpenAPI 3.2 ``itemSchema``): JSON Lines, NDJSON, JSON text sequences, server-sent events.

A response stream becomes a list of items (JSON values; for server-sent events, objects with
``event``, ``data``, ``id`` and ``retry``), read only as far as the result budget reaches: a partial
last item of a stream cut short is left out. A request body's items are written one per line
(JSON Lines), after a record separator (JSON text sequences), or as ``data:`` events.
"""

from __future__ import annotations

import json
from typing import Any

from .media import base_media_type

__all__ = ["parse_items", "serialize_items"]

_RS = b"\x1e"  # RFC 7464 record separator


def _json_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


def _events(text: str, complete: bool) -> list[dict[str, Any]]:
    blocks = text.replace("\r\n", "\n").replace("\r", "\n").split("\n\n")
    if not complete:
        blocks = blocks[:-1]  # the last block may be cut in the middle
    events = []
    for block in blocks:
        event: dict[str, Any] = {}
        data: list[str] = []
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue  # blank, or a comment (keep-alive)
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "data":
                data.append(value)
            elif name in ("event", "id"):
                event[name] = value
            elif name == "retry" and value.isdigit():
                event[name] = int(value)
        if data:
            event["data"] = "\n".join(data)
        if event:
            events.append(event)
    return events


def parse_items(content_type: str, body: bytes, *, complete: bool) -> list[Any]:
    """The items of a stream body; ``complete`` false drops a last item the read may have cut."""
    media = base_media_type(content_type)
    text = body.decode("utf-8", errors="replace")
    if media == "text/event-stream":
        return _events(text, complete)
    if media == "application/json-seq":
        records = body.split(_RS)
        if not complete:
            records = records[:-1]
        return [_json_or_text(r.decode("utf-8", errors="replace").strip()) for r in records if r.strip()]
    lines = text.split("\n")
    if not complete:
        lines = lines[:-1]
    return [_json_or_text(line.strip()) for line in lines if line.strip()]


def serialize_items(content_type: str, items: list[Any]) -> bytes:
    """A request body of ``items`` in the stream format of ``content_type``."""
    media = base_media_type(content_type)
    encoded = [json.dumps(item, ensure_ascii=False, separators=(",", ":")) for item in items]
    if media == "text/event-stream":
        return "".join(f"data: {line}\n\n" for line in encoded).encode("utf-8")
    if media == "application/json-seq":
        return b"".join(_RS + line.encode("utf-8") + b"\n" for line in encoded)
    return "".join(f"{line}\n" for line in encoded).encode("utf-8")
