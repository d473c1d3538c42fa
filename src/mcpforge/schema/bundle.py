"""Attach to one schema exactly the ``$defs`` it needs, and no duplicated subschema.

A definition referenced once (and not recursive) is inlined where it is used; a definition
used several times, or on a cycle, stays in ``$defs`` and is referenced. The result is a
self-contained JSON Schema document; inputs are never mutated.

With a size budget, a schema whose definitions would exceed it keeps the definitions nearest
the root (by number of ``$ref`` hops) that fit, and deeper ones become open placeholders
(``{"type": "object", "description": ...}``): every argument stays, and a model may still send
the omitted nested fields. Microsoft Graph's entity types otherwise pull hundreds of
definitions (0.5 MB) into a single tool.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from mcpforge.runtime.results.defs import ref_name
from mcpforge.schema import JsonSchema
from mcpforge.schema.keywords import ANNOTATIONS, DATA_KEYWORDS, NAME_MAPS
from mcpforge.schema.memo import IdentityMemo

__all__ = ["Bundled", "DefinitionIndex", "bundle", "referenced_names"]

# Siblings of a $ref that only annotate: a reference carrying only these can still be inlined.
_SMALL = 48  # a definition this short (as JSON) costs less inline than as a reference


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
    stack = [schema]  # subschemas, and lists of them (combinators)
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(value for value in node if isinstance(value, dict | list))
            continue
        if not isinstance(node, dict):
            continue
        if "$ref" in node:
            name = ref_name(node)
            if name is not None:
                siblings = {k: v for k, v in node.items() if k != "$ref"}
                pinned = bool(siblings) and (defs is None or _merge(defs.get(name), siblings) is None)
                found.append((name, pinned))
        # Only containers can hold a reference (Graph's long enums are not pushed), and data never does.
        for key, value in node.items():
            if key in NAME_MAPS and isinstance(value, dict):
                stack.extend(sub for sub in value.values() if isinstance(sub, dict | list))
            elif key not in DATA_KEYWORDS and isinstance(value, dict | list):
                stack.append(value)
    return found


def _flat(value: Any) -> bool:
    """Whether ``value`` holds no object (a scalar, or a list of scalars such as ``required``)."""
    if isinstance(value, list):
        return not any(isinstance(v, dict | list) for v in value)
    return not isinstance(value, dict)


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


@dataclass
class DefinitionIndex:
    """One direction's definitions with their references and sizes, computed once per document."""

    defs: Mapping[str, JsonSchema]
    _refs: dict[str, list[tuple[str, bool]]] = field(default_factory=dict)
    _sizes: dict[str, int] = field(default_factory=dict)
    # A definition as bundled, by the definitions inlined and cut: many schemas share one plan.
    expanded: dict[tuple[str, frozenset[str], frozenset[str]], Any] = field(default_factory=dict)
    # How a schema is bundled depends only on its own references (and the budget): schemas with the
    # same body share one plan (Graph: 521 plans for 3,330 schemas that reach definitions).
    plans: dict[tuple[tuple[tuple[str, bool], ...], int | None], _Plan] = field(default_factory=dict)
    _property_refs: IdentityMemo[list[tuple[str, bool]]] = field(default_factory=IdentityMemo)

    def root_refs(self, schema: Any) -> list[tuple[str, bool]]:
        """What :func:`referenced_names` finds in ``schema``, each of its properties walked once per index.

        Tools repeat their arguments as one object each (Graph: 11,000 input schemas, 2,600
        distinct arguments; 8,000 of the schemas reach no definition at all).
        """
        props = schema.get("properties") if isinstance(schema, dict) and "$ref" not in schema else None
        if not isinstance(props, dict) or not all(_flat(v) for k, v in schema.items() if k != "properties"):
            return referenced_names(schema, self.defs)
        found: list[tuple[str, bool]] = []
        for sub in reversed(props.values()):  # the order referenced_names takes them in (a stack)
            if isinstance(sub, dict | list):
                known = self._property_refs.get(sub)
                if known is None:
                    known = self._property_refs.put(sub, referenced_names(sub, self.defs))
                found.extend(known)
        return found

    def refs(self, name: str) -> list[tuple[str, bool]]:
        """The references inside definition ``name`` (see :func:`referenced_names`)."""
        found = self._refs.get(name)
        if found is None:
            found = self._refs[name] = referenced_names(self.defs[name], self.defs)
        return found

    def size(self, name: str) -> int:
        """Bytes of definition ``name`` as compact JSON."""
        size = self._sizes.get(name)
        if size is None:
            try:
                size = len(orjson.dumps(self.defs[name]))
            except TypeError:  # integers beyond 64 bits
                size = len(json.dumps(self.defs[name]))
            self._sizes[name] = size
        return size


