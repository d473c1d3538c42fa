"""Code mode's functions: each operation as ``api.<name>(**arguments)``, and the exact call a search shows.

A function's name is its tool's name with every character outside ``[A-Za-z0-9_]`` written as
``_`` (``op_`` first when it would start with a digit or ``_``, which the sandbox hides; ``_``
last when it is a Python keyword).
Names that then collide are told apart in tool order, ``_2``, ``_3``..., so the names depend only
on the tool set. A signature shows each argument with its type (an enum as its values), required
ones first, defaults as the API documents them, and what the call returns: it is what a model
reads instead of the input schema.
"""

from __future__ import annotations

import json
import keyword
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..contract import ToolEntry
from ..results.defs import deref

__all__ = ["function_names", "signature"]

_NOT_NAME = re.compile(r"[^A-Za-z0-9_]")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}
_ENUM_SHOWN = 8  # values of an enum a signature lists before "..."
_FIELDS_SHOWN = 12  # fields of an object argument a signature lists before "..."


def function_names(entries: Sequence[ToolEntry]) -> dict[str, str]:
    """Function name -> tool name, for every tool, in tool order."""
    names: dict[str, str] = {}
    for entry in entries:
        tool = entry["tool"]["name"]
        base = _NOT_NAME.sub("_", tool)
        if base[:1].isdigit() or base.startswith("_"):
            base = f"op_{base}"
        if keyword.iskeyword(base) or keyword.issoftkeyword(base):
            base = f"{base}_"
        name, number = base, 2
        while name in names:
            name, number = f"{base}_{number}", number + 1
        names[name] = tool
    return names


def _type(schema: Any, defs: Mapping[str, Any], depth: int = 0) -> str:
    """A schema as a Python-like type: ``str``, ``"open"|"closed"``, ``list[int]``, ``dict``."""
    schema = deref(schema, defs)
    if not isinstance(schema, Mapping) or depth > 2:
        return "Any"
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        shown = "|".join(json.dumps(value, ensure_ascii=False) for value in enum[:_ENUM_SHOWN])
        return shown + ("|..." if len(enum) > _ENUM_SHOWN else "")
    if "const" in schema:
        return json.dumps(schema["const"], ensure_ascii=False)
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if isinstance(kind, str) else []
    if not kinds:
        branches = schema.get("anyOf") or schema.get("oneOf")
        if isinstance(branches, list) and branches:
            return "|".join(dict.fromkeys(_type(branch, defs, depth + 1) for branch in branches))
        return _fields(schema, defs, depth) if "properties" in schema else "Any"
    spelled = []
    for one in kinds:
        if one == "array":
            spelled.append(f"list[{_type(schema.get('items'), defs, depth + 1)}]")
        elif one == "object":
            spelled.append(_fields(schema, defs, depth))
        else:
            spelled.append(_SCALARS.get(str(one), "Any"))
    return "|".join(dict.fromkeys(spelled))


def _fields(schema: Mapping[str, Any], defs: Mapping[str, Any], depth: int) -> str:
    """An object argument's fields, ``{title: str, labels?: list[str]}`` (``?``: optional), near the top only."""
    properties = schema.get("properties")
    if not isinstance(properties, Mapping) or not properties or depth > 0:
        return "dict"
    required = set(schema.get("required") or [])
    shown = [
        f"{name}{'' if name in required else '?'}: {_type(sub, defs, depth + 1)}" for name, sub in properties.items()
    ]
    more = ", ..." if len(shown) > _FIELDS_SHOWN else ""
    return "{" + ", ".join(shown[:_FIELDS_SHOWN]) + more + "}"


def _returns(entry: ToolEntry) -> str:
    output = entry["tool"].get("outputSchema")
    if not isinstance(output, Mapping):
        return "Any"
    body = output.get("properties", {}).get("result", True) if entry["outputWrapped"] else output
    found = _type(body, output.get("$defs", {}))
    found = "dict" if found.startswith("{") else found  # what a call returns: its kind, not its fields
    return found if found in ("dict", "str", "int", "float", "bool") or found.startswith("list") else "Any"


def signature(name: str, entry: ToolEntry, *, select: str | None = None) -> str:
    """``api.<name>(owner: str, repo: str, state: "open"|"closed" = "open", ...) -> list[dict]``.

    ``select`` names mcpforge's field-selection argument, which a program does not need: it gets
    the whole answer and picks what it wants.
    """
    schema = entry["tool"].get("inputSchema") or {}
    defs = schema.get("$defs", {})
    properties = schema.get("properties", {})
    required = set(schema.get("required", []))
    plain: list[str] = []
    quoted: list[str] = []
    order = [p for p in properties if p in required] + [p for p in properties if p not in required]
    for argument in order:
        if argument == select:
            continue
        node = deref(properties[argument], defs)
        shown = f"{argument}: {_type(node, defs)}"
        if argument not in required:
            default = node.get("default") if isinstance(node, Mapping) else None
            shown += f" = {json.dumps(default, ensure_ascii=False) if default is not None else 'None'}"
        (plain if _IDENTIFIER.match(argument) and not keyword.iskeyword(argument) else quoted).append(shown)
    if quoted:  # names Python cannot spell as keywords ("X-Request-Id", "$top") go in a dict
        plain.append("**{" + ", ".join(f'"{q.split(": ", 1)[0]}": {q.split(": ", 1)[1]}' for q in quoted) + "}")
    return f"api.{name}({', '.join(plain)}) -> {_returns(entry)}"
