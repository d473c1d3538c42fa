"""The changes between two tool sets as generated: tools, arguments, results, annotations, toolsets, security.

Both sides are ``tools.json`` contracts (a fresh build's, or the one an output folder holds), so
what is compared is what models and clients meet: names after the lock, arguments after naming,
schemas after conversion. Tools are matched by name; a tool missing on one side whose operation
(``METHOD /path``) has a new name on the other is a rename. Schemas are compared through their
``$defs`` to a bounded depth (recursive schemas end there).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mcpforge.changes.rules import Change
from mcpforge.runtime.contract import ToolEntry
from mcpforge.runtime.results.defs import deref
from mcpforge.text.prose import json_excerpt

__all__ = ["compare"]

_MAX_DEPTH = 6
# Limits where a larger value narrows (min...) and where a smaller one does (max...).
_LOWER = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
_UPPER = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
# MCP's defaults for the hints a tool leaves out (destructive applies only to a tool that writes).
_HINTS = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False}


def compare(
    old: Sequence[ToolEntry],
    new: Sequence[ToolEntry],
    *,
    old_ids: Mapping[str, str | None] | None = None,
    new_ids: Mapping[str, str | None] | None = None,
) -> list[Change]:
    """Every change from ``old`` to ``new``, a tool's together, tools in name order.

    ``old_ids``/``new_ids``: each tool's operationId, where known (a name the lock kept through an
    operationId change is reported then).
    """
    old_by = {entry["tool"]["name"]: entry for entry in old}
    new_by = {entry["tool"]["name"]: entry for entry in new}
    gone = {(e["method"], e["path"]): name for name, e in old_by.items() if name not in new_by}
    renamed: dict[str, str] = {}  # new name -> old name
    for name, entry in new_by.items():
        if name not in old_by and (entry["method"], entry["path"]) in gone:
            renamed[name] = gone.pop((entry["method"], entry["path"]))
    changes: list[Change] = []
    for name, entry in old_by.items():
        if name not in new_by and name not in renamed.values():
            changes.append(Change(name, "tool-removed", f"no longer generated ({_operation(entry)})"))
    for name, entry in new_by.items():
        before = old_by.get(name) or old_by.get(renamed.get(name, ""))
        if before is None:
            changes.append(Change(name, "tool-added", f"new tool ({_operation(entry)})"))
            continue
        if name in renamed:
            was = renamed[name]
            changes.append(Change(was, "tool-renamed", f"now named {name} ({_operation(entry)})"))
        old_id = (old_ids or {}).get(before["tool"]["name"])
        new_id = (new_ids or {}).get(name)
        if old_id and new_id and old_id != new_id and name not in renamed:
            changes.append(Change(name, "name-kept", f"operationId {old_id} is now {new_id}; the lock kept the name"))
        changes += _tool(name, before, entry)
    return sorted(changes, key=lambda change: change.tool)


def _operation(entry: ToolEntry) -> str:
    return f"{entry['method']} {entry['path']}"


def _tool(name: str, old: ToolEntry, new: ToolEntry) -> list[Change]:
    changes: list[Change] = []
    if _operation(old) != _operation(new):
        changes.append(Change(name, "operation-changed", f"calls {_operation(new)} instead of {_operation(old)}"))
    before, after = old["tool"], new["tool"]
    for field in ("title", "description"):
        if (before.get(field) or "") != (after.get(field) or ""):
            changes.append(Change(name, "description-changed", f"the tool's {field} changed"))
    old_in, new_in = before.get("inputSchema") or {}, after.get("inputSchema") or {}
    pair = _Pair(name, old_in.get("$defs") or {}, new_in.get("$defs") or {})
    pair.arguments(old_in, new_in, "", 0, changes)
    changes += _outputs(name, before.get("outputSchema"), after.get("outputSchema"))
    changes += _annotations(name, before.get("annotations") or {}, after.get("annotations") or {})
    for toolset in [t for t in old["toolsets"] if t not in new["toolsets"]]:
        changes.append(Change(name, "toolset-left", f"no longer in toolset {toolset}"))
    for toolset in [t for t in new["toolsets"] if t not in old["toolsets"]]:
        changes.append(Change(name, "toolset-joined", f"now in toolset {toolset}"))
    changes += _security(name, old["security"], new["security"])
    return changes


def _types(schema: Any, defs: Mapping[str, Any]) -> frozenset[str]:
    """The JSON types a schema allows (empty: any)."""
    schema = deref(schema, defs)
    if not isinstance(schema, Mapping):
        return frozenset()
    kind = schema.get("type")
    if isinstance(kind, str):
        return frozenset({kind})
    if isinstance(kind, list):
        return frozenset(k for k in kind if isinstance(k, str))
    found: set[str] = set()
    for key in ("anyOf", "oneOf"):
        for branch in schema.get(key) or []:
            branch_types = _types(branch, defs)
            if not branch_types:
                return frozenset()
            found |= branch_types
    return frozenset(found)


def _within(narrow: frozenset[str], wide: frozenset[str]) -> bool:
    """Whether every value of types ``narrow`` is a value of types ``wide`` (empty: any)."""
    if not wide:
        return True
    return bool(narrow) and all(t in wide or (t == "integer" and "number" in wide) for t in narrow)


def _shown(types: frozenset[str]) -> str:
    return "|".join(sorted(types)) or "any"


class _Pair:
    """The two sides' definitions of one tool's input schema, compared argument by argument."""

    def __init__(self, tool: str, old_defs: Mapping[str, Any], new_defs: Mapping[str, Any]) -> None:
        self.tool, self.old_defs, self.new_defs = tool, old_defs, new_defs

    def change(self, changes: list[Change], kind: str, where: str, detail: str) -> None:
        changes.append(Change(self.tool, kind, f"argument {where}: {detail}", where))

    def arguments(self, old: Any, new: Any, prefix: str, depth: int, changes: list[Change]) -> None:
        """The properties of two object schemas: added, removed, made required or optional, and each compared."""
        old, new = deref(old, self.old_defs), deref(new, self.new_defs)
        if depth > _MAX_DEPTH or not isinstance(old, Mapping) or not isinstance(new, Mapping):
            return
        old_props, new_props = old.get("properties") or {}, new.get("properties") or {}
        old_req, new_req = set(old.get("required") or []), set(new.get("required") or [])
        for name in old_props:
            if name not in new_props:
                self.change(changes, "argument-removed", prefix + name, "removed")
        for name in new_props:
            if name not in old_props:
                required = name in new_req
                kind = "required-argument-added" if required else "argument-added"
                self.change(changes, kind, prefix + name, "added, required" if required else "added")
        for name, old_schema in old_props.items():
            if name not in new_props:
                continue
            if name in new_req and name not in old_req:
                self.change(changes, "argument-required", prefix + name, "now required")
            elif name in old_req and name not in new_req:
                self.change(changes, "argument-optional", prefix + name, "now optional")
            self.schema(old_schema, new_props[name], prefix + name, depth, changes)

    def schema(self, old: Any, new: Any, where: str, depth: int, changes: list[Change]) -> None:
        """One argument's schema: type, format, values, limits, default, description, then what it holds."""
        old_types, new_types = _types(old, self.old_defs), _types(new, self.new_defs)
        old, new = deref(old, self.old_defs), deref(new, self.new_defs)
        if not isinstance(old, Mapping) or not isinstance(new, Mapping):
            return
        if old_types != new_types:
            if _within(old_types, new_types):
                kind = "type-widened"
            elif _within(new_types, old_types):
                kind = "type-narrowed"
            else:
                kind = "type-changed"
            self.change(changes, kind, where, f"type {_shown(old_types)} -> {_shown(new_types)}")
            if kind == "type-changed":
                return  # what it holds is another thing now
        if old.get("format") != new.get("format"):
            kind = "format-widened" if new.get("format") is None else "format-narrowed"
            self.change(changes, kind, where, f"format {old.get('format')} -> {new.get('format')}")
        self.values(old, new, where, changes)
        self.limits(old, new, where, changes)
        if "default" in old and "default" in new and old["default"] != new["default"]:
            before, after = json_excerpt(old["default"], 60), json_excerpt(new["default"], 60)
            self.change(changes, "default-changed", where, f"default {before} -> {after}")
        if (old.get("description") or "") != (new.get("description") or ""):
            self.change(changes, "description-changed", where, "description changed")
        if isinstance(old.get("items"), Mapping) and isinstance(new.get("items"), Mapping):
            self.schema(old["items"], new["items"], f"{where}[]", depth + 1, changes)
        if old.get("properties") or new.get("properties"):
            self.arguments(old, new, f"{where}.", depth + 1, changes)

    def values(self, old: Mapping[str, Any], new: Mapping[str, Any], where: str, changes: list[Change]) -> None:
        """Enum values removed (refused now) and added, or a list of values imposed or lifted."""
        old_enum, new_enum = old.get("enum"), new.get("enum")
        if isinstance(old_enum, list) and isinstance(new_enum, list):
            for value in old_enum:
                if value not in new_enum:
                    self.change(changes, "enum-value-removed", where, f"value {json_excerpt(value, 60)} removed")
            for value in new_enum:
                if value not in old_enum:
                    self.change(changes, "enum-value-added", where, f"value {json_excerpt(value, 60)} added")
        elif isinstance(new_enum, list):
            self.change(changes, "enum-added", where, f"limited to {json_excerpt(new_enum, 80)}")
        elif isinstance(old_enum, list):
            self.change(changes, "enum-removed", where, "no longer limited to a list of values")

    def limits(self, old: Mapping[str, Any], new: Mapping[str, Any], where: str, changes: list[Change]) -> None:
        """Numeric limits, patterns and multiples, stricter or looser."""
        for key in (*_LOWER, *_UPPER):
            before, after = old.get(key), new.get(key)
            if before == after or isinstance(before, bool) or isinstance(after, bool):
                continue
            if after is None:
                stricter = False
            elif before is None:
                stricter = True
            elif isinstance(before, int | float) and isinstance(after, int | float):
                stricter = after > before if key in _LOWER else after < before
            else:
                continue
            kind = "constraint-narrowed" if stricter else "constraint-widened"
            self.change(changes, kind, where, f"{key} {before} -> {after}")
        for key in ("pattern", "multipleOf"):
            if old.get(key) != new.get(key):
                kind = "constraint-widened" if new.get(key) is None else "constraint-narrowed"
                before, after = json_excerpt(old.get(key), 60), json_excerpt(new.get(key), 60)
                self.change(changes, kind, where, f"{key} {before} -> {after}")


