"""HTTP responses as tool results: JSON as text plus ``structuredContent``, text, images, binary resources.

Every result is built here, so the MCP tools, dynamic mode, the agent helpers and the OpenAI
bridge all return the same thing for the same response. A JSON result keeps the fields the call
selected (:mod:`.select`), fits the token budget (:mod:`.shrink`, always valid JSON, the text and
``structuredContent`` the same value), and says how to get the next page (:mod:`.pages`) and the
rest of a shortened result, with this tool's own arguments. Notes are extra text blocks.
"""

from __future__ import annotations

import base64
import codecs
import contextlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mcp import types

from ..contract import ToolEntry
from ..redact import Redactor
from .media import base_media_type, media_kind
from .pages import SIZE_ARGS, Paging, next_page
from .problems import api_message
from .select import documented_fields, select, unmatched
from .sequences import parse_items
from .shrink import shrink
from .tokens import BYTES_PER_TOKEN, tokens_of
from .xmldoc import is_xml, xml_value

__all__ = [
    "NEXT_PAGE_META",
    "SHORTENED_META",
    "Response",
    "Shaping",
    "body_schema",
    "error_result",
    "response_result",
    "response_value",
    "text_result",
]

EXCERPT = 2000  # characters of a body quoted in an error


@dataclass(frozen=True, slots=True)
class Response:
    """What the API answered: status, headers and the body as read (``truncated`` past the byte cap)."""

    status: int
    reason: str
    content_type: str
    body: bytes
    truncated: bool
    url: str
    link: str = ""  # the Link header (pagination)
    retry_after: str = ""  # the Retry-After header (throttling)

    @property
    def media(self) -> str:
        """The media type, lower case, without parameters."""
        return base_media_type(self.content_type)

    def text(self) -> str:
        """The body decoded with its charset (UTF-8 when absent or unknown), bad bytes replaced."""
        return self.body.decode(_charset(self.content_type), errors="replace") if self.body else ""


def text_result(text: str, *, error: bool, structured: dict[str, Any] | None = None) -> types.CallToolResult:
    """A result with one text block (and ``structuredContent`` when given)."""
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], structured_content=structured, is_error=error
    )


def error_result(text: str) -> types.CallToolResult:
    """An ``isError`` result the model can read."""
    return text_result(text, error=True)


def _charset(content_type: str) -> str:
    for part in content_type.split(";")[1:]:
        key, _, value = part.partition("=")
        if key.strip().lower() == "charset":
            name = value.strip().strip('"')
            try:
                return codecs.lookup(name).name
            except LookupError:
                break
    return "utf-8"


OutputCheck = Callable[[Mapping[str, Any]], str | None]
_NOTE_RESERVE = 200  # tokens kept for the sentences saying what a shortened result lost
_MAX_SHOWN_ARGUMENTS = 2000  # characters of next-page arguments quoted in the note
_UNREACHABLE = "no argument of this tool asks for the next page"
NEXT_PAGE_META = "mcpforge/nextPage"  # _meta key: {"tool": name, "arguments": the next call's exact arguments}
SHORTENED_META = "mcpforge/shortened"  # _meta key: what was cut to fit the result budget


@dataclass(frozen=True, slots=True)
class Shaping:
    """How a result is fitted to the model: its token budget, the selected fields, the call's arguments."""

    budget: int
    arguments: Mapping[str, Any]
    fields: list[tuple[str, ...]] | None = None
    unchecked: list[tuple[str, ...]] | None = None  # selected paths the output schema does not document


