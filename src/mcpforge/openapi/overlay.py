"""OpenAPI Overlays (Overlay Specification 1.0 and 1.1), applied to a document before anything else reads it.

Targets are RFC 9535 JSONPath queries, evaluated by ``jsonpath-rfc9535`` (a maintained, strict
implementation of the RFC; its author also maintains python-jsonpath). Actions run in order, each on
the result of the previous one: ``remove`` takes each selected node out of its object or array;
``update`` (or, in 1.1, ``copy`` from a single node) merges into each selected object (properties
added; primitives replaced; arrays concatenated; objects merged recursively; anything else is an
error), concatenates an array with or appends a value to each selected array, or replaces each
selected primitive. An action whose target selects nothing changes nothing and is reported.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcpforge.diagnostics import Diagnostics
from mcpforge.errors import OverlayError
from mcpforge.openapi.refs import join_pointer

__all__ = ["Overlay", "apply_overlay", "load_overlay"]

_SUPPORTED = ("1.0", "1.1")


@dataclass(frozen=True, slots=True)
class Overlay:
    """A parsed overlay document."""

    name: str
    data: dict[str, Any]
    raw_bytes: bytes


def load_overlay(path: Path, *, read: Callable[[Path], Any]) -> Overlay:
    """The overlay at ``path``, checked: an ``overlay`` version of 1.0 or 1.1, ``info``, a list of ``actions``."""
    data = read(path)
    name = path.name
    version = str(data.get("overlay", "")).strip() if isinstance(data, dict) else ""
    if not version:
        raise OverlayError(
            f"{name} is not an overlay document: it has no 'overlay' version", location="/overlay",
            hint="an overlay starts with overlay: 1.1.0, info and actions (Overlay Specification 1.0 or 1.1)",
        )  # fmt: skip
    if not version.startswith(tuple(f"{v}." for v in _SUPPORTED)) and version not in _SUPPORTED:
        raise OverlayError(
            f"{name} uses Overlay Specification {version}; mcpforge applies 1.0 and 1.1", location="/overlay"
        )
    actions = data.get("actions")
    if not isinstance(actions, list) or not actions:
        raise OverlayError(f"{name} has no actions", location="/actions", hint="actions is a non-empty list")
    return Overlay(name=name, data=data, raw_bytes=path.read_bytes())


def _compile(query: Any, overlay: str, pointer: str) -> Any:
    import jsonpath_rfc9535  # noqa: PLC0415 - only runs with overlays

    if not isinstance(query, str) or not query.startswith("$"):
        raise OverlayError(f"{overlay}: {query!r} is not a JSONPath query (it starts with $)", location=pointer)
    try:
        return jsonpath_rfc9535.compile(query)
    except jsonpath_rfc9535.JSONPathError as exc:
        raise OverlayError(f"{overlay}: invalid JSONPath {query!r}: {exc}", location=pointer) from None


def _kind(value: Any) -> str:
    return "object" if isinstance(value, dict) else "array" if isinstance(value, list) else "primitive"


def _merge(target: dict[str, Any], update: dict[str, Any], overlay: str, pointer: str, where: str) -> None:
    for key, value in update.items():
        if key not in target:
            target[key] = copy.deepcopy(value)
            continue
        current = target[key]
        kinds = (_kind(current), _kind(value))
        if kinds == ("primitive", "primitive"):
            target[key] = value
        elif kinds == ("array", "array"):
            current.extend(copy.deepcopy(value))
        elif kinds == ("object", "object"):
            _merge(current, value, overlay, pointer, join_pointer(where, key))
        else:
            raise OverlayError(
                f"{overlay}: cannot merge {kinds[1]} into the {kinds[0]} at {join_pointer(where, key) or '/'}",
                location=pointer,
                hint="remove the node first, then add it back with the new value",
            )


def _parent(root: Any, location: tuple[Any, ...]) -> Any:
    node = root
    for step in location[:-1]:
        node = node[step]
    return node


def _pointer(location: tuple[Any, ...]) -> str:
    return join_pointer("", *location)


def _apply(root: Any, nodes: list[Any], value: Any, overlay: str, pointer: str) -> None:
    kinds = {_kind(node.value) for node in nodes}
    if len(kinds) > 1:
        raise OverlayError(f"{overlay}: the target selects a mix of objects, arrays and values", location=pointer)
    for node in nodes:
        where = _pointer(tuple(node.location))
        if isinstance(node.value, dict):
            if not isinstance(value, dict):
                raise OverlayError(f"{overlay}: {where or '/'} is an object; the update must be one", location=pointer)
            _merge(node.value, value, overlay, pointer, where)
        elif isinstance(node.value, list):
            node.value.extend(copy.deepcopy(value) if isinstance(value, list) else [copy.deepcopy(value)])
        else:
            if isinstance(value, dict | list):
                raise OverlayError(f"{overlay}: {where} is a value; the update must be one too", location=pointer)
            if not node.location:
                raise OverlayError(f"{overlay}: cannot replace the whole document", location=pointer)
            _parent(root, tuple(node.location))[node.location[-1]] = value


def _remove(root: Any, nodes: list[Any], overlay: str, pointer: str) -> None:
    # Deepest and last first, so removing one node never shifts the index of another still to remove.
    for node in sorted(nodes, key=lambda n: tuple(n.location), reverse=True):
        if not node.location:
            raise OverlayError(f"{overlay}: cannot remove the whole document", location=pointer)
        container = _parent(root, tuple(node.location))
        del container[node.location[-1]]


def apply_overlay(root: Any, overlay: Overlay, diags: Diagnostics) -> Any:
    """``root`` with every action of ``overlay`` applied (in place when possible); returns the result."""
    for index, action in enumerate(overlay.data["actions"]):
        at = f"/actions/{index}"
        if not isinstance(action, dict):
            raise OverlayError(f"{overlay.name}: action {index} is not an object", location=at)
        query = _compile(action.get("target"), overlay.name, f"{at}/target")
        nodes = list(query.find(root))
        if not nodes:
            label = action.get("description") or action.get("target")
            diags.warn(
                "overlay-no-match",
                f"{overlay.name}: action {index} ({label}) matches nothing; it changed nothing",
                pointer=f"{at}/target",
            )
            continue
        if action.get("remove") is True:
            _remove(root, nodes, overlay.name, at)
        elif "update" in action:
            _apply(root, nodes, action["update"], overlay.name, at)
        elif "copy" in action:
            sources = list(_compile(action["copy"], overlay.name, f"{at}/copy").find(root))
            if len(sources) != 1:
                raise OverlayError(
                    f"{overlay.name}: copy must select exactly one node; {action['copy']!r} selects {len(sources)}",
                    location=f"{at}/copy",
                )
            _apply(root, nodes, copy.deepcopy(sources[0].value), overlay.name, at)
    return root
