"""What a running server reports of its work: the audit log, metrics and traces, each only when enabled.

:class:`~.api.Api` reports each call of an operation here (whoever made it: an MCP client, the
OpenAI bridge, dynamic mode) and each request it sends the API; this module hands the report to
whichever of :class:`~.audit.AuditLog`, :class:`~.metrics.Metrics` and :class:`~.tracing.Tracing`
are on. With none on, a report costs a few attribute checks.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, MutableMapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from mcp import types
from mcp.server.auth.middleware.auth_context import get_access_token

from ..results.responses import SHORTENED_META
from .audit import AuditLog

if TYPE_CHECKING:
    from .metrics import Metrics
    from .tracing import Tracing

__all__ = ["CallReport", "Observer", "RequestReport"]


@dataclass(slots=True)
class CallReport:
    """One tool call being reported: :meth:`finish` it with the result."""

    tool: str
    started: float
    status: int | None = None  # the API's last HTTP status in this call (None: no request answered)
    result: types.CallToolResult | None = None

    def finish(self, result: types.CallToolResult) -> None:
        """The call's result (reported when the call's block ends)."""
        self.result = result


@dataclass(slots=True)
class RequestReport:
    """One API request being reported: :meth:`answered` with its status."""

    method: str
    attempt: int
    started: float
    status: int | None = None
    call: CallReport | None = field(default=None, repr=False)

    def answered(self, status: int) -> None:
        """The API's HTTP status."""
        self.status = status
        if self.call is not None:
            self.call.status = status


# The tool call reported in this task (concurrent calls never mix): its API requests attach to it.
_CALL: ContextVar[CallReport | None] = ContextVar("mcpforge_call", default=None)


class Observer:
    """The reports of one server; ``audit``, ``metrics`` and ``tracing`` are each optional."""

    def __init__(
        self, *, audit: AuditLog | None = None, metrics: Metrics | None = None, tracing: Tracing | None = None
    ) -> None:
        self.audit = audit
        self.metrics = metrics
        self.tracing = tracing

    @contextlib.contextmanager
    def tool_call(self, tool: str, *, span: bool = False) -> Iterator[CallReport]:
        """Report the tool call running in this block.

        Its span, when tracing, is the MCP SDK's; ``span``: one of its own (an operation a program
        calls in code mode, under the span of the program's run).
        """
        report = CallReport(tool, time.perf_counter())
        token = _CALL.set(report)
        try:
            if span and self.tracing is not None:
                with self.tracing.operation(tool):
                    yield report
            else:
                yield report
        finally:
            _CALL.reset(token)
            self._finish(report)

    def _finish(self, report: CallReport) -> None:
        result = report.result
        if result is None:
            return  # the call did not end with a result (cancelled): nothing to count
        seconds = time.perf_counter() - report.started
        if self.metrics is not None:
            shortened = bool(result.meta and SHORTENED_META in result.meta)
            self.metrics.tool_call(report.tool, error=result.is_error, seconds=seconds, shortened=shortened)
        if self.audit is not None:
            self.audit.record(
                tool=report.tool, error=result.is_error, status=report.status, seconds=seconds, subject=_subject()
            )

    @contextlib.contextmanager
    def request(
        self, method: str, template: str, url: str, headers: MutableMapping[str, str], attempt: int = 0
    ) -> Iterator[RequestReport]:
        """Report the API request sent in this block (its trace context goes into ``headers``)."""
        report = RequestReport(method, attempt, time.perf_counter(), call=_CALL.get())
        try:
            if self.tracing is None:
                yield report
            else:
                host, port = _host_port(url)
                with self.tracing.upstream(method, template, host, port, headers) as span:
                    try:
                        yield report
                    finally:
                        self.tracing.finish_upstream(span, report.status, attempt)
        finally:
            if self.metrics is not None:
                self.metrics.upstream(method, report.status, time.perf_counter() - report.started)

    def retry(self, status: int) -> None:
        """A request is about to be sent again after ``status``."""
        if self.metrics is not None:
            self.metrics.retry(status)

    def sign_in(self, outcome: str) -> None:
        """A sign-in's step (started, completed, refused, failed)."""
        if self.metrics is not None:
            self.metrics.sign_in(outcome)

    def refresh(self, *, ok: bool) -> None:
        """A user's API token was refreshed (``ok``) or could not be."""
        if self.metrics is not None:
            self.metrics.refresh(ok=ok)

    def close(self) -> None:
        """Flush and close what needs it (the audit file, queued spans)."""
        if self.audit is not None:
            self.audit.close()
        if self.tracing is not None:
            self.tracing.shutdown()


def _host_port(url: str) -> tuple[str, int | None]:
    parts = urlsplit(url)
    return parts.hostname or "", parts.port


def _subject() -> str | None:
    """The MCP caller's subject in HTTP mode (the access token's subject, else its client); None otherwise."""
    token = get_access_token()
    return (token.subject or token.client_id) if token is not None else None
