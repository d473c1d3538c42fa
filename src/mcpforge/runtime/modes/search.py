"""Search mode: four meta-tools instead of one tool per operation, for APIs too large for a context.

``search_operations`` finds operations from a request in a person's words (:mod:`.index`), each
with its name, method and path, a one-line summary and, when asked and small, its input schema;
``describe_operation`` returns one operation's description and input schema; ``call_operation``
runs it through the same validation, bindings and auth as an ordinary tool; ``list_toolsets``
names the groups. The listing is the same few hundred tokens whatever the API's size.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from mcp import types

from ..calling.api import Api, Prompt
from ..contract import SearchFile, ToolEntry, toolset_names
from ..results.responses import error_result
from .documents import FIELDS, analyse_api, entry_texts
from .index import SearchIndex, summary_of
from .listing import SEARCH_TOOLS

__all__ = ["META_TOOLS", "SCHEMA_BYTES", "Catalog"]

# An input schema up to this size (compact JSON, about 400 tokens) travels with a search result on request.
SCHEMA_BYTES = 1_200


# The listing, as the SDK's objects (validated once, when the module loads).
META_TOOLS = [types.Tool.model_validate(tool) for tool in SEARCH_TOOLS]


def _json_result(value: Any, *, error: bool = False) -> types.CallToolResult:
    text = json.dumps(value, ensure_ascii=False)
    structured = value if isinstance(value, dict) else {"result": value}
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], structured_content=structured, is_error=error
    )


def _documents(entries: Sequence[ToolEntry], search: SearchFile | None) -> list[dict[str, list[str]]]:
    """Each entry's analysed fields: search.json's where it has them, else read from ``tools.json``."""
    known: dict[str, list[str]] = {}
    fields: list[str] = list(FIELDS)
    if search is not None:
        fields = search["fields"]
        known = {document[0]: document[1:] for document in search["documents"]}
    # The entries search.json lacks, analysed together (in order): their paths' words need the API's.
    read = iter(analyse_api([entry_texts(entry) for entry in entries if entry["tool"]["name"] not in known]))
    documents = []
    for entry in entries:
        found = known.get(entry["tool"]["name"])
        if found is None:
            documents.append(next(read))
        else:
            documents.append({name: text.split() for name, text in zip(fields, found, strict=False)})
    return documents


class Catalog:
    """The operations of one API, searchable in people's words and callable by name."""

    def __init__(self, entries: Sequence[ToolEntry], search: SearchFile | None = None) -> None:
        self._entries = list(entries)
        self._by_name = {entry["tool"]["name"]: entry for entry in self._entries}
        self._index = SearchIndex(self._entries, analysed=_documents(self._entries, search))

    def search(self, query: str, toolset: str | None, limit: int, *, schemas: bool = False) -> list[dict[str, Any]]:
        """The best ``limit`` operations for ``query``, optionally within one toolset (an empty query: all of it)."""
        if query.strip():
            found = [hit.entry for hit in self._index.search(query, toolset=toolset, limit=limit)]
        else:
            found = [entry for entry in self._entries if toolset in entry["toolsets"]][:limit]
        results = []
        for entry in found:
            result = summary_of(entry)
            if schemas:
                schema = entry["tool"]["inputSchema"]
                if len(json.dumps(schema, separators=(",", ":"))) <= SCHEMA_BYTES:
                    result["inputSchema"] = schema
            results.append(result)
        return results

    def describe(self, name: str) -> dict[str, Any] | None:
        """One operation's name, description, input schema and toolsets."""
        entry = self._by_name.get(name)
        if entry is None:
            return None
        tool = entry["tool"]
        return {
            "name": name,
            "operation": f"{entry['method']} {entry['path']}",
            "description": tool.get("description", ""),
            "inputSchema": tool["inputSchema"],
            "toolsets": entry["toolsets"],
        }

    def toolsets(self) -> dict[str, int]:
        """Toolset -> number of operations."""
        counts = dict.fromkeys(toolset_names(self._entries), 0)
        for entry in self._entries:
            for name in entry["toolsets"]:
                counts[name] += 1
        return counts

    def request(self, tool: str, args: Mapping[str, Any]) -> tuple[str, str | None, int] | types.CallToolResult:
        """A search tool's ``(query, toolset, limit)``, or the error result saying what is wrong with them.

        ``null`` counts as left out (OpenAI's strict schemas send it for every optional argument).
        """
        query, toolset, limit = args.get("query"), args.get("toolset"), args.get("limit")
        limit = 10 if limit is None else limit
        if not isinstance(query, str) or not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 50:
            return error_result(f"{tool} needs a string query and a limit from 1 to 50.")
        if toolset is not None and (not isinstance(toolset, str) or toolset not in self.toolsets()):
            known = list(self.toolsets())
            close = difflib.get_close_matches(str(toolset), known, 3)
            hint = f"did you mean {', '.join(close)}?" if close else f"known: {', '.join(known[:20])}"
            return error_result(
                f"Unknown toolset {toolset!r}; {hint}" + ("..." if not close and len(known) > 20 else "")
            )
        if not query.strip() and not toolset:
            return error_result("Say what you want to do in query, or name a toolset to list its operations.")
        return query, toolset or None, limit

    async def call(
        self,
        api: Api,
        name: str,
        arguments: Mapping[str, Any] | None,
        *,
        headers: Mapping[str, str] | None = None,
        prompt: Prompt | None = None,
    ) -> types.CallToolResult:
        """Run a meta-tool (``headers``: the HTTP request's, for per-user credentials; ``prompt``: sign-in)."""
        args = dict(arguments or {})
        if name == "search_operations":
            schemas = args.get("schemas", False)
            request = self.request(name, args)
            if isinstance(request, types.CallToolResult):
                return request
            if not isinstance(schemas, bool):
                return error_result("search_operations takes schemas as true or false.")
            found = self.search(*request, schemas=schemas)
            answer: dict[str, Any] = {"operations": found}
            if not found:  # a model told nothing would stop here: say what to try
                answer["note"] = (
                    "No operation matched these words: say it in the API's own terms, "
                    "or call list_toolsets and search within one."
                )
            elif schemas and any("inputSchema" not in result for result in found):
                answer["note"] = "Operations without inputSchema have large ones: call describe_operation."
            return _json_result(answer)
        if name in ("describe_operation", "call_operation") and not isinstance(args.get("name"), str):
            # A model that wrote "operation" or "tool" for it learns the argument's name, not "Unknown None".
            return error_result(f"{name} takes name: an operation's name, as search_operations gives it.")
        if name == "describe_operation":
            described = self.describe(args["name"])
            if described is None:
                return error_result(f"Unknown operation {args['name']!r}; use search_operations to find one.")
            return _json_result(described)
        if name == "call_operation":
            target = args["name"]
            arguments = args.get("arguments", {})
            if target not in self._by_name:
                return error_result(f"Unknown operation {target!r}; use search_operations to find one.")
            if not isinstance(arguments, dict):
                return error_result("arguments must be an object matching the operation's input schema.")
            return await api.call(target, arguments, headers=headers, prompt=prompt)
        if name == "list_toolsets":
            return _json_result({"toolsets": self.toolsets()})
        return error_result(f"Unknown tool: {name!r}")
