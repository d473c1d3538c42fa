"""Which operations become tools: include/exclude filters, deprecated operations, per-operation overrides.

Filters of different kinds combine with AND (an operation must match every include filter that
is given) and values of one kind with OR; any exclude filter, an override's ``exclude`` or the
spec's ``x-mcp: {exclude: true}`` removes an operation. Overrides from the configuration win
over the spec's ``x-mcp`` extension, field by field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fnmatch import fnmatchcase
from typing import Any

from mcpforge.diagnostics import Diagnostics
from mcpforge.openapi.model import Operation
from mcpforge.openapi.tags import TagTree
from mcpforge.options.model import Options, Override
from mcpforge.text.names import toolset_name

__all__ = ["operation_key", "select_operations"]


def operation_key(operation: Operation) -> str:
    """``GET /pets/{id}``: identifies an operation across regenerations."""
    return f"{operation.http_method} {operation.path}"


def _tags(op: Operation, tree: TagTree) -> set[str]:
    """The tags an operation answers to: its own and their ancestors, as written and as toolset names."""
    tags = tree.expand(op.tags)
    return {t.lower() for t in tags} | {toolset_name(t) for t in tags}


def _any(patterns: Sequence[str], value: str | None) -> bool:
    return value is not None and any(fnmatchcase(value, p) for p in patterns)


def _matches(op: Operation, sel: Options, tree: TagTree) -> bool:
    tags = _tags(op, tree)
    if sel.include_tags and not tags & {t.lower() for t in sel.include_tags}:
        return False
    if sel.include_operations and not _any(sel.include_operations, op.operation_id):
        return False
    if sel.include_paths and not _any(sel.include_paths, op.path):
        return False
    if sel.methods and op.method.lower() not in {m.lower() for m in sel.methods}:
        return False
    if tags & {t.lower() for t in sel.exclude_tags}:
        return False
    return not (_any(sel.exclude_operations, op.operation_id) or _any(sel.exclude_paths, op.path))


def _extension(op: Operation, diags: Diagnostics) -> Override:
    """The spec's own ``x-mcp`` override of an operation (invalid fields are reported and ignored)."""
    raw: Any = op.extensions.get("x-mcp")
    if raw is None:
        return Override()
    if raw is False:
        return Override(exclude=True)
    if not isinstance(raw, Mapping):
        diags.warn("x-mcp-invalid", "x-mcp must be an object or false; ignored", operation=op.label, pointer=op.pointer)
        return Override()
    values: dict[str, Any] = {}
    for key, kind in (("name", str), ("description", str), ("exclude", bool)):
        if key in raw:
            if isinstance(raw[key], kind):
                values[key] = raw[key]
            else:
                diags.warn(
                    "x-mcp-invalid",
                    f"x-mcp.{key} must be a {kind.__name__}; ignored",
                    operation=op.label,
                    pointer=f"{op.pointer}/x-mcp/{key}",
                )
    return Override(**values)


def _override(op: Operation, sel: Options, diags: Diagnostics) -> Override:
    extension = _extension(op, diags)
    config = sel.overrides.get(operation_key(op)) or (sel.overrides.get(op.operation_id) if op.operation_id else None)
    if config is None:
        return extension
    return replace(
        extension,
        name=config.name or extension.name,
        description=config.description or extension.description,
        exclude=config.exclude or extension.exclude,
    )


def select_operations(
    operations: Sequence[Operation], sel: Options, diags: Diagnostics, tree: TagTree
) -> tuple[list[tuple[Operation, Override]], list[Operation]]:
    """``(selected with their overrides, excluded)``, both in document order."""
    selected: list[tuple[Operation, Override]] = []
    excluded: list[Operation] = []
    for op in operations:
        override = _override(op, sel, diags)
        keep = _matches(op, sel, tree) and not override.exclude and (sel.include_deprecated or not op.deprecated)
        if keep:
            selected.append((op, override))
        else:
            excluded.append(op)
    known = {operation_key(op) for op in operations} | {op.operation_id for op in operations if op.operation_id}
    for key in sorted(set(sel.overrides) - known):
        diags.warn("override-unknown", f"override {key!r} matches no operation (use an operationId or 'METHOD /path')")
    return selected, excluded
