"""Target formats of tool definitions: MCP, the providers' manifests, and the runtime's ``tools.json``."""

from __future__ import annotations

__all__ = ["FORMATS"]

# The formats a tool list can be converted to (``mcpforge convert --to``, ``mcpforge tools --format``).
FORMATS = ("mcp", "openai-chat", "openai-responses", "anthropic", "gemini")
