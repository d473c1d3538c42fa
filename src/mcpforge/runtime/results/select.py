"""Field selection: a tool's optional ``fields`` argument keeps only some fields of its JSON result.

A selection is a list of dot paths (``["number", "title", "user.login", "labels[].name"]``). Lists are
transparent: a path applies to every item of a list it meets (``labels.name`` and ``labels[].name``
are the same). The result keeps the shape of the full one, with only the selected fields, so it
still matches the tool's output schema. Paths are checked before the request against the output
schema: an unknown field is an error listing the fields available at that level. Below what the
schema documents, a path is checked against the response itself. The argument is never sent upstream.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["SelectionError", "check_paths", "documented_fields", "parse_paths", "select", "unmatched"]

_SCALARS = frozenset({"string", "number", "integer", "boolean", "null"})
MAX_PATHS = 200
MAX_PATH_LENGTH = 300
_SHOWN = 40

Trie = dict[str, Any]  # field -> sub-trie, or None for the whole value


class SelectionError(ValueError):
    """A selection that cannot be applied; the message says why and what is available."""


def parse_paths(raw: Any, arg: str) -> list[tuple[str, ...]]:
    """The paths of a ``fields`` argument (already checked to be a list of strings by its schema)."""
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        raise SelectionError(f'{arg} must be a list of field paths such as ["id", "user.login"]')
    if len(raw) > MAX_PATHS:
        raise SelectionError(f"{arg} may name at most {MAX_PATHS} fields")
    paths = []
    for text in raw:
        segments = tuple(part.removesuffix("[]").removesuffix("[]") for part in text.strip().split("."))
        if not text.strip() or len(text) > MAX_PATH_LENGTH or any(not s or "[" in s or "]" in s for s in segments):
            raise SelectionError(
                f"{arg}: {text[:80]!r} is not a field path; use names joined by dots, with [] after a list's "
                'name if you like ("labels[].name")'
            )
        paths.append(segments)
    return paths


def _available(node: Mapping[str, Any]) -> str:
    names = sorted(node)
    more = f" (and {len(names) - _SHOWN} more)" if len(names) > _SHOWN else ""
    return ", ".join(names[:_SHOWN]) + more


def documented_fields(schema: Any) -> dict[str, Any] | bool:
    """The fields a schema documents (name -> sub-schema); True when it says nothing, False for scalars.

    Lists are transparent (their items' fields), and the fields of ``anyOf``/``oneOf``/``allOf``
    branches are merged.
    """
    if not isinstance(schema, Mapping):
        return True
    if isinstance(schema.get("items"), Mapping):
        return documented_fields(schema["items"])
    fields: dict[str, Any] = {}
    open_branch = False
    for key in ("anyOf", "oneOf", "allOf"):
        for branch in schema.get(key) or []:
            found = documented_fields(branch)
            if isinstance(found, dict):
                fields.update(found)
            elif found:
                open_branch = True
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        fields.update(properties)
    if fields:
        return fields
    kind = schema.get("type")
    kinds = set(kind) if isinstance(kind, list) else {kind}
    scalar = kind is not None and kinds <= _SCALARS and not open_branch
    return not scalar


def check_paths(paths: list[tuple[str, ...]], schema: Any, arg: str) -> list[tuple[str, ...]]:
    """Raise :class:`SelectionError` for a path naming a field the schema does not document.

    Returns the paths that go below what the schema documents (checked later against the response).
    """
    undocumented = []
    for path in paths:
        node: Any = schema
        for depth, segment in enumerate(path):
            fields = documented_fields(node)
            if fields is True:
                undocumented.append(path)
                break
            if fields is False:
                parent, full = ".".join(path[:depth]), ".".join(path)
                raise SelectionError(f"{arg}: {parent!r} has no fields, so {full!r} is unknown")
            if segment not in fields:
                where = "at the top level" if depth == 0 else f"in {'.'.join(path[:depth])!r}"
                raise SelectionError(
                    f"{arg}: unknown field {'.'.join(path)!r}; fields available {where}: {_available(fields)}"
                )
            node = fields[segment]
    return undocumented


def _trie(paths: list[tuple[str, ...]]) -> Trie:
    root: Trie = {}
    for path in paths:
        node: Trie | None = root
        for segment in path[:-1]:
            assert node is not None
            if segment in node and node[segment] is None:  # an ancestor is already selected whole
                node = None
                break
            node = node.setdefault(segment, {})
        if node is not None:
            node[path[-1]] = None
    return root


def _apply(value: Any, trie: Trie | None) -> Any:
    if trie is None:
        return value
    if isinstance(value, list):
        return [_apply(item, trie) for item in value]
    if isinstance(value, dict):
        return {key: _apply(value[key], sub) for key, sub in trie.items() if key in value}
    return value


def select(value: Any, paths: list[tuple[str, ...]]) -> Any:
    """``value`` with only the fields of ``paths`` (lists mapped item by item)."""
    return _apply(value, _trie(paths))


def _keys_at(value: Any, path: tuple[str, ...]) -> tuple[bool, set[str]]:
    """Whether ``path`` exists somewhere in ``value``, and the keys seen where it stops."""
    nodes = [value]
    for segment in path:
        found, keys, following = False, set[str](), []
        stack = list(nodes)
        while stack:
            node = stack.pop()
            if isinstance(node, list):
                stack.extend(node)
            elif isinstance(node, dict):
                keys.update(node)
                if segment in node:
                    found = True
                    following.append(node[segment])
        if not found:
            return False, keys
        nodes = following
    return True, set()


def unmatched(value: Any, paths: list[tuple[str, ...]], arg: str) -> str | None:
    """For a result without documented fields: an error for the first path found nowhere in ``value``."""
    for path in paths:
        exists, keys = _keys_at(value, path)
        if not exists and keys:
            return f"{arg}: no field {'.'.join(path)!r} in the result; fields there: {_available(dict.fromkeys(keys))}"
    return None
