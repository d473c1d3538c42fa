"""Runs the tool calls of OpenAI Chat, OpenAI Responses and Anthropic messages through MCP tools.

Each function takes the calls as the provider's SDK returns them (objects or plain dicts) and an
``execute(name, arguments)`` coroutine that runs one MCP tool, and returns exactly the messages the
provider expects next, one per call and in the calls' order. Calls run concurrently, at most
``concurrency`` at a time. A call whose arguments are not a JSON object, an unknown tool, invalid
arguments or a failing upstream become an error result for that call; the batch never raises.

This module depends only on the standard library and ``mcp.types``: mcpforge's client uses it, and
every generated server package carries a copy of it. Whatever the input, a batch yields one result
per call: a call that is not an object, names no tool, or carries arguments that are not a JSON
object (or nest too deeply to read) gets an error result of its own.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from mcp import types

__all__ = [
    "Execute",
    "ToolCall",
    "anthropic_calls",
    "execute_anthropic",
    "execute_openai_chat",
    "execute_openai_responses",
    "openai_chat_calls",
    "openai_responses_calls",
    "result_text",
    "run_calls",
]

Execute = Callable[[str, dict[str, Any]], Awaitable[types.CallToolResult]]
DEFAULT_CONCURRENCY = 8


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One call requested by a model: its id, the tool, and the arguments (or why they are unusable)."""

    id: str
    name: str
    arguments: dict[str, Any] | None
    problem: str | None = None


def _plain(value: Any) -> Any:
    """Provider SDK objects (pydantic models) as plain data; dicts and lists unchanged."""
    dump = getattr(value, "model_dump", None)
    return dump(mode="json") if callable(dump) else value


def _items(value: Any, key: str) -> list[Any]:
    """The list under ``key`` of a message or response, or ``value`` itself when it is already a list."""
    value = _plain(value)
    if isinstance(value, Mapping):
        value = value.get(key) or []
    if not isinstance(value, list | tuple):
        return []
    return [_plain(item) for item in value]


def _decode(raw: Any) -> tuple[dict[str, Any] | None, str | None]:
    """Arguments sent as a JSON string (OpenAI) or an object; ``(arguments, problem)``."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}, None
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as exc:
            return None, f"The arguments are not valid JSON ({exc.msg} at position {exc.pos}); send a JSON object."
        except RecursionError:
            return None, "The arguments nest too deeply to read; send a flatter JSON object."
    if not isinstance(raw, dict):
        return None, f"The arguments must be a JSON object, not {type(raw).__name__}."
    return raw, None


def _call(call_id: Any, name: Any, raw: Any) -> ToolCall:
    arguments, problem = _decode(raw)
    if arguments is not None and not isinstance(name, str):
        arguments, problem = None, "The tool call names no tool: 'name' must be a string."
    return ToolCall(
        str(call_id or "") if not isinstance(call_id, dict | list) else "", str(name or ""), arguments, problem
    )


def _malformed(item: Any, what: str) -> ToolCall:
    call_id = item.get("id") or item.get("call_id") if isinstance(item, Mapping) else None
    return ToolCall(str(call_id or ""), "", None, f"The tool call is malformed: {what}.")


def openai_chat_calls(tool_calls: Any) -> list[ToolCall]:
    """Calls from a Chat Completions assistant message, or from its ``tool_calls`` list."""
    calls = []
    for item in _items(tool_calls, "tool_calls"):
        if not isinstance(item, Mapping):
            calls.append(_malformed(item, "it is not a JSON object"))
            continue
        function = item.get("function")
        if not isinstance(function, Mapping):
            calls.append(_malformed(item, "'function' must be an object with 'name' and 'arguments'"))
            continue
        calls.append(_call(item.get("id"), function.get("name"), function.get("arguments")))
    return calls


def openai_responses_calls(items: Any) -> list[ToolCall]:
    """Calls from a Responses ``output`` list (other item types are ignored), or the response itself."""
    return [
        _call(item.get("call_id"), item.get("name"), item.get("arguments"))
        for item in _items(items, "output")
        if isinstance(item, Mapping) and item.get("type") == "function_call"
    ]


def anthropic_calls(blocks: Any) -> list[ToolCall]:
    """Calls from an Anthropic message's ``content`` blocks (``tool_use`` only), or the message itself."""
    return [
        _call(block.get("id"), block.get("name"), block.get("input"))
        for block in _items(blocks, "content")
        if isinstance(block, Mapping) and block.get("type") == "tool_use"
    ]


