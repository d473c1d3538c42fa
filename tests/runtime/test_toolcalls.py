"""Provider tool-call execution (mcpforge.client.toolcalls): parsing, ordering, concurrency, error results."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import anyio
import pytest
from mcp import types

from mcpforge.runtime.agents.toolcalls import (
    ToolCall,
    execute_anthropic,
    execute_openai_chat,
    execute_openai_responses,
    result_text,
    run_calls,
)


def ok(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


async def echo(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
    if name == "boom":
        raise RuntimeError("connection lost")
    return ok(f"{name}:{json.dumps(arguments, sort_keys=True)}")


@pytest.mark.xdist_group("provider-sdks")  # the SDKs take seconds to import: one worker does
def test_chat_calls_from_sdk_objects_keep_order_and_ids() -> None:
    from openai.types.chat import ChatCompletionMessageToolCall
    from openai.types.chat.chat_completion_message_function_tool_call import Function

    calls = [
        ChatCompletionMessageToolCall(id="a", type="function", function=Function(name="one", arguments='{"x": 1}')),
        {"id": "b", "type": "function", "function": {"name": "two", "arguments": "{not json"}},
        {"id": "c", "type": "function", "function": {"name": "three", "arguments": "[1, 2]"}},
        {"id": "d", "type": "function", "function": {"name": "boom", "arguments": ""}},
        {"id": "e", "type": "function", "function": {"name": "four", "arguments": ""}},
    ]
    messages = anyio.run(execute_openai_chat, calls, echo)
    assert [m["tool_call_id"] for m in messages] == ["a", "b", "c", "d", "e"]
    assert all(m["role"] == "tool" for m in messages)
    assert messages[0]["content"] == 'one:{"x": 1}'
    assert messages[1]["content"].startswith("Error: The arguments are not valid JSON")
    assert messages[2]["content"] == "Error: The arguments must be a JSON object, not list."
    assert messages[3]["content"] == "Error: The call to boom failed: RuntimeError: connection lost"
    assert messages[4]["content"] == "four:{}"  # empty arguments mean no arguments


def test_chat_accepts_the_assistant_message_itself() -> None:
    message = {"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "x", "arguments": "{}"}}]}
    assert anyio.run(execute_openai_chat, message, echo)[0]["tool_call_id"] == "a"


@pytest.mark.xdist_group("provider-sdks")
def test_responses_only_function_calls_matched_by_call_id() -> None:
    from openai.types.responses import ResponseFunctionToolCall

    output = [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        ResponseFunctionToolCall(type="function_call", call_id="call_2", name="two", arguments='{"y": 2}'),
        {"type": "message", "role": "assistant", "content": []},
        {"type": "function_call", "call_id": "call_1", "name": "one", "arguments": "{oops"},
    ]
    items = anyio.run(execute_openai_responses, {"output": output}, echo)
    assert [(i["type"], i["call_id"]) for i in items] == [
        ("function_call_output", "call_2"),
        ("function_call_output", "call_1"),
    ]
    assert items[0]["output"] == 'two:{"y": 2}' and items[1]["output"].startswith("Error: ")


@pytest.mark.xdist_group("provider-sdks")
def test_responses_calls_of_deferred_tools_run_by_name_beside_the_hosted_search() -> None:
    from openai.types.responses import ResponseFunctionToolCall

    output = [
        {"type": "tool_search_call", "id": "ts_1", "status": "completed", "arguments": {"query": "close an issue"}},
        ResponseFunctionToolCall(
            type="function_call", call_id="call_1", name="issues_update", namespace="issues", arguments='{"n": 5}'
        ),
    ]
    items = anyio.run(execute_openai_responses, {"output": output}, echo)
    assert items == [{"type": "function_call_output", "call_id": "call_1", "output": 'issues_update:{"n": 5}'}]


@pytest.mark.xdist_group("provider-sdks")
def test_anthropic_tool_results_carry_is_error() -> None:
    from anthropic.types import TextBlock, ToolUseBlock

    content = [
        TextBlock(type="text", text="Let me look."),
        ToolUseBlock(type="tool_use", id="toolu_1", name="one", input={"z": 3}),
        {"type": "tool_use", "id": "toolu_2", "name": "boom", "input": {}},
    ]
    blocks = anyio.run(execute_anthropic, {"role": "assistant", "content": content}, echo)
    assert [(b["tool_use_id"], b["is_error"]) for b in blocks] == [("toolu_1", False), ("toolu_2", True)]
    assert blocks[0]["content"] == [{"type": "text", "text": 'one:{"z": 3}'}]
    assert "connection lost" in blocks[1]["content"][0]["text"]


def test_calls_run_concurrently_within_the_bound() -> None:
    running = peak = 0

    async def slow(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.02 * (6 - int(name)))  # later calls finish first
        running -= 1
        return ok(name)

    calls = [ToolCall(str(i), str(i), {}) for i in range(6)]

    async def go() -> list[types.CallToolResult]:
        return await run_calls(calls, slow, concurrency=3)

    results = asyncio.run(go())
    assert [result_text(r) for r in results] == [str(i) for i in range(6)]
    assert peak == 3


PDF = types.BlobResourceContents(uri="https://x/y", blob="AAAA", mime_type="application/pdf")


def test_result_text_covers_every_content_kind() -> None:
    result = types.CallToolResult(
        content=[
            types.TextContent(type="text", text="hello"),
            types.ImageContent(type="image", data="AAAA", mime_type="image/png"),
            types.EmbeddedResource(
                type="resource",
                resource=types.BlobResourceContents(uri="https://x/y", blob="AAAA", mime_type="application/pdf"),
            ),
        ],
        is_error=False,
    )
    assert result_text(result) == "hello\n[image/png image, 3 bytes]\n[resource https://x/y (application/pdf), 3 bytes]"
    structured = types.CallToolResult(content=[], structured_content={"a": 1})
    assert result_text(structured) == '{"a": 1}'
