"""HTTP responses as tool results: JSON as text plus ``structuredContent``, text, images, binary resources.

Every result is built here, so the MCP tools, dynamic mode, the agent helpers and the OpenAI
bridge all return the same thing for the same response.
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

from .contract import ToolEntry
from .media import base_media_type, is_json, media_kind
from .redact import Redactor

__all__ = ["EXCERPT", "Response", "error_result", "response_result", "text_result"]

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


def response_result(
    entry: ToolEntry,
    response: Response,
    redact: Redactor,
    check_output: OutputCheck,
    *,
    auth_hint: str = "",
) -> types.CallToolResult:
    """The tool result for ``response``; ``check_output`` names the first outputSchema violation, if any."""
    has_output = "outputSchema" in entry["tool"]
    if response.status >= 400:
        return _http_error(response, redact, auth_hint)
    empty: dict[str, Any] | None = {} if has_output else None
    note = f"\n[Response truncated to the first {len(response.body):,} bytes.]" if response.truncated else ""
    media = response.media
    if not response.body:
        text = f"HTTP {response.status} {response.reason}".rstrip() + ": no content."
        return text_result(text, error=False, structured=empty)
    kind = media_kind(media) if media else "text"
    if kind == "json":
        if response.truncated:
            return text_result(redact(response.text()) + note, error=False, structured=empty)
        try:
            value = json.loads(response.body)
        except (ValueError, RecursionError):
            excerpt = redact(response.text()[:EXCERPT])
            return error_result(f"The API returned invalid JSON (HTTP {response.status}, {media}): {excerpt}")
        structured = value if isinstance(value, dict) and not entry["outputWrapped"] else {"result": value}
        rendered = redact(json.dumps(value, ensure_ascii=False))
        if has_output:
            problem = check_output(structured)
            if problem:
                return error_result(
                    f"The API's response does not match its documented schema ({problem}). "
                    f"Response: {rendered[:EXCERPT]}"
                )
        return text_result(rendered, error=False, structured=redact.value(structured))
    if media.startswith("image/") and not response.truncated:
        image = types.ImageContent(type="image", data=base64.b64encode(response.body).decode("ascii"), mime_type=media)
        return types.CallToolResult(content=[image], structured_content=empty, is_error=False)
    if kind == "text":
        return text_result(redact(response.text()) + note, error=False, structured=empty)
    blob = types.BlobResourceContents(
        uri=response.url, mime_type=media or None, blob=base64.b64encode(response.body).decode("ascii")
    )
    content: list[Any] = [types.EmbeddedResource(type="resource", resource=blob)]
    if response.truncated:
        content.append(types.TextContent(type="text", text=note.strip()))
    return types.CallToolResult(content=content, structured_content=empty, is_error=False)


def _http_error(response: Response, redact: Redactor, auth_hint: str) -> types.CallToolResult:
    structured: dict[str, Any] = {"status": response.status}
    if is_json(response.media) and not response.truncated:
        with contextlib.suppress(ValueError, RecursionError):
            structured["body"] = json.loads(response.body)
    text = response.text()
    excerpt = redact(text[:EXCERPT]) + ("..." if len(text) > EXCERPT or response.truncated else "")
    message = f"HTTP {response.status} {response.reason}".rstrip() + (f": {excerpt}" if excerpt else "")
    if auth_hint and response.status in (401, 403):
        message += f" ({auth_hint})"
    return text_result(message, error=True, structured=redact.value(structured))
