"""The agent loops of docs/agents.md run as written: the real OpenAI and Anthropic SDKs, pointed at a local
stand-in for the model API, the generated petstore package, and Prism as the pet store."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

import pytest

from conftest import ROOT
from e2e.harness import Project
from helpers import read_body, serve

TOKEN = "readme-loop-token"


def readme_block(marker: str) -> str:
    blocks: list[str] = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "agents.md").read_text(), flags=re.DOTALL)
    return next(block for block in blocks if marker in block)


class ModelStandIn:
    """Answers like the provider: first a tool call for listPets, then, given its result, a text."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = await read_body(receive)
        request = json.loads(body)
        self.requests.append(request)
        answer = self.openai(request) if scope["path"].endswith("/chat/completions") else self.anthropic(request)
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": json.dumps(answer).encode()})

    @staticmethod
    def openai(request: dict[str, Any]) -> dict[str, Any]:
        results = [m for m in request["messages"] if m["role"] == "tool"]
        message: dict[str, Any]
        if results:
            message = {"role": "assistant", "content": f"Got {len(json.loads(results[0]['content']))} pets."}
            finish = "stop"
        else:
            call = {"id": "call_1", "type": "function", "function": {"name": "listPets", "arguments": '{"limit": 2}'}}
            message, finish = {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": request["model"],
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        }

    @staticmethod
    def anthropic(request: dict[str, Any]) -> dict[str, Any]:
        last = request["messages"][-1]
        content: list[dict[str, Any]]
        if isinstance(last["content"], list) and last["content"][0].get("type") == "tool_result":
            pets = json.loads(last["content"][0]["content"][0]["text"])
            content, stop = [{"type": "text", "text": f"Got {len(pets)} pets."}], "end_turn"
        else:
            content = [{"type": "tool_use", "id": "toolu_1", "name": "listPets", "input": {"limit": 2}}]
            stop = "tool_use"
        return {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": request["model"],
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }


@pytest.mark.parametrize(
    ("marker", "base_env"), [("from openai import", "OPENAI_BASE_URL"), ("from anthropic import", "ANTHROPIC_BASE_URL")]
)
def test_readme_agent_loop_runs(petstore: Project, petstore_prism: str, marker: str, base_env: str) -> None:
    model = ModelStandIn()
    with serve(model) as url:
        env = {
            **os.environ,
            "PYTHONPATH": str(petstore.root / "src"),
            "OPENAI_API_KEY": "sk-test",
            "ANTHROPIC_API_KEY": "sk-ant-test",
            base_env: url + ("/v1" if base_env == "OPENAI_BASE_URL" else ""),
            f"{petstore.prefix}_BASE_URL": petstore_prism,
            f"{petstore.prefix}_BEARERAUTH_TOKEN": TOKEN,
        }
        done = subprocess.run(
            [sys.executable, "-c", readme_block(marker)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    assert re.fullmatch(r"Got \d+ pets\.\n", done.stdout), done.stdout
    assert len(model.requests) == 2 and model.requests[0]["tools"]  # the loop passes the tool list
