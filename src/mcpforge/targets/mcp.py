"""MCP target: tool definitions exactly as ``tools/list`` returns them."""

from __future__ import annotations

from typing import Any

from mcpforge.tools.model import ToolDefinition, ToolSet

__all__ = ["mcp_tool", "mcp_tools"]


def mcp_tool(tool: ToolDefinition) -> dict[str, Any]:
    """One MCP ``Tool`` object (camelCase wire form)."""
    data: dict[str, Any] = {"name": tool.name}
    if tool.title:
        data["title"] = tool.title
    data["description"] = tool.description
    data["inputSchema"] = tool.input_schema
    if tool.output_schema is not None:
        data["outputSchema"] = tool.output_schema
    data["annotations"] = dict(tool.annotations)
    return data


def mcp_tools(toolset: ToolSet) -> list[dict[str, Any]]:
    """Every tool, in the tool set's order."""
    return [mcp_tool(tool) for tool in toolset.tools]
