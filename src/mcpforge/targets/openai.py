"""OpenAI function tools: Chat Completions (nested) and Responses (flat, ``strict`` always explicit).

Non-strict parameters: a deep copy with ``default`` removed everywhere it can occur, ``properties``
present on the root, ``$schema`` and lookaround patterns removed. Strict parameters come from
:mod:`mcpforge.targets.openai_strict`; a tool that cannot be strict is emitted with ``strict: false``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mcpforge.schema.keywords import DATA_KEYWORDS, NAME_MAPS
from mcpforge.schema.memo import IdentityMemo
from mcpforge.targets.openai_strict import NotStrict, Strictified, has_lookaround, strict_schema
from mcpforge.targets.roots import fold_root

__all__ = [
    "MAX_TOOLS",
    "OPENAI_NAME",
    "Scrubbed",
    "chat_to_responses",
    "chat_tool",
    "chat_tools",
    "flat_tool",
    "openai_parameters",
    "plain_parameters",
    "responses_tool",
    "with_parameters",
]

OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
MAX_TOOLS = 128


_NO_ARGUMENTS: Mapping[str, Any] = {"type": "object"}
# Scrubbed subschemas, by identity.
Scrubbed = IdentityMemo[Any]


def _scrub(node: Any, memo: Scrubbed) -> Any:
    """``node`` without ``default``, ``$schema`` and lookaround patterns; unchanged parts are shared, not copied."""
    if isinstance(node, dict):
        done = memo.get(node)
        if done is not None:
            return done
        out: dict[str, Any] = {}
        changed = False
        for key, value in node.items():
            if key in ("default", "$schema") or (key == "pattern" and isinstance(value, str) and has_lookaround(value)):
                changed = True
                continue
            # "properties" and "$defs" map names to schemas: a property may be *named* "default".
            if key in NAME_MAPS and isinstance(value, dict):
                new = {k: _scrub(v, memo) for k, v in value.items()}
                new_value: Any = value if all(new[k] is value[k] for k in value) else new
            elif isinstance(value, dict | list) and key not in DATA_KEYWORDS:  # an enum of objects stays whole
                new_value = _scrub(value, memo)
            else:
                new_value = value  # a scalar: nothing to scrub (most nodes; a call each cost a second on Graph)
            changed = changed or new_value is not value
            out[key] = new_value
        result = out if changed else node
        return memo.put(node, result)
    if isinstance(node, list):
        items = [_scrub(v, memo) for v in node]
        return items if any(a is not b for a, b in zip(items, node, strict=True)) else node
    return node


def openai_parameters(input_schema: Mapping[str, Any], memo: Scrubbed | None = None) -> dict[str, Any]:
    """Non-strict parameters: ``default`` removed everywhere, ``properties`` on the root (input untouched).

    ``memo``, shared by the tools of one manifest, scrubs each subschema they share once (Graph's
    tools share their definitions: half the nodes).
    """
    # Shares unchanged subschemas: never mutate them.
    params: dict[str, Any] = dict(_scrub(fold_root(input_schema), Scrubbed() if memo is None else memo))
    params.setdefault("type", "object")
    params.setdefault("properties", {})
    return params


def _parameters(
    tool: Mapping[str, Any], strict: bool, memo: Scrubbed | None = None
) -> tuple[dict[str, Any], bool, str | None]:
    params = openai_parameters(tool.get("inputSchema") or {"type": "object"}, memo)
    if strict:
        try:
            return strict_schema(params), True, None  # never mutates params
        except NotStrict as exc:
            return params, False, str(exc)
    return params, False, None


def _chat(tool: Mapping[str, Any], params: dict[str, Any], strict: bool) -> dict[str, Any]:
    function = {"name": tool["name"], "description": tool.get("description") or "", "parameters": params}
    return {"type": "function", "function": function | {"strict": strict}}


def plain_parameters(tools: Sequence[Mapping[str, Any]], memo: Scrubbed | None = None) -> list[dict[str, Any]]:
    """Each tool's non-strict parameters (see :func:`openai_parameters`), sharing one scrubbing memo."""
    memo = Scrubbed() if memo is None else memo
    made: IdentityMemo[dict[str, Any]] = IdentityMemo()  # tools that share one input schema share its parameters
    parameters = []
    for tool in tools:
        schema = tool.get("inputSchema") or _NO_ARGUMENTS
        found = made.get(schema)
        parameters.append(found if found is not None else made.put(schema, openai_parameters(schema, memo)))
    return parameters


