"""Gemini function declarations with ``parametersJsonSchema`` (provider-rules.md §6.3).

Stripped: ``$schema``, ``$id``, ``examples``, ``discriminator``, ``default``; ``const`` becomes a
one-value ``enum``; exclusive bounds become inclusive ones (``n + 1`` on integers; on numbers the
bound is dropped and described); a ``$ref`` with siblings is inlined (Gemini allows only
``$``-prefixed siblings). A tool without parameters omits ``parametersJsonSchema``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcpforge.runtime.defs import REF_PREFIX

__all__ = ["gemini_declaration", "gemini_schema"]

_DROP = frozenset({"$schema", "$id", "examples", "discriminator", "default", "$comment", "deprecated"})
_SCHEMA_MAPS = frozenset({"properties", "$defs", "patternProperties", "dependentSchemas"})
_SCHEMA_VALUES = frozenset(
    {
        "items",
        "additionalProperties",
        "anyOf",
        "oneOf",
        "allOf",
        "prefixItems",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedProperties",
        "unevaluatedItems",
    }
)


def _convert(node: Any, defs: Mapping[str, Any], seen: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_convert(v, defs, seen) for v in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node and len(node) > 1:
        name = str(node["$ref"])[len(REF_PREFIX) :]
        if name in defs and name not in seen:
            merged = {**defs[name], **{k: v for k, v in node.items() if k != "$ref"}}
            return _convert(merged, defs, (*seen, name))
        node = {"$ref": node["$ref"]}
    out: dict[str, Any] = {}
    notes: list[str] = []
    for key, value in node.items():
        if key in _DROP:
            continue
        if key == "const":
            out["enum"] = [value]
        elif key in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, int | float):
            if node.get("type") == "integer" and isinstance(value, int):
                out["minimum" if key == "exclusiveMinimum" else "maximum"] = value + (
                    1 if key == "exclusiveMinimum" else -1
                )
            else:
                notes.append(f"{'greater' if key == 'exclusiveMinimum' else 'less'} than {value}")
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {k: _convert(v, defs, seen) for k, v in value.items()}
        elif key in _SCHEMA_VALUES:
            out[key] = _convert(value, defs, seen)
        else:
            out[key] = value  # enum, required, bounds...: not schemas, nothing to convert
    if notes:
        text = ", ".join(notes)
        out["description"] = f"{out['description']} ({text})" if out.get("description") else f"({text})"
    return out


def gemini_schema(input_schema: Mapping[str, Any]) -> dict[str, Any]:
    """``parametersJsonSchema`` for Gemini (the input is not mutated)."""
    result: dict[str, Any] = _convert(dict(input_schema), input_schema.get("$defs") or {}, ())  # builds new nodes
    return result


def gemini_declaration(tool: Mapping[str, Any]) -> dict[str, Any]:
    """One MCP tool as a Gemini ``FunctionDeclaration``."""
    declaration: dict[str, Any] = {"name": tool["name"], "description": tool.get("description") or ""}
    schema = tool.get("inputSchema") or {}
    if schema.get("properties"):
        declaration["parametersJsonSchema"] = gemini_schema(schema)
    return declaration
