"""Dynamic mode and toolsets of a generated server, over the real MCP client, against Prism."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import anyio
import pytest
from mcp import Client

from e2e.harness import Project, server_env
from e2e.test_server import list_all, stdio_session, text
from mcpforge.runtime.contract import select_tools, toolset_names
from mcpforge.runtime.serving.server import build_server
from mcpforge.runtime.settings.table import Settings

TOKEN = "dynamic-e2e-token"


@pytest.fixture(scope="module")
def data(petstore: Project) -> Any:
    return json.loads((petstore.root / "src" / petstore.package / "tools.json").read_text(encoding="utf-8"))


def settings(base_url: str) -> Settings:
    return Settings(base_url=base_url, credentials={"PETSTORE_BEARERAUTH_TOKEN": TOKEN})


def payload(tools: list[Any]) -> int:
    return len(json.dumps([t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]).encode())


def test_dynamic_mode_searches_describes_and_calls(data: Any, petstore_prism: str) -> None:
    server = build_server(data, settings(petstore_prism), mode="search")

    async def scenario() -> None:
        async with Client(server) as client:
            listed = (await client.list_tools()).tools
            assert [t.name for t in listed] == [
                "search_operations",
                "describe_operation",
                "call_operation",
                "list_toolsets",
            ]
            assert payload(listed) < 5 * 1024
            found = await client.call_tool("search_operations", {"query": "show one pet by id", "limit": 2})
            hits = json.loads(text(found))["operations"]
            assert hits[0]["name"] == "showPetById" and len(hits) == 2
            described = json.loads(text(await client.call_tool("describe_operation", {"name": "showPetById"})))
            assert described["inputSchema"]["required"] == ["petId"]
            called = await client.call_tool("call_operation", {"name": "showPetById", "arguments": {"petId": 3}})
            assert not called.is_error and "name" in json.loads(text(called))
            invalid = await client.call_tool("call_operation", {"name": "showPetById", "arguments": {"petId": "x"}})
            assert invalid.is_error and "Invalid arguments" in text(invalid)
            unknown = await client.call_tool("describe_operation", {"name": "nope"})
            assert unknown.is_error and "search_operations" in text(unknown)
            toolsets = json.loads(text(await client.call_tool("list_toolsets", {})))
            assert toolsets == {"toolsets": {"pets": 4}}

    anyio.run(scenario)


def test_toolsets_limit_the_tools_at_run_time(petstore: Project, petstore_prism: str) -> None:
    env = server_env(petstore, petstore_prism, {f"{petstore.prefix}_TOOLSETS": "pets"})

    async def scenario() -> None:
        async with stdio_session(petstore, env) as session:
            assert len(await list_all(session)) == len(petstore.tools)

    anyio.run(scenario)
    wrong = subprocess.run(
        [str(petstore.command), "--toolsets", "nope"], capture_output=True, text=True, timeout=60, check=False
    )
    assert wrong.returncode == 2 and "unknown toolset(s): nope; available: all, pets" in wrong.stderr


def test_toolsets_filter_the_mapping_of_a_multi_tag_api() -> None:
    tools: Any = [
        {"tool": {"name": "a"}, "toolsets": ["x"]},
        {"tool": {"name": "b"}, "toolsets": ["y", "x"]},
        {"tool": {"name": "c"}, "toolsets": ["untagged"]},
    ]
    assert toolset_names(tools) == ["x", "y", "untagged"]
    assert [e["tool"]["name"] for e in select_tools(tools, ["y"])] == ["b"]
    assert [e["tool"]["name"] for e in select_tools(tools, ["x", "untagged"])] == ["a", "b", "c"]
    assert len(select_tools(tools, ["all"])) == 3 and len(select_tools(tools, None)) == 3
