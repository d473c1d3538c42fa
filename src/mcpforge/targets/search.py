"""The search target: ``search.json``, each operation's words analysed once, when the package is generated.

The generated server's search (:mod:`mcpforge.runtime.modes.index`) reads what ``tools.json``
says of each operation; the document says more, and this target gives the index all of it: the
whole description (``tools.json`` keeps a bounded one), the descriptions of the operation's tags
(``topic``: "A Droplet is a virtual machine" is how "server" finds droplets) and of its request
body and responses (``results``). The terms are stemmed here, so a server starts without
analysing 11,000 operations' text; a server without this file analyses ``tools.json`` instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from mcpforge.runtime.contract import SEARCH_FORMAT_VERSION, SearchFile
from mcpforge.runtime.modes.index import FIELDS, ArgumentMemo, analyse, operation_texts
from mcpforge.tools.model import ToolDefinition, ToolSet

__all__ = ["search_documents", "search_file"]

# How much of one tag's or response's description is read: its opening says what the thing is.
_TOPIC_CHARS = 600


def _tool_texts(tool: ToolDefinition, topics: dict[str, str], memo: ArgumentMemo) -> dict[str, str]:
    operation = tool.operation
    description = " ".join(part for part in (operation.summary, operation.description) if part)
    texts = operation_texts(
        name=tool.name,
        title=tool.title or "",
        method=operation.method,
        path=operation.path,
        toolsets=[*tool.toolsets, *operation.tags],
        description=description or tool.description,
        input_schema=tool.input_schema,
        select=tool.select_arg,
        memo=memo,
    )
    texts["topic"] = " ".join(topics[tag] for tag in operation.tags if tag in topics)
    said = [operation.request_body.description if operation.request_body else None]
    said += [response.description for response in operation.responses if response.status.startswith("2")]
    texts["results"] = " ".join(text[:_TOPIC_CHARS] for text in said if text)
    return texts


def search_documents(toolset: ToolSet) -> list[dict[str, list[str]]]:
    """Each tool's fields as the index's terms, in the tool set's order."""
    topics = {
        tag.name: " ".join(part for part in (tag.summary, tag.description) if part)[:_TOPIC_CHARS]
        for tag in toolset.api.tags
    }
    seen: dict[str, list[str]] = {}
    memo: ArgumentMemo = {}
    return [analyse(_tool_texts(tool, topics, memo), seen) for tool in toolset.tools]


def search_file(toolset: ToolSet, documents: Sequence[dict[str, list[str]]] | None = None) -> SearchFile:
    """``search.json``: the fields' names, then per tool its name and each field's terms, space-separated."""
    documents = search_documents(toolset) if documents is None else documents
    return {
        "formatVersion": SEARCH_FORMAT_VERSION,
        "fields": list(FIELDS),
        "documents": [
            [tool.name, *(" ".join(document.get(field, ())) for field in FIELDS)]
            for tool, document in zip(toolset.tools, documents, strict=True)
        ],
    }
