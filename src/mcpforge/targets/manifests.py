"""The provider manifests of a tool set: every manifest of :data:`~mcpforge.targets.MANIFESTS` but MCP's.

They are not linted here: the tests lint what every document of the corpus and random documents
generate (a lint error in our own output is a bug), and ``mcpforge lint`` lints any manifest.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from mcpforge.diagnostics import Diagnostics
from mcpforge.targets.code import code_mcp_tools
from mcpforge.targets.convert import to_anthropic, to_gemini
from mcpforge.targets.deferred import Namespace, anthropic_deferred, responses_deferred
from mcpforge.targets.openai import chat_tools, flat_tool, plain_parameters

__all__ = ["provider_manifests"]


def provider_manifests(
    tools: list[dict[str, Any]],
    diags: Diagnostics,
    *,
    description_max: int | None = None,
    namespaces: Sequence[Namespace] | None = None,
) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """``(name, tools)`` of every provider manifest of :data:`MANIFESTS`, each made only when the previous one is done.

    A caller that encodes each manifest before taking the next never holds them all (Microsoft
    Graph: hundreds of megabytes). The strict forms say, as notes, which tools could not be strict.
    Descriptions a format adds notes to stay within ``description_max`` characters. With
    ``namespaces`` (the tools grouped by toolset), the deferred manifests are made too.
    """
    parameters = plain_parameters(tools)  # the plain and strict forms start from the same parameters, made once
    for strict in (False, True):
        chat, loose = chat_tools(tools, strict=strict, parameters=parameters, description_max=description_max)
        for name, why in loose:
            diags.info("not-strict", f"tool {name!r} is emitted with strict: false: {why}")
        suffix = "-strict" if strict else ""
        yield f"openai-chat{suffix}", chat
        # Responses tools are the Chat ones flattened (same parameters, strict kept as decided).
        responses = [flat_tool(tool) for tool in chat]
        yield f"openai-responses{suffix}", responses
        if namespaces is not None and not strict:
            yield "openai-responses-deferred", responses_deferred(responses, namespaces)
        del chat, responses
    anthropic = to_anthropic(tools)[0]
    yield "anthropic", anthropic
    if namespaces is not None:
        yield "anthropic-deferred", anthropic_deferred(anthropic)
    del anthropic
    yield "gemini", to_gemini(tools, description_max=description_max)
    code = code_mcp_tools(description_max)  # code mode's two tools (strict: their schemas allow it)
    yield "code-mcp-tools", code
    chat = chat_tools(code, strict=True)[0]
    yield "code-openai-chat", chat
    yield "code-openai-responses", [flat_tool(tool) for tool in chat]
    yield "code-anthropic", to_anthropic(code)[0]
    yield "code-gemini", to_gemini(code)
