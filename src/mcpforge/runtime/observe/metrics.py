"""Prometheus metrics (``prometheus-client``): tool calls, upstream latency, retries, shortened results, sign-ins.

Served at ``/metrics`` when ``METRICS`` is on (behind the MCP endpoint's protection) or on a port of
its own when ``METRICS_PORT`` is set (without it: for a scraper on a private network). Each server
has its own registry, so nothing of the process's other libraries is exposed, and labels take
only bounded values: a tool name the server does not know counts as ``(unknown)``, so a client
sending random names cannot grow the metrics without end.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest, start_http_server
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from starlette.types import Receive, Scope, Send

__all__ = ["UNKNOWN_TOOL", "Metrics"]

UNKNOWN_TOOL = "(unknown)"

# Seconds: from a cached answer (a few ms) to a slow report (a minute).
_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


def status_class(status: int | None) -> str:
    """``2xx``..``5xx`` for an HTTP status, ``none`` when no answer came."""
    return f"{status // 100}xx" if status else "none"


class Metrics:
    """The server's metrics, in a registry of their own; ``tools``: the names a ``tool`` label may take."""

    def __init__(self, tools: Iterable[str]) -> None:
        self._tools = frozenset(tools)
        self.registry = CollectorRegistry(auto_describe=True)
        self._calls = Counter(
            "mcp_tool_calls",
            "Tool calls, by tool and outcome (error: the result has isError)",
            ["tool", "outcome"],
            registry=self.registry,
        )
        self._call_seconds = Histogram(
            "mcp_tool_call_duration_seconds",
            "Time to answer a tool call, in seconds",
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self._upstream_seconds = Histogram(
            "mcp_upstream_request_duration_seconds",
            "Time the API took to answer one request (each retry is a request), by method and status class",
            ["method", "status_class"],
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self._retries = Counter(
            "mcp_upstream_retries", "Requests retried after a throttled or unavailable answer", ["status"],
            registry=self.registry,
        )  # fmt: skip
        self._shortened = Counter(
            "mcp_results_shortened", "Results shortened to fit the result budget, by tool", ["tool"],
            registry=self.registry,
        )  # fmt: skip
        self._sign_ins = Counter(
            "mcp_sign_ins",
            "Users' sign-ins to the API, by outcome (started: a link was given; completed; refused: the link was "
            "completed by someone else; failed)",
            ["outcome"],
            registry=self.registry,
        )
        self._refreshes = Counter(
            "mcp_token_refreshes", "Users' API tokens refreshed, by outcome (ok, failed)", ["outcome"],
            registry=self.registry,
        )  # fmt: skip

    def _tool(self, name: str) -> str:
        return name if name in self._tools else UNKNOWN_TOOL

    def tool_call(self, tool: str, *, error: bool, seconds: float, shortened: bool) -> None:
        """One finished tool call."""
        self._calls.labels(self._tool(tool), "error" if error else "ok").inc()
        self._call_seconds.observe(seconds)
        if shortened:
            self._shortened.labels(self._tool(tool)).inc()

    def upstream(self, method: str, status: int | None, seconds: float) -> None:
        """One request to the API (``status`` None: no answer)."""
        self._upstream_seconds.labels(method, status_class(status)).observe(seconds)

    def retry(self, status: int) -> None:
        """A request about to be sent again after ``status``."""
        self._retries.labels(str(status)).inc()

    def sign_in(self, outcome: str) -> None:
        """A sign-in's step: started, completed, refused or failed."""
        self._sign_ins.labels(outcome).inc()

    def refresh(self, *, ok: bool) -> None:
        """A user's API token refreshed (or not)."""
        self._refreshes.labels("ok" if ok else "failed").inc()

    def exposition(self) -> bytes:
        """The metrics in Prometheus' text format."""
        return generate_latest(self.registry)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """``/metrics`` as an ASGI app (HTTP mode, behind the endpoint's protection)."""
        body = self.exposition()
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", CONTENT_TYPE_LATEST.encode()), (b"content-length", b"%d" % len(body))],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def serve(self, host: str, port: int) -> Any:
        """Serve the metrics on ``host:port`` from a thread of this process (``METRICS_PORT``); the server."""
        server, _thread = start_http_server(port, addr=host, registry=self.registry)
        return server
