"""The provider manifests of a tool set, linted: OpenAI Chat and Responses (plain and strict), Anthropic, Gemini.

Lint errors in our own output are warnings of the run (they would be bugs); lint warnings are
counted into one note per kind.
"""

from __future__ import annotations

from typing import Any

from mcpforge.diagnostics import Diagnostics
from mcpforge.targets.convert import to_anthropic, to_gemini
from mcpforge.targets.lint import MANIFEST_FILES, lint_manifest
from mcpforge.targets.openai import Scrubbed, chat_tool_pair, flat_tool
from mcpforge.targets.openai_strict import Strictified

__all__ = [
    "OPENAI_MANIFESTS",
    "OTHER_MANIFESTS",
    "PROVIDER_MANIFESTS",
    "Manifests",
    "openai_manifests",
    "other_manifests",
    "provider_manifests",
]

PROVIDER_MANIFESTS = (
    "openai-chat",
    "openai-chat-strict",
    "openai-responses",
    "openai-responses-strict",
    "anthropic",
    "gemini",
)


OPENAI_MANIFESTS = PROVIDER_MANIFESTS[:4]
OTHER_MANIFESTS = PROVIDER_MANIFESTS[4:]

Manifests = dict[str, list[dict[str, Any]]]


def openai_manifests(tools: list[dict[str, Any]], diags: Diagnostics) -> tuple[Manifests, int]:
    """The four OpenAI manifests (Chat and Responses, plain and strict), linted, and how many tools are strict."""
    chat: list[dict[str, Any]] = []
    chat_strict: list[dict[str, Any]] = []
    notes = 0
    memo = Scrubbed()
    strict_memo = Strictified()
    for tool in tools:
        plain, strict, why = chat_tool_pair(tool, memo, strict_memo)
        chat.append(plain)
        chat_strict.append(strict)
        if why:
            notes += 1
            diags.info("not-strict", f"tool {tool['name']!r} is emitted with strict: false: {why}")
    manifests: Manifests = {
        "openai-chat": chat,
        "openai-chat-strict": chat_strict,
        # Responses tools are the Chat ones flattened (same parameters, strict kept as decided).
        "openai-responses": [flat_tool(tool) for tool in chat],
        "openai-responses-strict": [flat_tool(tool) for tool in chat_strict],
    }
    # The strict Chat manifest holds every tool (strict or not) with the parameters the other OpenAI
    # manifests share: linting it covers all four.
    _lint(manifests, "openai-chat-strict", diags)
    return manifests, len(tools) - notes


def other_manifests(tools: list[dict[str, Any]], diags: Diagnostics) -> Manifests:
    """The Anthropic and Gemini manifests, linted."""
    manifests: Manifests = {"anthropic": to_anthropic(tools)[0], "gemini": to_gemini(tools)}
    # Anthropic's schemas are the MCP schemas with roots folded as for OpenAI (and the same name
    # rule), which the OpenAI lint covers; Gemini's dialect has its own.
    _lint(manifests, "gemini", diags)
    return manifests


def provider_manifests(tools: list[dict[str, Any]], diags: Diagnostics) -> tuple[Manifests, int]:
    """Every provider manifest (in the order of :data:`PROVIDER_MANIFESTS`), linted, and how many tools are strict."""
    openai, strict_capable = openai_manifests(tools, diags)
    return {**openai, **other_manifests(tools, diags)}, strict_capable


def _lint(manifests: Manifests, name: str, diags: Diagnostics) -> None:
    """Errors (bugs of ours) as warnings of the run; warnings counted into one note per kind."""
    counts: dict[str, int] = {}
    for finding in lint_manifest(manifests[name], MANIFEST_FILES[name]):
        if finding.severity == "error":
            diags.warn(
                f"lint-{finding.code}",
                f"{name}: {finding.message} (fix: {finding.hint})",
                operation=finding.tool,
                pointer=finding.path,
            )
        else:
            counts[finding.code] = counts.get(finding.code, 0) + 1
    for code, count in counts.items():
        diags.info("lint-warnings", f"{name}: {code}: {count:,} finding(s); run `mcpforge lint` for details")
