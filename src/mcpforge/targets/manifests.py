"""The provider manifests of a tool set, linted: OpenAI Chat and Responses (plain and strict), Anthropic, Gemini.

Lint errors in our own output are warnings of the run (they would be bugs); lint warnings are
counted into one note per kind.
"""

from __future__ import annotations

from typing import Any

from mcpforge.diagnostics import Diagnostics
from mcpforge.targets.convert import chat_to_responses, to_anthropic, to_gemini
from mcpforge.targets.lint import MANIFEST_FILES, lint_manifest
from mcpforge.targets.openai import chat_tool_pair

__all__ = ["PROVIDER_MANIFESTS", "provider_manifests"]

PROVIDER_MANIFESTS = (
    "openai-chat",
    "openai-chat-strict",
    "openai-responses",
    "openai-responses-strict",
    "anthropic",
    "gemini",
)


def provider_manifests(tools: list[dict[str, Any]], diags: Diagnostics) -> tuple[dict[str, list[dict[str, Any]]], int]:
    """OpenAI (Chat and Responses, plain and strict), Anthropic and Gemini manifests."""
    chat: list[dict[str, Any]] = []
    chat_strict: list[dict[str, Any]] = []
    notes = 0
    for tool in tools:
        plain, strict, why = chat_tool_pair(tool)
        chat.append(plain)
        chat_strict.append(strict)
        if why:
            notes += 1
            diags.info("not-strict", f"tool {tool['name']!r} is emitted with strict: false: {why}")
    manifests: dict[str, list[dict[str, Any]]] = {
        "openai-chat": chat,
        "openai-chat-strict": chat_strict,
        # Responses tools are the Chat ones flattened (same parameters, strict kept as decided).
        "openai-responses": chat_to_responses(chat)[0],
        "openai-responses-strict": chat_to_responses(chat_strict)[0],
        "anthropic": to_anthropic(tools)[0],
        "gemini": to_gemini(tools),
    }
    # The strict Chat manifest holds every tool (strict or not) with the parameters the other OpenAI
    # manifests share, and Anthropic's non-strict schemas are the same MCP schemas with roots folded
    # as for OpenAI (and the same name rule): linting it and Gemini's covers all six.
    counts: dict[str, int] = {}
    for name in ("openai-chat-strict", "gemini"):
        for finding in lint_manifest(manifests[name], MANIFEST_FILES[name]):
            if finding.severity == "error":
                diags.warn(
                    f"lint-{finding.code}",
                    f"{name}: {finding.message} (fix: {finding.hint})",
                    operation=finding.tool,
                    pointer=finding.path,
                )
            else:
                counts[f"{name}: {finding.code}"] = counts.get(f"{name}: {finding.code}", 0) + 1
    for key, count in counts.items():
        diags.info("lint-warnings", f"{key}: {count:,} finding(s); run `mcpforge lint` for details")
    return manifests, len(tools) - notes
