"""Executes tool calls against the HTTP API: validation, credentials, the request, and the result.

Every failure becomes an error result the model can read, naming the argument, credential or
endpoint at fault; nothing here raises to the MCP layer. Credentials never appear in logs or
results.
"""

from __future__ import annotations

import functools
import logging
import math
import random
import re
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit

import anyio
from mcp import types
from mcp.shared.exceptions import MCPError

from ..access.callers import CallContext, CallerCredentials
from ..access.credentials import CredentialError, TokenCache
from ..access.signin import Link, SignIn, SignInDeferred, SignInNeeded
from ..contract import ServerConfig, ToolEntry, ToolsFile, select_tools
from ..observe.observer import Observer
from ..redact import CALL_REDACTOR
from ..results.defs import deref
from ..results.media import media_kind
from ..results.responses import Response, Shaping, body_schema, error_result, response_result, response_value
from ..results.select import SelectionError, check_paths, parse_paths
from ..results.shapes import compile_shape
from ..results.tokens import BYTES_PER_TOKEN
from ..settings.table import Settings
from .request import ArgumentError, PreparedRequest, encoded_body, prepare_request, query_string
from .transport import Upstream, UpstreamError, UpstreamTimeout

__all__ = ["Answer", "Api", "Prompt", "drop_injected_nulls", "http_client", "retry_after"]

# Asks the caller to follow a sign-in link (an MCP elicitation); True once they are signed in, False to
# answer with the link in an error result. It may end the call instead: SignInDeferred (an input
# request in place of the result) or an MCPError (the URL-elicitation-required error).
Prompt = Callable[[Link], Awaitable[bool]]

logger = logging.getLogger(__name__)
_COOKIE_SAFE = "-._~!$&'()*+/:=?@[]^`{|}"
_SHOWN_ERRORS = 5
_DEFAULT_ACCEPT = "application/json, */*;q=0.5"
_IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"})
_BACKOFF = 0.5  # seconds before the first retry (doubled each time, jittered)
_JITTER = random.SystemRandom()  # replicas retrying together must not stay in step


@dataclass(frozen=True, slots=True)
class Answer:
    """What an operation answered, as a program reads it (code mode): the parsed body, complete."""

    value: Any


# What a call reported to the audit log and metrics ended with, when it answered a program.
_ANSWERED = types.CallToolResult(content=[], is_error=False)


def retry_after(value: str) -> float | None:
    """Seconds a ``Retry-After`` header asks for (delta-seconds or an HTTP date), None when absent or unreadable."""
    value = value.strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max((when - datetime.now(UTC)).total_seconds(), 0.0) if when.tzinfo else None


def _retry_note(response: Response) -> str:
    asked = retry_after(response.retry_after)
    if asked is not None:
        return f"Retry after {asked:.0f} s."
    return "The API is throttled or unavailable; retry in a minute."


@functools.lru_cache(maxsize=1024)  # a tool's pattern, compiled once however many pages are followed
def _path_pattern(template: str) -> re.Pattern[str]:
    """A regex matching the operation's path with any value in each ``{parameter}``."""
    pieces = re.split(r"\{[^}/]*\}", template)
    return re.compile("[^/]+".join(re.escape(piece) for piece in pieces))


def http_client(settings: Settings, server: ServerConfig) -> Upstream:
    """The connections to the API: the configured timeout, redirects not followed, no cookies kept.

    A redirect could carry an API key header to another host, so it comes back as a result. Cookies
    the API sets are not kept (the pool is shared by every caller); a cookie parameter is sent per
    call. Requests say who sends them: ``<server name>/<version> (mcpforge)`` (some APIs, GitHub's
    among them, refuse requests without a User-Agent).
    """
    agent = f"{server['name']}/{server['version']} (mcpforge)"
    return Upstream(timeout=settings.timeout, user_agent=agent.encode("ascii", "replace").decode("ascii"))