def chat_tools(
    tools: Sequence[Mapping[str, Any]],
    *,
    strict: bool,
    parameters: Sequence[dict[str, Any]] | None = None,
    description_max: int | None = None,
) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """The Chat tools of MCP tools, and ``(tool name, why)`` for each that could not be strict.

    The tools share one conversion memo each (see :func:`openai_parameters` and
    :func:`~mcpforge.targets.openai_strict.strict_schema`): a subschema they share is converted once.
    ``parameters``: the tools' :func:`plain_parameters`, when another form already made them;
    ``description_max`` bounds descriptions that strict mode adds notes to.
    """
    strict_memo = Strictified()
    # Tools that share their parameters share the strict form too, or the reason there is none.
    made: IdentityMemo[dict[str, Any] | str] = IdentityMemo()
    chats: list[dict[str, Any]] = []
    loose: list[tuple[str, str]] = []
    for tool, params in zip(tools, parameters if parameters is not None else plain_parameters(tools), strict=True):
        if strict:
            found = made.get(params)
            if found is None:
                try:
                    found = made.put(params, strict_schema(params, strict_memo, description_max))
                except NotStrict as exc:
                    found = made.put(params, str(exc))
            if not isinstance(found, str):
                chats.append(_chat(tool, found, True))
                continue
            loose.append((tool["name"], found))
        chats.append(_chat(tool, params, False))
    return chats, loose


def chat_tool(tool: Mapping[str, Any], *, strict: bool = False) -> tuple[dict[str, Any], str | None]:
    """One MCP tool as a Chat Completions tool; the second value says why strict was not possible."""
    params, is_strict, why = _parameters(tool, strict)
    return _chat(tool, params, is_strict), why


def responses_tool(tool: Mapping[str, Any], *, strict: bool = False) -> tuple[dict[str, Any], str | None]:
    """One MCP tool as a Responses API tool (flat; ``strict`` always explicit)."""
    params, is_strict, why = _parameters(tool, strict)
    return flat_tool(_chat(tool, params, is_strict)), why


def flat_tool(chat: Mapping[str, Any]) -> dict[str, Any]:
    """A Chat tool made here (:func:`chat_tool`, :func:`chat_tools`) as the same Responses tool.

    Tools from elsewhere go through :func:`chat_to_responses`, which checks them first.
    """
    return {"type": "function", **chat["function"]}


def chat_to_responses(tools: Sequence[Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """Chat-format tools flattened to Responses format; invalid ones dropped with a warning saying why.

    ``strict`` is kept only where the Chat tool had it (explicitly ``false`` otherwise, so Responses
    does not silently normalise the schema to strict); non-function tools pass through unchanged.
    """
    result: list[dict[str, Any]] = []
    warnings: list[str] = []
    for index, tool in enumerate(tools):
        if not isinstance(tool, Mapping):
            warnings.append(f"tools[{index}]: not an object; dropped")
            continue
        if tool.get("type") != "function":
            result.append(dict(tool))
            continue
        function = tool.get("function")
        if not isinstance(function, Mapping):
            warnings.append(f"tools[{index}]: function tool without a 'function' object; dropped")
            continue
        name = function.get("name")
        if not isinstance(name, str) or not OPENAI_NAME.match(name):
            warnings.append(f"tools[{index}]: name {name!r} does not match ^[a-zA-Z0-9_-]{{1,64}}$; dropped")
            continue
        params = function.get("parameters")
        if params is not None and (not isinstance(params, Mapping) or params.get("type") != "object"):
            warnings.append(f"tools[{index}] ({name}): parameters must be an object schema; dropped")
            continue
        flat: dict[str, Any] = {"type": "function", "name": name}
        if function.get("description") is not None:
            flat["description"] = function["description"]
        # The Chat tool's parameters themselves (never mutated): each is then encoded once for both.
        flat["parameters"] = params if params is not None else {"type": "object", "properties": {}}
        flat["strict"] = function.get("strict") is True
        result.append(flat)
    return result, warnings


def with_parameters(tool: Mapping[str, Any], replace: Callable[[Any], Any]) -> Mapping[str, Any]:
    """A Chat or Responses tool with its parameters replaced by ``replace(parameters)`` (the tool is not mutated)."""
    function = tool.get("function")
    if isinstance(function, Mapping) and "parameters" in function:
        return {**tool, "function": {**function, "parameters": replace(function["parameters"])}}
    if "parameters" in tool:
        return {**tool, "parameters": replace(tool["parameters"])}
    return tool
