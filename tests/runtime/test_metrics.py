"""Prometheus metrics: what each call adds, where they are served, and who may read them."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp.client import Client
from prometheus_client.parser import text_string_to_metric_families
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from conftest import FIXTURES
from helpers import contract_of, first_answer, free_port, serve, write_project
from mcpforge.runtime.observe.metrics import UNKNOWN_TOOL, Metrics
from mcpforge.runtime.observe.observer import Observer
from mcpforge.runtime.serving.server import build_server
from mcpforge.runtime.settings.table import Settings

SPEC = FIXTURES / "golden" / "petstore_30" / "openapi.yaml"
TOKEN = "metrics-reader-token-0123456789"


class Upstream:
    """A pet store whose list answers 503 once (then a list too long for the result budget)."""

    def __init__(self) -> None:
        self.listed = 0
        self.app = Starlette(routes=[Route("/pets/{pet_id}", self.pet), Route("/pets", self.pets)])

    async def pet(self, request: Request) -> JSONResponse:
        pet_id = int(request.path_params["pet_id"])
        if pet_id == 404:
            return JSONResponse({"message": "no such pet"}, status_code=404)
        return JSONResponse({"id": pet_id, "name": "Rex"})

    async def pets(self, _: Request) -> JSONResponse:
        self.listed += 1
        if self.listed == 1:
            return JSONResponse({"message": "busy"}, status_code=503, headers={"Retry-After": "0"})
        return JSONResponse([{"id": n, "name": f"pet number {n}", "tag": "x" * 40} for n in range(2000)])


def _samples(metrics: Metrics) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = metrics.exposition().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def test_each_call_counts_by_tool_and_outcome_with_latency_retries_and_shortened_results() -> None:
    data = contract_of(SPEC)
    upstream = Upstream()
    metrics = Metrics(entry["tool"]["name"] for entry in data["tools"])
    with serve(upstream.app) as base:
        settings = Settings(base_url=base, max_result_tokens=500)

        async def calls() -> list[Any]:
            async with Client(build_server(data, settings, observer=Observer(metrics=metrics))) as client:
                return [
                    await client.call_tool("showPetById", {"petId": 7}),
                    await client.call_tool("showPetById", {"petId": 404}),
                    await client.call_tool("showPetById", {"petId": "not a number"}),
                    await client.call_tool("listPets", {}),
                    await client.call_tool("no_such_tool_" + "x" * 50, {}),
                ]

        results = anyio.run(calls)
    assert [r.is_error for r in results] == [False, True, True, False, True]
    got = _samples(metrics)
    assert got[("mcp_tool_calls_total", (("outcome", "ok"), ("tool", "showPetById")))] == 1
    assert got[("mcp_tool_calls_total", (("outcome", "error"), ("tool", "showPetById")))] == 2
    assert got[("mcp_tool_calls_total", (("outcome", "ok"), ("tool", "listPets")))] == 1
    # A name the server does not know is one label value, however many names clients invent.
    assert got[("mcp_tool_calls_total", (("outcome", "error"), ("tool", UNKNOWN_TOOL)))] == 1
    assert got[("mcp_tool_call_duration_seconds_count", ())] == 5
    # Four requests reached the API: 200, 404, then the list's 503 and its retry's 200.
    assert got[("mcp_upstream_request_duration_seconds_count", (("method", "GET"), ("status_class", "2xx")))] == 2
    assert got[("mcp_upstream_request_duration_seconds_count", (("method", "GET"), ("status_class", "4xx")))] == 1
    assert got[("mcp_upstream_request_duration_seconds_count", (("method", "GET"), ("status_class", "5xx")))] == 1
    assert got[("mcp_upstream_retries_total", (("status", "503"),))] == 1
    assert got[("mcp_results_shortened_total", (("tool", "listPets"),))] == 1
    assert not any("no_such_tool" in str(key) for key in got)


def _start(tmp_path: Path, env: dict[str, str], *flags: str) -> tuple[subprocess.Popen[str], str]:
    package = write_project(SPEC, tmp_path / "out")
    port = free_port()
    env = {"PYTHONPATH": str(tmp_path / "out" / "src"), "PETSTORE_BASE_URL": "http://127.0.0.1:9", **env}
    proc = subprocess.Popen(
        [sys.executable, "-m", package, "--port", str(port), *flags],
        env=env,
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return proc, f"http://127.0.0.1:{port}"


@pytest.mark.e2e  # a generated server as a process: seconds each, with the end-to-end tier
def test_metrics_at_the_endpoint_are_behind_its_protection(tmp_path: Path) -> None:
    proc, base = _start(tmp_path, {"PETSTORE_AUTH_TOKENS": TOKEN}, "--transport", "http", "--metrics")
    try:
        first_answer(f"{base}/healthz", proc)
        refused = httpx.get(f"{base}/metrics", timeout=5)
        assert refused.status_code == 401 and refused.headers["www-authenticate"].startswith("Bearer")
        scraped = httpx.get(f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=5)
        assert scraped.status_code == 200 and scraped.headers["content-type"].startswith("text/plain")
        names = {family.name for family in text_string_to_metric_families(scraped.text)}
        assert {"mcp_tool_calls", "mcp_upstream_request_duration_seconds", "mcp_upstream_retries"} <= names
        assert "python_gc_objects_collected" not in names  # the server's own registry only
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


@pytest.mark.e2e  # a generated server as a process: seconds each, with the end-to-end tier
def test_metrics_on_a_port_of_their_own_serve_a_stdio_server_too(tmp_path: Path) -> None:
    port = free_port()
    proc, _ = _start(tmp_path, {"PETSTORE_METRICS_PORT": str(port)})
    try:
        scraped = first_answer(f"http://127.0.0.1:{port}/metrics", proc)
        assert scraped.status_code == 200 and "# TYPE mcp_tool_calls_total counter" in scraped.text
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


@pytest.mark.e2e  # a generated server as a process: seconds each, with the end-to-end tier
def test_a_metrics_port_in_use_is_one_line_naming_the_variable(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc, _ = _start(tmp_path, {"PETSTORE_METRICS_PORT": str(port)})
        _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 2 and f"PETSTORE_METRICS_PORT: cannot listen on 127.0.0.1:{port}" in stderr
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1
