"""Whether a result's structure fits its tool's output schema, checked by a function compiled once per tool.

Every tool result with ``structuredContent`` is checked against the tool's output schema before it
is sent (a client that finds it does not fit refuses the result; the server drops the structure
instead). mcpforge writes output schemas as *shapes* (``schema/shape.py``): ``type``,
``properties``, ``items``, ``anyOf``, ``allOf`` and ``$ref`` into ``$defs``, nothing else. For that
subset, a check compiled from the schema once costs a tenth of jsonschema's general validator,
which walks its keyword machinery on every result (0.4 ms for a 40-field object, on every call of
a busy server). A schema with any other keyword is left to jsonschema (:func:`compile_shape`
returns None), so the answer is always the standard one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["Check", "compile_shape"]

# A compiled check: the first problem of a value, as (path, message), or None when it fits.
Check = Callable[[Any, tuple[str | int, ...]], tuple[tuple[str | int, ...], str] | None]

_KEYWORDS = frozenset({"type", "properties", "items", "anyOf", "allOf", "$ref", "$defs", "description", "title"})
_TYPES: Mapping[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


class _Unsupported(Exception):
    """The schema uses a keyword outside the shape subset."""


def compile_shape(schema: Any) -> Check | None:
    """The check of ``schema``, or None when it is not a shape (jsonschema must check it)."""
    defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}
    compiled: dict[str, Check] = {}

    # ``active``: the definitions being compiled (a reference back to one is looked up lazily);
    # ``fresh``: those entered since the value last went a level deeper (a reference back to one
    # would loop without ever reaching a value: not a shape).
    def node(part: Any, active: frozenset[str], fresh: frozenset[str]) -> Check:
        if part is True or part == {}:
            return lambda value, path: None
        if part is False:
            return lambda value, path: (path, "False schema does not allow anything")
        if not isinstance(part, dict) or not set(part) <= _KEYWORDS:
            raise _Unsupported
        checks: list[Check] = []
        if "$ref" in part:
            checks.append(reference(part["$ref"], active, fresh))
        if "type" in part:
            checks.append(_kind(part["type"]))
        properties = part.get("properties")
        if isinstance(properties, dict):
            subs = {name: node(sub, active, frozenset()) for name, sub in properties.items()}
            checks.append(lambda value, path: _properties(value, path, subs))
        if "items" in part:
            item = node(part["items"], active, frozenset())
            checks.append(lambda value, path: _items(value, path, item))
        if "anyOf" in part:
            branches = [node(b, active, fresh) for b in part["anyOf"]]
            checks.append(lambda value, path: _any(value, path, branches))
        if "allOf" in part:
            checks.extend(node(b, active, fresh) for b in part["allOf"])
        if len(checks) == 1:
            return checks[0]
        return lambda value, path: next((p for c in checks if (p := c(value, path)) is not None), None)

    def reference(ref: Any, active: frozenset[str], fresh: frozenset[str]) -> Check:
        if not isinstance(ref, str) or not ref.startswith("#/$defs/") or ref[8:] not in defs:
            raise _Unsupported
        name = ref[8:]
        if name in fresh:
            raise _Unsupported
        if name in active:  # a cycle: not compiled yet; looked up when a value gets that deep
            return lambda value, path: compiled[name](value, path)  # noqa: PLW0108
        if name not in compiled:
            compiled[name] = node(defs[name], active | {name}, fresh | {name})
        return compiled[name]

    root = {k: v for k, v in schema.items() if k != "$defs"} if isinstance(schema, dict) else schema
    try:
        return node(root, frozenset(), frozenset())
    except (_Unsupported, RecursionError):
        return None


def _kind(expected: Any) -> Check:
    """The check of a ``type`` keyword (one name or a list of them)."""
    names = [expected] if isinstance(expected, str) else list(expected) if isinstance(expected, list) else None
    if names is None or not all(isinstance(n, str) and n in _TYPES for n in names):
        raise _Unsupported
    tests = [_TYPES[n] for n in names]
    shown = repr(expected) if isinstance(expected, str) else repr(names)
    if len(tests) == 1:
        test = tests[0]
        return lambda value, path: None if test(value) else (path, f"{value!r:.80} is not of type {shown}")
    return lambda value, path: None if any(t(value) for t in tests) else (path, f"{value!r:.80} is not of type {shown}")


def _properties(
    value: Any, path: tuple[str | int, ...], subs: Mapping[str, Check]
) -> tuple[tuple[str | int, ...], str] | None:
    if not isinstance(value, dict):
        return None
    for name, check in subs.items():
        if name in value:
            problem = check(value[name], (*path, name))
            if problem is not None:
                return problem
    return None


def _items(value: Any, path: tuple[str | int, ...], item: Check) -> tuple[tuple[str | int, ...], str] | None:
    if not isinstance(value, list):
        return None
    for index, element in enumerate(value):
        problem = item(element, (*path, index))
        if problem is not None:
            return problem
    return None


def _any(value: Any, path: tuple[str | int, ...], branches: list[Check]) -> tuple[tuple[str | int, ...], str] | None:
    if any(branch(value, path) is None for branch in branches):
        return None
    return path, f"{value!r:.80} is not valid under any of the given schemas"
