"""Scale-out scenario with real parts: generated server replicas (stateless) behind nginx, many users each with
their own upstream credential, and a local upstream that records which credential every request carried.

The load balancer is HAProxy (Debian's package): unlike nginx's open-source edition it checks each
replica's readiness actively, which is what lets a stopping replica drain without losing a call.
Used by ``test_scale_out.py`` (correctness, SIGTERM mid-run) and ``bench/bench_remote.py`` (latency).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from e2e.harness import wait_for_port
from helpers import free_port

ENDPOINT_TOKEN = "team-endpoint-token-0123456789abcdef"
USER_HEADER = "X-Petstore-Bearerauth-Token"


def user_secret(user: int) -> str:
    return f"user-{user:03d}-upstream-secret-{user * 7919:08d}"


@dataclass
class Recorder:
    """An upstream pet store that checks every request carries the credential of the pet's own user."""

    delay: float = 0.01
    requests: int = 0
    foreign: list[tuple[int, str]] = field(default_factory=list)  # (pet id, credential seen) that do not match

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        pet = int(scope["path"].rsplit("/", 1)[-1]) if scope["path"].rsplit("/", 1)[-1].isdigit() else -1
        self.requests += 1
        seen = headers.get("authorization", "")
        if seen != f"Bearer {user_secret(pet)}":
            self.foreign.append((pet, seen[:12]))
        await asyncio.sleep(self.delay)  # some work, so calls are in flight when a replica is stopped
        body = json.dumps({"id": pet, "name": f"pet of user {pet}"}).encode()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})


HAPROXY = """
global
    maxconn 4096
defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    retries 3
    option redispatch
frontend mcp
    bind 127.0.0.1:{port}
    default_backend replicas
backend replicas
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
    timeout check 2s
    default-server inter 200ms fall 3 rise 2
{servers}
"""


@contextlib.contextmanager
def load_balancer(ports: list[int], workdir: Path, port: int | None = None) -> Iterator[int]:
    """HAProxy over ``ports``: round robin, health checks on ``/readyz`` every 200 ms; yields its port.

    A replica asked to stop answers 503 on ``/readyz`` while it drains, so HAProxy stops sending it
    new calls after three such answers (0.6 s, within the 1 s drain); calls already sent finish. A
    refused connection is retried on another replica. A slow check is not a failed one (up to 2 s):
    on a loaded machine, one check late on every replica at once had taken them all out.
    """
    binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
    port = port or free_port()
    servers = "\n".join(f"    server r{i} 127.0.0.1:{p} check" for i, p in enumerate(ports))
    conf = workdir / "haproxy.cfg"
    conf.write_text(HAPROXY.format(port=port, servers=servers), encoding="utf-8")
    log = (workdir / "haproxy.log").open("wb")
    proc = subprocess.Popen([binary, "-db", "-f", str(conf)], stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, proc)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # every replica up in HAProxy's eyes (two good checks)
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200:
                    break
            time.sleep(0.1)
        time.sleep(0.5)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


@dataclass
class Replica:
    proc: subprocess.Popen[bytes]
    port: int
    log: Path


@contextlib.contextmanager
def replicas(
    command: list[str], prefix: str, env: Mapping[str, str], count: int, workdir: Path, *, log_level: str = "DEBUG"
) -> Iterator[list[Replica]]:
    """``count`` stateless replicas of the generated server (``command``), each logging to its own file."""
    started: list[Replica] = []
    try:
        for index in range(count):
            port = free_port()
            log = workdir / f"replica-{index}.log"
            sink = log.open("wb")
            proc = subprocess.Popen(
                [*command, "--transport", "http", "--port", str(port), "--stateless", "--json-response"],
                env={**env, f"{prefix}_LOG_LEVEL": log_level},
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
            sink.close()
            started.append(Replica(proc, port, log))
        for replica in started:
            wait_for_port(replica.port, replica.proc)
        yield started
    finally:
        for replica in started:
            if replica.proc.poll() is None:
                replica.proc.terminate()
            replica.proc.wait(timeout=30)


@dataclass
class LoadReport:
    latencies: list[float]
    failures: list[str]
    elapsed: float

    @property
    def calls(self) -> int:
        return len(self.latencies) + len(self.failures)

    def percentile(self, share: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000 if ordered else 0.0

    def row(self, label: str) -> str:
        return (
            f"| {label} | {self.calls:,} | {len(self.failures)} | {statistics.median(self.latencies) * 1000:.1f} | "
            f"{self.percentile(0.99):.1f} | {self.calls / self.elapsed:,.0f} |"
        )


async def run_users(
    url: str,
    tokens: Mapping[int, str],
    calls: int,
    *,
    on_progress: Any = None,
) -> LoadReport:
    """Every user (``tokens``: user -> endpoint token) makes ``calls`` tool calls with their own API credential."""
    latencies: list[float] = []
    failures: list[str] = []
    done = 0

    async def user(number: int, token: str) -> None:
        nonlocal done
        headers = {
            "Authorization": f"Bearer {token}",
            USER_HEADER: user_secret(number),
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-11-25",
        }
        async with httpx.AsyncClient(timeout=60) as client:
            for index in range(calls):
                body = {
                    "jsonrpc": "2.0",
                    "id": index,
                    "method": "tools/call",
                    "params": {"name": "showPetById", "arguments": {"petId": number}},
                }
                began = time.perf_counter()
                try:
                    response = await client.post(url, json=body, headers=headers)
                    result = response.json().get("result", {}) if response.status_code == 200 else {}
                    ok = not result.get("isError") and result.get("structuredContent", {}).get("id") == number
                    problem = (
                        "" if ok else f"user {number} call {index}: HTTP {response.status_code} {response.text[:200]}"
                    )
                except httpx.HTTPError as exc:
                    problem = f"user {number} call {index}: {type(exc).__name__}: {exc}"
                if problem:
                    failures.append(problem)
                else:
                    latencies.append(time.perf_counter() - began)
                done += 1
                if on_progress is not None:
                    on_progress(done)

    began = time.perf_counter()
    await asyncio.gather(*(user(number, token) for number, token in tokens.items()))
    return LoadReport(latencies, failures, time.perf_counter() - began)


def stop(replica: Replica) -> None:
    """SIGTERM, as a scheduler stopping a container sends."""
    os.kill(replica.proc.pid, signal.SIGTERM)
