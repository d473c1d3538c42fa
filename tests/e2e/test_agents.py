"""Issue 5 end to end: provider tool calls through the generated package, the OpenAI bridge, and
``mcpforge tools`` against generated and third-party MCP servers (real processes, Prism upstream)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import httpx
import pytest
from anthropic.types import ToolResultBlockParam, ToolUseBlock
from openai.types.chat import ChatCompletionMessageToolCall, ChatCompletionToolMessageParam
from openai.types.chat.chat_completion_message_function_tool_call import Function
from openai.types.responses import ResponseFunctionToolCall
from openai.types.responses.response_input_param import FunctionCallOutput

from conftest import ROOT
from e2e.harness import Project, http_server, pip, server_env
from helpers import free_port
from mcpforge.client.hub import ServerTarget, ToolHub

TOKEN = "agents-e2e-upstream-token"
BRIDGE = "bridge-token-0123456789abcdef"
MCPFORGE = Path(sys.executable).parent / "mcpforge"


def conforms(message: dict[str, Any], typed_dict: Any) -> bool:
    """``message`` has exactly the keys the provider SDK's TypedDict allows, and all required ones."""
    keys = set(message)
    required: frozenset[str] = typed_dict.__required_keys__
    optional: frozenset[str] = typed_dict.__optional_keys__
    return required <= keys <= required | optional


@pytest.fixture(scope="module")
def agents(petstore: Project) -> ModuleType:
    """The generated package's ``agents`` module, imported from the generated source tree."""
    sys.path.insert(0, str(petstore.root / "src"))
    try:
        return importlib.import_module(f"{petstore.package}.agents")
    finally:
        sys.path.remove(str(petstore.root / "src"))


def runner(agents: ModuleType, base_url: str, *, token: str | None) -> Any:
    settings = importlib.import_module(agents.__name__.rsplit(".", 1)[0] + ".settings.table")
    credentials = {"PETSTORE_BEARERAUTH_TOKEN": token} if token else {}
    return agents.ToolRunner(settings.Settings(base_url=base_url, credentials=credentials), concurrency=3)


def call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def test_openai_chat_batch_mixing_good_and_bad_calls(agents: ModuleType, petstore_prism: str) -> None:
    batch = [
        ChatCompletionMessageToolCall(
            id="c1", type="function", function=Function(name="listPets", arguments='{"limit": 2, "status": ["sold"]}')
        ),
        call("c2", "listPets", '{"limit": '),  # malformed JSON
        call("c3", "adoptPet", "{}"),  # no such tool
        call("c4", "showPetById", '{"petId": 3}'),  # no credentials: the upstream answers 401
        call("c5", "listPets", '{"limit": 500}'),  # violates the schema: never sent
        call("c6", "listPets", "{}"),
    ]

    async def scenario() -> list[dict[str, Any]]:
        async with runner(agents, petstore_prism, token=None) as tools:
            result: list[dict[str, Any]] = await tools.openai_chat(batch)
            return result

    messages = anyio.run(scenario)
    assert [m["tool_call_id"] for m in messages] == ["c1", "c2", "c3", "c4", "c5", "c6"]
    assert all(conforms(m, ChatCompletionToolMessageParam) and m["role"] == "tool" for m in messages)
    contents = [m["content"] for m in messages]
    # Prism validates every request against the spec and answers 422 to one that does not conform.
    assert isinstance(json.loads(contents[0]), list) and isinstance(json.loads(contents[5]), list)
    assert contents[1].startswith("Error: The arguments are not valid JSON")
    assert contents[2] == "Error: Unknown tool: 'adoptPet'"
    assert contents[3].startswith("Error: HTTP 401")
    assert contents[4].startswith("Error: Invalid arguments") and "limit" in contents[4]


