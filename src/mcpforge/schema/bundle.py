"""Attach to one schema exactly the ``$defs`` it needs, and no duplicated subschema.

A definition referenced once (and not recursive) is inlined where it is used; a definition
used several times, or on a cycle, stays in ``$defs`` and is referenced. The result is a
self-contained JSON Schema document; inputs are never mutated.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mcpforge.spec.model import JsonSchema

__all__ = ["REF_PREFIX", "bundle", "referenced_names"]

REF_PREFIX = "#/$defs/"
# Siblings of a $ref that only annotate: a reference carrying only these can still be inlined.
ANNOTATIONS = frozenset({"title", "description", "default", "examples", "deprecated"})
_SMALL = 48  # a definition this short (as JSON) costs less inline than as a reference


def _ref_name(node: Mapping[str, Any]) -> str | None:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(REF_PREFIX):
        return ref[len(REF_PREFIX) :]
    return None


def _merge(body: Any, siblings: Mapping[str, Any]) -> dict[str, Any] | None:
    """``body`` and the constraints beside its ``$ref`` as one schema; None if they conflict."""
    if not isinstance(body, dict):
        return None
    merged = dict(body)
    for key, value in siblings.items():
        if key not in merged or key in ANNOTATIONS or merged[key] == value:
            merged[key] = value
        elif key == "required" and isinstance(value, list) and isinstance(merged[key], list):
            merged[key] = list(dict.fromkeys([*merged[key], *value]))
        elif key == "properties" and isinstance(value, dict) and isinstance(merged[key], dict):
            props = dict(merged[key])
            for prop, sub in value.items():
                if prop not in props:
                    props[prop] = sub
                    continue
                inner = _merge(props[prop], sub) if isinstance(sub, dict) and "$ref" not in props[prop] else None
                if inner is None:
                    return None
                props[prop] = inner
            merged[key] = props
        else:
            return None
    return merged


def referenced_names(schema: Any, defs: Mapping[str, Any] | None = None) -> list[tuple[str, bool]]:
    """Every ``#/$defs`` reference in ``schema``, with whether it must stay a reference.

    A reference must stay when it has siblings that cannot be merged into the definition.
    """
    found: list[tuple[str, bool]] = []
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            name = _ref_name(node)
            if name is not None:
                siblings = {k: v for k, v in node.items() if k != "$ref"}
                pinned = bool(siblings) and (defs is None or _merge(defs.get(name), siblings) is None)
                found.append((name, pinned))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _recursive(graph: Mapping[str, list[str]]) -> set[str]:
    """Names on a cycle (Tarjan's strongly connected components, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    result: set[str] = set()
    counter = 0
    for start in graph:
        if start in index:
            continue
        work: list[tuple[str, int]] = [(start, 0)]
        while work:
            node, child_i = work.pop()
            if child_i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            children = graph.get(node, [])
            if child_i < len(children):
                work.append((node, child_i + 1))
                child = children[child_i]
                if child not in index:
                    work.append((child, 0))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in children:
                    result.update(component)
    return result


def bundle(schema: JsonSchema, defs: Mapping[str, JsonSchema]) -> JsonSchema:
    """``schema`` with the definitions it reaches inlined or attached as ``$defs``."""
    counts: dict[str, int] = {}
    pinned: set[str] = set()
    graph: dict[str, list[str]] = {}
    order: list[str] = []
    pending = [schema]
    while pending:
        node = pending.pop(0)
        for name, has_siblings in referenced_names(node, defs):
            counts[name] = counts.get(name, 0) + 1
            if has_siblings:
                pinned.add(name)
            if name not in graph and name in defs:
                graph[name] = []
                order.append(name)
                pending.append(defs[name])
    if not order:
        return schema
    for name in order:
        graph[name] = [n for n, _ in referenced_names(defs[name]) if n in defs]
    recursive = _recursive(graph)
    inline: set[str] = set()
    for name in order:
        if name in recursive or name in pinned:
            continue
        if counts[name] == 1 or len(json.dumps(defs[name])) <= _SMALL:
            inline.add(name)

    memo: dict[int, Any] = {}

    def expand(node: Any) -> Any:
        if isinstance(node, dict):
            name = _ref_name(node)
            if name is not None and name in inline:
                body = expand(defs[name])
                if len(node) == 1:
                    return body
                merged = _merge(body, {k: expand(v) for k, v in node.items() if k != "$ref"})
                assert merged is not None  # checked when the reference was counted
                return merged
            key = id(node)
            if key in memo:
                return memo[key]
            changed = False
            out: dict[str, Any] = {}
            for k, v in node.items():
                nv = expand(v)
                changed = changed or nv is not v
                out[k] = nv
            result = out if changed else node
            memo[key] = result
            return result
        if isinstance(node, list):
            items = [expand(v) for v in node]
            return items if any(a is not b for a, b in zip(items, node, strict=True)) else node
        return node

    root: Any = expand(schema)
    kept = [name for name in order if name not in inline]
    if isinstance(root, dict) and _ref_name(root) in kept and len(root) == 1:
        root = expand(defs[_ref_name(root) or ""])  # a recursive root: start from its body
    if not kept or not isinstance(root, dict):
        return root  # type: ignore[no-any-return]
    return {**root, "$defs": {name: expand(defs[name]) for name in kept}}
