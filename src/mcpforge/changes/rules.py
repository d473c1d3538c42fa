"""Every kind of change mcpforge reports, and whether it breaks a client that calls the tool: one table.

A client here is anything that depends on the generated tools: an agent prompt naming a tool, a
saved workflow or code-mode program passing arguments, a provider manifest pinned in another
service, a deployment serving some toolsets. A change is *breaking* when such a client, unchanged,
can now fail or do something else than it did: a call refused, an argument ignored, a result it
reads gone, a read-only tool that now writes. The same table is ``docs/ci.md``'s, with oasdiff's
nearest check beside each kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["RULES", "Change", "Rule", "rules_table"]


@dataclass(frozen=True, slots=True)
class Rule:
    """One kind of change: whether it breaks a calling client, what it means, oasdiff's nearest check."""

    breaking: bool
    meaning: str
    oasdiff: str


RULES: Mapping[str, Rule] = {
    "tool-added": Rule(False, "a new tool", "endpoint-added"),
    "tool-removed": Rule(True, "a tool is gone: calls by its name fail", "api-removed-without-deprecation"),
    "tool-renamed": Rule(
        True, "the same operation under a new name: calls by the old name fail", "api-operation-id-updated"
    ),
    "name-kept": Rule(
        False,
        "the operationId changed and the lock kept the tool's name",
        "api-operation-id-updated (breaking for SDKs; the lock makes it harmless here)",
    ),
    "operation-changed": Rule(
        False, "the tool now calls another method or path (the server's concern, not the client's)", "-"
    ),
    "argument-added": Rule(False, "a new optional argument", "new-optional-request-parameter"),
    "required-argument-added": Rule(
        True, "a new required argument: calls without it are refused", "new-required-request-parameter"
    ),
    "argument-removed": Rule(
        True, "an argument is gone: a value passed for it is no longer sent", "request-parameter-removed"
    ),
    "argument-required": Rule(True, "an optional argument became required", "request-parameter-became-required"),
    "argument-optional": Rule(False, "a required argument became optional", "request-parameter-became-optional"),
    "type-narrowed": Rule(True, "an argument accepts fewer types", "request-parameter-type-changed"),
    "type-widened": Rule(False, "an argument accepts more types", "request-parameter-type-generalized"),
    "type-changed": Rule(True, "an argument's type changed", "request-parameter-type-changed"),
    "format-narrowed": Rule(
        True, "an argument gained or changed its format", "request-parameter-type-changed (type/format)"
    ),
    "format-widened": Rule(False, "an argument lost its format", "request-parameter-type-changed (type/format)"),
    "enum-value-removed": Rule(True, "a value an argument accepted is refused", "request-parameter-enum-value-removed"),
    "enum-value-added": Rule(False, "an argument accepts a new value", "request-parameter-enum-value-added"),
    "enum-added": Rule(True, "an argument is limited to a list of values", "-"),
    "enum-removed": Rule(False, "an argument is no longer limited to a list of values", "-"),
    "constraint-narrowed": Rule(
        True,
        "a limit on an argument is stricter (minimum, maximum, length, items, pattern)",
        "request-parameter-max-decreased, -min-increased, -pattern-added and kin",
    ),
    "constraint-widened": Rule(
        False, "a limit on an argument is looser or gone", "request-parameter-max-increased and kin"
    ),
    "default-changed": Rule(
        False,
        "an argument's default changed: calls without it behave differently",
        "request-parameter-default-value-changed (a warning)",
    ),
    "output-property-removed": Rule(
        True, "a field of the result is gone", "response-optional-property-removed / response-required-property-removed"
    ),
    "output-property-added": Rule(False, "a new field in the result", "response-optional-property-added"),
    "output-type-changed": Rule(True, "a field of the result has another type", "response-property-type-changed"),
    "output-schema-removed": Rule(
        True,
        "the tool no longer declares its result's shape (no structuredContent)",
        "response-success-status-removed / response-media-type-removed",
    ),
    "output-schema-added": Rule(False, "the tool declares its result's shape", "response-media-type-added"),
    "annotation-riskier": Rule(
        True,
        "the tool is riskier than clients were told (no longer read-only, now destructive, no longer idempotent)",
        "-",
    ),
    "annotation-safer": Rule(False, "the tool is safer than before (read-only, not destructive, idempotent)", "-"),
    "description-changed": Rule(
        False,
        "a description or title the model reads changed",
        "the changelog's description and summary changes (informational)",
    ),
    "toolset-left": Rule(
        True, "the tool left a toolset: servers serving that toolset no longer list it", "api-tag-removed"
    ),
    "toolset-joined": Rule(False, "the tool joined a toolset", "api-tag-added"),
    "security-added": Rule(
        True, "the tool needs a credential or scope it did not", "api-security-added / api-security-scope-added"
    ),
    "security-removed": Rule(
        False, "the tool needs fewer credentials or scopes", "api-security-removed / api-security-scope-removed"
    ),
}


@dataclass(frozen=True, slots=True)
class Change:
    """One change of one tool (``argument``: a dotted path into its arguments, when it is about one)."""

    tool: str
    kind: str
    detail: str
    argument: str | None = None

    @property
    def breaking(self) -> bool:
        """Whether a client that calls the tool can break (:data:`RULES`)."""
        return RULES[self.kind].breaking


def rules_table() -> str:
    """The rules as the Markdown table of ``docs/ci.md`` (a test keeps the page current)."""
    lines = ["| kind | breaking | what it means | oasdiff's nearest check |", "|---|---|---|---|"]
    for kind, rule in RULES.items():
        lines.append(f"| `{kind}` | {'yes' if rule.breaking else 'no'} | {rule.meaning} | {rule.oasdiff} |")
    return "\n".join(lines) + "\n"
