"""Spec text is data, never code: the hostile golden case imports cleanly and serves its strings intact."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES
from helpers import write_project

CASE = FIXTURES / "golden" / "hostile"

PROBE = """
import anyio, json, os, sys
from mcp import Client
from {package}.contract import load_package_contract
from {package}.serving.server import build_server
from {package}.settings.table import read_settings

async def main():
    data = load_package_contract("{package}")
    settings = read_settings(data["server"], os.environ)
    async with Client(build_server(data, settings)) as client:
        tools = (await client.list_tools()).tools
        print(json.dumps([t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]))

anyio.run(main)
"""


def test_importing_and_listing_runs_no_spec_text(tmp_path: Path) -> None:
    package = write_project(CASE / "openapi.json", tmp_path / "out")
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "out" / "src"), "PYTHONDONTWRITEBYTECODE": "1"}
    env["EVIL_TITLE_IMPORT_OS_BASE_URL"] = "https://evil.example"
    probe = PROBE.format(package=package)
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=work, env=env, capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert not any(work.iterdir()), "generated code created files"
    listed = json.loads(result.stdout)
    expected = json.loads((CASE / "expected" / "manifests" / "mcp-tools.json").read_text())
    assert listed == expected
    spec = json.loads((CASE / "openapi.json").read_text())
    operation = spec["paths"]['/items/{id"}']["post"]
    query = listed[0]["inputSchema"]["properties"]["q_x"]
    assert query["enum"] == operation["parameters"][1]["schema"]["enum"]
    assert query["default"] == operation["parameters"][1]["schema"]["default"]


def test_readme_and_toml_escape_spec_text() -> None:
    readme = (CASE / "expected" / "README.md").read_text()
    assert "<script>" not in readme
    assert all(line.count("|") - line.count("\\|") == 4 for line in readme.splitlines() if line.startswith("| `evil"))
    import tomllib

    project = tomllib.loads((CASE / "expected" / "pyproject.toml").read_text())
    assert project["project"]["name"].isascii()
