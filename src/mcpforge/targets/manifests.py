"""The provider manifests of a tool set, linted: every manifest of :data:`~mcpforge.targets.MANIFESTS` but MCP's.

Lint errors in our own output are warnings of the run (they would be bugs); lint warnings are
counted into one note per kind.
"""

from __future__ import annotations

from typing import Any

from mcpforge.diagnostics import Diagnostics
from mcpforge.targets import MANIFESTS
from mcpforge.targets.convert import to_anthropic, to_gemini
from mcpforge.targets.lint import MANIFEST_FILES, lint_manifest
from mcpforge.targets.openai import Scrubbed, chat_tools, flat_tool

__all__ = ["Manifests", "provider_manifests"]

Manifests = dict[str, list[dict[str, Any]]]


def provider_manifests(tools: list[dict[str, Any]], diags: Diagnostics) -> tuple[Manifests, int]:
    """Every provider manifest (in the order of :data:`MANIFESTS`), linted, and how many tools are strict."""
    scrubbed = Scrubbed()  # the plain and strict forms start from the same scrubbed parameters
    chat, _ = chat_tools(tools, strict=False, memo=scrubbed)
    strict_chat, loose = chat_tools(tools, strict=True, memo=scrubbed)
    for name, why in loose:
        diags.info("not-strict", f"tool {name!r} is emitted with strict: false: {why}")
    made: Manifests = {
        "openai-chat": chat,
        # Responses tools are the Chat ones flattened (same parameters, strict kept as decided).
        "openai-responses": [flat_tool(tool) for tool in chat],
        "openai-chat-strict": strict_chat,
        "openai-responses-strict": [flat_tool(tool) for tool in strict_chat],
        "anthropic": to_anthropic(tools)[0],
        "gemini": to_gemini(tools),
    }
    # The strict Chat manifest holds every tool (strict or not) with the parameters of the other
    # OpenAI manifests (the plain ones where a tool is not strict): linting it covers all four.
    # Anthropic's schemas are the MCP schemas with roots folded as for OpenAI (and the same name
    # rule), which the OpenAI lint covers; Gemini's dialect has its own.
    _lint(made, "openai-chat-strict", diags)
    _lint(made, "gemini", diags)
    return {m.name: made[m.name] for m in MANIFESTS if m.name in made}, len(tools) - len(loose)


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
