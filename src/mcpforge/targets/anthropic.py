"""Anthropic tools: ``{name, description, input_schema}``, and a strict variant where possible.

Non-strict: the root is an object with ``properties`` and no root combinator (Anthropic rejects
them even without strict). Strict (provider-rules.md §5.2): ``additionalProperties: false`` on every
object, ``required`` kept as given, ``oneOf`` as ``anyOf``, ``$ref`` bare, a single ``type`` (a
type union becomes ``anyOf``), literals without ``type``, string formats from Anthropic's list,
``minItems`` 0 or 1, every other constraint moved into the description; no recursion, no
free-form objects. The result is a fixed point of the ``anthropic`` SDK's ``transform_schema``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from mcpforge.runtime.results.defs import REF_PREFIX
from mcpforge.targets.openai_strict import NotStrict
from mcpforge.targets.roots import fold_root
from mcpforge.text.prose import json_excerpt

__all__ = ["ANTHROPIC_FORMATS", "anthropic_strict_schema", "anthropic_tool"]

ANTHROPIC_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
)


def anthropic_tool(tool: Mapping[str, Any], *, strict: bool = False) -> tuple[dict[str, Any], str | None]:
    """One MCP tool in Anthropic's format; the second value says why strict was not possible."""
    schema = {k: v for k, v in fold_root(tool.get("inputSchema") or {"type": "object"}).items() if k != "$schema"}
    schema.setdefault("properties", {})
    out: dict[str, Any] = {"name": tool["name"], "description": tool.get("description") or "", "input_schema": schema}
    if not strict:
        return out, None
    try:
        out["input_schema"] = anthropic_strict_schema(schema)
    except NotStrict as exc:
        return out, str(exc)
    out["strict"] = True
    return out, None


def _describe(node: dict[str, Any], extra: dict[str, Any]) -> None:
    if extra:
        text = ", ".join(f"{k}: {json_excerpt(v)}" for k, v in extra.items())
        node["description"] = f"{node['description']} ({text})" if node.get("description") else f"({text})"


def _merge_all_of(
    node: dict[str, Any], defs: Mapping[str, Any], path: tuple[str, ...], seen: tuple[str, ...]
) -> dict[str, Any]:
    """``allOf`` of object schemas as one object (Anthropic keeps nothing beside an ``allOf``)."""
    parts = []
    for raw in node.pop("allOf"):
        part = raw
        while isinstance(part, dict) and "$ref" in part:
            name = str(part["$ref"])[len(REF_PREFIX) :]
            if name in seen or name not in defs:
                raise NotStrict("a recursive or unresolvable reference", path)
            part = {**defs[name], **{k: v for k, v in part.items() if k != "$ref"}}
        if isinstance(part, dict) and "allOf" in part:
            part = _merge_all_of(dict(part), defs, path, seen)
        if not isinstance(part, dict) or part.get("type", "object") != "object" or "anyOf" in part or "oneOf" in part:
            raise NotStrict("allOf of non-object schemas", path)
        parts.append(part)
    merged: dict[str, Any] = {"type": "object"}
    properties: dict[str, Any] = {}
    required: list[str] = []
    for part in [*parts, node]:
        properties.update(part.get("properties", {}))
        required.extend(r for r in part.get("required", []) if r not in required)
        merged.update({k: v for k, v in part.items() if k not in ("properties", "required")})
    merged["properties"] = properties
    if required:
        merged["required"] = required
    return merged


def _convert(node: Any, defs: Mapping[str, Any], path: tuple[str, ...], seen: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(node, dict) or not node:
        raise NotStrict("a node that accepts any value", path)
    node = dict(node)
    if "$ref" in node:
        name = str(node["$ref"])[len(REF_PREFIX) :]
        if name in seen or name not in defs:
            raise NotStrict("a recursive or unresolvable reference", path)
        merged = {**defs[name], **{k: v for k, v in node.items() if k != "$ref"}}
        return _convert(merged, defs, path, (*seen, name))  # inlined: strict Anthropic has no recursion
    if "allOf" in node:
        node = _merge_all_of(node, defs, path, seen)
    out: dict[str, Any] = {}
    for key in ("description", "title"):
        if isinstance(node.get(key), str):
            out[key] = node.pop(key)
    kind = node.pop("type", None)
    if (
        isinstance(node.get("enum"), list)
        and node["enum"]
        and all(v is None or isinstance(v, str | int | float | bool) for v in node["enum"])
    ):
        out["enum"] = node.pop("enum")
        kind = None
    elif "const" in node and (node["const"] is None or isinstance(node["const"], str | int | float | bool)):
        out["const"] = node.pop("const")
        kind = None
    branches = [*node.pop("anyOf", []), *node.pop("oneOf", [])]
    if isinstance(kind, list):
        types = [t for t in kind if isinstance(t, str)]
        if len(types) == 1:
            kind = types[0]
        else:
            branches = branches or [{**node, "type": t} for t in types]
            node = {}
            kind = None
    if branches and ("properties" in node or "required" in node):
        # Object keywords beside a union apply to every branch: A and (B or C) = (A and B) or (A and C).
        shared = {k: node.pop(k) for k in ("properties", "required", "additionalProperties") if k in node}
        branches = [{"allOf": [{"type": "object", **shared}, b]} for b in branches]
        kind = None
    if branches:
        out["anyOf"] = [_convert(b, defs, (*path, "anyOf", str(i)), seen) for i, b in enumerate(branches)]
    elif kind is None and "enum" not in out and "const" not in out:
        if "properties" in node:
            kind = "object"
        else:
            raise NotStrict("a node without a type", path)
    if kind is not None and "anyOf" not in out and "allOf" not in out:
        out["type"] = kind
    if kind == "object":
        extra = node.pop("additionalProperties", None)
        properties = node.pop("properties", {})
        if extra not in (None, False) or (not properties and extra is not False):
            raise NotStrict("a free-form object (undeclared properties allowed)", path)
        out["properties"] = {k: _convert(v, defs, (*path, "properties", k), seen) for k, v in properties.items()}
        out["additionalProperties"] = False
        if isinstance(node.get("required"), list):
            out["required"] = list(node.pop("required"))
    elif kind == "string":
        if node.get("format") in ANTHROPIC_FORMATS:
            out["format"] = node.pop("format")
    elif kind == "array":
        if "items" not in node or not node["items"]:
            raise NotStrict("an array without typed items", path)
        out["items"] = _convert(node.pop("items"), defs, (*path, "items"), seen)
        if node.get("minItems") in (0, 1):
            out["minItems"] = node.pop("minItems")
    for key in ("examples", "deprecated", "readOnly", "writeOnly", "$comment", "$defs"):
        node.pop(key, None)
    _describe(out, node)
    return out


def anthropic_strict_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A strict Anthropic ``input_schema`` (never mutates ``schema``); raises NotStrict."""
    return _convert(copy.deepcopy(dict(schema)), schema.get("$defs") or {}, (), ())
