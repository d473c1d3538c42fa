"""Build arguments that satisfy a tool's input schema: required and optional properties alike."""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping
from typing import Any

from jsonschema import Draft202012Validator

_FORMATS = {
    "date-time": "2024-01-02T03:04:05Z",
    "date": "2024-01-02",
    "time": "03:04:05Z",
    "email": "user@example.com",
    "uuid": "3fa85f64-5717-4562-b3fc-2c963f66afa6",
    "uri": "https://example.com/x",
    "url": "https://example.com/x",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "hostname": "example.com",
    "uri-reference": "/x",
    "int32": "1",
    "int64": "1",
    "duration": "P1D",
}
_CANDIDATES = ["abc", "a", "1", "A1", "abc123", "a-b", "2024-01-02", "abc_def", "x" * 10, "A", "ABC", "0"]
_MAX_DEPTH = 6


def _deref(schema: Any, defs: Mapping[str, Any]) -> Any:
    for _ in range(32):
        if isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str):
            target = defs.get(schema["$ref"].rsplit("/", 1)[-1], {})
            schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        else:
            break
    return schema


def _string(schema: Mapping[str, Any]) -> str:
    if schema.get("contentEncoding") == "base64":
        return base64.b64encode(b"hello").decode()
    low, high = int(schema.get("minLength", 0)), int(schema.get("maxLength", 64))
    fmt = schema.get("format")
    pattern = schema.get("pattern")
    options = ([_FORMATS[fmt]] if fmt in _FORMATS else []) + _CANDIDATES
    for option in options:
        text = option if len(option) >= low else option + "a" * (low - len(option))
        if len(text) > high:
            text = text[:high]
        if pattern is None or re.search(pattern, text):
            return text
    return "a" * max(int(low), 1)


def _number(schema: Mapping[str, Any], integer: bool) -> int | float:
    low = schema.get("minimum", schema.get("exclusiveMinimum", 1))
    if "exclusiveMinimum" in schema:
        low = schema["exclusiveMinimum"] + 1
    value: int | float = max(low, 1) if "maximum" not in schema else low
    if "maximum" in schema and value > schema["maximum"]:
        value = schema["maximum"]
    if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
        value = schema["exclusiveMaximum"] - 1
    if schema.get("multipleOf"):
        step = schema["multipleOf"]
        value = step * max(1, round(value / step))
    return int(value) if integer else value


def build(schema: Any, defs: Mapping[str, Any], depth: int = 0, *, optional: bool = True) -> Any:
    """A value valid for ``schema`` (best effort; the caller validates)."""
    schema = _deref(schema, defs)
    if not isinstance(schema, Mapping):
        return "x"
    if "const" in schema:
        return schema["const"]
    enum = [v for v in schema.get("enum", []) if v is not None]
    if enum:
        return enum[0]
    for key in ("examples",):
        if schema.get(key):
            return schema[key][0]
    if "default" in schema and schema["default"] is not None:
        return schema["default"]
    for key in ("anyOf", "oneOf"):
        branches = [b for b in schema.get(key, []) if _deref(b, defs).get("type") != "null"]
        if branches:
            whole = Draft202012Validator({**schema, "$defs": defs})
            rest = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
            candidates = [build({**rest, **_deref(b, defs)}, defs, depth, optional=optional) for b in branches]
            return next((c for c in candidates if whole.is_valid(c)), candidates[0])
    if "allOf" in schema:
        merged: dict[str, Any] = {}
        for part in schema["allOf"]:
            value = build(part, defs, depth, optional=optional)
            if isinstance(value, dict):
                merged.update(value)
        own = {k: v for k, v in schema.items() if k != "allOf"}
        if "properties" in own:
            value = build(own, defs, depth, optional=optional)
            if isinstance(value, dict):
                merged.update(value)
        return merged
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind is None:
        kind = "object" if "properties" in schema else "string"
    if kind == "string":
        return _string(schema)
    if kind in ("integer", "number"):
        return _number(schema, kind == "integer")
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    if kind == "array":
        count = max(1, schema.get("minItems", 1)) if depth < _MAX_DEPTH else schema.get("minItems", 0)
        return [build(schema.get("items", {}), defs, depth + 1, optional=optional) for _ in range(count)]
    result: dict[str, Any] = {}
    required = set(schema.get("required", []))
    for name, sub in schema.get("properties", {}).items():
        if name in required or (optional and depth < _MAX_DEPTH - 2):
            result[name] = build(sub, defs, depth + 1, optional=optional)
    return result


def arguments(input_schema: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Arguments valid for ``input_schema``; optional ones that cannot be satisfied are dropped (and named)."""
    defs = input_schema.get("$defs", {})
    validator = Draft202012Validator(input_schema)
    args = build(input_schema, defs)
    required = set(input_schema.get("required", []))
    dropped: list[str] = []
    minimal: set[str] = set()
    for _ in range(100):
        errors = list(validator.iter_errors(args))
        if not errors:
            return args, dropped
        path = list(errors[0].absolute_path)
        top = str(path[0]) if path else None
        if top is None or top in minimal:
            raise ValueError(f"cannot build a valid value: {errors[0].message[:200]}")
        if top in required:
            args[top] = build(input_schema["properties"][top], defs, optional=False)  # required fields only
            minimal.add(top)
        else:
            args.pop(top)
            dropped.append(top)
    raise ValueError("cannot build valid arguments")
