"""OpenAI strict mode (Structured Outputs subset): make a JSON Schema strict, or say why it cannot be.

Rules (provider-rules.md §3): every object gets ``additionalProperties: false`` and lists every
property in ``required``; optional properties become nullable (a ``null`` type or ``anyOf`` branch,
``null`` added to ``enum``); ``oneOf`` becomes ``anyOf``; ``allOf`` of objects is merged;
``$ref`` with siblings is inlined; keywords outside the allow-list are removed and stated in the
description; formats outside the nine allowed and patterns with lookaround are dropped; the size
limits are checked. A schema that cannot be made strict without changing what it accepts (free-form
objects, untyped nodes, tuples) raises :class:`NotStrict`: the caller emits the tool non-strict.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from mcpforge.runtime.results.defs import REF_PREFIX
from mcpforge.schema.memo import IdentityMemo
from mcpforge.text.prose import json_excerpt, with_notes

__all__ = ["ALLOWED_FORMATS", "STRICT_KEYWORDS", "NotStrict", "Strictified", "has_lookaround", "strict_schema"]

ALLOWED_FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"})
_KEEP = frozenset(
    {
        "type",
        "description",
        "title",
        "enum",
        "const",
        "anyOf",
        "$ref",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "pattern",
        "format",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "minItems",
        "maxItems",
    }
)
# Every keyword a strict schema may contain ($defs only at the root).
STRICT_KEYWORDS = _KEEP | {"$defs"}
_SILENT = frozenset({"examples", "deprecated", "readOnly", "writeOnly", "$comment", "$id", "$schema", "$anchor"})
_LOOKAROUND = re.compile(r"\(\?<?[=!]")
_MAX_DEPTH = 10
_MAX_PROPERTIES = 5000
_MAX_ENUM_VALUES = 1000
_MAX_STRING_BUDGET = 120_000


class NotStrict(ValueError):
    """The schema cannot be made strict without changing what it accepts."""

    def __init__(self, reason: str, path: tuple[str, ...]) -> None:
        where = "/" + "/".join(path) if path else "the root"
        super().__init__(f"{reason} at {where}")
        self.reason = reason
        self.path = path


def has_lookaround(pattern: str) -> bool:
    """Whether a regular expression uses lookahead or lookbehind (OpenAI rejects them)."""
    return bool(_LOOKAROUND.search(pattern))


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _enum_values(schema: dict[str, Any]) -> int:
    enum = schema.get("enum")
    return len(enum) if isinstance(enum, list) else 0


def _nullable(converted: dict[str, Any]) -> dict[str, Any]:
    """``converted`` that also accepts ``null`` (how strict mode expresses "optional"); a new schema.

    Converted schemas are shared between tools (see :class:`Strictified`): never changed in place.
    """
    schema = dict(converted)
    kind = schema.get("type")
    if "$ref" in schema or (kind is None and "anyOf" not in schema):
        annotations: dict[str, Any] = {k: schema.pop(k) for k in ("description", "title") if k in schema}
        return {**annotations, "anyOf": [schema, {"type": "null"}]}
    if kind is None:
        if {"type": "null"} not in schema["anyOf"]:
            schema["anyOf"] = [*schema["anyOf"], {"type": "null"}]
        return schema
    kinds = kind if isinstance(kind, list) else [kind]
    if "null" not in kinds:
        schema["type"] = [*kinds, "null"]
    if "enum" in schema and None not in schema["enum"]:
        schema["enum"] = [*schema["enum"], None]
    if "const" in schema:
        schema["enum"] = [schema.pop("const"), None]
    return schema


# Converted subschemas, by identity and depth: the result and what it adds to the size limits. Only
# subschemas without a $ref are kept: converting one depends on nothing but itself and its depth
# (a reference depends on the tool's $defs).
Strictified = IdentityMemo[tuple[dict[str, Any], tuple[int, int, int]]]


class _Strictifier:
    def __init__(self, defs: Mapping[str, Any], memo: Strictified, description_max: int | None) -> None:
        self.defs = defs
        self.memo = memo
        self.description_max = description_max
        self.out_defs: dict[str, Any] = {}
        self.inlining: list[str] = []
        self.references = 0  # $refs met so far
        self.properties = 0
        self.enum_values = 0
        self.string_budget = 0

    def counts(self) -> tuple[int, int, int]:
        """What the schema converted so far adds to the size limits."""
        return self.properties, self.enum_values, self.string_budget

    def definition(self, name: str, path: tuple[str, ...]) -> None:
        if name in self.out_defs:
            return
        if name not in self.defs:
            raise NotStrict(f"unresolvable reference to {name!r}", path)
        self.out_defs[name] = {}  # placeholder: recursion through $defs is allowed
        self.string_budget += len(name)
        self.out_defs[name] = self.node(self.defs[name], ("$defs", name), 1)

    def inline(self, node: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
        """A ``$ref`` with siblings: the target merged with the siblings (siblings win)."""
        while "$ref" in node:
            self.references += 1
            ref = node["$ref"]
            if not isinstance(ref, str) or not ref.startswith(REF_PREFIX):
                raise NotStrict(f"unsupported reference {ref!r}", path)
            name = ref[len(REF_PREFIX) :]
            if name in self.inlining or name not in self.defs:
                raise NotStrict(f"recursive or unresolvable reference {ref!r} with sibling keywords", path)
            self.inlining.append(name)
            target = self.defs[name]  # not copied: every node is copied (dict(schema)) before it is changed
            if not isinstance(target, dict):
                raise NotStrict(f"reference {ref!r} is a boolean schema", path)
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            node = {**target, **siblings}
        return node

    def merge_all_of(self, node: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
        parts = node.pop("allOf")
        resolved = [self.inline(dict(p), path) if isinstance(p, dict) else p for p in parts]
        if not all(isinstance(p, dict) for p in resolved):
            raise NotStrict("allOf with a boolean branch", path)
        if len(resolved) > 1 and not all(
            p.get("type", "object") == "object" and "anyOf" not in p and "oneOf" not in p for p in resolved
        ):
            raise NotStrict("allOf of non-object schemas", path)
        merged: dict[str, Any] = {}
        properties: dict[str, Any] = {}
        required: list[str] = []
        for raw_part in [*resolved, node]:
            part = self.merge_all_of(dict(raw_part), path) if "allOf" in raw_part else raw_part
            properties.update(part.get("properties", {}))
            required.extend(r for r in part.get("required", []) if r not in required)
            merged.update({k: v for k, v in part.items() if k not in ("properties", "required")})
        if properties:
            merged["properties"] = properties
            merged.setdefault("type", "object")
        if required:
            merged["required"] = required
        return merged

    def node(self, schema: Any, path: tuple[str, ...], depth: int) -> dict[str, Any]:
        done = self.memo.get(schema, depth)
        if done is not None:  # the tools of a manifest share subschemas: each is converted once
            converted, (properties, enum_values, string_budget) = done
            self.properties += properties
            self.enum_values += enum_values
            self.string_budget += string_budget
            return converted
        references, before = self.references, self.counts()
        # Definitions inlined while converting this node stay "in progress" for its subtree only.
        mark = len(self.inlining)
        try:
            converted = self._node(schema, path, depth)
        finally:
            del self.inlining[mark:]
        if self.references == references:
            properties, enum_values, string_budget = self.counts()
            added = (properties - before[0], enum_values - before[1], string_budget - before[2])
            self.memo.put(schema, (converted, added), depth)
        return converted

    def _node(self, schema: Any, path: tuple[str, ...], depth: int) -> dict[str, Any]:
        if depth > _MAX_DEPTH:
            raise NotStrict(f"nesting deeper than {_MAX_DEPTH} levels", path)
        if schema is True or schema == {}:
            raise NotStrict("a node that accepts any value", path)
        if not isinstance(schema, dict):
            raise NotStrict("a schema that accepts nothing", path)
        node = dict(schema)
        if "$ref" in node:
            self.references += 1
            if len(node) == 1:
                ref = node["$ref"]
                if not isinstance(ref, str) or not ref.startswith(REF_PREFIX):
                    raise NotStrict(f"unsupported reference {ref!r}", path)
                self.definition(ref[len(REF_PREFIX) :], path)
                return {"$ref": ref}
            node = self.inline(node, path)
        if "allOf" in node:
            node = self.merge_all_of(node, path)
        if "oneOf" in node:
            node["anyOf"] = [*node.get("anyOf", []), *node.pop("oneOf")]
        if "anyOf" in node and ("properties" in node or "required" in node):
            # Object keywords beside a union apply to every branch: A and (B or C) = (A and B) or (A and C).
            shared = {k: node.pop(k) for k in ("properties", "required", "additionalProperties") if k in node}
            node.pop("type", None)
            node["anyOf"] = [{"allOf": [{"type": "object", **shared}, b]} for b in node["anyOf"]]
        notes: list[str] = []
        if "default" in node:
            notes.append(f"default: {json_excerpt(node.pop('default'))}")
        self.infer_type(node, path)
        if "anyOf" in node:
            node["anyOf"] = [self.node(b, (*path, "anyOf", str(i)), depth) for i, b in enumerate(node["anyOf"])]
        kinds = node.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds] if kinds else []
        if "object" in kinds:
            self.object(node, path, depth, notes)
        if "array" in kinds:
            self.array(node, path, depth, notes)
        self.string(node, notes)  # formats and patterns are checked whatever the type (int64 on integers too)
        for key in [k for k in node if k not in _KEEP]:
            value = node.pop(key)
            if key == "contentEncoding":
                notes.append(f"{value}-encoded")
            elif key not in _SILENT:
                notes.append(f"{key}: {json_excerpt(value)}")
        if "enum" in node:
            self.enum_values += len(node["enum"])
            self.string_budget += sum(len(str(v)) for v in node["enum"])
        if notes:
            node["description"] = with_notes(node.get("description"), notes, self.description_max)
        return node

    @staticmethod
    def infer_type(node: dict[str, Any], path: tuple[str, ...]) -> None:
        if "type" in node or "anyOf" in node:
            return
        if "const" in node:
            node["type"] = _json_type(node["const"])
        elif isinstance(node.get("enum"), list) and node["enum"]:
            kinds = list(dict.fromkeys(_json_type(v) for v in node["enum"]))
            node["type"] = kinds[0] if len(kinds) == 1 else kinds
        elif "properties" in node:
            node["type"] = "object"
        elif "items" in node:
            node["type"] = "array"
        else:
            raise NotStrict("a node without a type", path)

    def object(self, node: dict[str, Any], path: tuple[str, ...], depth: int, notes: list[str]) -> None:
        properties = node.get("properties") or {}
        extra = node.get("additionalProperties")
        if extra not in (None, False) or (not properties and extra is not False):
            raise NotStrict("a free-form object (undeclared properties allowed)", path)
        required = set(node.get("required") or [])
        converted: dict[str, Any] = {}
        for name, sub in properties.items():
            self.properties += 1
            self.string_budget += len(name)
            value = self.node(sub, (*path, "properties", name), depth + 1)
            if name not in required:
                nullable = _nullable(value)
                if "enum" in nullable:  # the null that joins an enum counts toward the limit
                    self.enum_values += _enum_values(nullable) - _enum_values(value)
                value = nullable
            converted[name] = value
        node["properties"] = converted
        node["required"] = list(converted)
        node["additionalProperties"] = False
        for key in (
            "patternProperties",
            "propertyNames",
            "minProperties",
            "maxProperties",
            "unevaluatedProperties",
            "dependentRequired",
            "dependentSchemas",
        ):
            if key in node:
                notes.append(f"{key}: {json_excerpt(node.pop(key))}")

    def array(self, node: dict[str, Any], path: tuple[str, ...], depth: int, notes: list[str]) -> None:
        if "prefixItems" in node:
            raise NotStrict("a tuple (prefixItems)", path)
        if "items" not in node:
            raise NotStrict("an array without items", path)
        node["items"] = self.node(node["items"], (*path, "items"), depth + 1)

    @staticmethod
    def string(node: dict[str, Any], notes: list[str]) -> None:
        fmt = node.get("format")
        if fmt is not None and fmt not in ALLOWED_FORMATS:
            notes.append(f"format: {node.pop('format')}")
        pattern = node.get("pattern")
        if isinstance(pattern, str) and has_lookaround(pattern):
            notes.append(f"pattern: {node.pop('pattern')}")


def strict_schema(
    schema: Mapping[str, Any], memo: Strictified | None = None, description_max: int | None = None
) -> dict[str, Any]:
    """A strict-mode version of an object ``schema`` (never mutated); raises :class:`NotStrict`.

    ``memo``, shared by the tools of one manifest, converts each subschema they share once; the
    results are shared too: never mutate them. A description that gains notes of removed keywords
    stays within ``description_max`` characters.
    """
    if schema.get("type") != "object":
        raise NotStrict("the root is not an object", ())
    root = {k: v for k, v in schema.items() if k != "$defs"}
    worker = _Strictifier(schema.get("$defs") or {}, Strictified() if memo is None else memo, description_max)
    out = dict(worker.node(root, (), 1))  # every node is copied before it is changed: the input is never mutated
    if worker.out_defs:
        out["$defs"] = worker.out_defs
    if worker.properties > _MAX_PROPERTIES:
        raise NotStrict(f"more than {_MAX_PROPERTIES} properties", ())
    if worker.enum_values > _MAX_ENUM_VALUES:
        raise NotStrict(f"more than {_MAX_ENUM_VALUES} enum values", ())
    if worker.string_budget > _MAX_STRING_BUDGET:
        raise NotStrict(f"more than {_MAX_STRING_BUDGET:,} characters of names and enum values", ())
    return out
