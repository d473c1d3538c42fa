"""Library API: convert any MCP tools (not only generated ones) to each provider's format.

Every function takes MCP ``Tool`` objects as plain dicts (``name``, ``description``,
``inputSchema``), never mutates them, and returns the converted list plus notes: for strict
output, one note per tool that had to stay non-strict, saying why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mcpforge.targets import FORMATS
from mcpforge.targets.anthropic import anthropic_tool
from mcpforge.targets.gemini import gemini_declaration
from mcpforge.targets.openai import chat_to_responses, chat_tool, responses_tool

__all__ = [
    "FORMATS",
    "chat_to_responses",
    "convert_tools",
    "to_anthropic",
    "to_gemini",
    "to_openai_chat",
    "to_openai_responses",
]


Converter = Callable[..., tuple[dict[str, Any], str | None]]


def _each(
    tools: Sequence[Mapping[str, Any]], convert: Converter, strict: bool
) -> tuple[list[dict[str, Any]], list[str]]:
    converted: list[dict[str, Any]] = []
    notes: list[str] = []
    for tool in tools:
        result, why = convert(tool, strict=strict)
        converted.append(result)
        if why:
            notes.append(f"{tool['name']}: not strict: {why}")
    return converted, notes


def to_openai_chat(
    tools: Sequence[Mapping[str, Any]], *, strict: bool = False
) -> tuple[list[dict[str, Any]], list[str]]:
    """Chat Completions tools (``{"type": "function", "function": {...}}``)."""
    return _each(tools, chat_tool, strict)


def to_openai_responses(
    tools: Sequence[Mapping[str, Any]], *, strict: bool = False
) -> tuple[list[dict[str, Any]], list[str]]:
    """Responses API tools (flat, ``strict`` always explicit)."""
    return _each(tools, responses_tool, strict)


def to_anthropic(tools: Sequence[Mapping[str, Any]], *, strict: bool = False) -> tuple[list[dict[str, Any]], list[str]]:
    """Anthropic tools (``input_schema``); strict ones carry ``"strict": true``."""
    return _each(tools, anthropic_tool, strict)


def to_gemini(tools: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Gemini function declarations (``parametersJsonSchema``)."""
    return [gemini_declaration(tool) for tool in tools]


def convert_tools(
    tools: Sequence[Mapping[str, Any]], fmt: str, *, strict: bool = False
) -> tuple[list[dict[str, Any]], list[str]]:
    """MCP tools in format ``fmt`` (one of :data:`FORMATS`); ``strict`` applies to OpenAI and Anthropic."""
    if fmt == "mcp":
        return [dict(tool) for tool in tools], []
    if fmt == "openai-chat":
        return to_openai_chat(tools, strict=strict)
    if fmt == "openai-responses":
        return to_openai_responses(tools, strict=strict)
    if fmt == "anthropic":
        return to_anthropic(tools, strict=strict)
    if fmt == "gemini":
        return to_gemini(tools), []
    raise ValueError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