def _closure(
    roots: list[tuple[str, bool]], index: DefinitionIndex, stop: frozenset[str]
) -> tuple[list[str], dict[str, int], set[str], dict[str, int]]:
    """Definitions reachable from the references ``roots`` without entering ``stop``, breadth first.

    Returns them in order of discovery, how often each is referenced, those referenced with
    siblings that cannot be merged, and each one's depth in ``$ref`` hops.
    """
    table = index.defs
    counts: dict[str, int] = {}
    pinned: set[str] = set()
    depth: dict[str, int] = {}
    order: list[str] = []

    def visit(refs: list[tuple[str, bool]], level: int) -> None:
        for name, has_siblings in refs:
            counts[name] = counts.get(name, 0) + 1
            if has_siblings:
                pinned.add(name)
            if name not in depth and name in table and name not in stop:
                depth[name] = level
                order.append(name)

    visit(roots, 1)
    position = 0
    while position < len(order):
        parent = order[position]
        position += 1
        visit(index.refs(parent), depth[parent] + 1)
    return order, counts, pinned, depth


@dataclass(frozen=True, slots=True)
class Bundled:
    """A bundled schema and the definitions left out to fit the size budget (deepest first)."""

    schema: JsonSchema
    omitted: tuple[str, ...] = ()


def _placeholder(name: str, body: Any) -> dict[str, Any]:
    stub: dict[str, Any] = {}
    kind = body.get("type") if isinstance(body, Mapping) else None
    if isinstance(kind, str | list):
        stub["type"] = kind
        if kind == "array" or (isinstance(kind, list) and "array" in kind):
            stub["items"] = {}  # any items: providers reject an array schema without them
    elif isinstance(body, Mapping) and "properties" in body:
        stub["type"] = "object"
    label = name.rsplit(".", 1)[-1][:60]
    stub["description"] = f"A {label} (nested fields not listed, to keep the schema small)."
    return stub


@dataclass(frozen=True, slots=True)
class _Plan:
    """How the definitions that one set of references reaches are bundled."""

    order: tuple[str, ...]  # every definition reached (and not cut), breadth first
    inline: frozenset[str]  # inlined where used
    kept: tuple[str, ...]  # attached as $defs, in order
    stubs: Mapping[str, dict[str, Any]]  # cut to fit the budget: each one's placeholder
    cut: frozenset[str]
    omitted: tuple[str, ...]  # the cut ones, deepest first


def _plan(roots: list[tuple[str, bool]], index: DefinitionIndex, max_bytes: int | None) -> _Plan:
    table = index.defs
    order, counts, pinned, depth = _closure(roots, index, frozenset())
    omitted: list[str] = []
    if order and max_bytes is not None and sum(index.size(n) for n in order) > max_bytes:
        total, cut = 0, 0
        for level in range(1, max(depth.values()) + 1):
            total += sum(index.size(n) for n in order if depth[n] == level)
            if total > max_bytes:
                break
            cut = level
        cut = max(cut, 1)  # the body's own definition always stays
        # Only definitions that lead further are cut; leaves (a date-time string...) cost little.
        omitted = [n for n in order if depth[n] > cut and any(r in table for r, _ in index.refs(n))]
        order, counts, pinned, depth = _closure(roots, index, frozenset(omitted))
    stubs = {name: _placeholder(name, table[name]) for name in omitted}
    graph = {name: [n for n, _ in index.refs(name) if n in depth and n not in stubs] for name in order}
    recursive = _recursive(graph)
    inline = frozenset(
        name
        for name in order
        if name not in recursive and name not in pinned and (counts[name] == 1 or index.size(name) <= _SMALL)
    )
    return _Plan(
        order=tuple(order),
        inline=inline,
        kept=tuple(name for name in order if name not in inline),
        stubs=stubs,
        cut=frozenset(stubs),
        omitted=tuple(reversed(omitted)),
    )


