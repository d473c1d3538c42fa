"""What the search index reads of each operation: its fields' texts, and those texts as terms.

An operation is a document of fields (:data:`FIELDS`): what its method and path shape do in
everyday words (``action``), its name, its summary, the resource its path ends with, the rest of its
path, its tags, its description, its arguments' names and their descriptions. The generator makes
them once for ``search.json`` (:mod:`mcpforge.targets.search`); a server without that file makes
them from ``tools.json`` (:func:`entry_texts`). Nothing here reads a request: the generator imports
this module, not the request side (:mod:`.asks`, :mod:`.properties`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..contract import ToolEntry
from .compounds import split_run_together, vocabulary
from .words import terms

__all__ = [
    "FIELDS",
    "PARAMETER",
    "ArgumentMemo",
    "analyse",
    "analyse_api",
    "bare_verb",
    "entry_texts",
    "last_verb",
    "named_verb",
    "operation_texts",
    "rpc_method",
    "trimmed",
]

# The fields of an operation the index reads, in search.json's order (their weights: :class:`.index.Weights`).
FIELDS = (
    "action", "name", "title", "resource", "path", "tags", "topic", "description", "arguments", "details", "results",
    "properties",
)  # fmt: skip
PARAMETER = re.compile(r"^\{[^}]*\}$")
_CAST = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_DEFS = "#/$defs/"
_AUTH_NOTE = re.compile(r"\s*Auth: [^.]*\.\s*$")
# What an operation does, from its method and the shape of its path, in the words the lexicon maps
# people's words to (lexicon.EVERYDAY: "show" is get and list, "make" is create). A request's terms add
# up, so each action says its own words once: listing every synonym here would count one said word
# several times over.
_ACTIONS = {
    "GET": "get single",
    "POST": "create add",
    "PUT": "update set",
    "PATCH": "update",
    "DELETE": "delete remove",
}

_LINKING = {"POST": "add", "DELETE": "remove"}


# What one schema object says of its arguments, by identity: (the schema, names, notes). Tools share
# their argument and body schemas (Graph: 11,000 tools, a few thousand distinct arguments).
ArgumentMemo = dict[tuple[int, int], tuple[Any, list[str], list[str]]]


def operation_texts(
    *,
    name: str,
    title: str,
    method: str,
    path: str,
    toolsets: Sequence[str],
    description: str,
    input_schema: Any,
    select: str | None = None,
    memo: ArgumentMemo | None = None,
) -> dict[str, str]:
    """What the index reads of one operation, field by field (``topic`` and ``results`` are the generator's).

    ``select`` names mcpforge's own field-selection argument, which says nothing of the operation;
    ``memo`` keeps what shared argument schemas say across the operations of one analysis.
    """
    method = method.upper()
    segments, suffixes = trimmed(method, [s for s in path.split("/") if s])
    static = [s for s in segments if not PARAMETER.match(s)]
    # What a verb at the path's end acts on is the resource: /accounts/get gets accounts, /issues/search
    # finds issues.
    acted_on = static[:-1] if len(static) > 1 and last_verb(segments) else static
    method, listing = rpc_method(method, segments)
    action = "list all" if listing else _ACTIONS.get(method, "")
    # OData's link to an existing object ("POST /groups/{id}/members/$ref", whose summary says "create new
    # navigation property ref"): a member added, not made; and taken out, not deleted
    if "$ref" in suffixes and method in _LINKING:
        title = f"{_LINKING[method]} {title}"
    names: list[str] = []
    notes: list[str] = []
    if select and isinstance(input_schema, dict) and select in input_schema.get("properties", {}):
        input_schema = {**input_schema, "properties": {**input_schema["properties"]}}
        del input_schema["properties"][select]
    defs = input_schema.get("$defs") if isinstance(input_schema, dict) else None
    _arguments(input_schema, names, notes, 0, {} if memo is None else memo, defs if isinstance(defs, dict) else {})
    return {
        "action": action,
        "name": name,
        "title": title,
        "resource": acted_on[-1] if acted_on else "",
        "path": " ".join(acted_on[:-1] + static[len(acted_on) :] + [s for s in suffixes if not PARAMETER.match(s)]),
        "tags": " ".join(dict.fromkeys(toolsets)),
        "description": description,
        "arguments": " ".join(names),
        "details": " ".join(dict.fromkeys(notes)),
    }


def entry_texts(entry: ToolEntry) -> dict[str, str]:
    """What the index reads of an operation when only ``tools.json`` describes it (``mcpforge serve``)."""
    tool = entry["tool"]
    return operation_texts(
        name=str(tool["name"]),
        title=str(tool.get("title") or ""),
        method=entry["method"],
        path=entry["path"],
        toolsets=entry.get("toolsets", []),
        description=_AUTH_NOTE.sub("", str(tool.get("description") or "")),
        input_schema=tool.get("inputSchema", {}),
        select=entry.get("select"),
    )


def analyse(texts: Mapping[str, str], seen: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """Each field's text as the terms the index counts (``seen``: texts analysed before, which APIs repeat)."""
    if seen is None:
        return {name: terms(text) for name, text in texts.items()}
    analysed = {}
    for name, text in texts.items():
        found = seen.get(text)
        if found is None:
            found = seen[text] = terms(text)
        analysed[name] = found
    return analysed


def analyse_api(texts: Sequence[Mapping[str, str]]) -> list[dict[str, list[str]]]:
    """Each operation's fields (:func:`operation_texts`) as terms, with the words its path runs together."""
    known = vocabulary(texts)
    seen: dict[str, list[str]] = {}
    return [analyse(split_run_together(fields, known), seen) for fields in texts]


def _arguments(
    schema: Any, names: list[str], notes: list[str], depth: int, memo: ArgumentMemo, defs: Mapping[str, Any]
) -> None:
    """The names and descriptions of a schema's properties, through allOf/anyOf/oneOf and the input
    schema's own ``$defs`` (where a shared or recursive body lives), two levels down."""
    if not isinstance(schema, dict) or depth > 2:
        return
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith(_DEFS):
        schema = defs.get(ref[len(_DEFS) :])
        if not isinstance(schema, dict):
            return
    found = memo.get((id(schema), depth))
    if found is None or found[0] is not schema:
        found = (schema, [], [])
        memo[(id(schema), depth)] = found  # before the walk: a schema that includes itself ends here
        _walk(schema, found[1], found[2], depth, memo, defs)
    if found[1] is not names:
        names.extend(found[1])
        notes.extend(found[2])


def _walk(
    schema: dict[str, Any], names: list[str], notes: list[str], depth: int, memo: ArgumentMemo, defs: Mapping[str, Any]
) -> None:
    for key in ("allOf", "anyOf", "oneOf"):
        for part in schema.get(key, ()):
            _arguments(part, names, notes, depth, memo, defs)
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return
    for name, value in properties.items():
        if name != "body":
            names.append(name)
        if isinstance(value, dict):
            if isinstance(value.get("description"), str):
                notes.append(value["description"])
            _arguments(value, names, notes, depth + 1, memo, defs)


# What an action named in a path does: AWS's /#Action=DeleteUser, Slack's /conversations.list and
# /chat.postMessage, Graph's /microsoft.graph.getMemberGroups. Such APIs call every action with GET
# or POST: the verb in the name, not the HTTP method, says whether it reads, writes or deletes.
_RPC_VERBS = {
    **dict.fromkeys(("list", "search", "query", "find"), "LIST"),
    **dict.fromkeys(("get", "describe", "read", "fetch", "lookup", "info", "view", "history"), "GET"),
    **dict.fromkeys(("create", "add", "post", "insert", "new", "upload", "send", "attach", "register"), "POST"),
    **dict.fromkeys(("put", "set", "replace"), "PUT"),
    **dict.fromkeys(("update", "modify", "edit", "change", "rename", "enable", "disable"), "PATCH"),
    **dict.fromkeys(("delete", "remove", "detach", "destroy", "drop", "revoke", "deregister"), "DELETE"),
}
# An action sent with a body, named by the path's last word alone: Plaid's POST /accounts/get and
# /item/remove, Square's POST /v2/customers/search, Docker's POST /images/prune.
_BARE_VERBS = {
    **dict.fromkeys(("list", "search", "query", "find", "lookup"), "LIST"),
    **dict.fromkeys(("get", "fetch", "retrieve"), "GET"),
    **dict.fromkeys(("create", "add"), "POST"),
    **dict.fromkeys(("update", "edit", "modify"), "PATCH"),
    **dict.fromkeys(("delete", "remove", "prune", "purge"), "DELETE"),
}
_BODY_METHODS = frozenset({"POST", "PUT"})
_NAMED_ACTION = re.compile(r"(?:^|[.=])([a-z]+|[A-Z][a-z]+)[A-Z][A-Za-z0-9]*$|\.([a-z]+)$")


def rpc_method(method: str, segments: Sequence[str]) -> tuple[str, bool]:
    """The method an operation acts as, and whether it lists: its path's named action's, else its own.

    A GET of a collection lists; a GET of an item gets one.
    """
    verb = named_verb(segments[-1]) if segments else None
    if verb is None:
        # Azure's POST .../config/appsettings/list, Square's POST /v2/customers/search, Docker's POST /images/prune
        verb = bare_verb(method, segments)
    if verb is not None:
        return ("GET", True) if verb == "LIST" else (verb, False)
    return method, method == "GET" and bool(segments) and not PARAMETER.match(segments[-1])


def last_verb(segments: Sequence[str]) -> str | None:
    """What a path's last segment does when it is a verb alone ("LIST", "GET", ...): ``/accounts/get``."""
    return _BARE_VERBS.get(segments[-1].lower()) if segments else None


def bare_verb(method: str, segments: Sequence[str]) -> str | None:
    """:func:`last_verb` of a POST or a PUT: the action it sends with a body (a GET's path only names things)."""
    return last_verb(segments) if method.upper() in _BODY_METHODS else None


def named_verb(segment: str) -> str | None:
    """What the action a path segment names does ("LIST", "GET", "POST", ...), if it names one."""
    found = None if PARAMETER.match(segment) else _NAMED_ACTION.search(segment)
    return _RPC_VERBS.get((found.group(1) or found.group(2)).lower()) if found else None


def trimmed(method: str, segments: list[str]) -> tuple[list[str], list[str]]:
    """A path's segments without the OData suffixes that say how, not what, and those suffixes.

    ``/$ref``, ``/$value`` and ``/$count`` act on the resource before them, and so does a GET's type
    cast (``/members/microsoft.graph.user``: a namespaced name without the parentheses of a function,
    and not an action such as ``/users.info``).
    """
    end = len(segments)
    while end > 1 and (segments[end - 1].startswith("$") or (method == "GET" and _is_cast(segments[end - 1]))):
        end -= 1
    return segments[:end], segments[end:]


def _is_cast(segment: str) -> bool:
    return bool(_CAST.match(segment)) and named_verb(segment) is None
