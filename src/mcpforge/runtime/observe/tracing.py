"""OpenTelemetry traces, configured only by the standard ``OTEL_*`` variables (OTLP over HTTP).

Tracing is on when ``OTEL_EXPORTER_OTLP_ENDPOINT`` or ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` is set
(or ``OTEL_TRACES_EXPORTER=otlp``), unless ``OTEL_SDK_DISABLED=true`` or ``OTEL_TRACES_EXPORTER=none``.
It needs the package's ``tracing`` extra (the OpenTelemetry SDK and its OTLP/HTTP exporter), so the
default install stays small; the SDK itself reads the rest (``OTEL_SERVICE_NAME``,
``OTEL_RESOURCE_ATTRIBUTES``, ``OTEL_EXPORTER_OTLP_HEADERS``, ``OTEL_TRACES_SAMPLER``, ``OTEL_BSP_*``).

The provider configured here becomes the process's global one, which the MCP SDK's own
instrumentation uses: it makes a server span of each MCP request (``tools/call <tool>``, continuing
the caller's trace from the request's ``_meta.traceparent``, SEP-414, and marking ``isError``
results). Each request to the API is a client span below it, and the API receives that span's W3C
``traceparent``. Spans name the tool and the path *template*: never argument values, a URL with its
query, or a credential.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any

from ..settings.setting import SettingError

__all__ = ["TRACING_VARIABLES", "Tracing", "tracing_from_env"]

# The standard variables this server acts on or passes to the SDK: (name, help), for --help and docs.
TRACING_VARIABLES: tuple[tuple[str, str], ...] = (
    ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTLP/HTTP collector URL (such as http://collector:4318); turns tracing on."),
    ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "Full OTLP/HTTP traces URL (instead of the base URL); turns tracing on."),
    ("OTEL_EXPORTER_OTLP_HEADERS", "Headers sent to the collector (key=value,...), such as its API key (secret)."),
    ("OTEL_SERVICE_NAME", "The service name on every span (default: this server's command name)."),
    ("OTEL_RESOURCE_ATTRIBUTES", "More resource attributes (key=value,...), such as deployment.environment."),
    ("OTEL_TRACES_SAMPLER", "Sampler (default parentbased_always_on); OTEL_TRACES_SAMPLER_ARG its argument."),
    ("OTEL_SDK_DISABLED", "true turns tracing off whatever else is set."),
)

_PROTOCOL = "http/protobuf"


def _wanted(env: Mapping[str, str]) -> bool:
    """Whether the variables ask for traces (raises :class:`SettingError` for what this server cannot do)."""
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    exporter = env.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if exporter == "none":
        return False
    endpoint = (
        env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "").strip() or env.get("OTEL_EXPORTER_OTLP_ENDPOINT", "").strip()
    )
    if not endpoint and exporter != "otlp":
        return False
    if exporter not in ("", "otlp"):
        raise SettingError(f"OTEL_TRACES_EXPORTER={exporter!r}: this server exports traces with otlp only (or none)")
    for variable in ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"):
        protocol = env.get(variable, "").strip()
        if protocol:
            if protocol != _PROTOCOL:
                raise SettingError(f"{variable}={protocol!r}: this server sends OTLP over HTTP only ({_PROTOCOL})")
            break
    return True


class Tracing:
    """Spans of tool calls and of the API requests they make, exported by the SDK's batch processor."""

    def __init__(self, provider: Any) -> None:
        """Trace with ``provider`` (an SDK ``TracerProvider``), made the process's global one."""
        from opentelemetry import trace  # noqa: PLC0415
        from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator  # noqa: PLC0415

        trace.set_tracer_provider(provider)  # the MCP SDK's spans, and ours below them
        self._provider = provider
        self._tracer = provider.get_tracer("mcpforge.runtime")
        self._trace = trace
        # W3C trace context only (not the global propagators): the caller's baggage is not handed to the API.
        self._propagator = TraceContextTextMapPropagator()

    @contextlib.contextmanager
    def operation(self, tool: str) -> Iterator[Any]:
        """The span of one operation a program calls (code mode); its API requests' spans go below it."""
        with self._tracer.start_as_current_span(f"call {tool}", attributes={"mcp.tool.name": tool}) as span:
            yield span

    @contextlib.contextmanager
    def upstream(
        self, method: str, template: str, host: str, port: int | None, headers: MutableMapping[str, str]
    ) -> Iterator[Any]:
        """The span of one API request; its ``traceparent`` goes into ``headers``."""
        attributes: dict[str, Any] = {"http.request.method": method, "url.template": template, "server.address": host}
        if port is not None:
            attributes["server.port"] = port
        with self._tracer.start_as_current_span(
            f"{method} {template}", kind=self._trace.SpanKind.CLIENT, attributes=attributes
        ) as span:
            self._propagator.inject(headers)
            yield span

    def finish_upstream(self, span: Any, status: int | None, attempt: int) -> None:
        """Record the API's answer (None: none came) on a request's span."""
        if attempt:
            span.set_attribute("http.request.resend_count", attempt)
        if status is None:
            return
        span.set_attribute("http.response.status_code", status)
        if status >= 400:
            span.set_attribute("error.type", str(status))
            span.set_status(self._trace.Status(self._trace.StatusCode.ERROR))

    def shutdown(self) -> None:
        """Send the spans still queued (at exit)."""
        self._provider.shutdown()


def tracing_from_env(env: Mapping[str, str], service: str, package: str) -> Tracing | None:
    """Tracing as the ``OTEL_*`` variables of ``env`` ask (None: off); ``package`` names the extra to install."""
    if not _wanted(env):
        return None
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter  # noqa: PLC0415
        from opentelemetry.sdk.resources import SERVICE_NAME, Resource  # noqa: PLC0415
        from opentelemetry.sdk.trace import TracerProvider  # noqa: PLC0415
        from opentelemetry.sdk.trace.export import BatchSpanProcessor  # noqa: PLC0415
    except ImportError:
        raise SettingError(
            "OTEL_EXPORTER_OTLP_ENDPOINT asks for traces, but OpenTelemetry is not installed: "
            f"pip install '{package}[tracing]' (or unset the OTEL_ variables)"
        ) from None
    resource = Resource.create()
    if str(resource.attributes.get(SERVICE_NAME, "")).startswith("unknown_service"):
        resource = resource.merge(Resource({SERVICE_NAME: service}))
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    return Tracing(provider)
