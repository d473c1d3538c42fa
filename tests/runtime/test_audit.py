"""The audit log: one JSON line per tool call, saying what happened and never what was secret."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from conftest import FIXTURES
from helpers import contract_of, serve, write_project
from mcpforge.runtime.observe.audit import AuditLog, caller_hash
from mcpforge.runtime.observe.observer import Observer
from mcpforge.runtime.serving.server import build_server
from mcpforge.runtime.settings.table import Settings

SPEC = FIXTURES / "golden" / "petstore_30" / "openapi.yaml"
SECRET = "upstream-secret-token-0123456789"


async def pet(request: Request) -> JSONResponse:
    pet_id = int(request.path_params["pet_id"])
    if pet_id == 404:
        return JSONResponse({"message": "no such pet"}, status_code=404)
    return JSONResponse({"id": pet_id, "name": "Rex"})


UPSTREAM = Starlette(routes=[Route("/pets/{pet_id}", pet)])


def test_each_call_is_one_line_with_its_outcome_status_and_duration_and_no_secret(tmp_path: Path) -> None:
    data = contract_of(SPEC)
    log = tmp_path / "audit.jsonl"
    with serve(UPSTREAM) as upstream:
        settings = Settings(base_url=upstream, credentials={"PETSTORE_BEARERAUTH_TOKEN": SECRET}, audit_log=str(log))

        async def calls() -> list[Any]:
            async with Client(build_server(data, settings, observer=Observer(audit=AuditLog(str(log))))) as client:
                return [
                    await client.call_tool("showPetById", {"petId": 7}),
                    await client.call_tool("showPetById", {"petId": 404}),
                    await client.call_tool("showPetById", {"petId": "not a number"}),
                ]

        results = anyio.run(calls)
    assert [r.is_error for r in results] == [False, True, True]
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(e["tool"], e["outcome"], e["status"]) for e in lines] == [
        ("showPetById", "ok", 200),
        ("showPetById", "error", 404),
        ("showPetById", "error", None),  # refused before any request reached the API
    ]
    for entry in lines:
        assert set(entry) == {"time", "event", "tool", "outcome", "status", "duration_ms", "caller"}
        assert entry["time"].endswith("Z") and entry["duration_ms"] >= 0 and entry["caller"] is None
    assert SECRET not in log.read_text() and "not a number" not in log.read_text()


def test_a_caller_is_a_stable_pseudonym() -> None:
    first, again, other = caller_hash("alice@example.com"), caller_hash("alice@example.com"), caller_hash("bob")
    assert first == again and first != other and first is not None and len(first) == 16
    assert "alice" not in first and caller_hash(None) is None and caller_hash("") is None


@pytest.mark.e2e  # a generated server as a process: seconds each, with the end-to-end tier
def test_an_audit_log_that_cannot_be_opened_is_one_line_naming_the_variable(tmp_path: Path) -> None:
    package = write_project(SPEC, tmp_path / "out")
    env = {"PYTHONPATH": str(tmp_path / "out" / "src"), "PETSTORE_AUDIT_LOG": str(tmp_path / "missing" / "a.log")}
    done = subprocess.run(
        [sys.executable, "-m", package], env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False
    )
    assert done.returncode == 2 and "PETSTORE_AUDIT_LOG: cannot open" in done.stderr
    assert "Traceback" not in done.stderr
