"""``$defs`` references inside one JSON Schema: the one follower, shared by the generator and the server."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["MAX_REF_HOPS", "REF_PREFIX", "deref", "ref_name"]

REF_PREFIX = "#/$defs/"
MAX_REF_HOPS = 32


def ref_name(node: Any) -> str | None:
    """The definition a ``{"$ref": "#/$defs/<name>", ...}`` node points at, else None."""
    # A plain dict first: schemas are parsed JSON, and the ABC check costs more than the rest of the call.
    ref = node.get("$ref") if type(node) is dict or isinstance(node, Mapping) else None
    return ref[len(REF_PREFIX) :] if isinstance(ref, str) and ref.startswith(REF_PREFIX) else None


def deref(node: Any, defs: Mapping[str, Any]) -> Any:
    """``node`` with ``#/$defs/`` references followed; ``{}`` (anything) for other, unknown or cyclic ones."""
    for _ in range(MAX_REF_HOPS):
        if not ((type(node) is dict or isinstance(node, Mapping)) and isinstance(node.get("$ref"), str)):
            return node
        name = ref_name(node)
        if name is None:
            return {}
        node = defs.get(name, {})
    return {}
