"""Warnings about a tool set as a whole: nothing left to serve, no server URL to serve it from."""

from __future__ import annotations

from urllib.parse import urlsplit

from mcpforge.diagnostics import Diagnostics
from mcpforge.tools.model import ToolSet

__all__ = ["toolset_problems"]


def toolset_problems(toolset: ToolSet, project_name: str | None, diags: Diagnostics) -> None:
    """Warn when every operation was excluded, or when the server will need its base URL from the environment."""
    if not toolset.tools and toolset.excluded:
        diags.warn(
            "no-tools",
            f"all {len(toolset.excluded)} operations were excluded (deprecated, filtered or x-mcp): "
            "the server has no tools; see include-deprecated and the selection options",
            pointer="/paths",
        )
    url = toolset.api.server_url
    parts = urlsplit(url)
    if parts.scheme in ("http", "https") and parts.netloc:
        return
    prefix = toolset.api.project_names(project_name).env_prefix
    found = f"only the relative server URL {url!r}" if url else "no server URL"
    diags.warn(
        "no-server-url",
        f"the document gives {found}: the generated server starts only with {prefix}_BASE_URL set",
        pointer="/servers",
    )
