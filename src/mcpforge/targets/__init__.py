"""Target formats of tool definitions: one table of every manifest mcpforge writes, and the formats they are in.

The runtime's ``tools.json`` (see :mod:`.runtime`) is the generated server's own contract, not a
manifest: it is made from the same tools by the project stage.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["FORMATS", "MANIFESTS", "Format", "Manifest"]

Format = Literal["mcp", "openai-chat", "openai-responses", "anthropic", "gemini"]

# The formats a tool list can be converted to (``mcpforge convert --to``, ``mcpforge tools --format``).
FORMATS: tuple[Format, ...] = ("mcp", "openai-chat", "openai-responses", "anthropic", "gemini")


@dataclass(frozen=True, slots=True)
class Manifest:
    """A manifest file of a generated project: ``manifests/<name>.json``, in ``format``."""

    name: str
    format: Format
    strict: bool  # OpenAI's strict mode: each tool strict where its schema allows
    deferred: bool = False  # every tool behind the provider's tool search (:mod:`.deferred`): large APIs
    code: bool = False  # code mode's two tools (:mod:`.code`), not the API's


# Every manifest, in the order written and documented; MCP's first (the others are made from it).
MANIFESTS: tuple[Manifest, ...] = (
    Manifest("mcp-tools", "mcp", strict=False),
    Manifest("openai-chat", "openai-chat", strict=False),
    Manifest("openai-chat-strict", "openai-chat", strict=True),
    Manifest("openai-responses", "openai-responses", strict=False),
    Manifest("openai-responses-deferred", "openai-responses", strict=False, deferred=True),
    Manifest("openai-responses-strict", "openai-responses", strict=True),
    Manifest("anthropic", "anthropic", strict=False),
    Manifest("anthropic-deferred", "anthropic", strict=False, deferred=True),
    Manifest("gemini", "gemini", strict=False),
    Manifest("code-mcp-tools", "mcp", strict=False, code=True),
    Manifest("code-openai-chat", "openai-chat", strict=True, code=True),
    Manifest("code-openai-responses", "openai-responses", strict=True, code=True),
    Manifest("code-anthropic", "anthropic", strict=False, code=True),
    Manifest("code-gemini", "gemini", strict=False, code=True),
)
