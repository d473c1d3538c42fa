"""Code mode: two tools, ``search_api`` and ``execute``, over the whole API, whatever its size.

``search_api`` is search mode's engine (:mod:`.index`) showing each operation as the exact Python
call a program makes (:mod:`.functions`). ``execute`` runs a program in the sandbox
(:mod:`.sandbox`): each ``api.<name>(...)`` call goes through :meth:`Api.answer`, the same path as a
tool call (validation, the caller's credentials and sign-in, retries, redaction, an audit line, a
metric and a span each), and returns the API's answer whole; only what the program returns or
prints reaches the model, fitted to the result budget as tool results are.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from mcp import types

from ..contract import SearchFile, ToolEntry
from ..results.responses import SHORTENED_META, error_result
from ..results.shrink import shrink
from ..results.tokens import BYTES_PER_TOKEN, tokens_of
from ..settings.table import Settings
from .functions import function_names, signature
from .listing import code_listing
from .sandbox import Failure, Limits, Run, Sandbox
from .search import Catalog

if TYPE_CHECKING:  # the generator lists code mode's tools without loading the HTTP client
    from ..calling.api import Api, Prompt

__all__ = ["CodeMode", "code_tools", "run_result"]

_NOTE_ROOM = 120  # tokens kept for the note that says a result was shortened


def code_tools(limits: Limits) -> list[types.Tool]:
    """The two tools code mode lists (their descriptions state the run's limits)."""
    return [types.Tool.model_validate(tool) for tool in code_listing(limits.seconds, limits.calls)]


def _jsonable(value: Any, depth: int = 0) -> Any:
    """A program's value as JSON: tuples and sets as lists, bytes as base64, anything else as its text."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if depth > 100:
        return "..."
    if isinstance(value, Mapping):
        return {str(key): _jsonable(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(item, depth + 1) for item in value]
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    return str(value)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _cut(text: str, budget: int) -> tuple[str, str]:
    if tokens_of(text) <= budget:
        return text, ""
    cut = text.encode("utf-8")[: max(budget - _NOTE_ROOM, 1) * BYTES_PER_TOKEN].decode("utf-8", errors="ignore")
    return cut, f"[Output cut to its first {len(cut):,} of {len(text):,} characters to fit {budget:,} tokens.]"


def run_result(run: Run, budget: int) -> types.CallToolResult:
    """A run as the model reads it: the value (JSON) and what was printed, within ``budget`` tokens."""
    printed = run.printed
    if run.error is not None:
        shown, _ = _cut(printed, budget // 4) if printed else ("", "")
        before = f"\n\nIt printed before failing:\n{shown}" if shown else ""
        return error_result(f"{run.error}{before}")
    value = _jsonable(run.value)
    if value is None and printed:
        text, note = _cut(printed, budget)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=t) for t in (text, note) if t],
            is_error=False,
            _meta={SHORTENED_META: [note]} if note else None,
        )
    answer = {"result": value, "printed": printed} if printed else value
    text, notes, meta = _dumps(answer), [], None
    if tokens_of(text) > budget:
        shrunk = shrink(answer, max(budget - _NOTE_ROOM, 1), lambda v: tokens_of(_dumps(v)))
        answer, text = shrunk.value, _dumps(shrunk.value)
        notes.append(
            f"[Result shortened to fit {budget:,} tokens: {'; '.join(shrunk.cuts)}. Return less: only the "
            "fields and items needed, or counts and summaries.]"
        )
        meta = {SHORTENED_META: list(shrunk.cuts)}
    # The text and structuredContent together stay within the budget: a shortened answer comes as text only.
    structured: dict[str, Any] | None = None
    if not notes:
        structured = answer if isinstance(answer, dict) else {"result": answer}
    blocks = [types.TextContent(type="text", text=t) for t in (text, *notes)]
    return types.CallToolResult(content=list(blocks), structured_content=structured, is_error=False, _meta=meta)


class CodeMode:
    """One API's functions, searchable by task and callable from programs run in the sandbox."""

    def __init__(self, entries: Sequence[ToolEntry], search: SearchFile | None, settings: Settings, prefix: str):
        self._catalog = Catalog(entries, search)
        self._tools = function_names(entries)  # function -> tool
        self._functions = {tool: function for function, tool in self._tools.items()}
        self._by_tool = {entry["tool"]["name"]: entry for entry in entries}
        self._signatures: dict[str, str] = {}  # made when a search first shows the tool, not at start-up
        self.limits = Limits(
            seconds=settings.code_timeout,
            calls=settings.code_max_calls,
            memory_mb=settings.code_max_memory,
            output_bytes=settings.code_max_output,
            names={
                "seconds": f"{prefix}_CODE_TIMEOUT",
                "calls": f"{prefix}_CODE_MAX_CALLS",
                "memory": f"{prefix}_CODE_MAX_MEMORY",
                "output": f"{prefix}_CODE_MAX_OUTPUT",
            },
        )
        self.sandbox = Sandbox(list(self._tools))
        self._budget = settings.max_result_tokens
        self.tools = code_tools(self.limits)

    def search(self, query: str, toolset: str | None, limit: int) -> list[dict[str, Any]]:
        """The best functions for ``query``: each as the call a program makes, its summary and operation."""
        found = self._catalog.search(query, toolset, limit)
        return [
            {"call": self._signature(hit["name"]), "summary": hit["summary"], "operation": hit["operation"]}
            for hit in found
        ]

    def _signature(self, tool: str) -> str:
        shown = self._signatures.get(tool)
        if shown is None:
            entry = self._by_tool[tool]
            shown = self._signatures[tool] = signature(self._functions[tool], entry, select=entry.get("select"))
        return shown

    async def call(
        self,
        api: Api,
        name: str,
        arguments: Mapping[str, Any] | None,
        *,
        headers: Mapping[str, str] | None = None,
        prompt: Prompt | None = None,
    ) -> types.CallToolResult:
        """Run ``search_api`` or ``execute``."""
        args = dict(arguments or {})
        if name == "search_api":
            request = self._catalog.request(name, args)
            if isinstance(request, types.CallToolResult):
                return request
            found = self.search(*request)
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=_dumps({"functions": found}))],
                structured_content={"functions": found},
                is_error=False,
            )
        if name == "execute":
            code = args.get("code")
            if not isinstance(code, str) or not code.strip():
                return error_result("execute needs the program in code.")
            run = await self.sandbox.run(code, self._caller(api, headers, prompt), self.limits)
            return run_result(run, self._budget)
        return error_result(f"Unknown tool: {name!r}; code mode has search_api and execute.")

    def _caller(self, api: Api, headers: Mapping[str, str] | None, prompt: Prompt | None) -> Any:
        from ..calling.api import Answer  # noqa: PLC0415

        async def call(function: str, arguments: dict[str, Any]) -> Any:
            tool = self._tools.get(function)
            if tool is None:
                return Failure("AttributeError", f"api has no function {function!r}; find one with search_api")
            outcome = await api.answer(tool, arguments, headers=headers, prompt=prompt)
            if isinstance(outcome, Answer):
                return outcome.value
            text = " ".join(c.text for c in outcome.content if isinstance(c, types.TextContent))
            invalid = text.startswith(("Invalid arguments", "Unknown argument"))
            status = isinstance(outcome.structured_content, dict) and "status" in outcome.structured_content
            return Failure("ValueError" if invalid and not status else "OSError", text)

        return call
