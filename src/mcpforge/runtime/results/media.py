"""Media types: the one classifier, shared by the generator (bodies, responses) and the server (results).

``media_kind`` says how a body of a media type is carried: ``json`` (``application/json``,
``*+json``, ``*/*``), ``sequence`` (a stream of JSON values or events: JSON Lines, NDJSON, JSON text
sequences, server-sent events), ``form`` (urlencoded), ``multipart``, ``text`` (``text/*``, XML,
YAML, CSV, JavaScript, GraphQL, SQL) or ``binary`` (anything else).
"""

from __future__ import annotations

from typing import Literal

__all__ = ["SEQUENCES", "MediaKind", "base_media_type", "is_json", "media_kind"]

MediaKind = Literal["json", "sequence", "form", "multipart", "text", "binary"]
SEQUENCES = frozenset(
    {
        "application/jsonl",
        "application/x-ndjson",
        "application/x-jsonlines",
        "application/json-seq",
        "text/event-stream",
    }
)
_TEXT_TYPES = frozenset(
    {
        "application/xml",
        "application/yaml",
        "application/x-yaml",
        "application/javascript",
        "application/graphql",
        "application/sql",
        "application/csv",
    }
)


def base_media_type(content_type: str) -> str:
    """``text/plain; charset=utf-8`` -> ``text/plain`` (lower case)."""
    return content_type.split(";", maxsplit=1)[0].strip().lower()


def media_kind(content_type: str) -> MediaKind:
    """How a body of ``content_type`` is carried in a tool argument or result."""
    base = base_media_type(content_type)
    if base in SEQUENCES or base.endswith(("+jsonl", "+json-seq")):
        return "sequence"
    if base in ("application/json", "*/*") or base.endswith(("+json", "/json")):
        return "json"
    if base == "application/x-www-form-urlencoded":
        return "form"
    if base.startswith("multipart/"):
        return "multipart"
    if base.startswith("text/") or base.endswith(("+xml", "/xml", "+yaml")) or base in _TEXT_TYPES:
        return "text"
    return "binary"


def is_json(content_type: str) -> bool:
    """Whether a body of ``content_type`` is JSON."""
    return media_kind(content_type) == "json"