def _allows_null(schema: Any, defs: Mapping[str, Any]) -> bool:
    schema = deref(schema, defs)
    if not isinstance(schema, Mapping):
        return schema is True
    kind = schema.get("type")
    combined = any(k in schema for k in ("anyOf", "oneOf", "allOf"))
    if kind is None and "enum" not in schema and "const" not in schema and not combined:
        return True
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    if None in schema.get("enum", [1]):
        return True
    return any(_allows_null(b, defs) for key in ("anyOf", "oneOf") for b in schema.get(key, []))


def drop_injected_nulls(value: Any, schema: Any, defs: Mapping[str, Any]) -> Any:
    """Remove ``null`` values of optional properties whose schema does not allow null.

    OpenAI strict mode makes every property required and nullable; a model then sends
    ``null`` for "not given". The API must see the property absent, as in a non-strict call.
    """
    schema = deref(schema, defs)
    if not isinstance(schema, Mapping):
        return value
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        required = set(schema.get("required", []))
        cleaned = {}
        for key, item in value.items():
            sub = properties.get(key)
            if item is None and key not in required and sub is not None and not _allows_null(sub, defs):
                continue
            cleaned[key] = drop_injected_nulls(item, sub, defs) if sub is not None else item
        return cleaned
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        return [drop_injected_nulls(v, schema["items"], defs) for v in value]
    return value


def _problem(path: Sequence[str | int], message: str) -> str:
    where = ".".join(str(p) for p in path) or "(root)"
    return f"{where}: {message[:200]}"


def _argument_errors(errors: Sequence[Any]) -> str:
    lines = []
    for error in sorted(errors, key=lambda e: list(map(str, e.absolute_path)))[:_SHOWN_ERRORS]:
        where = ".".join(str(p) for p in error.absolute_path) or "(arguments)"
        message = error.message if len(error.message) <= 200 else error.message[:197] + "..."
        lines.append(f"- {where}: {message}")
    more = f"\n(and {len(errors) - _SHOWN_ERRORS} more)" if len(errors) > _SHOWN_ERRORS else ""
    return "Invalid arguments:\n" + "\n".join(lines) + more