def _error(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


async def run_calls(
    calls: Iterable[ToolCall], execute: Execute, *, concurrency: int = DEFAULT_CONCURRENCY
) -> list[types.CallToolResult]:
    """Run ``calls`` concurrently (at most ``concurrency`` at once); one result per call, in order."""
    limit = asyncio.Semaphore(max(1, concurrency))

    async def one(call: ToolCall) -> types.CallToolResult:
        if call.arguments is None:
            return _error(call.problem or "The arguments could not be read.")
        if not call.name:
            return _error("The tool call names no tool.")
        async with limit:
            try:
                return await execute(call.name, call.arguments)
            except RecursionError:
                return _error(f"The call to {call.name} failed: its arguments nest too deeply.")
            except Exception as exc:  # noqa: BLE001 - one failing call must not fail the batch
                return _error(f"The call to {call.name} failed: {type(exc).__name__}: {exc}")

    return list(await asyncio.gather(*(one(call) for call in calls)))


def _content_text(item: Any) -> str:
    if isinstance(item, types.TextContent):
        return item.text
    if isinstance(item, types.ImageContent | types.AudioContent):
        return f"[{item.mime_type} {item.type}, {len(item.data) * 3 // 4:,} bytes]"
    if isinstance(item, types.EmbeddedResource):
        resource = item.resource
        if isinstance(resource, types.TextResourceContents):
            return resource.text
        return f"[resource {resource.uri} ({resource.mime_type or 'binary'}), {len(resource.blob) * 3 // 4:,} bytes]"
    if isinstance(item, types.ResourceLink):
        return f"[resource {item.uri}]"
    return json.dumps(item.model_dump(mode="json", by_alias=True, exclude_none=True), ensure_ascii=False)


def result_text(result: types.CallToolResult) -> str:
    """A tool result as one text for a model: its content, or its structured content when it has none."""
    parts = [_content_text(item) for item in result.content]
    if not any(parts) and result.structured_content is not None:
        parts = [json.dumps(result.structured_content, ensure_ascii=False)]
    text = "\n".join(part for part in parts if part)
    if result.is_error:
        return f"Error: {text}" if text else "Error: the tool call failed."
    return text or "(no content)"


async def execute_openai_chat(
    tool_calls: Any, execute: Execute, *, concurrency: int = DEFAULT_CONCURRENCY
) -> list[dict[str, Any]]:
    """Chat Completions ``tool_calls`` -> ``{"role": "tool", "tool_call_id", "content"}`` messages."""
    calls = openai_chat_calls(tool_calls)
    results = await run_calls(calls, execute, concurrency=concurrency)
    return [
        {"role": "tool", "tool_call_id": call.id, "content": result_text(result)}
        for call, result in zip(calls, results, strict=True)
    ]


async def execute_openai_responses(
    items: Any, execute: Execute, *, concurrency: int = DEFAULT_CONCURRENCY
) -> list[dict[str, Any]]:
    """Responses ``function_call`` items -> ``function_call_output`` items with the same ``call_id``."""
    calls = openai_responses_calls(items)
    results = await run_calls(calls, execute, concurrency=concurrency)
    return [
        {"type": "function_call_output", "call_id": call.id, "output": result_text(result)}
        for call, result in zip(calls, results, strict=True)
    ]


def _anthropic_content(result: types.CallToolResult) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    for item in result.content:
        if isinstance(item, types.ImageContent) and item.mime_type in {
            "image/jpeg",
            "image/png",
            "image/gif",
            "image/webp",
        }:
            blocks.append(
                {"type": "image", "source": {"type": "base64", "media_type": item.mime_type, "data": item.data}}
            )
        elif text := _content_text(item):
            blocks.append({"type": "text", "text": text})
    if not blocks:
        blocks.append({"type": "text", "text": result_text(result).removeprefix("Error: ")})
    return blocks


async def execute_anthropic(
    blocks: Any, execute: Execute, *, concurrency: int = DEFAULT_CONCURRENCY
) -> list[dict[str, Any]]:
    """Anthropic ``tool_use`` blocks -> ``tool_result`` blocks (``is_error`` when the call failed).

    Send them back as the ``content`` of one user message.
    """
    calls = anthropic_calls(blocks)
    results = await run_calls(calls, execute, concurrency=concurrency)
    return [
        {
            "type": "tool_result",
            "tool_use_id": call.id,
            "content": _anthropic_content(result),
            "is_error": bool(result.is_error),
        }
        for call, result in zip(calls, results, strict=True)
    ]