def _dumps(value: Any) -> str:
    """Compact JSON (5 to 10% fewer tokens than with spaces), non-ASCII kept as is."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def response_result(
    entry: ToolEntry,
    response: Response,
    redact: Redactor,
    check_output: OutputCheck,
    shaping: Shaping,
    *,
    auth_hint: str = "",
    retry_note: str = "",
) -> types.CallToolResult:
    """The tool result for ``response``; ``check_output`` names the first outputSchema violation, if any.

    ``structuredContent`` is there only when it is the result (a JSON value, or XML made one); text,
    images and files come without it.
    """
    if response.status >= 400:
        return _http_error(entry, response, redact, shaping.budget, auth_hint=auth_hint, retry_note=retry_note)
    media = response.media
    if not response.body:
        return text_result(f"HTTP {response.status} {response.reason}".rstrip() + ": no content.", error=False)
    kind = media_kind(media) if media else "text"
    if kind == "json":
        return _json_result(entry, response, redact, check_output, shaping)
    if kind == "sequence":
        items = _stream_items(entry, response)
        note = ""
        if response.truncated:
            note = (
                f"[Stream read up to the result budget or the time limit: {len(items):,} item(s); "
                "the stream went on.]"
            )
        return _value_result(entry, items, response, redact, check_output, shaping, wrapped=True, first_note=note)
    note = f"[Response truncated to the first {len(response.body):,} bytes.]" if response.truncated else ""
    if is_xml(media) and not response.truncated:
        value = xml_value(response.body, body_schema(entry), entry["tool"].get("outputSchema", {}).get("$defs", {}))
        if value is not None:
            wrapped = not isinstance(value, dict) or entry["outputWrapped"]
            return _value_result(entry, value, response, redact, check_output, shaping, wrapped=wrapped)
    if media.startswith("image/") and not response.truncated:
        image = types.ImageContent(type="image", data=base64.b64encode(response.body).decode("ascii"), mime_type=media)
        return types.CallToolResult(content=[image], is_error=False)
    if kind == "text":
        text, cut = _fit_text(redact(response.text()), shaping.budget)
        notes = [n for n in (cut, note) if n]
        blocks = [types.TextContent(type="text", text=t) for t in [text, *notes]]
        meta = {SHORTENED_META: [f"text cut to {len(text):,} characters"]} if cut else None
        return types.CallToolResult(content=list(blocks), is_error=False, _meta=meta)
    blob = types.BlobResourceContents(
        uri=response.url, mime_type=media or None, blob=base64.b64encode(response.body).decode("ascii")
    )
    content: list[Any] = [types.EmbeddedResource(type="resource", resource=blob)]
    if response.truncated:
        content.append(types.TextContent(type="text", text=note))
    return types.CallToolResult(content=content, is_error=False)


def response_value(entry: ToolEntry, response: Response, redact: Redactor, budget: int) -> Any:
    """The response as a program reads it (code mode): the parsed body, complete; an error as its error result.

    JSON is parsed, a stream is its list of items, XML its value, text a string, other bodies
    ``{"contentType", "base64"}``; ``None`` when there is no body. Secrets are redacted from the
    value as from any result. An HTTP error, or a body too large to parse, is the tool's error result.
    """
    if response.status >= 400:
        return _http_error(entry, response, redact, budget, auth_hint="", retry_note="")
    if not response.body:
        return None
    kind = media_kind(response.media) if response.media else "text"
    if response.truncated and kind in ("json", "sequence"):
        return error_result(
            f"The API's response is larger than the {len(response.body):,} bytes the server reads (its "
            "MAX_RESPONSE_BYTES setting); ask for less (a smaller page, fewer fields)."
        )
    if kind == "json":
        try:
            return redact.value(json.loads(response.body))
        except (ValueError, RecursionError):
            return error_result(f"The API returned invalid JSON (HTTP {response.status}, {response.media}).")
    if kind == "sequence":
        return redact.value(_stream_items(entry, response))
    if is_xml(response.media) and not response.truncated:
        value = xml_value(response.body, body_schema(entry), entry["tool"].get("outputSchema", {}).get("$defs", {}))
        if value is not None:
            return redact.value(value)
    if kind == "text":
        return redact(response.text())
    return {"contentType": response.media, "base64": base64.b64encode(response.body).decode("ascii")}


def _fit_text(text: str, budget: int) -> tuple[str, str]:
    """``text`` cut at a character boundary to the budget, and the note saying so ("" when it fits)."""
    if tokens_of(text) <= budget:
        return text, ""
    limit = max(budget - _NOTE_RESERVE, 1) * BYTES_PER_TOKEN
    cut = text.encode("utf-8")[:limit].decode("utf-8", errors="ignore")
    return cut, (
        f"[Text cut to the first {len(cut):,} of {len(text):,} characters to fit the result budget "
        f"of {budget:,} tokens.]"
    )


def _json_result(
    entry: ToolEntry, response: Response, redact: Redactor, check_output: OutputCheck, shaping: Shaping
) -> types.CallToolResult:
    if response.truncated:
        return error_result(
            f"The API's JSON response is larger than the {len(response.body):,} bytes the server reads (its "
            "MAX_RESPONSE_BYTES setting), so it cannot be parsed; ask for less: "
            + _guidance(entry, None, True, shaping, unreachable=False)
        )
    try:
        body = json.loads(response.body)
    except (ValueError, RecursionError):
        excerpt = redact(response.text()[:EXCERPT])
        return error_result(f"The API returned invalid JSON (HTTP {response.status}, {response.media}): {excerpt}")
    wrapped = not isinstance(body, dict) or entry["outputWrapped"]
    return _value_result(entry, body, response, redact, check_output, shaping, wrapped=wrapped)


def _stream_items(entry: ToolEntry, response: Response) -> list[Any]:
    """The items of a streamed body; event ``data`` that is JSON is parsed unless the schema says text."""
    items = parse_items(response.content_type, response.body, complete=not response.truncated)
    if response.media != "text/event-stream":
        return items
    item = body_schema(entry)
    shape = item.get("items", {}) if isinstance(item, Mapping) else {}
    data = shape.get("properties", {}).get("data", {}) if isinstance(shape, Mapping) else {}
    kinds = data.get("type") if isinstance(data, Mapping) else None
    if kinds == "string" or (isinstance(kinds, list) and "string" in kinds):
        return items
    for event in items:
        if isinstance(event.get("data"), str):
            with contextlib.suppress(ValueError, RecursionError):
                event["data"] = json.loads(event["data"])
    return items


def _value_result(
    entry: ToolEntry,
    body: Any,
    response: Response,
    redact: Redactor,
    check_output: OutputCheck,
    shaping: Shaping,
    *,
    wrapped: bool,
    first_note: str = "",
) -> types.CallToolResult:
    """A parsed body (JSON, or a stream's items) as a result: checked, selected, fitted, with its notes."""
    tool = entry["tool"]
    if "outputSchema" in tool:
        problem = check_output({"result": body} if wrapped else body)
        if problem:
            rendered = redact(_dumps(body))
            return error_result(
                f"The API's response does not match its documented schema ({problem}). Response: {rendered[:EXCERPT]}"
            )
    value = body
    if shaping.fields is not None:
        problem = unmatched(body, shaping.unchecked or [], entry.get("select") or "fields")
        if problem:
            return error_result(problem)
        value = select(body, shaping.fields)
    value = redact.value(value)
    paging = next_page(entry, response.link, body, shaping.arguments)
    # The next call's arguments come from the API's answer, which may echo a query credential in its next link.
    following = redact.value(paging) if isinstance(paging, dict) else None
    unreachable = paging is Paging.UNREACHABLE
    text = _dumps(value)
    notes: list[str] = [first_note] if first_note else []
    meta: dict[str, Any] = {}
    # Text and structuredContent together stay within the budget: a tool with an output schema must
    # send both (the same value), so each gets half; any other sends structuredContent only when both fit.
    has_output = "outputSchema" in tool
    share = shaping.budget // 2 if has_output else shaping.budget
    shortened = tokens_of(text) > share
    if shortened:
        guidance = _guidance(entry, following, True, shaping, unreachable=unreachable)
        room = share - tokens_of(guidance) - _NOTE_RESERVE
        shrunk = shrink(value, max(room, 1), lambda v: tokens_of(_dumps(v)))
        value, text = shrunk.value, _dumps(shrunk.value)
        guidance = _guidance(entry, following, shrunk.items_left_out > 0, shaping, unreachable=unreachable)
        notes.append(
            f"[Result shortened to fit the budget of {shaping.budget:,} tokens: {'; '.join(shrunk.cuts)}. "
            f"To get the rest: {guidance}]"
        )
        meta[SHORTENED_META] = list(shrunk.cuts)
    elif following is not None:
        notes.append(f"[More results: {_next_call(entry, following)}]")
    elif unreachable:
        notes.append(
            f"[More results exist, but {_UNREACHABLE}: narrow the request with its arguments to see the rest.]"
        )
    if following is not None:
        meta[NEXT_PAGE_META] = {"tool": tool["name"], "arguments": following}
    structured = {"result": value} if wrapped else value
    if not has_output and (shortened or 2 * tokens_of(text) + sum(map(tokens_of, notes)) > shaping.budget):
        structured = None
    blocks = [types.TextContent(type="text", text=t) for t in [text, *notes]]
    return types.CallToolResult(content=list(blocks), structured_content=structured, is_error=False, _meta=meta or None)


def _next_call(entry: ToolEntry, following: Mapping[str, Any]) -> str:
    """``call X with {...}``: the exact arguments of the next call (in ``_meta`` alone when they are very long)."""
    shown = _dumps(following)
    if len(shown) > _MAX_SHOWN_ARGUMENTS:
        shown = f"the arguments in this result's _meta {NEXT_PAGE_META!r}"
    return f"call {entry['tool']['name']} with {shown}"


def body_schema(entry: ToolEntry) -> Any:
    """The output schema of the API's response body (unwrapped when the result is ``{"result": body}``)."""
    schema = entry["tool"].get("outputSchema")
    if schema is None:
        return True
    return schema.get("properties", {}).get("result", True) if entry["outputWrapped"] else schema


def _guidance(
    entry: ToolEntry, following: Mapping[str, Any] | None, left_out: bool, shaping: Shaping, *, unreachable: bool
) -> str:
    """How to get what was left out, with this tool's own arguments."""
    ways = []
    select_arg = entry.get("select")
    if select_arg and shaping.fields is None:
        fields = documented_fields(entry["tool"].get("outputSchema", {}).get("properties", {}).get("result", True))
        if not entry["outputWrapped"]:
            fields = documented_fields(entry["tool"].get("outputSchema", True))
        examples = (
            [n for n, sub in fields.items() if documented_fields(sub) is False][:3] if isinstance(fields, dict) else []
        )
        shown = f" (for example {_dumps(examples)})" if examples else ""
        ways.append(f"ask only for the fields you need with {select_arg!r}{shown}")
    sizes = [b["arg"] for b in entry["bindings"] if b["in"] == "query" and b.get("name", b["arg"]) in SIZE_ARGS]
    if sizes and left_out:
        ways.append(f"ask for a smaller page with {sizes[0]!r}")
    if following is not None:
        ways.append(f"the next page: {_next_call(entry, following)}")
    shown = "; or ".join(ways) or "narrow the request with this tool's arguments"
    return f"{shown} (more results exist beyond this page, but {_UNREACHABLE})" if unreachable else shown


def _http_error(
    entry: ToolEntry, response: Response, redact: Redactor, budget: int, *, auth_hint: str, retry_note: str
) -> types.CallToolResult:
    """``HTTP 422 Unprocessable Entity: <the API's own message>``, naming the argument where the API does."""
    text = response.text()
    body: Any = None
    if media_kind(response.media) == "json" and not response.truncated:
        with contextlib.suppress(ValueError, RecursionError):
            body = json.loads(response.body)
    wire = {b.get("name", b["arg"]): b["arg"] for b in entry["bindings"] if b["in"] != "body"}
    message = api_message(body, response.media, text, wire)
    if not message:
        message = text[:EXCERPT] + ("..." if len(text) > EXCERPT or response.truncated else "")
    line = f"HTTP {response.status} {response.reason}".rstrip() + (f": {message}" if message else "")
    if auth_hint and response.status in (401, 403):
        line += f" ({auth_hint})"
    if retry_note:
        line += f" {retry_note}"
    structured: dict[str, Any] = {"status": response.status}
    if message:
        structured["message"] = message
    if body is not None and tokens_of(text) <= budget // 2:
        structured["body"] = body
    return text_result(redact(line), error=True, structured=redact.value(structured))