class Api:
    """The API behind the tools: validates arguments, sends requests, maps responses."""

    def __init__(
        self,
        data: ToolsFile,
        settings: Settings,
        client: Upstream,
        *,
        toolsets: Sequence[str] | None = None,
        tokens: TokenCache | None = None,
        observer: Observer | None = None,
        sign_in: SignIn | None = None,
        protected: bool = False,
    ) -> None:
        self._schemes = data["server"]["securitySchemes"]
        self._entries = {entry["tool"]["name"]: entry for entry in select_tools(data["tools"], toolsets)}
        self._validators: dict[str, Any] = {}
        self._output_checks: dict[str, Callable[[Mapping[str, Any]], str | None]] = {}
        self._settings = settings
        self._client = client
        base = urlsplit(settings.base_url)
        self._base_path = base.path.rstrip("/")
        self._origin = f"{base.scheme}://{base.netloc}"
        self._base_query = parse_qsl(base.query, keep_blank_values=True)
        self.observer = observer or Observer()
        self.sign_in = sign_in
        self._callers = CallerCredentials(data, settings, tokens or TokenCache(), sign_in, protected=protected)
        self.redact = self._callers.redact
        self._query_credentials = {
            str(s.get("name")) for s in self._schemes.values() if s["type"] == "apiKey" and s.get("in") == "query"
        }

    def _validator(self, key: str, schema: Mapping[str, Any]) -> Any:
        validator = self._validators.get(key)
        if validator is None:
            # Imported on the first call: jsonschema costs 30 ms of every start-up otherwise.
            from jsonschema import Draft202012Validator  # noqa: PLC0415

            validator = self._validators[key] = Draft202012Validator(schema)
        return validator

    async def call(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        *,
        headers: Mapping[str, str] | None = None,
        prompt: Prompt | None = None,
    ) -> types.CallToolResult:
        """Run one tool call; every failure becomes an ``isError`` result.

        ``headers`` are the HTTP request's (HTTP mode): per-user credentials come from them.
        ``prompt`` asks the caller to sign in when the call needs it (MCP); without it the result
        carries the sign-in link. The call is reported to the observer (audit log, metrics,
        traces), whoever made it: an MCP client, the OpenAI bridge or an agent helper.
        """
        result = await self._reported(name, arguments, headers, prompt, answer=False)
        assert isinstance(result, types.CallToolResult)  # answer=False never gives an Answer
        return result

    async def answer(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        *,
        headers: Mapping[str, str] | None = None,
        prompt: Prompt | None = None,
    ) -> Answer | types.CallToolResult:
        """Run one operation for a program (code mode): its parsed answer, complete, or the error result.

        The same path as :meth:`call` (validation, credentials, sign-in, retries, redaction, one
        audit line and metric), and a span of its own under the program's when tracing.
        """
        return await self._reported(name, arguments, headers, prompt, answer=True)

    async def _reported(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        headers: Mapping[str, str] | None,
        prompt: Prompt | None,
        *,
        answer: bool,
    ) -> Answer | types.CallToolResult:
        with self.observer.tool_call(name, span=answer) as report:
            try:
                result = await self._call_guarded(name, arguments, headers, prompt, answer)
            except (MCPError, SignInDeferred) as exc:  # the prompt's answer instead of a result: sign in first
                report.finish(error_result(str(exc)))
                raise
            report.finish(result if isinstance(result, types.CallToolResult) else _ANSWERED)
            return result

    async def _call_guarded(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        headers: Mapping[str, str] | None,
        prompt: Prompt | None,
        answer: bool,
    ) -> Answer | types.CallToolResult:
        entry = self._entries.get(name)
        if entry is None:
            return error_result(f"Unknown tool: {name!r}")
        try:
            return await self._attempt(entry, arguments, headers, answer)
        except SignInNeeded as needed:
            if prompt is None or not await prompt(needed.link):
                return error_result(f"{needed.link.message}; then call {name} again.")
        try:  # signed in meanwhile: once more
            return await self._attempt(entry, arguments, headers, answer)
        except SignInNeeded as needed:
            return error_result(f"{needed.link.message}; then call {name} again.")

    async def _attempt(
        self, entry: ToolEntry, arguments: Mapping[str, Any] | None, headers: Mapping[str, str] | None, answer: bool
    ) -> Answer | types.CallToolResult:
        name = entry["tool"]["name"]
        try:
            context = await self._callers.context(entry, headers)
        except CredentialError as exc:
            return error_result(str(exc))
        redact = context.redact
        token = CALL_REDACTOR.set(redact)  # log records written during this call are redacted with it too
        try:
            return await self._call(entry, dict(arguments or {}), context, headers, answer)
        except SignInNeeded:
            raise
        except (ArgumentError, CredentialError) as exc:
            return error_result(redact(str(exc)))
        except RecursionError:
            return error_result("The arguments nest too deeply to be sent; flatten them.")
        except UpstreamTimeout:
            return error_result(f"The API at {self._origin} did not answer within {self._settings.timeout:g} s.")
        except UpstreamError as exc:
            return error_result(f"The request to the API at {self._origin} failed: {redact(str(exc))}")
        except Exception as exc:  # a tool call must never break the session (logged, and shown redacted)
            logger.exception("tool %s failed", name)
            detail = redact(str(exc))[:300]
            return error_result(f"Internal error while calling {name}: {type(exc).__name__}: {detail}")
        finally:
            CALL_REDACTOR.reset(token)

    async def _call(
        self,
        entry: ToolEntry,
        arguments: dict[str, Any],
        context: CallContext,
        headers: Mapping[str, str] | None,
        answer: bool = False,
    ) -> Answer | types.CallToolResult:
        tool = entry["tool"]
        schema = tool["inputSchema"]
        arguments = drop_injected_nulls(arguments, schema, schema.get("$defs", {}))
        declared = schema.get("properties", {})
        unknown = [name for name in arguments if name not in declared]
        if unknown:  # the arguments are exactly the declared ones: a misspelt one is reported, not ignored
            known = ", ".join(declared) or "none"
            shown = ", ".join(map(repr, unknown[:_SHOWN_ERRORS]))
            return error_result(context.redact(f"Unknown argument(s) {shown}; {tool['name']} takes: {known}"))
        errors = list(self._validator(tool["name"], schema).iter_errors(arguments))
        if errors:
            return error_result(context.redact(_argument_errors(errors)))
        fields, unchecked = None, None
        select_arg = entry.get("select")
        if select_arg and arguments.get(select_arg) is not None:
            try:
                fields = parse_paths(arguments[select_arg], select_arg)
                unchecked = check_paths(fields, body_schema(entry), select_arg)
            except SelectionError as exc:
                return error_result(str(exc))
        missing = context.credentials.missing(entry["security"], context.headers)
        problem = await self._callers.offer_sign_in(entry, context) if missing else None  # or SignInNeeded
        if problem:
            return error_result(problem)
        if missing and context.headers:
            return error_result(
                f"This operation needs your own API credentials: send {' or '.join(missing)} with the request "
                "(this server takes API credentials per user)"
            )
        response, retry_note = await self._exchange(entry, arguments, context)
        if response.status == 401 and context.signed_in:
            # The API refused a signed-in caller's token (revoked, or rotated elsewhere): renewed once,
            # then dropped, and the caller gets a new link (SignInNeeded).
            context = await self._callers.renew(entry, context, headers)
            response, retry_note = await self._exchange(entry, arguments, context)
            if response.status == 401:
                await self._callers.refused(entry, context)
        if answer:
            found = response_value(entry, response, context.redact, self._settings.max_result_tokens)
            return found if isinstance(found, types.CallToolResult) else Answer(found)
        hint = f"no credentials are configured for this operation: set {' or '.join(missing)}" if missing else ""
        shaping = Shaping(
            budget=self._settings.max_result_tokens, arguments=arguments, fields=fields, unchecked=unchecked
        )
        return response_result(
            entry, response, context.redact, self._output_check(tool), shaping, auth_hint=hint, retry_note=retry_note
        )

    async def _exchange(
        self, entry: ToolEntry, arguments: dict[str, Any], context: CallContext
    ) -> tuple[Response, str]:
        """The request the arguments make, with the context's credentials, sent (and retried where safe)."""
        request = prepare_request(entry["method"], entry["path"], entry["bindings"], arguments)
        page_url = entry.get("pageUrl")
        if page_url and arguments.get(page_url):
            request.path, request.params = self._page_target(entry, request.path, arguments[page_url], page_url)
        request.headers.setdefault("Accept", entry.get("accept") or _DEFAULT_ACCEPT)
        await context.credentials.apply(entry["security"], request, self._client.http)
        started = time.perf_counter()
        response, retry_note = await self._send_retrying(request, entry["path"])
        elapsed = 1000 * (time.perf_counter() - started)
        logger.info("%s %s -> %s (%.0f ms)", request.method, entry["path"], response.status, elapsed)
        return response, retry_note

    def _page_target(self, entry: ToolEntry, current: str, url: str, arg: str) -> tuple[str, list[tuple[str, str]]]:
        """The path and query of a next-page URL, which must be this operation's on the configured API."""
        parts = urlsplit(url)
        if (parts.scheme or parts.netloc) and f"{parts.scheme}://{parts.netloc}".lower() != self._origin.lower():
            raise ArgumentError(
                f"{arg}: not a URL of this API ({self._origin}); pass the URL a result of this tool gave"
            )
        path = parts.path or self._base_path + current  # still percent-encoded, as it is sent
        relative = path[len(self._base_path) :] if path.startswith(self._base_path) else None
        if relative is None or not _path_pattern(entry["path"]).fullmatch(relative) or ".." in unquote(relative):
            raise ArgumentError(f"{arg}: not a page of {entry['method']} {entry['path']}; pass the URL this tool gave")
        # The server adds its own base query and query credentials again: an API that echoes them is not doubled.
        own = {name for name, _ in self._base_query} | self._query_credentials
        pairs = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k not in own]
        return relative, pairs

    async def _send_retrying(self, request: PreparedRequest, template: str) -> tuple[Response, str]:
        """Send, retrying throttled and unavailable answers where that is safe; the note says when to retry."""
        idempotent = request.method in _IDEMPOTENT or any(k.lower() == "idempotency-key" for k in request.headers)
        attempt = 0
        while True:
            response = await self._send(request, template, attempt)
            retryable = response.status in (429, 503) or (
                response.status in (502, 504) and request.method in _IDEMPOTENT
            )
            if not retryable or not idempotent:
                return response, _retry_note(response) if retryable else ""
            asked = retry_after(response.retry_after)
            wait = asked if asked is not None else min(_BACKOFF * 2**attempt, self._settings.retry_max_wait)
            if attempt >= self._settings.retries or wait > self._settings.retry_max_wait:
                return response, _retry_note(response)
            if asked is None:
                wait *= _JITTER.uniform(0.5, 1.0)
            attempt += 1
            self.observer.retry(response.status)
            logger.info("%s answered %s; retry %d in %.1f s", request.method, response.status, attempt, wait)
            await anyio.sleep(wait)

    def _output_check(self, tool: Mapping[str, Any]) -> Callable[[Mapping[str, Any]], str | None]:
        """The check of a result's structure against the tool's output schema: its first problem, or None."""
        name = tool["name"]
        if name not in self._output_checks:
            compiled = compile_shape(tool.get("outputSchema", True))  # no output schema: no structure to check
            if compiled is not None:
                shape_check = compiled

                def check(structured: Mapping[str, Any]) -> str | None:
                    found = shape_check(structured, ())
                    return None if found is None else _problem(found[0], found[1])

            else:  # not a shape mcpforge wrote: the general validator

                def check(structured: Mapping[str, Any]) -> str | None:
                    # The first problem is enough (the structure is then dropped): the check stops there.
                    first = next(self._validator("output:" + name, tool["outputSchema"]).iter_errors(structured), None)
                    return None if first is None else _problem(tuple(first.absolute_path), first.message)

            self._output_checks[name] = check
        return self._output_checks[name]

    async def _send(self, request: PreparedRequest, template: str, attempt: int) -> Response:
        """One request (``template``: the operation's path template, which reports name it by)."""
        headers = dict(request.headers)
        if request.cookies:
            headers["Cookie"] = "; ".join(f"{k}={quote(v, safe=_COOKIE_SAFE)}" for k, v in request.cookies.items())
        url = self._origin + self._base_path + request.path
        params = [*self._base_query, *request.params]
        if request.raw_query is not None:
            # OpenAPI 3.2 querystring: the query is one value, sent exactly as serialised.
            url += "?" + "&".join(filter(None, [urlencode(params, quote_via=quote), request.raw_query]))
        elif params:
            url += "?" + query_string(params)
        body, needed = encoded_body(request)
        for name, value in needed.items():
            if not any(k.lower() == name.lower() for k in headers):
                headers[name] = value
        logger.debug("HTTP request: %s %s", request.method, url)  # the log filter redacts credentials in it
        with self.observer.request(request.method, template, url, headers, attempt) as report:
            response = await self._read(request.method, url, headers, body)
            report.answered(response.status)
            return response

    async def _read(self, method: str, url: str, headers: Mapping[str, str], body: bytes | None) -> Response:
        limit = self._settings.max_response_bytes
        async with self._client.request(method, url, headers, body) as answer:
            content_type = answer.headers.get("content-type", "")
            received = bytearray()
            truncated = False
            seconds = math.inf
            if media_kind(content_type) == "sequence":
                # A stream may never end (server-sent events): read what the result can hold, for a while.
                limit = min(limit, self._settings.max_result_tokens * BYTES_PER_TOKEN * 2)
                seconds = self._settings.stream_seconds
            with anyio.move_on_after(seconds) as reading:
                async for chunk in answer.chunks():
                    received.extend(chunk)
                    if len(received) > limit:
                        truncated = True
                        del received[limit:]
                        break
            truncated = truncated or reading.cancelled_caught
            return Response(
                status=answer.status,
                reason=answer.reason,
                content_type=content_type,
                body=bytes(received),
                truncated=truncated,
                url=answer.url,
                link=answer.headers.get("link", ""),
                retry_after=answer.headers.get("retry-after", ""),
            )
