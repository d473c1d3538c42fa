"""OpenTelemetry traces: set by OTEL_* alone, a span per call, the API request below it, traceparent sent on."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from conftest import FIXTURES
from helpers import first_answer, free_port, serve, write_project
from mcpforge.runtime.observe.tracing import tracing_from_env
from mcpforge.runtime.settings.setting import SettingError
from otlp import Receiver

SPEC = FIXTURES / "golden" / "petstore_30" / "openapi.yaml"
SECRET = "upstream-secret-token-0123456789"
CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN = "00f067aa0ba902b7"
SERVER, CLIENT, ERROR = 2, 3, 2  # OTLP's SpanKind and StatusCode numbers


# A generated server started as a process (its runtime compiled, the OpenTelemetry SDK imported) takes
# seconds: those tests run with the end-to-end tier; the settings are checked in-process here.
as_a_process = pytest.mark.e2e


class Upstream:
    """A pet store that remembers the traceparent of each request."""

    def __init__(self) -> None:
        self.traceparents: list[str | None] = []
        self.app = Starlette(routes=[Route("/pets/{pet_id}", self.pet)])

    async def pet(self, request: Request) -> JSONResponse:
        self.traceparents.append(request.headers.get("traceparent"))
        pet_id = int(request.path_params["pet_id"])
        if pet_id == 404:
            return JSONResponse({"message": "no such pet"}, status_code=404)
        return JSONResponse({"id": pet_id, "name": "Rex"})


def _serve_traced(tmp_path: Path, upstream: str, collector: str, **extra: str) -> tuple[subprocess.Popen[str], str]:
    package = write_project(SPEC, tmp_path / "out")
    port = free_port()
    env = {
        "PYTHONPATH": str(tmp_path / "out" / "src"),
        "PETSTORE_BASE_URL": upstream,
        "PETSTORE_BEARERAUTH_TOKEN": SECRET,
        "OTEL_EXPORTER_OTLP_ENDPOINT": collector,
        "OTEL_BSP_SCHEDULE_DELAY": "100",  # milliseconds between exports: the test need not wait for exit
        "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=test",
        # Empty means unset, as in an env file copied from .env.example.
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "",
        "OTEL_TRACES_SAMPLER": "",
        "OTEL_SERVICE_NAME": "",
        **extra,
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", package, "--transport", "http", "--port", str(port), "--stateless", "--json-response"],
        env=env,
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    first_answer(f"{base}/healthz", proc)
    return proc, base


@as_a_process
def test_a_call_is_a_server_span_continuing_the_callers_trace_with_the_api_request_below_it(tmp_path: Path) -> None:
    receiver, upstream = Receiver(), Upstream()
    with serve(receiver.app()) as collector, serve(upstream.app) as api:
        proc, base = _serve_traced(tmp_path, api, collector)
        try:

            async def calls() -> list[Any]:
                meta: Any = {"traceparent": f"00-{CALLER_TRACE}-{CALLER_SPAN}-01"}
                async with (
                    streamable_http_client(f"{base}/mcp") as (read, write, *_),
                    ClientSession(read, write) as session,
                ):
                    await session.initialize()
                    return [
                        await session.call_tool("showPetById", {"petId": 7}, meta=meta),
                        await session.call_tool("showPetById", {"petId": 404}),
                    ]

            results = anyio.run(calls)
            spans = receiver.wait_for({"tools/call showPetById": 2, "GET /pets/{petId}": 2})
        finally:
            proc.terminate()
            _, stderr = proc.communicate(timeout=30)
    assert [r.is_error for r in results] == [False, True], stderr
    served = [s for s in spans if s.name == "tools/call showPetById"]
    requests = [s for s in spans if s.name == "GET /pets/{petId}"]
    assert len(served) == 2 and len(requests) == 2, spans
    ok_call = next(s for s in served if s.trace_id == CALLER_TRACE)
    assert ok_call.kind == SERVER and ok_call.parent_id == CALLER_SPAN  # the caller's trace goes on
    assert ok_call.service == "petstore-mcp" and ok_call.attributes["gen_ai.tool.name"] == "showPetById"
    for call in served:
        request = next(s for s in requests if s.parent_id == call.span_id)
        assert request.kind == CLIENT and request.trace_id == call.trace_id
        assert request.attributes["url.template"] == "/pets/{petId}"
        assert request.attributes["http.request.method"] == "GET"
        # The API received this very span as its parent (and the trace's flags: sampled, maybe random).
        assert f"00-{request.trace_id}-{request.span_id}" in {p[:-3] for p in upstream.traceparents if p}
    failed = next(s for s in served if s.trace_id != CALLER_TRACE)
    assert failed.status_code == ERROR and failed.attributes["error.type"] == "tool_error"
    failed_request = next(s for s in requests if s.parent_id == failed.span_id)
    assert failed_request.attributes["http.response.status_code"] == 404 and failed_request.status_code == ERROR
    exported = b"".join(receiver.bodies)
    assert SECRET.encode() not in exported and b"Bearer" not in exported


@as_a_process
def test_a_programs_api_calls_are_spans_under_its_run_each_with_its_request_below(tmp_path: Path) -> None:
    receiver, upstream = Receiver(), Upstream()
    program = "try:\n    api.showPetById(petId=404)\nexcept OSError:\n    pass\napi.showPetById(petId=7)['name']"
    with serve(receiver.app()) as collector, serve(upstream.app) as api:
        proc, base = _serve_traced(tmp_path, api, collector, PETSTORE_MODE="code")
        try:

            async def run() -> Any:
                async with (
                    streamable_http_client(f"{base}/mcp") as (read, write, *_),
                    ClientSession(read, write) as session,
                ):
                    await session.initialize()
                    return await session.call_tool("execute", {"code": program})

            result = anyio.run(run)
            spans = receiver.wait_for({"tools/call execute": 1, "call showPetById": 2, "GET /pets/{petId}": 2})
        finally:
            proc.terminate()
            _, stderr = proc.communicate(timeout=30)
    assert not result.is_error and "Rex" in str(result.content), stderr
    (run_span,) = [s for s in spans if s.name == "tools/call execute"]
    calls = [s for s in spans if s.name == "call showPetById"]
    assert all(c.parent_id == run_span.span_id and c.trace_id == run_span.trace_id for c in calls)
    for call in calls:
        (request,) = [s for s in spans if s.name == "GET /pets/{petId}" and s.parent_id == call.span_id]
        assert request.kind == CLIENT
    assert SECRET.encode() not in b"".join(receiver.bodies)


@pytest.mark.parametrize(
    ("env", "traced"),
    [
        ({}, False),
        ({"OTEL_SERVICE_NAME": "x"}, False),  # a name alone exports nothing
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9", "OTEL_SDK_DISABLED": "true"}, False),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9", "OTEL_TRACES_EXPORTER": "none"}, False),
    ],
)
def test_tracing_is_off_unless_an_otlp_endpoint_asks_for_it(env: Mapping[str, str], traced: bool) -> None:
    assert (tracing_from_env(env, "petstore-mcp", "petstore-mcp") is not None) is traced


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, "OTLP over HTTP"),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "zipkin"}, "otlp only"),
    ],
)
def test_what_this_server_cannot_export_to_is_refused_by_name(env: Mapping[str, str], message: str) -> None:
    with pytest.raises(SettingError, match=message):
        tracing_from_env(env, "petstore-mcp", "petstore-mcp")


def test_without_the_tracing_extra_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "opentelemetry.sdk.trace", None)  # as if the SDK were not installed
    with pytest.raises(SettingError, match=r"pip install 'petstore-mcp\[tracing\]'"):
        tracing_from_env({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}, "petstore-mcp", "petstore-mcp")


@as_a_process
def test_a_refused_otel_setting_is_one_line_and_exit_2(tmp_path: Path) -> None:
    package = write_project(SPEC, tmp_path / "out")
    env = {
        "PYTHONPATH": str(tmp_path / "out" / "src"),
        "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317",
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "grpc",
    }
    done = subprocess.run(
        [sys.executable, "-m", package], env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False
    )
    assert done.returncode == 2 and "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL='grpc'" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
