"""Code mode's two tools (``search_api``, ``execute``) for agent builders, in every provider's format.

They are the generated server's own (:func:`mcpforge.runtime.modes.code.code_tools`, with the
default limits its settings start from), so a call a model makes from one of these manifests runs
against the server's bridge, or through its agent helpers, in code mode unchanged.
"""

from __future__ import annotations

from typing import Any

__all__ = ["code_mcp_tools"]


def code_mcp_tools() -> list[dict[str, Any]]:
    """The two tools as MCP lists them (``tools/list``'s JSON)."""
    from mcpforge.runtime.modes.code import code_tools  # noqa: PLC0415  # the MCP SDK's types: only when asked
    from mcpforge.runtime.modes.sandbox import Limits  # noqa: PLC0415

    return [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in code_tools(Limits())]
