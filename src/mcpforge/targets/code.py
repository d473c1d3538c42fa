"""Code mode's two tools (``search_api``, ``execute``) for agent builders, in every provider's format.

They are the generated server's own (:func:`mcpforge.runtime.modes.listing.code_listing`, with
the default limits its settings start from), so a call a model makes from one of these manifests runs
against the server's bridge, or through its agent helpers, in code mode unchanged.
"""

from __future__ import annotations

from typing import Any

from mcpforge.runtime.modes.listing import code_listing

__all__ = ["code_mcp_tools"]


def code_mcp_tools() -> list[dict[str, Any]]:
    """The two tools as MCP lists them (``tools/list``'s JSON)."""
    return code_listing()