def test_responses_and_anthropic_round_trips(agents: ModuleType, petstore_prism: str) -> None:
    output = [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        ResponseFunctionToolCall(type="function_call", call_id="call_a", name="showPetById", arguments='{"petId": 4}'),
        {"type": "function_call", "call_id": "call_b", "name": "createPet", "arguments": '{"body": {"name": "Rex"}}'},
    ]
    content = [
        ToolUseBlock(type="tool_use", id="toolu_a", name="showPetById", input={"petId": 5}),
        {"type": "tool_use", "id": "toolu_b", "name": "showPetById", "input": {"petId": "five"}},
    ]

    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        async with runner(agents, petstore_prism, token=TOKEN) as tools:
            return await tools.openai_responses(output), await tools.anthropic({"content": content})

    items, blocks = anyio.run(scenario)
    assert [i["call_id"] for i in items] == ["call_a", "call_b"]
    assert all(conforms(i, FunctionCallOutput) and i["type"] == "function_call_output" for i in items)
    assert "name" in json.loads(items[0]["output"]) and "name" in json.loads(items[1]["output"])
    assert [(b["tool_use_id"], b["is_error"]) for b in blocks] == [("toolu_a", False), ("toolu_b", True)]
    assert all(conforms(b, ToolResultBlockParam) for b in blocks)
    assert "petId" in blocks[1]["content"][0]["text"] and TOKEN not in json.dumps([items, blocks])


def test_provider_tool_lists_match_the_manifests(agents: ModuleType, petstore: Project) -> None:
    manifests = petstore.root / "manifests"
    assert agents.openai_tools() == json.loads((manifests / "openai-chat.json").read_text())
    assert agents.openai_tools(strict=True) == json.loads((manifests / "openai-chat-strict.json").read_text())
    assert agents.openai_tools("responses") == json.loads((manifests / "openai-responses.json").read_text())
    assert agents.anthropic_tools() == json.loads((manifests / "anthropic.json").read_text())
    assert [t["name"] for t in agents.anthropic_tools(toolsets=["pets"])] == [t["name"] for t in petstore.tools]
    with pytest.raises(ValueError, match="unknown toolset"):
        agents.openai_tools(toolsets=["nope"])


def test_bridge_requires_the_token_and_executes_tool_calls(petstore: Project, petstore_prism: str) -> None:
    env = server_env(
        petstore,
        petstore_prism,
        {
            f"{petstore.prefix}_BRIDGE_TOKEN": BRIDGE,
            f"{petstore.prefix}_BRIDGE_MAX_BODY": "4000",
            f"{petstore.prefix}_BEARERAUTH_TOKEN": TOKEN,
        },
    )
    with http_server(petstore, env) as base:
        good = {"Authorization": f"Bearer {BRIDGE}"}
        assert httpx.get(f"{base}/openai/tools").status_code == 401
        assert httpx.get(f"{base}/openai/tools", headers={"Authorization": f"Bearer {BRIDGE}x"}).status_code == 401
        assert httpx.get(f"{base}/openai/tools", headers={"Authorization": BRIDGE}).status_code == 401
        denied = httpx.post(f"{base}/openai/execute-tools", json={"tool_calls": []})
        assert denied.status_code == 401 and denied.headers["www-authenticate"] == "Bearer"

        chat = httpx.get(f"{base}/openai/tools", headers=good).json()["tools"]
        assert chat == json.loads((petstore.root / "manifests" / "openai-chat.json").read_text())
        strict = httpx.get(f"{base}/openai/tools?format=responses&strict=true", headers=good).json()["tools"]
        assert strict == json.loads((petstore.root / "manifests" / "openai-responses-strict.json").read_text())

        calls = [call("x1", "showPetById", '{"petId": 9}'), call("x2", "nope", "{}"), call("x3", "listPets", "{")]
        answer = httpx.post(f"{base}/openai/execute-tools", json={"tool_calls": calls}, headers=good, timeout=30)
        assert answer.status_code == 200
        messages = answer.json()["messages"]
        assert [m["tool_call_id"] for m in messages] == ["x1", "x2", "x3"]
        assert "name" in json.loads(messages[0]["content"]) and messages[1]["content"].startswith("Error: Unknown")
        responses = httpx.post(
            f"{base}/openai/execute-tools",
            json={
                "function_calls": [{"type": "function_call", "call_id": "f1", "name": "listPets", "arguments": "{}"}]
            },
            headers=good,
            timeout=30,
        ).json()["outputs"]
        assert [(o["type"], o["call_id"]) for o in responses] == [("function_call_output", "f1")]

        big = {"tool_calls": [call("b", "listPets", json.dumps({"pad": "x" * 5000}))]}
        assert httpx.post(f"{base}/openai/execute-tools", json=big, headers=good).status_code == 413
        assert httpx.post(f"{base}/openai/execute-tools", content=b"{", headers=good).status_code == 400
        assert httpx.post(f"{base}/openai/execute-tools", json={"x": 1}, headers=good).status_code == 400


