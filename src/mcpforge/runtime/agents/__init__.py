"""Agent helpers: the tools in OpenAI and Anthropic format, and their tool calls run against the API.

``from <package>.agents import ToolRunner, openai_tools, anthropic_tools`` (see ``runner``); the
OpenAI bridge of HTTP mode (``bridge``) runs the same calls over HTTP, and ``toolcalls`` converts
each provider's tool calls to MCP calls and back.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ToolRunner", "anthropic_tools", "openai_tools", "package_data"]


def __getattr__(name: str) -> Any:
    # Loaded on first use: importing toolcalls alone (mcpforge tools) must not load the API client.
    if name in __all__:
        from . import runner  # noqa: PLC0415

        return getattr(runner, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
