"""Context budget: what a tool list costs a model, per tool, per toolset and in total.

Bytes are those of the compact JSON a client receives in ``tools/list``; tokens are estimated by the
runtime's one estimator (:mod:`mcpforge.runtime.results.tokens`: UTF-8 bytes / 3, rounded up, which errs high).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from mcpforge.options.model import Options
from mcpforge.runtime.modes.listing import SEARCH_TOOLS, code_listing
from mcpforge.runtime.results.tokens import estimate_tokens

__all__ = [
    "Budget",
    "ModeCost",
    "ToolCost",
    "budget_problems",
    "measure",
    "mode_costs",
    "payload_bytes",
    "recommendation",
]


def payload_bytes(value: Any) -> int:
    """Size of ``value`` as compact UTF-8 JSON."""
    return len(orjson.dumps(value))


@dataclass(frozen=True, slots=True)
class ToolCost:
    """One tool's share of the ``tools/list`` payload."""

    name: str
    toolsets: tuple[str, ...]
    bytes: int

    @property
    def tokens(self) -> int:
        """Estimated tokens."""
        return estimate_tokens(self.bytes)


@dataclass(frozen=True, slots=True)
class Budget:
    """Costs of every tool, in tool order."""

    tools: tuple[ToolCost, ...]

    @property
    def total_bytes(self) -> int:
        """Bytes of the whole ``tools/list`` payload (tools array plus its brackets and commas)."""
        return sum(t.bytes for t in self.tools) + max(len(self.tools) - 1, 0) + len('{"tools":[]}')

    @property
    def total_tokens(self) -> int:
        """Estimated tokens of the whole payload."""
        return estimate_tokens(self.total_bytes)

    def by_toolset(self) -> dict[str, tuple[int, int]]:
        """Toolset -> (tools, bytes), in order of first appearance."""
        result: dict[str, tuple[int, int]] = {}
        for tool in self.tools:
            for name in tool.toolsets:
                count, size = result.get(name, (0, 0))
                result[name] = (count + 1, size + tool.bytes)
        return result


def measure(
    tools: Sequence[Mapping[str, Any]],
    toolsets: Sequence[Sequence[str]] | None = None,
    sizes: Sequence[int] | None = None,
) -> Budget:
    """The budget of MCP tool dicts; ``toolsets[i]`` are the toolsets of ``tools[i]``.

    ``sizes`` are the tools' encoded sizes when the caller has already encoded them.
    """
    groups = toolsets or [() for _ in tools]
    lengths = sizes if sizes is not None else [payload_bytes(t) for t in tools]
    return Budget(
        tuple(ToolCost(str(t["name"]), tuple(g), size) for t, g, size in zip(tools, groups, lengths, strict=True))
    )


@dataclass(frozen=True, slots=True)
class ModeCost:
    """What a model pays up front in one server mode: the tokens of its ``tools/list``."""

    mode: str
    tools: int
    tokens: int


def _listing_tokens(tools: Sequence[Any]) -> int:
    return estimate_tokens(payload_bytes({"tools": list(tools)}))


def mode_costs(budget: Budget) -> list[ModeCost]:
    """The up-front cost of each mode: every tool's definition, or the meta-tools' constant listing."""
    code = code_listing()
    return [
        ModeCost("tools", len(budget.tools), budget.total_tokens),
        ModeCost("search", len(SEARCH_TOOLS), _listing_tokens(SEARCH_TOOLS)),
        ModeCost("code", len(code), _listing_tokens(code)),
    ]


def recommendation(
    budget: Budget, costs: Sequence[ModeCost], *, max_tools: int = 128, max_total_tokens: int = 50_000
) -> str | None:
    """One line recommending a mode when the tools' listing is too large for a model to use well."""
    count = len(budget.tools)
    too_many = max_tools and count > max_tools
    too_large = max_total_tokens and budget.total_tokens > max_total_tokens
    if not (too_many or too_large):
        return None
    search = next(cost for cost in costs if cost.mode == "search")
    return (
        f"recommended: --mode search for this API ({count:,} tools): {search.tools} tools, about "
        f"{search.tokens:,} tokens up front instead of {budget.total_tokens:,} (--mode code for tasks that "
        "chain or page through many calls; agent builders: the -deferred manifests; see docs/large-apis.md)"
    )


def budget_problems(budget: Budget, limits: Options) -> list[tuple[str, str]]:
    """``(code, message)`` for every threshold passed; messages say what to do."""
    problems = []
    count = len(budget.tools)
    if limits.max_tools and count > limits.max_tools:
        problems.append(
            (
                "budget-tool-count",
                f"{count:,} tools exceed {limits.max_tools} (OpenAI accepts at most 128 per request); "
                "serve a subset with --toolsets, select operations in the config, or use --mode search",
            )
        )
    if limits.max_total_tokens and budget.total_tokens > limits.max_total_tokens:
        problems.append(
            (
                "budget-total",
                f"tools/list is {budget.total_bytes:,} bytes (about {budget.total_tokens:,} tokens), over the "
                f"budget of {limits.max_total_tokens:,} tokens; use toolsets, selection or --mode search",
            )
        )
    if limits.max_tool_tokens:
        large = [t for t in budget.tools if t.tokens > limits.max_tool_tokens]
        if large:
            biggest = max(large, key=lambda t: t.bytes)
            problems.append(
                (
                    "budget-tool-size",
                    f"{len(large):,} tool(s) over {limits.max_tool_tokens:,} tokens each (largest: {biggest.name}, "
                    f"about {biggest.tokens:,} tokens); see `mcpforge budget`",
                )
            )
    return problems
