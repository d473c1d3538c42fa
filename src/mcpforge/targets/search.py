"""The search target: ``search.json``, each operation's words analysed once, when the package is generated.

The generated server's search (:mod:`mcpforge.runtime.modes.index`) reads what ``tools.json``
says of each operation; the document says more, and this target gives the index all of it: the
whole description (``tools.json`` keeps a bounded one), the descriptions of the operation's tags
(``topic``: "A Droplet is a virtual machine" is how "server" finds droplets) and of its request
body and responses (``results``); and the names of the properties its responses and body hold
(``properties``: what "what's Jamal's office location" asks of; see :mod:`mcpforge.runtime.modes.properties`).
The terms are stemmed here, so a server starts without analysing 11,000 operations' text; a
server without this file analyses ``tools.json`` instead (and has no property names).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mcpforge.openapi.model import Operation, SchemaDefs
from mcpforge.runtime.contract import SEARCH_FORMAT_VERSION, SEARCH_NESTED, SearchFile
from mcpforge.runtime.modes.compounds import split_run_together, vocabulary
from mcpforge.runtime.modes.documents import FIELDS, ArgumentMemo, analyse, operation_texts
from mcpforge.runtime.modes.words import terms
from mcpforge.runtime.results.defs import deref
from mcpforge.runtime.results.media import is_json
from mcpforge.tools.model import ToolDefinition, ToolSet
from mcpforge.tools.responses import declared_properties

__all__ = ["search_documents", "search_file"]

# How much of one tag's or response's description is read: its opening says what the thing is.
_TOPIC_CHARS = 600


# A list's wrapper has few properties beside its items (Graph: @odata.count, @odata.nextLink, value).
_WRAPPER_MAX = 4
_WRITES = frozenset({"post", "put", "patch"})
# Where a record's own fields are: {"id", "name", "properties": {...}} (Azure Resource Manager), {"data": {...}}.
_ENVELOPES = ("properties", "data")
# A nested object read for its fields: a small one (a mailbox's settings, an app's web settings), not a
# record of its own inside another.
_NESTED_MAX = 12
# What one schema's names are, by the identity of the definitions and the schema (read once, as tools share them).
_PropertyMemo = dict[tuple[int, int], tuple[Any, list[str]]]


def _names_of(schema: Any, defs: Mapping[str, Any], memo: _PropertyMemo) -> list[str]:
    """The property names of what ``schema`` describes, or of each item of a list it describes."""
    key = (id(defs), id(schema))
    found = memo.get(key)
    if found is not None and found[0] is schema:
        return found[1]
    target = deref(schema, defs)
    if isinstance(target, Mapping) and target.get("type") == "array":
        target = target.get("items")
    properties = declared_properties(target, defs)
    names = list(properties)
    if 0 < len(properties) <= _WRAPPER_MAX:
        items = [deref(value, defs) for value in properties.values()]
        items = [value.get("items") for value in items if isinstance(value, Mapping) and value.get("type") == "array"]
        if len(items) == 1:  # a list's wrapper: what its items hold
            names = list(declared_properties(items[0], defs)) or names
    # A record's own fields inside an envelope ("what's the provisioning state of the scale set": Azure's
    # "properties"), and those of its small nested objects, after their parent (:func:`_nested`).
    names += _wrapped(properties, defs)
    joined = [_token(name) for name in names if not name.startswith("@")] + _nested(properties, defs)
    tokens = [token for token in joined if token]
    memo[key] = (schema, tokens)
    return tokens


def _wrapped(properties: Mapping[str, Any], defs: Mapping[str, Any]) -> list[str]:
    """The names a record keeps in an envelope: Azure's ``properties``, JSON:API's and Asana's ``data``."""
    for envelope in _ENVELOPES:
        inner = deref(properties.get(envelope), defs)
        if isinstance(inner, Mapping) and inner.get("type") != "array":
            return list(declared_properties(inner, defs))
    return []


def _token(name: str) -> str:
    """A property name as one token, its terms joined ("jobTitle": job_titl): a property is matched whole."""
    return "_".join(terms(name))


def _nested(properties: Mapping[str, Any], defs: Mapping[str, Any]) -> list[str]:
    """The fields of a record's small nested objects, each after its parent's name and :data:`SEARCH_NESTED`.

    ``mailboxSettings.automaticRepliesSetting`` is ``mailbox_setting__automat_repli_setting``: "turn on
    automatic replies" finds the user it is set on. The index matches a nested field only to a phrase
    of two words or more (:class:`mcpforge.runtime.modes.properties.Properties`): one word ("description",
    "ID") is in a nested object of nearly every record.
    """
    found = []
    for name, value in properties.items():
        inner = deref(value, defs)
        if not isinstance(inner, Mapping) or inner.get("type") == "array" or name.startswith("@"):
            continue
        fields = declared_properties(inner, defs)
        if 0 < len(fields) <= _NESTED_MAX:
            parent = _token(name) + SEARCH_NESTED
            found += [parent + _token(field) for field in fields if not field.startswith("@")]
    return found


def _property_names(operation: Operation, defs: SchemaDefs, memo: _PropertyMemo) -> list[str]:
    """What the operation's result and body hold, by name: what "what's Ravi's phone number" asks of."""
    said = [
        _names_of(content.schema, defs.response, memo)
        for response in operation.responses
        if response.status.startswith("2")
        for content in response.contents
        if content.schema is not None and is_json(content.content_type)
    ]
    if operation.request_body is not None and operation.method in _WRITES:
        said += [
            _names_of(content.schema, defs.request, memo)
            for content in operation.request_body.contents
            if content.schema is not None and is_json(content.content_type)
        ]
    return list(dict.fromkeys(token for tokens in said for token in tokens))


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
    names: _PropertyMemo = {}
    defs = toolset.api.defs
    # The words of the tools' names for the words their paths run together (:mod:`...modes.compounds`);
    # a tool's other texts are made one at a time below, so their analysis never holds them all.
    known = vocabulary({"name": tool.name, "title": tool.title or ""} for tool in toolset.tools)
    documents = []
    for tool in toolset.tools:
        document = analyse(split_run_together(_tool_texts(tool, topics, memo), known), seen)
        document["properties"] = _property_names(tool.operation, defs, names)
        documents.append(document)
    return documents


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
