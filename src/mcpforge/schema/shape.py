"""Loosened "shape" schemas for tool outputs: types and property names to a bounded depth.

An output schema tells the model what a result looks like; the official MCP clients also
validate every result against it. A shape keeps only ``type``, ``properties``, ``items`` and
combinators (``oneOf`` relaxed to ``anyOf``), so it is strictly looser than the API's schema:
a response that is valid for the API is always valid for the shape, the size is bounded by
the depth, and cycles end where the depth does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcpforge.runtime.results.defs import deref
from mcpforge.schema import JsonSchema
from mcpforge.schema.memo import IdentityMemo

__all__ = ["Shaper", "shape"]


class Shaper:
    """Shapes of one document's schemas: a subschema that several outputs share is shaped once per depth.

    Shapes are shared between the results, like any unchanged subschema: never mutate them.
    """

    def __init__(self, defs: Mapping[str, JsonSchema]) -> None:
        self.defs = defs
        self._memo = IdentityMemo[JsonSchema]()

    def shape(self, schema: JsonSchema, depth: int, hops: int = 12) -> JsonSchema:
        """The loosened shape of ``schema``, showing the properties of ``depth`` levels of objects.

        Arrays and combinators do not use up depth (a list of objects shows its items' fields);
        ``hops`` bounds the walk through them, so an array of arrays of itself still ends.
        """
        node = deref(schema, self.defs)  # references to one definition: one shape
        if not isinstance(node, dict):
            return node if isinstance(node, bool) else {}
        found = self._memo.get(node, depth, hops)
        return found if found is not None else self._memo.put(node, self._shape(node, depth, hops), depth, hops)

    def _shape(self, node: dict[str, Any], depth: int, hops: int) -> JsonSchema:
        out: dict[str, Any] = {}
        if isinstance(node.get("type"), str | list):
            out["type"] = node["type"]
        if depth <= 0 or hops <= 0:
            if out.get("type") == "array" or (isinstance(out.get("type"), list) and "array" in out["type"]):
                out["items"] = {}
            return out
        hops -= 1
        properties = node.get("properties")
        if isinstance(properties, dict):
            out["properties"] = {name: self.shape(sub, depth - 1, hops) for name, sub in properties.items()}
        items = node.get("items")
        if isinstance(items, (dict, bool)):
            out["items"] = self.shape(items, depth, hops)
        elif "items" in out or out.get("type") == "array":
            out["items"] = {}
        branches = [b for key in ("anyOf", "oneOf") for b in node.get(key) or [] if isinstance(node.get(key), list)]
        if branches:
            out["anyOf"] = [self.shape(b, depth, hops) for b in branches]
        if isinstance(node.get("allOf"), list):
            parts = [self.shape(b, depth, hops) for b in node["allOf"]]
            if (
                all(
                    isinstance(p, dict) and p.get("type") == "object" and set(p) <= {"type", "properties"}
                    for p in parts
                )
                and out.get("type", "object") == "object"
                and "anyOf" not in out
            ):
                # allOf of plain objects (inheritance): one object with every branch's properties
                merged = dict(out.get("properties", {}))
                for part in parts:
                    merged.update(part.get("properties", {}))  # type: ignore[union-attr]
                out["type"] = "object"
                out["properties"] = merged
            else:
                out["allOf"] = parts
        elif "properties" in out and "type" not in out:
            out["type"] = "object"
        return out


def shape(schema: JsonSchema, defs: Mapping[str, JsonSchema], depth: int) -> JsonSchema:
    """The loosened shape of ``schema`` (see :meth:`Shaper.shape`), for one schema."""
    return Shaper(defs).shape(schema, depth)
