"""An OTLP/HTTP trace receiver for the tests: the protocol's own protobuf messages, decoded as a collector does."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route


@dataclass(frozen=True)
class Span:
    """One received span, in the terms a test asserts on."""

    name: str
    kind: int
    trace_id: str
    span_id: str
    parent_id: str
    service: str
    attributes: dict[str, Any]
    status_code: int


def _value(any_value: Any) -> Any:
    return getattr(any_value, any_value.WhichOneof("value")) if any_value.WhichOneof("value") else None


@dataclass
class Receiver:
    """Spans posted to ``/v1/traces`` (``http/protobuf``), kept in arrival order."""

    spans: list[Span] = field(default_factory=list)
    bodies: list[bytes] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    async def traces(self, request: Request) -> Response:
        if request.headers.get("content-type") != "application/x-protobuf":
            return Response(status_code=415)
        body = await request.body()
        export = ExportTraceServiceRequest.FromString(body)
        received = []
        for resource_spans in export.resource_spans:
            resource = {a.key: _value(a.value) for a in resource_spans.resource.attributes}
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    received.append(
                        Span(
                            name=span.name,
                            kind=span.kind,
                            trace_id=span.trace_id.hex(),
                            span_id=span.span_id.hex(),
                            parent_id=span.parent_span_id.hex(),
                            service=str(resource.get("service.name")),
                            attributes={a.key: _value(a.value) for a in span.attributes},
                            status_code=span.status.code,
                        )
                    )
        with self._lock:
            self.spans.extend(received)
            self.bodies.append(body)
        return Response(ExportTraceServiceResponse().SerializeToString(), media_type="application/x-protobuf")

    def app(self) -> Starlette:
        """The receiver as an ASGI app."""
        return Starlette(routes=[Route("/v1/traces", self.traces, methods=["POST"])])

    def wait_for(self, names: Mapping[str, int], seconds: float = 20) -> list[Span]:
        """Every span so far, once ``names[name]`` spans of each name have arrived."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self._lock:
                if all(sum(s.name == name for s in self.spans) >= count for name, count in names.items()):
                    return list(self.spans)
            time.sleep(0.05)
        raise AssertionError(f"expected {dict(names)}, arrived: {[s.name for s in self.spans]}")
