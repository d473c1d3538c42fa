"""Small helpers shared by tests."""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import subprocess
import textwrap
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import redis
import uvicorn

from mcpforge.diagnostics import Diagnostics
from mcpforge.openapi.load import load_document
from mcpforge.openapi.model import ApiModel
from mcpforge.openapi.parse import parse_api
from mcpforge.options.files import load_config, resolve_options
from mcpforge.options.model import Options
from mcpforge.output.write import write_tree
from mcpforge.pipeline import generate
from mcpforge.project.files import RenderedFile
from mcpforge.targets.lint import MANIFEST_FILES, lint_manifest
from mcpforge.tools.build import build_tools
from mcpforge.tools.model import ToolSet


def write_spec(tmp_path: Path, text: str, name: str = "openapi.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def parse(path: Path) -> tuple[ApiModel, Diagnostics]:
    diags = Diagnostics()
    return parse_api(load_document(path), diags), diags


def build(path: Path, options: Options | None = None) -> tuple[ToolSet, Diagnostics]:
    api, diags = parse(path)
    # Unit tests look at every operation, deprecated ones included (their default exclusion has its own tests).
    options = options or Options(include_deprecated=True)
    return build_tools(api, options, diags), diags


def tool(toolset: ToolSet, name: str) -> Any:
    return next(t for t in toolset.tools if t.name == name)


_HANDED_OUT: set[int] = set()


def free_port() -> int:
    """A TCP port nothing listens on right now, and never handed out before in this test run.

    A test often picks a server's port long before the server binds it (its URL goes into another
    server's configuration first): a port handed out twice would then go to two servers.
    """
    while True:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        if port not in _HANDED_OUT:
            _HANDED_OUT.add(port)
            return port


def first_answer(url: str, proc: subprocess.Popen[str], seconds: float = 30) -> httpx.Response:
    """The first answer at ``url`` of the server ``proc`` is starting; its stderr in the error if none comes."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            return httpx.get(url, timeout=2)
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"nothing answered at {url}: {proc.communicate()[1]}")


@contextlib.contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """A real redis-server on loopback, persisting nothing; yields its URL."""
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    port = free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + 10
    while True:
        try:
            redis.Redis.from_url(url).ping()
            break
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                proc.kill()
                raise
            time.sleep(0.05)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextlib.contextmanager
def serve(app: Any) -> Iterator[str]:
    """An ASGI app served by uvicorn on loopback in a thread; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def contract_of(spec: Path) -> Any:
    """The ``tools.json`` contract mcpforge generates for ``spec`` (the fixture's options)."""
    result = generate(case_options(spec))
    return json.loads(next(f.data for f in result.files if f.path.endswith("/tools.json")))


async def read_body(receive: Any) -> bytes:
    """The whole request body of an ASGI request."""
    body = bytearray()
    while True:
        message = await receive()
        body.extend(message.get("body", b""))
        if not message.get("more_body"):
            return bytes(body)


def write_project(spec: Path, out: Path) -> str:
    """Generate the whole project of ``spec`` (the fixture's options) into ``out``; returns its package."""
    result = generate(case_options(spec))
    write_tree(result.files, out, force=True)
    return next(f.path.split("/")[1] for f in result.files if f.path.endswith("/tools.json"))


def case_options(spec: Path) -> Options:
    """Options for a fixture spec: its folder's ``mcpforge.toml`` when there is one, else the defaults."""
    config = spec.parent / "mcpforge.toml"
    return resolve_options({"spec": spec}, load_config(config) if config.is_file() else {})


def manifest_lint_errors(files: Sequence[RenderedFile]) -> list[str]:
    """Lint errors in the generated manifests among ``files`` (there must be none: they would be our bugs)."""
    found = []
    for file in files:
        name = file.path.removeprefix("manifests/").removesuffix(".json")
        if file.path.startswith("manifests/") and name in MANIFEST_FILES:
            findings = lint_manifest(json.loads(file.data), MANIFEST_FILES[name])
            found += [f"{name}: {f.tool}: {f.message}" for f in findings if f.severity == "error"]
    return found
