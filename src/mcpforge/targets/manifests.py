"""The provider manifests of a tool set, linted: OpenAI Chat and Responses (plain and strict), Anthropic, Gemini.

Lint errors in our own output are warnings of the run (they would be bugs); lint warnings are
counted into one note per kind.
"""

from __future__ import annotations

from typing import Any

from mcpforge.diagnostics import Diagnostics
from mcpforge.targets.convert import to_anthropic, to_gemini
from mcpforge.targets.lint import MANIFEST_FILES, lint_manifest
from mcpforge.targets.openai import Scrubbed, chat_tools, flat_tool

__all__ = [
    "OPENAI_MANIFESTS",
    "OTHER_MANIFESTS",
    "PROVIDER_MANIFESTS",
    "Manifests",
    "openai_manifests",
    "openai_plain_manifests",
    "openai_strict_manifests",
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


def openai_plain_manifests(tools: list[dict[str, Any]], memo: Scrubbed | None = None) -> Manifests:
    """The OpenAI Chat and Responses manifests with plain (not strict) parameters."""
    chat, _ = chat_tools(tools, strict=False, memo=memo)
    # Responses tools are the Chat ones flattened (same parameters, strict kept as decided).
    return {"openai-chat": chat, "openai-responses": [flat_tool(tool) for tool in chat]}


def openai_strict_manifests(
    tools: list[dict[str, Any]], diags: Diagnostics, memo: Scrubbed | None = None
) -> tuple[Manifests, int]:
    """The strict OpenAI Chat and Responses manifests, linted, and how many tools are strict."""
    chat, loose = chat_tools(tools, strict=True, memo=memo)
    for name, why in loose:
        diags.info("not-strict", f"tool {name!r} is emitted with strict: false: {why}")
    manifests: Manifests = {"openai-chat-strict": chat, "openai-responses-strict": [flat_tool(tool) for tool in chat]}
    # The strict Chat manifest holds every tool (strict or not) with the parameters of the other
    # OpenAI manifests (the plain ones where a tool is not strict): linting it covers all four.
    _lint(manifests, "openai-chat-strict", diags)
    return manifests, len(tools) - len(loose)


def openai_manifests(tools: list[dict[str, Any]], diags: Diagnostics) -> tuple[Manifests, int]:
    """The four OpenAI manifests (Chat and Responses, plain and strict), linted, and how many tools are strict."""
    scrubbed = Scrubbed()  # both forms start from the same scrubbed parameters: scrubbed once
    strict, strict_capable = openai_strict_manifests(tools, diags, scrubbed)
    made = openai_plain_manifests(tools, scrubbed) | strict
    return {name: made[name] for name in OPENAI_MANIFESTS}, strict_capable


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
