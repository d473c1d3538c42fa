"""Changes as a reviewer reads them: text, JSON, Markdown for a pull request, and the next version to give.

The JSON form is a stable contract (``docs/ci.md``): ``{"changes": [{"tool", "kind", "breaking",
"detail", "argument"}], "summary": {"breaking", "compatible", "tools"}, "version": {"bump"}}``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

from mcpforge.changes.rules import RULES, Change

__all__ = ["Bump", "as_json", "as_markdown", "as_text", "bump_of", "markdown_text", "next_version"]

Bump = Literal["major", "minor", "patch", "none"]
# What a client gains: a new tool or argument, a new value, a new result field (a minor version).
_GAINS = frozenset(
    {"tool-added", "argument-added", "enum-value-added", "enum-removed", "output-property-added", "output-schema-added",
     "type-widened", "format-widened", "constraint-widened", "argument-optional", "toolset-joined"}
)  # fmt: skip
_VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)")


def bump_of(changes: Sequence[Change]) -> Bump:
    """Semantic versioning of the regenerated package: major if anything breaks, minor for gains, else patch."""
    if not changes:
        return "none"
    if any(change.breaking for change in changes):
        return "major"
    return "minor" if any(change.kind in _GAINS for change in changes) else "patch"


def next_version(current: str, bump: Bump) -> str:
    """``current`` (``X.Y.Z``) raised by ``bump``; a version of another form is kept."""
    found = _VERSION.match(current)
    if found is None or bump == "none":
        return current
    major, minor, patch = (int(part) for part in found.groups())
    if bump == "major":
        return f"{major + 1}.0.0"
    if bump == "minor":
        return f"{major}.{minor + 1}.0"
    return f"{major}.{minor}.{patch + 1}"


def _headline(changes: Sequence[Change]) -> str:
    breaking = sum(1 for change in changes if change.breaking)
    tools = len({change.tool for change in changes})
    if not changes:
        return "no tool changes"
    return (
        f"{breaking} breaking and {len(changes) - breaking} compatible change(s) in {tools} tool(s) "
        f"(suggested version bump: {bump_of(changes)})"
    )


def as_text(changes: Sequence[Change]) -> str:
    """One line per change, breaking ones marked, then the headline."""
    lines = [
        f"{'BREAKING' if change.breaking else 'ok':<8}  {change.tool}: {change.detail}  [{change.kind}]"
        for change in changes
    ]
    return "\n".join([*lines, _headline(changes)])


def as_json(changes: Sequence[Change]) -> dict[str, Any]:
    """The documented JSON report."""
    listed = []
    for change in changes:
        item: dict[str, Any] = {
            "tool": change.tool,
            "kind": change.kind,
            "breaking": change.breaking,
            "detail": change.detail,
        }
        if change.argument is not None:
            item["argument"] = change.argument
        listed.append(item)
    breaking = sum(1 for change in changes if change.breaking)
    tools = {
        kind: sorted(change.tool for change in changes if change.kind == kind)
        for kind in ("tool-added", "tool-removed", "tool-renamed")
    }
    return {
        "changes": listed,
        "summary": {"breaking": breaking, "compatible": len(changes) - breaking, "tools": tools},
        "version": {"bump": bump_of(changes)},
    }


def markdown_text(text: str) -> str:
    """Text safe in a Markdown table cell of a pull request comment (no markup, no row breaks)."""
    text = " ".join(text.split()).replace("\\", "\\\\").replace("|", "\\|").replace("`", "'")
    return text.replace("<", "&lt;")  # no HTML tag can open


def as_markdown(changes: Sequence[Change]) -> str:
    """A pull request comment: the headline, then a table with breaking changes first."""
    lines = [f"### mcpforge: {_headline(changes)}", ""]
    if changes:
        lines += ["| | tool | change | kind |", "|---|---|---|---|"]
        ordered = sorted(changes, key=lambda change: not change.breaking)  # stable: tools stay in order
        for change in ordered:
            mark = "**breaking**" if change.breaking else "compatible"
            lines.append(
                f"| {mark} | `{markdown_text(change.tool)}` | {markdown_text(change.detail)} | `{change.kind}` |"
            )
        lines += ["", f"Rules: {len(RULES)} kinds of change, each breaking or compatible (mcpforge's docs/ci.md)."]
    return "\n".join(lines) + "\n"
