"""Library API: convert any MCP tools (not only generated ones) to each provider's format.

Every function takes MCP ``Tool`` objects as plain dicts (``name``, ``description``,
``inputSchema``), never mutates them, and returns the converted list plus notes: one per tool
renamed to fit the format's name rules (MCP allows ``files.read``; OpenAI does not), and, for
strict output, one per tool that had to stay non-strict, saying why. :func:`convert_tools` also
returns the mapping from each new name back to the MCP tool's name, for running calls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcpforge.targets import FORMATS
from mcpforge.targets.anthropic import anthropic_tool
from mcpforge.targets.gemini import Converted, gemini_declaration
from mcpforge.targets.openai import chat_to_responses, chat_tool, responses_tool
from mcpforge.text.names import NAME_RULES, unique_valid_names

__all__ = [
    "FORMATS",
    "Conversion",
    "chat_to_responses",
    "convert_tools",
    "to_anthropic",
    "to_gemini",
    "to_openai_chat",
    "to_openai_responses",
]


Converter = Callable[..., tuple[dict[str, Any], str | None]]


@dataclass(frozen=True, slots=True)
class Conversion:
    """Tools in one format, the notes about them, and the way back to the MCP names."""

    tools: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)  # tools that had to stay non-strict, and why
    warnings: list[str] = field(default_factory=list)  # one per renamed tool
    renamed: dict[str, str] = field(default_factory=dict)  # name in ``tools`` -> the MCP tool's name

    def original(self, name: str) -> str:
        """The MCP tool name behind a converted tool's ``name``."""
        return self.renamed.get(name, name)


def _named(tools: Sequence[Mapping[str, Any]], fmt: str) -> tuple[list[Mapping[str, Any]], dict[str, str]]:
    """``tools`` with names valid for ``fmt`` (valid names unchanged), and new name -> old name."""
    names = [str(tool["name"]) for tool in tools]
    valid = unique_valid_names(names, NAME_RULES[fmt])
    renamed = {new: old for new, old in zip(valid, names, strict=True) if new != old}
    if not renamed:
        return list(tools), {}
    return [{**tool, "name": new} for tool, new in zip(tools, valid, strict=True)], renamed


def _rename_notes(renamed: Mapping[str, str], fmt: str) -> list[str]:
    return [f"{old}: renamed {new!r}: {fmt} names must be {NAME_RULES[fmt].text}" for new, old in renamed.items()]


def _each(
    tools: Sequence[Mapping[str, Any]], convert: Converter, strict: bool, fmt: str
) -> tuple[list[dict[str, Any]], list[str]]:
    named, renamed = _named(tools, fmt)
    converted: list[dict[str, Any]] = []
    notes = _rename_notes(renamed, fmt)
    for tool in named:
        result, why = convert(tool, strict=strict)
        converted.append(result)
        if why:
            notes.append(f"{tool['name']}: not strict: {why}")
    return converted, notes


def to_openai_chat(
    tools: Sequence[Mapping[str, Any]], *, strict: bool = False
) -> tuple[list[dict[str, Any]], list[str]]:
    """Chat Completions tools (``{"type": "function", "function": {...}}``)."""
    return _each(tools, chat_tool, strict, "openai-chat")


def to_openai_responses(
    tools: Sequence[Mapping[str, Any]], *, strict: bool = False
) -> tuple[list[dict[str, Any]], list[str]]:
    """Responses API tools (flat, ``strict`` always explicit)."""
    return _each(tools, responses_tool, strict, "openai-responses")


def to_anthropic(tools: Sequence[Mapping[str, Any]], *, strict: bool = False) -> tuple[list[dict[str, Any]], list[str]]:
    """Anthropic tools (``input_schema``); strict ones carry ``"strict": true``."""
    return _each(tools, anthropic_tool, strict, "anthropic")


def to_gemini(tools: Sequence[Mapping[str, Any]], *, description_max: int | None = None) -> list[dict[str, Any]]:
    """Gemini function declarations (``parametersJsonSchema``; notes keep descriptions within ``description_max``)."""
    memo = Converted()
    return [gemini_declaration(tool, memo, description_max) for tool in _named(tools, "gemini")[0]]


def convert_tools(tools: Sequence[Mapping[str, Any]], fmt: str, *, strict: bool = False) -> Conversion:
    """MCP tools in format ``fmt`` (one of :data:`FORMATS`), with names valid there; ``strict``: OpenAI, Anthropic."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    named, renamed = _named(tools, fmt)
    warnings = _rename_notes(renamed, fmt)
    if fmt == "mcp":
        return Conversion([dict(tool) for tool in named], [], warnings, renamed)
    if fmt == "gemini":
        memo = Converted()
        return Conversion([gemini_declaration(tool, memo) for tool in named], [], warnings, renamed)
    convert = {"openai-chat": chat_tool, "openai-responses": responses_tool, "anthropic": anthropic_tool}[fmt]
    converted, notes = _each(named, convert, strict, fmt)  # names already valid: no rename notes again
    return Conversion(converted, notes, warnings, renamed)