def test_bridge_is_absent_without_a_token_and_refuses_short_ones(petstore: Project, petstore_prism: str) -> None:
    with http_server(petstore, server_env(petstore, petstore_prism)) as base:
        assert httpx.get(f"{base}/openai/tools", headers={"Authorization": "Bearer x"}).status_code == 404
        assert httpx.post(f"{base}/openai/execute-tools", json={"tool_calls": []}).status_code == 404
    short = server_env(petstore, petstore_prism, {f"{petstore.prefix}_BRIDGE_TOKEN": "short"})
    done = subprocess.run(
        [str(petstore.command), "--transport", "http", "--port", str(free_port())],
        env=short,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0 and "at least 16 characters" in done.stderr


def mcpforge(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(MCPFORGE), *args], capture_output=True, text=True, timeout=180, check=False)


def test_mcpforge_tools_follows_pagination_over_stdio_and_http(petstore: Project, petstore_prism: str) -> None:
    listed = mcpforge(
        "tools",
        "--stdio",
        str(petstore.command),
        "-e",
        f"{petstore.prefix}_PAGE_SIZE=1",
        "--format",
        "openai-chat",
    )
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout) == json.loads((petstore.root / "manifests" / "openai-chat.json").read_text())
    env = server_env(petstore, petstore_prism, {f"{petstore.prefix}_PAGE_SIZE": "2"})
    with http_server(petstore, env) as base:
        over_http = mcpforge("tools", "--http", f"{base}/mcp", "-H", "X-Trace: 1", "--format", "gemini")
    assert over_http.returncode == 0, over_http.stderr
    assert json.loads(over_http.stdout) == json.loads((petstore.root / "manifests" / "gemini.json").read_text())
    refused = mcpforge("tools", "--http", f"http://127.0.0.1:{free_port()}/mcp")
    assert (
        refused.returncode == 1
        and refused.stderr.startswith("error: cannot list tools")
        and "Traceback" not in refused.stderr
    )


@pytest.fixture(scope="module")
def time_server(e2e_python: Path) -> Path:
    """``mcp-server-time``, a third-party MCP server from PyPI, installed into the e2e venv."""
    pip(e2e_python, "mcp-server-time")
    return e2e_python.parent / "mcp-server-time"


def test_third_party_server_and_aggregation_with_collisions(
    petstore: Project, petstore_prism: str, time_server: Path, tmp_path: Path
) -> None:
    mapping = tmp_path / "mapping.json"
    listed = mcpforge(
        "tools",
        "--stdio",
        f"clock={time_server}",
        "--stdio",
        f"a={petstore.command}",
        "--stdio",
        f"b={petstore.command}",
        "--format",
        "openai-responses",
        "--strict",
        "--mapping",
        str(mapping),
    )
    assert listed.returncode == 0, listed.stderr
    names = [t["name"] for t in json.loads(listed.stdout)]
    pets = [t["name"] for t in petstore.tools]
    assert names == ["get_current_time", "convert_time", *(f"a_{n}" for n in pets), *(f"b_{n}" for n in pets)]
    assert all(len(n) <= 64 for n in names)
    assert json.loads(mapping.read_text())["b_showPetById"] == {"server": "b", "tool": "showPetById"}

    env = server_env(petstore, petstore_prism, {f"{petstore.prefix}_BEARERAUTH_TOKEN": TOKEN})
    servers = [
        ServerTarget.stdio(str(time_server), name="clock"),
        ServerTarget.stdio(str(petstore.command), name="a", env=env),
        ServerTarget.stdio(str(petstore.command), name="b", env=env),
    ]

    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        async with ToolHub(servers) as hub:
            anthropic_tools = hub.manifest("anthropic")
            blocks = await hub.anthropic(
                [
                    {"type": "tool_use", "id": "t1", "name": "get_current_time", "input": {"timezone": "UTC"}},
                    {"type": "tool_use", "id": "t2", "name": "b_showPetById", "input": {"petId": 2}},
                    {"type": "tool_use", "id": "t3", "name": "showPetById", "input": {"petId": 2}},
                ]
            )
            return anthropic_tools, blocks

    anthropic_tools, blocks = anyio.run(scenario)
    assert [t["name"] for t in anthropic_tools] == names
    assert [(b["tool_use_id"], b["is_error"]) for b in blocks] == [("t1", False), ("t2", False), ("t3", True)]
    assert "UTC" in blocks[0]["content"][0]["text"] and "name" in json.loads(blocks[1]["content"][0]["text"])
    assert ROOT.exists()
