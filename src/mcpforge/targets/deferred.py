"""The providers' own deferred loading: every tool held back until the provider's tool search finds it.

- **Anthropic** (``anthropic-deferred.json``): the server-side BM25 tool search tool
  (``tool_search_tool_bm25_20251119``) and every tool with ``defer_loading: true``. Claude sees the
  search tool only, searches the catalog (names, descriptions, argument names and descriptions) and
  loads the three to five tools a request needs.
- **OpenAI Responses** (``openai-responses-deferred.json``): the hosted ``tool_search`` tool and one
  ``namespace`` per toolset, its functions deferred. The model sees each namespace's name and
  description up front, which OpenAI recommends over loose deferred functions (its models were
  trained to search namespaces). ``gpt-5.4`` and later support it.

Both are made from the manifests' own tools (the same names, descriptions and schemas), so a tool
call runs against the generated server exactly as one from the plain manifests does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mcpforge.options.model import DeferredManifests
from mcpforge.text.prose import clean
from mcpforge.tools.model import ToolSet

__all__ = [
    "ANTHROPIC_TOOL_SEARCH",
    "DEFER_FROM",
    "OPENAI_TOOL_SEARCH",
    "Namespace",
    "anthropic_deferred",
    "deferred_namespaces",
    "namespaces_of",
    "responses_deferred",
]

# From this many tools the deferred manifests are written unless asked otherwise: Anthropic's tool
# search documentation puts the point where selection accuracy falls at 30 to 50 tools.
DEFER_FROM = 50
ANTHROPIC_TOOL_SEARCH: Mapping[str, str] = {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}
OPENAI_TOOL_SEARCH: Mapping[str, str] = {"type": "tool_search"}
_NAMESPACE_CHARS = 300  # a namespace's description: all the model sees of its tools until it searches
_NOT_NAME = re.compile(r"[^A-Za-z0-9_-]+")


@dataclass(frozen=True, slots=True)
class Namespace:
    """One toolset as a Responses namespace: its name, what it holds, and the indices of its tools."""

    name: str
    description: str
    members: tuple[int, ...]


def namespaces_of(toolsets: Sequence[Sequence[str]], topics: Mapping[str, str]) -> list[Namespace]:
    """Each tool in the namespace of its first toolset, in order of first appearance.

    ``toolsets[i]`` are the toolsets of tool ``i``; ``topics`` what the document says of each (its
    tag's summary or description). Names keep to ``[A-Za-z0-9_-]{1,64}`` and stay distinct.
    """
    members: dict[str, list[int]] = {}
    for index, groups in enumerate(toolsets):
        members.setdefault(groups[0] if groups else "untagged", []).append(index)
    taken: set[str] = set()
    namespaces = []
    for toolset, indices in members.items():
        base = _NOT_NAME.sub("_", toolset).strip("_")[:60] or "tools"
        name, suffix = base, 2
        while name.lower() in taken:
            name, suffix = f"{base[:60]}_{suffix}", suffix + 1
        taken.add(name.lower())
        said = clean(topics.get(toolset, ""), _NAMESPACE_CHARS)
        plural = "s" if len(indices) > 1 else ""
        description = said or f"The API's {toolset} operation{plural}."
        namespaces.append(Namespace(name, description, tuple(indices)))
    return namespaces


def deferred_namespaces(toolset: ToolSet, choice: DeferredManifests) -> list[Namespace] | None:
    """The namespaces of the deferred manifests when they are written (``None``: they are not)."""
    if choice is DeferredManifests.NEVER or (choice is DeferredManifests.AUTO and len(toolset.tools) < DEFER_FROM):
        return None
    topics = {tag.name: tag.summary or tag.description or "" for tag in toolset.api.tags}
    return namespaces_of([tool.toolsets for tool in toolset.tools], topics)


def anthropic_deferred(tools: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Anthropic's tool search tool, then every tool of an Anthropic manifest with ``defer_loading``."""
    return [dict(ANTHROPIC_TOOL_SEARCH), *({**tool, "defer_loading": True} for tool in tools)]


def responses_deferred(tools: Sequence[Mapping[str, Any]], namespaces: Sequence[Namespace]) -> list[dict[str, Any]]:
    """OpenAI's hosted tool search, then the Responses tools in their namespaces, each deferred."""
    out: list[dict[str, Any]] = [dict(OPENAI_TOOL_SEARCH)]
    for namespace in namespaces:
        out.append(
            {
                "type": "namespace",
                "name": namespace.name,
                "description": namespace.description,
                "tools": [{**tools[index], "defer_loading": True} for index in namespace.members],
            }
        )
    return out
