"""Agent helpers: the tools in OpenAI and Anthropic format, and execution of those providers' tool calls.

Example (OpenAI Chat Completions)::

    async with ToolRunner() as runner:
        reply = client.chat.completions.create(model=..., messages=messages, tools=openai_tools())
        message = reply.choices[0].message
        if message.tool_calls:
            messages += [message, *await runner.openai_chat(message.tool_calls)]
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

from mcp import types

from ..calling.api import Api, http_client
from ..calling.transport import Upstream
from ..contract import PACKAGE, ToolsFile, load_package_contract, load_package_search, select_tools
from ..modes.code import CodeMode
from ..settings.table import Settings, read_settings
from . import toolcalls

__all__ = ["ToolRunner", "anthropic_tools", "openai_tools", "package_data"]


@cache
def package_data() -> ToolsFile:
    """The ``tools.json`` of the package this module was copied into."""
    return load_package_contract()


@cache
def _manifest(name: str) -> list[dict[str, Any]]:
    """A provider manifest: package data when installed, ``manifests/`` beside ``src/`` in a checkout."""
    installed = files(PACKAGE or "").joinpath("manifests").joinpath(f"{name}.json")
    if installed.is_file():
        text = installed.read_text(encoding="utf-8")
    else:
        text = (Path(__file__).resolve().parents[3] / "manifests" / f"{name}.json").read_text(encoding="utf-8")
    tools: list[dict[str, Any]] = json.loads(text)
    return tools


def _names(toolsets: Sequence[str] | None) -> set[str]:
    return {entry["tool"]["name"] for entry in select_tools(package_data()["tools"], toolsets)}


def openai_tools(
    api: Literal["chat", "responses"] = "chat",
    *,
    strict: bool = False,
    toolsets: Sequence[str] | None = None,
    mode: str = "tools",
) -> list[dict[str, Any]]:
    """The tools for OpenAI Chat Completions or the Responses API (``strict`` where a tool allows it).

    ``mode`` ``code``: code mode's two tools (search_api and execute) instead of the API's.
    """
    if mode == "code":
        return _manifest(f"code-openai-{api}")
    names = _names(toolsets)
    manifest = _manifest(f"openai-{api}-strict" if strict else f"openai-{api}")
    return [t for t in manifest if (t["function"]["name"] if api == "chat" else t["name"]) in names]


def anthropic_tools(*, toolsets: Sequence[str] | None = None, mode: str = "tools") -> list[dict[str, Any]]:
    """The tools for the Anthropic Messages API (``mode`` ``code``: code mode's two tools)."""
    if mode == "code":
        return _manifest("code-anthropic")
    names = _names(toolsets)
    return [t for t in _manifest("anthropic") if t["name"] in names]


class ToolRunner:
    """Executes model tool calls against the API; use as ``async with ToolRunner() as runner``.

    Credentials and the base URL come from ``settings`` (default: the environment, read and checked
    as the MCP server does). At most ``concurrency`` calls of one batch run at the same time.
    ``mode`` ``code`` runs code mode's tools (``search_api``, ``execute``) instead of the API's.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        concurrency: int = 8,
        toolsets: Sequence[str] | None = None,
        data: ToolsFile | None = None,
        environ: Mapping[str, str] | None = None,
        mode: str = "tools",
    ) -> None:
        self._data = data or package_data()
        self._mode = mode
        self._code: CodeMode | None = None
        self._settings = settings or read_settings(self._data["server"], os.environ if environ is None else environ)
        self._concurrency = concurrency
        self._toolsets = toolsets
        self._client: Upstream | None = None
        self._api: Api | None = None

    async def __aenter__(self) -> ToolRunner:
        self._client = http_client(self._settings, self._data["server"])
        self._api = Api(self._data, self._settings, self._client, toolsets=self._toolsets)
        if self._mode == "code":
            entries = select_tools(self._data["tools"], self._toolsets)
            self._code = CodeMode(entries, load_package_search(), self._settings, self._data["server"]["envPrefix"])
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._code is not None:
            await self._code.sandbox.close()
        if self._client is not None:
            await self._client.aclose()
        self._client = self._api = self._code = None

    async def call(self, name: str, arguments: Mapping[str, Any] | None = None) -> types.CallToolResult:
        """Run one tool, as the MCP server would."""
        if self._api is None:
            raise RuntimeError("use ToolRunner as `async with ToolRunner() as runner`")
        if self._code is not None:
            return await self._code.call(self._api, name, arguments)
        return await self._api.call(name, arguments)

    async def openai_chat(self, tool_calls: Any) -> list[dict[str, Any]]:
        """Chat ``tool_calls`` (or the assistant message) -> one ``role: tool`` message per call, in order."""
        return await toolcalls.execute_openai_chat(tool_calls, self._execute, concurrency=self._concurrency)

    async def openai_responses(self, items: Any) -> list[dict[str, Any]]:
        """Responses ``function_call`` items (or the response) -> ``function_call_output`` items."""
        return await toolcalls.execute_openai_responses(items, self._execute, concurrency=self._concurrency)

    async def anthropic(self, blocks: Any) -> list[dict[str, Any]]:
        """Anthropic ``tool_use`` blocks (or the message) -> ``tool_result`` blocks for the next user message."""
        return await toolcalls.execute_anthropic(blocks, self._execute, concurrency=self._concurrency)

    async def _execute(self, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        return await self.call(name, arguments)