def _outputs(tool: str, old: Any, new: Any) -> list[Change]:
    """The result's shape: fields removed or retyped break a client reading them; fields added do not."""
    if not isinstance(old, Mapping) and not isinstance(new, Mapping):
        return []
    if not isinstance(new, Mapping):
        return [Change(tool, "output-schema-removed", "the result's shape is no longer declared")]
    if not isinstance(old, Mapping):
        return [Change(tool, "output-schema-added", "the result's shape is declared")]
    changes: list[Change] = []
    old_defs, new_defs = old.get("$defs") or {}, new.get("$defs") or {}

    def walk(before: Any, after: Any, where: str, depth: int) -> None:
        old_types, new_types = _types(before, old_defs), _types(after, new_defs)
        before, after = deref(before, old_defs), deref(after, new_defs)
        if depth > _MAX_DEPTH or not isinstance(before, Mapping) or not isinstance(after, Mapping):
            return
        if where and old_types != new_types and not _within(new_types, old_types):
            detail = f"result field {where}: type {_shown(old_types)} -> {_shown(new_types)}"
            changes.append(Change(tool, "output-type-changed", detail, where))
            return
        old_props, new_props = before.get("properties") or {}, after.get("properties") or {}
        prefix = f"{where}." if where else ""
        for name in old_props:
            if name not in new_props:
                changes.append(Change(tool, "output-property-removed", f"result field {prefix}{name} removed"))
        for name in new_props:
            if name not in old_props:
                changes.append(Change(tool, "output-property-added", f"result field {prefix}{name} added"))
            else:
                walk(old_props[name], new_props[name], prefix + name, depth + 1)
        if isinstance(before.get("items"), Mapping) and isinstance(after.get("items"), Mapping):
            walk(before["items"], after["items"], f"{where}[]", depth + 1)

    walk(old, new, "", 0)
    return changes


