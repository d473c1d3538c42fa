"""The agent side never throws: every batch gets one result per call, and malformed bridge bodies get 400."""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx
import pytest
from starlette.applications import Starlette

from conftest import FIXTURES
from helpers import contract_of, serve
from mcpforge.runtime.agents.bridge import bridge_routes
from mcpforge.runtime.agents.runner import ToolRunner
from mcpforge.runtime.calling.api import Api, http_client
from mcpforge.runtime.settings.table import Settings

TOKEN = "bridge-token-0123456789abcdef"
DEEP = "[" * 100_000 + "]" * 100_000


async def upstream(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": b'{"ok":true}'})


@pytest.fixture(scope="module")
def data() -> Any:
    return contract_of(FIXTURES / "specs" / "runtime.yaml")


def bridge_post(data: Any, base_url: str, bodies: list[bytes]) -> list[httpx.Response]:
    async def scenario() -> list[httpx.Response]:
        async with http_client(Settings(base_url=base_url), data["server"]) as client:
            api = Api(data, Settings(base_url=base_url), client)
            app = Starlette(routes=bridge_routes(lambda: api, token=TOKEN, max_body=10_000_000))
            transport = httpx.ASGITransport(app=app)
            headers = {"Authorization": f"Bearer {TOKEN}"}
            async with httpx.AsyncClient(transport=transport, base_url="http://bridge") as bridge:
                return [await bridge.post("/openai/execute-tools", content=b, headers=headers) for b in bodies]

    return anyio.run(scenario)


def test_malformed_bridge_bodies_get_400_with_a_reason(data: Any) -> None:
    with serve(upstream) as url:
        deep, not_json, not_object, no_calls, call_not_object = bridge_post(
            data,
            url,
            [
                json.dumps({"tool_calls": []})[:-2].encode() + DEEP.encode() + b"]}",
                b"{nope",
                b"[1, 2, 3]",
                b'{"messages": []}',
                b'{"tool_calls": [1]}',
            ],
        )
    for response in (deep, not_json, not_object, no_calls, call_not_object):
        assert response.status_code == 400 and response.json()["error"]
    assert "nests too deeply" in deep.json()["error"]


def test_a_malformed_call_is_an_error_result_of_its_own(data: Any) -> None:
    body = {
        "tool_calls": [
            {"id": "c1", "function": "x"},
            {"id": "c2", "function": {"name": "getText", "arguments": "{}"}},
            {"id": "c3", "function": {"name": ["x"], "arguments": "{}"}},
            {"id": "c4", "function": {"name": "getText", "arguments": DEEP}},
        ]
    }
    with serve(upstream) as url:
        (response,) = bridge_post(data, url, [json.dumps(body).encode()])
    assert response.status_code == 200
    messages = response.json()["messages"]
    assert [m["tool_call_id"] for m in messages] == ["c1", "c2", "c3", "c4"]
    assert messages[0]["content"].startswith("Error: The tool call is malformed: 'function' must be an object")
    assert messages[1]["content"] == '{"ok":true}'
    assert messages[2]["content"].startswith("Error: The tool call names no tool")
    assert messages[3]["content"] == "Error: The arguments nest too deeply to read; send a flatter JSON object."


def test_tool_runner_survives_deeply_nested_arguments(data: Any) -> None:
    nested: Any = "leaf"
    for _ in range(5_000):
        nested = {"a": nested}
    calls = [
        {"id": "a", "type": "function", "function": {"name": "getText", "arguments": DEEP}},
        {"id": "b", "type": "function", "function": {"name": "getText", "arguments": "{}"}},
        {"id": "c", "type": "function", "function": {"name": "echo", "arguments": json.dumps({"q": "x"})}},
    ]
    blocks = [{"type": "tool_use", "id": "d", "name": "echo", "input": {"q": nested}}, "junk", None]

    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        async with ToolRunner(Settings(base_url=url), data=data) as runner:
            return await runner.openai_chat(calls), await runner.anthropic(blocks)

    with serve(upstream) as url:
        chat, anthropic = anyio.run(scenario)
    assert [m["tool_call_id"] for m in chat] == ["a", "b", "c"]
    assert chat[0]["content"].startswith("Error: The arguments nest too deeply")
    assert chat[1]["content"] == '{"ok":true}' and chat[2]["content"] == '{"ok":true}'
    assert [b["tool_use_id"] for b in anthropic] == ["d"] and anthropic[0]["is_error"]
    assert "nest too deeply" in anthropic[0]["content"][0]["text"]
