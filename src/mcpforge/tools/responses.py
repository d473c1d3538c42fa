"""What a tool derives from its operation's responses: the Accept header, and whether it pages by URL."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mcpforge.openapi.model import Operation
from mcpforge.runtime.results.defs import deref
from mcpforge.runtime.results.media import base_media_type, media_kind
from mcpforge.runtime.results.pages import CONTAINERS, NEXT_URL_KEYS, PAGING_ARGS
from mcpforge.schema import JsonSchema

__all__ = ["accept_header", "declared_properties", "pages_by_url"]

_MAX_DEPTH = 8  # allOf/anyOf nesting followed when collecting a schema's properties


def accept_header(op: Operation) -> str:
    """``Accept`` for the operation: its declared response media types, JSON ones first, the rest weighted lower.

    Success responses' types come before error responses'. "" when the operation declares none (the
    server then asks for JSON, or anything).
    """
    ordered = sorted(op.responses, key=lambda r: (r.status[:1] != "2", r.status))
    declared = list(dict.fromkeys(base_media_type(m.content_type) for r in ordered for m in r.contents))
    declared = [media for media in declared if media]
    if not declared:
        return ""
    wildcards = [media for media in declared if media.endswith("/*")]
    exact = [media for media in declared if not media.endswith("/*")]
    parts = [media for media in exact if media_kind(media) == "json"]
    weight = 10
    for media in exact:
        if media_kind(media) != "json":
            weight = max(weight - 1, 2)
            parts.append(f"{media};q=0.{weight}")
    parts += [f"{media};q=0.1" for media in wildcards]
    return ", ".join(parts)


def declared_properties(schema: Any, defs: Mapping[str, Any], depth: int = 0) -> dict[str, Any]:
    """The properties an object schema declares, through ``$ref`` and ``allOf``/``anyOf``/``oneOf``."""
    schema = deref(schema, defs)
    if not isinstance(schema, Mapping) or depth > _MAX_DEPTH:
        return {}
    found = dict(schema.get("properties") or {})
    for key in ("allOf", "anyOf", "oneOf"):
        for branch in schema.get(key) or ():
            for name, sub in declared_properties(branch, defs, depth + 1).items():
                found.setdefault(name, sub)
    return found


def pages_by_url(body: JsonSchema | None, defs: Mapping[str, Any], query_names: Iterable[str]) -> bool:
    """Whether the tool needs an argument for a next-page URL: the body names one, and no paging argument can say it."""
    if body is None or PAGING_ARGS.intersection(query_names):
        return False
    top = declared_properties(body, defs)
    nodes = [top, *(declared_properties(top[c], defs) for c in CONTAINERS if c and c in top)]
    return any(key in node for node in nodes for key in NEXT_URL_KEYS)
