"""mcpforge: OpenAPI documents to runnable MCP servers and LLM tool manifests."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