def _effective(annotations: Mapping[str, Any]) -> dict[str, bool]:
    hints = {key: bool(annotations.get(key, default)) for key, default in _HINTS.items()}
    if hints["readOnlyHint"]:
        hints["destructiveHint"] = False  # a tool that only reads destroys nothing
    return hints


def _annotations(tool: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Change]:
    before, after = _effective(old), _effective(new)
    changes = []
    for key in _HINTS:
        if before[key] == after[key]:
            continue
        riskier = after[key] if key == "destructiveHint" else before[key]
        kind = "annotation-riskier" if riskier else "annotation-safer"
        changes.append(Change(tool, kind, f"{key} {str(before[key]).lower()} -> {str(after[key]).lower()}"))
    return changes


def _needs(security: Sequence[Sequence[Sequence[Any]]]) -> set[str]:
    """Every scheme and scope any alternative names (``scheme`` and ``scheme:scope``)."""
    found = set()
    for alternative in security:
        for scheme, scopes in alternative:
            found.add(str(scheme))
            found.update(f"{scheme}:{scope}" for scope in scopes)
    return found


def _security(tool: str, old: Sequence[Any], new: Sequence[Any]) -> list[Change]:
    if old == new:
        return []
    before, after = _needs(old), _needs(new)
    changes = [Change(tool, "security-added", f"now needs {need}") for need in sorted(after - before)]
    changes += [Change(tool, "security-removed", f"no longer needs {need}") for need in sorted(before - after)]
    return changes
