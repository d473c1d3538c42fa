"""Small helpers shared by tests."""

from __future__ import annotations

import atexit
import compileall
import contextlib
import json
import shutil
import socket
import subprocess
import tempfile
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
from mcpforge.pipeline import contract, generate
from mcpforge.project.files import RenderedFile
from mcpforge.runtime.contract import ToolEntry
from mcpforge.runtime.modes.documents import analyse, entry_texts
from mcpforge.runtime.modes.index import SearchIndex
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
    """The ``tools.json`` contract mcpforge generates for ``spec`` (the fixture's options).

    Made as ``mcpforge serve`` makes it, without the manifests (GitHub: a third faster); it equals the
    generated package's file (tests/test_serve.py checks it).
    """
    return contract(case_options(spec))[0]


async def read_body(receive: Any) -> bytes:
    """The whole request body of an ASGI request."""
    body = bytearray()
    while True:
        message = await receive()
        body.extend(message.get("body", b""))
        if not message.get("more_body"):
            return bytes(body)


# Projects generated by this test process: spec -> (a folder holding it, compiled; its package).
_PROJECTS: dict[Path, tuple[Path, str]] = {}


def write_project(spec: Path, out: Path) -> str:
    """Generate the whole project of ``spec`` (the fixture's options) into ``out``; returns its package.

    Each spec is generated once per test process and compiled, then copied with its bytecode (and
    the files' times, which the bytecode is checked against): a test that starts the server as a
    process does not wait for Python to compile its sixty runtime modules first.
    """
    found = _PROJECTS.get(spec)
    if found is None:
        folder = Path(tempfile.mkdtemp(prefix="mcpforge-project-"))
        atexit.register(shutil.rmtree, folder, True)
        result = generate(case_options(spec))
        write_tree(result.files, folder, force=True)
        compileall.compile_dir(folder / "src", quiet=1)
        package = next(f.path.split("/")[1] for f in result.files if f.path.endswith("/tools.json"))
        found = _PROJECTS[spec] = (folder, package)
    shutil.copytree(found[0], out, dirs_exist_ok=True)
    return found[1]


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


def search_entry(
    name: str, method: str, path: str, title: str, toolsets: tuple[str, ...] = (), **props: Any
) -> ToolEntry:
    """A ``tools.json`` entry for search tests: its title is its description; ``props`` its arguments (else ``id``)."""
    schema = {"type": "object", "properties": props or {"id": {"type": "string"}}}
    tool = {"name": name, "title": title, "description": title, "inputSchema": schema}
    return {"tool": tool, "method": method, "path": path, "toolsets": list(toolsets)}  # type: ignore[typeddict-item]


def search_names(entries: Sequence[ToolEntry], request: str, **kw: Any) -> list[str]:
    """The names of the operations the search index of ``entries`` finds for ``request`` (``kw``: search's)."""
    index = SearchIndex(entries, analysed=[analyse(entry_texts(entry)) for entry in entries])
    return index.names(index.search(request, **kw))


def search_first(entries: Sequence[ToolEntry], request: str) -> str:
    """The name of the operation the search index of ``entries`` finds first for ``request``."""
    return search_names(entries, request, limit=1)[0]
