"""Code mode's two tools (``search_api``, ``execute``) for agent builders, in every provider's format.

They are the generated server's own (:func:`mcpforge.runtime.modes.listing.code_listing`, with
the default limits its settings start from), so a call a model makes from one of these manifests runs
against the server's bridge, or through its agent helpers, in code mode unchanged.
"""

from __future__ import annotations

from typing import Any

from mcpforge.runtime.modes.listing import code_listing
from mcpforge.text.prose import bounded

__all__ = ["code_mcp_tools"]


def code_mcp_tools(description_max: int | None = None) -> list[dict[str, Any]]:
    """The two tools as MCP lists them (``tools/list``'s JSON), argument descriptions within ``description_max``."""
    tools = code_listing()
    if description_max is not None:
        for tool in tools:
            for argument in tool["inputSchema"]["properties"].values():
                if "description" in argument:
                    argument["description"] = bounded(argument["description"], description_max)
    return tools
