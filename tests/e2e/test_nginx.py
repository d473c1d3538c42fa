"""The generated nginx configuration, run by real nginx in front of two replicas, driven by the MCP SDK client."""

from __future__ import annotations

import subprocess
from pathlib import Path

import anyio
import httpx
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from e2e.harness import Project, nginx, nginx_in_front, server_env, wait_for_port
from helpers import free_port, serve
from otlp import Receiver

TOKEN = "nginx-endpoint-token-0123456789abcdef"
SEEN: list[str] = []


async def pet(request: Request) -> JSONResponse:
    SEEN.append(request.path_params["pet_id"])
    return JSONResponse({"id": int(request.path_params["pet_id"]), "name": "Rex"})


UPSTREAM = Starlette(routes=[Route("/pets/{pet_id}", pet)])


def test_the_generated_nginx_configuration_serves_two_replicas_watched(petstore: Project, tmp_path: Path) -> None:
    """Two replicas behind the generated nginx, scraped, traced and audited while the SDK client calls them."""
    conf = (petstore.root / "deploy" / "nginx.conf").read_text()
    port = free_port()
    receiver = Receiver()
    with serve(UPSTREAM) as upstream, serve(receiver.app()) as collector:
        ports = [free_port(), free_port()]
        env = server_env(petstore, upstream, {
            f"{petstore.prefix}_AUTH_TOKENS": TOKEN,
            # The public address clients use (nginx's), with its port: nginx must pass it on as it is.
            f"{petstore.prefix}_ALLOWED_HOSTS": f"127.0.0.1:{port}",
            f"{petstore.prefix}_LOG_LEVEL": "WARNING",
            f"{petstore.prefix}_METRICS": "true",
            "OTEL_EXPORTER_OTLP_ENDPOINT": collector,
            "OTEL_BSP_SCHEDULE_DELAY": "100",
        })  # fmt: skip
        audits = [tmp_path / f"audit-{n}.jsonl" for n in range(2)]
        replicas = [
            subprocess.Popen(
                [str(petstore.command), "--transport", "http", "--port", str(p), "--stateless", "--audit-log", str(a)],
                env=env,
            )
            for p, a in zip(ports, audits, strict=True)
        ]
        try:
            for replica, replica_port in zip(replicas, ports, strict=True):
                wait_for_port(replica_port, replica)
            ours = nginx_in_front(conf, ports, port)
            url = f"http://127.0.0.1:{port}/mcp"
            with nginx(ours, tmp_path / "good") as proxy:
                wait_for_port(port, proxy)
                assert httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=5).status_code == 200
                names, texts = anyio.run(_session, url)
            assert names == [t["name"] for t in petstore.tools]
            assert all("Rex" in text for text in texts) and len(SEEN) >= 10
            # Without the port in Host (nginx's `$host`), every request is refused by the server's check.
            stripped = ours.replace("proxy_set_header Host $http_host;", "proxy_set_header Host $host;")
            with nginx(stripped, tmp_path / "stripped") as proxy:
                wait_for_port(port, proxy)
                refused = httpx.post(url, json={}, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=5)
            assert refused.status_code == 421
            _check_watched(ports, audits, receiver)
        finally:
            for replica in replicas:
                replica.terminate()
                replica.wait(timeout=30)


def _check_watched(ports: list[int], audits: list[Path], receiver: Receiver) -> None:
    """Each of the ten calls is counted once across the replicas, traced with its API request, and audited."""
    counted = 0
    for replica_port in ports:
        text = httpx.get(
            f"http://127.0.0.1:{replica_port}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=5
        ).text
        line = next((ln for ln in text.splitlines() if ln.startswith("mcp_tool_calls_total{")), None)
        counted += int(float(line.rsplit(" ", 1)[1])) if line else 0
    assert counted == 10
    spans = receiver.wait_for({"tools/call showPetById": 10, "GET /pets/{petId}": 10})
    served = {s.span_id for s in spans if s.name == "tools/call showPetById"}
    assert all(s.parent_id in served for s in spans if s.name == "GET /pets/{petId}")
    lines = [line for audit in audits for line in audit.read_text().splitlines()]
    assert len(lines) == 10 and all('"outcome":"ok"' in line and '"status":200' in line for line in lines)
    assert TOKEN not in "".join(lines)


async def _session(url: str) -> tuple[list[str], list[str]]:
    client = create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"})
    async with (
        client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        names = [t.name for t in (await session.list_tools()).tools]
        texts = []
        for pet_id in range(10):  # server-sent events through nginx, to either replica
            result = await session.call_tool("showPetById", {"petId": pet_id})
            assert not result.is_error, result.content
            texts.append("".join(getattr(c, "text", "") for c in result.content))
        return names, texts
