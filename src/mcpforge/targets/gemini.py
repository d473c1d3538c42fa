"""Gemini function declarations with ``parametersJsonSchema`` (provider-rules.md §6.3).

Stripped: ``$schema``, ``$id``, ``examples``, ``discriminator``, ``default``; ``const`` becomes a
one-value ``enum``; exclusive bounds become inclusive ones (``n + 1`` on integers; on numbers the
bound is dropped and described); a ``$ref`` with siblings is inlined (Gemini allows only
``$``-prefixed siblings). A tool without parameters omits ``parametersJsonSchema``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcpforge.runtime.results.defs import REF_PREFIX
from mcpforge.schema.keywords import NAME_MAPS, SCHEMA_LISTS, SINGLE_SUBSCHEMA
from mcpforge.schema.memo import IdentityMemo
from mcpforge.text.prose import with_notes

__all__ = ["Converted", "gemini_declaration", "gemini_schema"]

_DROP = frozenset({"$schema", "$id", "examples", "discriminator", "default", "$comment", "deprecated"})
# Keywords whose value is a schema or a list of them.
_SCHEMA_VALUES = frozenset(("items", *SINGLE_SUBSCHEMA, *SCHEMA_LISTS))


# Converted subschemas, by identity. Only those whose conversion inlines no reference are kept: the
# result of any other depends on the tool's own $defs.
Converted = IdentityMemo[Any]
_ROOT = "root"  # a whole input schema's result, apart from the same object met as a subschema


class _Converter:
    def __init__(self, defs: Mapping[str, Any], memo: Converted, description_max: int | None) -> None:
        self.defs = defs
        self.memo = memo
        self.description_max = description_max
        self.inlined = 0  # references met so far whose result depends on ``defs``

    def convert(self, node: Any, seen: tuple[str, ...]) -> Any:
        """``node`` in Gemini's dialect; parts that need no change are shared, not copied (Graph: 11,000 tools)."""
        if isinstance(node, list):
            items = [self.convert(v, seen) for v in node]
            return items if any(a is not b for a, b in zip(items, node, strict=True)) else node
        if not isinstance(node, dict):
            return node
        done = self.memo.get(node)
        if done is not None:
            return done
        before = self.inlined
        result = self._convert(node, seen)
        if self.inlined == before:  # the tools share their definitions: each is converted once
            self.memo.put(node, result)
        return result

    def _convert(self, node: dict[str, Any], seen: tuple[str, ...]) -> Any:
        if "$ref" in node and len(node) > 1:
            self.inlined += 1
            name = str(node["$ref"])[len(REF_PREFIX) :]
            if name in self.defs and name not in seen:
                merged = {**self.defs[name], **{k: v for k, v in node.items() if k != "$ref"}}
                return self.convert(merged, (*seen, name))
            return {"$ref": node["$ref"]}
        out: dict[str, Any] = {}
        notes: list[str] = []
        changed = False
        for key, value in node.items():
            if key in _DROP:
                changed = True
                continue
            if key == "const":
                out["enum"] = [value]
                changed = True
            elif key in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, int | float):
                changed = True
                if node.get("type") == "integer" and isinstance(value, int):
                    out["minimum" if key == "exclusiveMinimum" else "maximum"] = value + (
                        1 if key == "exclusiveMinimum" else -1
                    )
                else:
                    notes.append(f"{'greater' if key == 'exclusiveMinimum' else 'less'} than {value}")
            elif key in NAME_MAPS and isinstance(value, dict):
                converted = {k: self.convert(v, seen) for k, v in value.items()}
                same = all(converted[k] is v for k, v in value.items())
                out[key] = value if same else converted
                changed = changed or not same
            elif key in _SCHEMA_VALUES and (isinstance(value, dict | list)):
                out[key] = self.convert(value, seen)
                changed = changed or out[key] is not value
            else:
                out[key] = value  # enum, required, bounds...: not schemas, nothing to convert
        if notes:
            out["description"] = with_notes(out.get("description"), notes, self.description_max)
        return out if changed else node


def gemini_schema(
    input_schema: Mapping[str, Any], memo: Converted | None = None, description_max: int | None = None
) -> dict[str, Any]:
    """``parametersJsonSchema`` for Gemini (the input is not mutated).

    ``memo``, shared by the tools of one manifest, converts each subschema they share once; a
    description that gains notes stays within ``description_max`` characters.
    """
    memo = Converted() if memo is None else memo
    found = memo.get(input_schema, _ROOT)
    if found is not None:  # tools that share their input schema share its declaration's schema
        return dict(found)
    converter = _Converter(input_schema.get("$defs") or {}, memo, description_max)
    result: dict[str, Any] = dict(converter.convert(input_schema, ()))  # shares unchanged parts
    return dict(memo.put(input_schema, result, _ROOT))


def gemini_declaration(
    tool: Mapping[str, Any], memo: Converted | None = None, description_max: int | None = None
) -> dict[str, Any]:
    """One MCP tool as a Gemini ``FunctionDeclaration`` (``memo``, ``description_max``: see :func:`gemini_schema`)."""
    declaration: dict[str, Any] = {"name": tool["name"], "description": tool.get("description") or ""}
    schema = tool.get("inputSchema") or {}
    if schema.get("properties"):
        declaration["parametersJsonSchema"] = gemini_schema(schema, memo, description_max)
    return declaration
