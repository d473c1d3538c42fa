"""``generate --check``: is the committed output current, and if not, what changed for its users.

Compares the files a run would write with those on disk, and the tools (by ``METHOD /path``)
with those the lock file and the MCP manifest on disk describe: tools added, removed, renamed,
and breaking input-schema changes (an argument removed, a new required argument, a changed type).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcpforge.output.write import OutputFolder
from mcpforge.project.files import RenderedFile
from mcpforge.runtime.results.defs import deref

__all__ = ["CheckReport", "check_output", "schema_breaks"]

_MCP_MANIFEST = "manifests/mcp-tools.json"
_MAX_DEPTH = 4


@dataclass(frozen=True, slots=True)
class CheckReport:
    """What differs between the output on disk and the output of this run."""

    stale_files: tuple[str, ...]  # missing, different or no longer generated
    added: tuple[str, ...]
    removed: tuple[str, ...]
    renamed: tuple[str, ...]
    breaking: tuple[str, ...]

    @property
    def current(self) -> bool:
        """Whether the output on disk is exactly what this run would write."""
        return not self.stale_files

    def lines(self) -> list[str]:
        """A human summary, one change per line."""
        out = []
        for label, items in (
            ("added", self.added),
            ("removed", self.removed),
            ("renamed", self.renamed),
            ("breaking", self.breaking),
        ):
            out += [f"  {label}: {item}" for item in items]
        tool_changes = len(self.added) + len(self.removed) + len(self.renamed) + len(self.breaking)
        out.append(f"{len(self.stale_files)} file(s) out of date; {tool_changes} tool change(s)")
        return out


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


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


def _widened(old: frozenset[str], new: frozenset[str]) -> bool:
    if not new:
        return True
    return old <= new or (old == {"integer"} and "number" in new)


def schema_breaks(old: Any, new: Any, *, prefix: str = "") -> list[str]:
    """Breaking differences of input schema ``new`` against ``old`` (arguments by dotted path)."""
    return _breaks(old, old.get("$defs", {}), new, new.get("$defs", {}), prefix, 0)


def _breaks(
    old: Any, old_defs: Mapping[str, Any], new: Any, new_defs: Mapping[str, Any], prefix: str, depth: int
) -> list[str]:
    old, new = deref(old, old_defs), deref(new, new_defs)
    if depth > _MAX_DEPTH or not isinstance(old, Mapping) or not isinstance(new, Mapping):
        return []
    old_props, new_props = old.get("properties") or {}, new.get("properties") or {}
    old_req, new_req = set(old.get("required") or []), set(new.get("required") or [])
    problems = [f"argument {prefix}{name} removed" for name in old_props if name not in new_props]
    problems += [f"argument {prefix}{name} is now required" for name in sorted(new_req - old_req) if name in new_props]
    for name, old_schema in old_props.items():
        if name not in new_props:
            continue
        new_schema = new_props[name]
        old_types, new_types = _types(old_schema, old_defs), _types(new_schema, new_defs)
        if old_types and not _widened(old_types, new_types):
            before, after = "|".join(sorted(old_types)), "|".join(sorted(new_types)) or "any"
            problems.append(f"argument {prefix}{name} changed type {before} -> {after}")
            continue
        problems += _breaks(old_schema, old_defs, new_schema, new_defs, f"{prefix}{name}.", depth + 1)
    return problems


def _tools(manifest: Any) -> dict[str, Any]:
    if not isinstance(manifest, list):
        return {}
    return {t["name"]: t for t in manifest if isinstance(t, dict) and isinstance(t.get("name"), str)}


def check_output(
    files: Sequence[RenderedFile],
    names: Mapping[str, str],
    tools: Sequence[Mapping[str, Any]],
    folder: OutputFolder,
) -> CheckReport:
    """Compare this run (its ``files``, tool ``names`` by operation and MCP ``tools``) with the folder."""
    out_dir, old_lock = folder.path, folder.lock
    new_files = {f.path: f.data for f in files}
    old_listed = set(old_lock.files) if old_lock else set()
    stale = []
    for path, content in sorted(new_files.items()):
        try:
            same = (out_dir / path).read_bytes() == content
        except OSError:
            same = False
        if not same:
            stale.append(path)
    stale += sorted(p for p in old_listed if isinstance(p, str) and p not in new_files)

    old_names = dict(old_lock.names) if old_lock else {}
    new_names = names
    old_tools = _tools(_read_json(out_dir / _MCP_MANIFEST))
    new_tools = _tools(list(tools))
    added = [f"{new_names[k]} ({k})" for k in new_names if k not in old_names]
    removed = [f"{old_names[k]} ({k})" for k in old_names if k not in new_names]
    renamed = [
        f"{old_names[k]} -> {new_names[k]} ({k})" for k in new_names if k in old_names and old_names[k] != new_names[k]
    ]
    breaking = []
    for key, name in new_names.items():
        old_tool = old_tools.get(old_names.get(key, ""))
        if old_tool is not None and name in new_tools:
            breaking += [f"{name}: {p}" for p in schema_breaks(old_tool["inputSchema"], new_tools[name]["inputSchema"])]
    return CheckReport(tuple(stale), tuple(added), tuple(removed), tuple(renamed), tuple(breaking))
