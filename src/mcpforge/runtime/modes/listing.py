"""What search and code modes list: their tools as ``tools/list`` JSON, without importing the MCP SDK.

The server validates them into the SDK's ``Tool`` objects (:mod:`.search`, :mod:`.code`); the
generator reads them here to write code mode's manifests and to say what each mode costs, without
the second and a half the SDK takes to import.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["SEARCH_TOOLS", "code_listing"]


def _object(properties: dict[str, Any], required: Sequence[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False}


_READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}

SEARCH_TOOLS: list[dict[str, Any]] = [
    {
        "name": "search_operations",
        "title": "Search the API's operations",
        "description": (
            "Find the API operations that do what you ask, best first: say it in your own words (for example "
            "'close issue 5 in acme/widgets'). Each result has the operation's name, HTTP method and path, and a "
            "summary; with schemas=true also its input schema when small. Call it with call_operation; "
            "describe_operation gives any operation's full description and input schema."
        ),
        "inputSchema": _object(
            {
                "query": {"type": "string", "description": "What you want to do, in your own words."},
                "toolset": {
                    "type": "string",
                    "description": "Only this toolset (see list_toolsets); with an empty query, all of its operations.",
                },
                "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
                "schemas": {
                    "type": "boolean",
                    "default": False,
                    "description": "Also return each result's input schema when it is small.",
                },
            },
            ["query"],
        ),
        "annotations": _READ_ONLY,
    },
    {
        "name": "describe_operation",
        "title": "Describe one operation",
        "description": "The full description and input JSON Schema of one operation found with search_operations.",
        "inputSchema": _object({"name": {"type": "string", "description": "The operation's name."}}, ["name"]),
        "annotations": _READ_ONLY,
    },
    {
        "name": "call_operation",
        "title": "Call one operation",
        "description": (
            "Call an operation with arguments matching the input schema from describe_operation. "
            "Returns the API's response."
        ),
        "inputSchema": _object(
            {
                "name": {"type": "string", "description": "The operation's name."},
                "arguments": {"type": "object", "description": "Arguments matching the operation's input schema."},
            },
            ["name"],
        ),
        "annotations": {"openWorldHint": True},
    },
    {
        "name": "list_toolsets",
        "title": "List the toolsets",
        "description": "The API's toolsets (groups of operations by tag) with their number of operations.",
        "inputSchema": _object({}, []),
        "annotations": _READ_ONLY,
    },
]


def code_listing(seconds: float = 30.0, calls: int = 50) -> list[dict[str, Any]]:
    """Code mode's two tools; ``execute`` states a run's limits (``seconds``, API ``calls``)."""
    return [
        {
            "name": "search_api",
            "title": "Search the API's functions",
            "description": (
                "Find the functions a program calls for a task, in your own words ('close issue 5', 'list "
                "open invoices'). Each result is the exact call, api.name(argument: type = default, ...) -> "
                "what it returns, with a one-line summary. Then write a program for execute."
            ),
            "inputSchema": _object(
                {
                    "query": {"type": "string", "description": "What the program needs to do."},
                    "toolset": {"type": "string", "description": "Only this toolset (an empty query lists it)."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
                },
                ["query"],
            ),
            "annotations": _READ_ONLY,
        },
        {
            "name": "execute",
            "title": "Run a Python program against the API",
            "description": (
                "Run a short Python program; the answer is the value of its last expression and what it "
                "prints. Each function from search_api is api.name(**arguments) and returns the API's parsed "
                "answer, complete. An API error raises OSError('HTTP 404 ...'), bad arguments ValueError: "
                "catch them with try/except. Calls at once: await asyncio.gather(aio.a(...), aio.b(...)) (aio "
                "has the same functions). Loop over pages and return only what is needed: the answer is cut to "
                "fit the context. No files, network or imports beyond the standard modules Monty offers (json, "
                f"re, math, datetime...). Limits: {seconds:g} s, {calls} API calls a run; nothing is kept "
                "between runs."
            ),
            "inputSchema": _object({"code": {"type": "string", "description": "The Python program."}}, ["code"]),
            "annotations": {"readOnlyHint": False, "destructiveHint": True, "openWorldHint": True},
        },
    ]
