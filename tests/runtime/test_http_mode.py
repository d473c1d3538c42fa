"""HTTP mode's loose ends: a stateless server opens no idle stream, and stops cleanly."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from conftest import FIXTURES
from helpers import first_answer, free_port, write_project

SPEC = FIXTURES / "golden" / "petstore_30" / "openapi.yaml"


def _start(tmp_path: Path, *flags: str) -> tuple[subprocess.Popen[str], str]:
    package = write_project(SPEC, tmp_path / "out")
    port = free_port()
    env = {"PYTHONPATH": str(tmp_path / "out" / "src"), "PETSTORE_BASE_URL": "http://127.0.0.1:9", "PATH": "/usr/bin"}
    proc = subprocess.Popen(
        [sys.executable, "-m", package, "--transport", "http", "--port", str(port), *flags],
        env=env,
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    assert first_answer(f"{base}/healthz", proc).status_code == 200
    return proc, base


@pytest.mark.e2e  # a generated server as a process: seconds each, with the end-to-end tier
def test_a_stateless_server_refuses_the_idle_event_stream_at_once_and_stops_cleanly(tmp_path: Path) -> None:
    proc, base = _start(tmp_path, "--stateless")
    try:
        began = time.monotonic()
        answer = httpx.get(f"{base}/mcp", headers={"Accept": "text/event-stream"}, timeout=5)
        assert answer.status_code == 405 and "POST" in answer.headers["allow"]
        assert time.monotonic() - began < 2
    finally:
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=30)
    assert proc.returncode in (0, -signal.SIGTERM), stderr  # uvicorn re-raises the signal once it has stopped
    assert "ASGI callable returned without completing" not in stderr and "Traceback" not in stderr


@pytest.mark.e2e  # a generated server as a process, stopped with SIGTERM: seconds, with the end-to-end tier
def test_during_the_drain_readiness_is_503_while_the_server_still_answers(tmp_path: Path) -> None:
    package = write_project(SPEC, tmp_path / "drain")
    port = free_port()
    env = {
        "PYTHONPATH": str(tmp_path / "drain" / "src"),
        "PETSTORE_BASE_URL": "http://127.0.0.1:9",
        "PETSTORE_SHUTDOWN_DRAIN": "2",
        "PATH": "/usr/bin",
    }
    draining = subprocess.Popen(
        [sys.executable, "-m", package, "--transport", "http", "--port", str(port), "--stateless"],
        env=env,
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
        draining.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        assert httpx.get(f"{base}/readyz", timeout=2).status_code == 503
        assert httpx.get(f"{base}/healthz", timeout=2).status_code == 200  # still serving during the drain
    finally:
        _, stderr = draining.communicate(timeout=30)
    assert draining.returncode in (0, -signal.SIGTERM), stderr
    assert "ASGI callable returned without completing" not in stderr and "Traceback" not in stderr
