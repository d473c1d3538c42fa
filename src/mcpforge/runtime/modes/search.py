"""Dynamic mode: four meta-tools instead of one tool per operation, for APIs too large for a context.

``search_operations`` finds operations by words and toolsets, ``describe_operation`` returns one
operation's input schema, ``call_operation`` runs it through the same validation, bindings and
auth as an ordinary tool, and ``list_toolsets`` names the groups.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from mcp import types

from ..calling.api import Api, Prompt
from ..contract import ToolEntry, toolset_names
from ..results.responses import error_result

__all__ = ["META_TOOLS", "Catalog"]

_WORD = re.compile(r"[a-z0-9]+")
_FIELDS = (("name", 3.0), ("title", 2.0), ("toolsets", 2.0), ("path", 1.5), ("description", 1.0))


def _words(text: str) -> list[str]:
    # camelCase and snake_case both split into words: "listPullRequests" -> list, pull, requests
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    return [_stem(w) for w in _WORD.findall(text.lower())]


def _stem(word: str) -> str:
    """A crude plural fold, so "issue" finds "issues" and "repository" finds "repositories"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _object(properties: dict[str, Any], required: Sequence[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False}


META_TOOLS = [
    types.Tool(
        name="search_operations",
        title="Search the API's operations",
        description=(
            "Find API operations by words (for example 'create issue comment'). Returns the best matches with "
            "name, HTTP method and path, and a summary. Call describe_operation next for the arguments."
        ),
        input_schema=_object(
            {
                "query": {"type": "string", "description": "Words describing what you want to do."},
                "toolset": {"type": "string", "description": "Only search this toolset (see list_toolsets)."},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
            },
            ["query"],
        ),
        annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
    ),
    types.Tool(
        name="describe_operation",
        title="Describe one operation",
        description="The full description and input JSON Schema of one operation found with search_operations.",
        input_schema=_object({"name": {"type": "string", "description": "The operation's name."}}, ["name"]),
        annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
    ),
    types.Tool(
        name="call_operation",
        title="Call one operation",
        description=(
            "Call an operation with arguments matching the input schema from describe_operation. "
            "Returns the API's response."
        ),
        input_schema=_object(
            {
                "name": {"type": "string", "description": "The operation's name."},
                "arguments": {"type": "object", "description": "Arguments matching the operation's input schema."},
            },
            ["name"],
        ),
        annotations=types.ToolAnnotations(open_world_hint=True),
    ),
    types.Tool(
        name="list_toolsets",
        title="List the toolsets",
        description="The API's toolsets (groups of operations by tag) with their number of operations.",
        input_schema=_object({}, []),
        annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
    ),
]


def _json_result(value: Any, *, error: bool = False) -> types.CallToolResult:
    text = json.dumps(value, ensure_ascii=False)
    structured = value if isinstance(value, dict) else {"result": value}
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], structured_content=structured, is_error=error
    )


class Catalog:
    """The operations of one API, indexed for word search (BM25 over name, title, path, tags, text)."""

    def __init__(self, entries: Sequence[ToolEntry]) -> None:
        self._entries = list(entries)
        self._by_name = {entry["tool"]["name"]: entry for entry in self._entries}
        self._docs: list[dict[str, float]] = []
        for entry in self._entries:
            tool = entry["tool"]
            fields = {
                "name": tool["name"],
                "title": tool.get("title", ""),
                "toolsets": " ".join(entry["toolsets"]),
                "path": entry["path"],
                "description": tool.get("description", ""),
            }
            doc: dict[str, float] = {}
            for key, weight in _FIELDS:
                for word in _words(fields[key]):
                    doc[word] = doc.get(word, 0.0) + weight
            self._docs.append(doc)
        frequency: Counter[str] = Counter(word for doc in self._docs for word in doc)
        total = len(self._docs) or 1
        self._idf = {word: math.log(1 + (total - n + 0.5) / (n + 0.5)) for word, n in frequency.items()}
        self._average = sum(sum(doc.values()) for doc in self._docs) / total

    def search(self, query: str, toolset: str | None, limit: int) -> list[dict[str, Any]]:
        """The best ``limit`` operations for ``query`` (BM25), optionally within one toolset."""
        terms = list(dict.fromkeys(_words(query)))
        scored = []
        for index, (entry, doc) in enumerate(zip(self._entries, self._docs, strict=True)):
            if toolset and toolset not in entry["toolsets"]:
                continue
            length = sum(doc.values())
            score = 0.0
            for term in terms:
                tf = doc.get(term, 0.0)
                if tf:
                    score += self._idf[term] * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / self._average))
            if score > 0 or not terms:
                scored.append((-score, index, entry))
        scored.sort(key=lambda item: (item[0], item[1]))
        return [self._summary(entry) for _, _, entry in scored[:limit]]

    @staticmethod
    def _summary(entry: ToolEntry) -> dict[str, Any]:
        tool = entry["tool"]
        summary = tool.get("title") or tool.get("description", "")[:150]
        return {"name": tool["name"], "operation": f"{entry['method']} {entry['path']}", "summary": summary}

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
            query = args.get("query")
            limit = args.get("limit", 10)
            if not isinstance(query, str) or not isinstance(limit, int) or not 1 <= limit <= 50:
                return error_result("search_operations needs a string query and a limit from 1 to 50.")
            toolset = args.get("toolset") if isinstance(args.get("toolset"), str) else None
            if toolset and toolset not in self.toolsets():
                return error_result(f"Unknown toolset {toolset!r}; call list_toolsets for the names.")
            return _json_result({"operations": self.search(query, toolset, limit)})
        if name == "describe_operation":
            described = self.describe(str(args.get("name", "")))
            if described is None:
                return error_result(f"Unknown operation {args.get('name')!r}; use search_operations to find one.")
            return _json_result(described)
        if name == "call_operation":
            target = args.get("name")
            arguments = args.get("arguments", {})
            if not isinstance(target, str) or target not in self._by_name:
                return error_result(f"Unknown operation {target!r}; use search_operations to find one.")
            if not isinstance(arguments, dict):
                return error_result("arguments must be an object matching the operation's input schema.")
            return await api.call(target, arguments, headers=headers, prompt=prompt)
        if name == "list_toolsets":
            return _json_result({"toolsets": self.toolsets()})
        return error_result(f"Unknown tool: {name!r}")