class _Expansion:
    """One schema's walk under one plan: references inlined or cut, unchanged subtrees shared.

    A class, not closures: four nested functions that call one another form a reference cycle
    that would keep the document's definitions alive until the cyclic collector ran.
    """

    __slots__ = ("index", "memo", "plan", "rewritten")

    def __init__(self, index: DefinitionIndex, plan: _Plan) -> None:
        self.index = index
        self.plan = plan
        self.rewritten = plan.inline.union(plan.stubs.keys())  # a frozenset (``|`` would make a set)
        self.memo: dict[int, Any] = {}

    def definition(self, name: str) -> Any:
        """Definition ``name`` as this plan bundles it."""
        index, plan = self.index, self.plan
        # A definition none of whose references is inlined or cut comes out as it went in: no walk.
        if not any(ref in self.rewritten for ref, _ in index.refs(name)):
            return index.defs[name]
        # Otherwise its expansion depends on the plan alone: the schemas of one document share it.
        key = (name, plan.inline, plan.cut)
        found = index.expanded.get(key)
        if found is None:
            found = index.expanded[key] = self.expand(index.defs[name])
        return found

    def expand(self, node: Any) -> Any:
        """``node`` with the plan's references inlined or cut (``node`` itself when nothing changed)."""
        if isinstance(node, dict):
            name = ref_name(node)
            if name is not None and name in self.plan.stubs:
                siblings = {k: v for k, v in node.items() if k in ANNOTATIONS}
                return {**self.plan.stubs[name], **siblings}
            if name is not None and name in self.plan.inline:
                body = self.definition(name)
                if len(node) == 1:
                    return body
                merged = _merge(body, self.each({k: v for k, v in node.items() if k != "$ref"}, True)[0])
                assert merged is not None  # checked when the reference was counted
                return merged
            return self.rebuilt(node, True)
        if isinstance(node, list):
            items = [self.expand(v) for v in node]
            return items if any(a is not b for a, b in zip(items, node, strict=True)) else node
        return node

    def rebuilt(self, node: dict[str, Any], schema: bool) -> Any:
        """:meth:`each` remembered by identity, and ``node`` itself when no value changed."""
        key = id(node)
        memo = self.memo
        if key not in memo:
            out, changed = self.each(node, schema)
            memo[key] = out if changed else node
        return memo[key]

    def each(self, node: dict[str, Any], schema: bool) -> tuple[dict[str, Any], bool]:
        """Each value of a schema (or of a map of names to schemas) expanded, data as it is; whether any changed."""
        changed = False
        out: dict[str, Any] = {}
        for k, v in node.items():
            if not schema:
                nv = self.expand(v)
            elif k in DATA_KEYWORDS:
                nv = v
            elif k in NAME_MAPS and isinstance(v, dict):
                nv = self.rebuilt(v, False)
            else:
                nv = self.expand(v)
            changed = changed or nv is not v
            out[k] = nv
        return out, changed


def bundle(
    schema: JsonSchema,
    defs: Mapping[str, JsonSchema] | DefinitionIndex,
    *,
    max_bytes: int | None = None,
) -> Bundled:
    """``schema`` with the definitions it reaches inlined or attached as ``$defs``.

    ``defs`` may be a :class:`DefinitionIndex` (reused across the schemas of one document).
    ``max_bytes`` bounds the total size of the definitions kept (see the module docstring).
    """
    index = defs if isinstance(defs, DefinitionIndex) else DefinitionIndex(defs)
    roots = index.root_refs(schema)
    key = (tuple(roots), max_bytes)
    plan = index.plans.get(key)
    if plan is None:
        plan = index.plans[key] = _plan(roots, index, max_bytes)
    if not plan.order:
        return Bundled(schema)
    walk = _Expansion(index, plan)
    root: Any = walk.expand(schema)
    if isinstance(root, dict) and ref_name(root) in plan.kept and len(root) == 1:
        root = walk.definition(ref_name(root) or "")  # a recursive root: start from its body
    if not plan.kept or not isinstance(root, dict):
        return Bundled(root, plan.omitted)
    return Bundled({**root, "$defs": {name: walk.definition(name) for name in plan.kept}}, plan.omitted)
