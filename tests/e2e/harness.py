"""Real parts for end-to-end tests: generated projects installed in a venv, Prism, MCP clients."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import venv
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from conftest import ROOT
from helpers import case_options, free_port
from mcpforge.options.model import Options
from mcpforge.output.write import write_tree
from mcpforge.pipeline import generate

NODE_BIN = ROOT / ".tools" / "node" / "node_modules" / ".bin"
INSPECTOR = ROOT / ".tools" / "node" / "node_modules" / "@modelcontextprotocol" / "inspector-cli" / "build" / "index.js"


def wait_for_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    """Wait until something accepts TCP connections on ``port`` (or the process dies)."""
    deadline = time.monotonic() + timeout
    while True:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode} before listening")
        if time.monotonic() > deadline:
            raise RuntimeError(f"nothing listens on {port} after {timeout} s")
        time.sleep(0.05)


def require_node_tools() -> None:
    missing = [p for p in (NODE_BIN / "prism", INSPECTOR) if not p.exists()]
    if missing:
        raise RuntimeError(f"missing {missing}: run ./scripts/test.sh, which installs the pinned npm tools")


@dataclass(frozen=True)
class Project:
    """A generated project installed into a virtual environment."""

    root: Path
    python: Path
    command: Path
    package: str
    prefix: str
    tools: list[dict[str, Any]]


def pip(python: Path, *args: str) -> None:
    """Run ``pip install`` quietly in the venv of ``python``."""
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *args], check=True)


def runtime_requirements(array: str = "dependencies") -> list[str]:
    """The dependencies every generated project declares (or its extra ``array``), read from its pyproject template."""
    text = (ROOT / "templates" / "pyproject.toml.jinja").read_text(encoding="utf-8")
    block = text.split(f"\n{array} = [", 1)[1].split("\n]", 1)[0]
    return [line.split('"')[1] for line in block.splitlines() if line.strip().startswith('"')]


def make_venv(path: Path) -> Path:
    """A venv with the generated projects' dependencies and their tracing and code extras, as declared."""
    venv.EnvBuilder(with_pip=True).create(path)
    python = path / "bin" / "python"
    pip(python, *runtime_requirements(), *runtime_requirements("tracing"), *runtime_requirements("code"), "hatchling")
    return python


def generate_project(spec: Path, out: Path, python: Path, options: Options | None = None) -> Project:
    """Generate from ``spec`` (or with ``options``) into ``out`` and pip-install it into the venv of ``python``."""
    result = generate(options or case_options(spec))
    write_tree(result.files, out, force=True)
    pip(python, "--no-deps", "--no-build-isolation", "--force-reinstall", str(out))
    lock_package = next(f.path.split("/")[1] for f in result.files if f.path.endswith("/tools.json"))
    data = json.loads((out / "src" / lock_package / "tools.json").read_text())
    return Project(
        root=out,
        python=python,
        command=python.parent / data["server"]["command"],
        package=lock_package,
        prefix=data["server"]["envPrefix"],
        tools=[e["tool"] for e in data["tools"]],
    )


class PrismServer:
    """A Prism mock server validating requests against a spec (restartable: Prism can crash)."""

    def __init__(self, spec: Path) -> None:
        require_node_tools()
        self.spec = spec
        self.url = ""
        self.crashes = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in stop(); a pipe would fill up and block Prism

    def start(self) -> str:
        port = free_port()
        self._proc = subprocess.Popen(
            [str(NODE_BIN / "prism"), "mock", str(self.spec), "-p", str(port), "-h", "127.0.0.1"],
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            if self._proc.poll() is not None:
                raise RuntimeError(f"prism exited: {self.log()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(self.url + "/__mcpforge_probe__", timeout=1)
                return self.url
            if time.monotonic() > deadline:
                self._terminate()  # never leave a spinning Prism behind
                raise RuntimeError("prism did not start within 120 s")
            time.sleep(0.2)

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def restart(self) -> str:
        self.crashes += 1
        self._terminate()
        return self.start()

    def log(self) -> str:
        self._log.seek(0)
        return self._log.read().decode(errors="replace")

    def _terminate(self) -> None:
        if self._proc is None:
            return
        self._proc.terminate()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()

    def stop(self) -> None:
        self._terminate()
        self._log.close()


@contextlib.contextmanager
def prism(spec: Path) -> Iterator[str]:
    """A Prism mock server validating requests against ``spec``; yields its base URL."""
    server = PrismServer(spec)
    try:
        yield server.start()
    finally:
        server.stop()


def server_env(project: Project, base_url: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(project.prefix + "_")}
    env[f"{project.prefix}_BASE_URL"] = base_url
    env.update(extra or {})
    return env


def run_inspector(args: list[str], env: Mapping[str, str]) -> Any:
    """Run the MCP Inspector CLI; returns its JSON output."""
    require_node_tools()
    result = subprocess.run(
        ["node", str(INSPECTOR), *args], capture_output=True, text=True, env=dict(env), timeout=120, check=False
    )
    if result.returncode != 0:
        raise AssertionError(f"inspector failed ({result.returncode}): {result.stdout[-2000:]} {result.stderr[-2000:]}")
    return json.loads(result.stdout)


@contextlib.contextmanager
def http_server(
    project: Project, env: dict[str, str], *flags: str, port: int | None = None, log: Path | None = None
) -> Iterator[str]:
    """The generated server of ``project`` in HTTP mode; yields its base URL (MCP is at ``/mcp``).

    ``log`` receives everything the server writes (for secret scans), after what it already holds
    (a restarted server's log goes on).
    """
    port = port or free_port()
    with contextlib.ExitStack() as stack:
        sink: Any = stack.enter_context(log.open("ab")) if log is not None else subprocess.DEVNULL
        proc = subprocess.Popen(
            [str(project.command), "--transport", "http", "--port", str(port), *flags],
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT if log is not None else subprocess.DEVNULL,
        )
        try:
            wait_for_port(port, proc)
            yield f"http://127.0.0.1:{port}"
        finally:
            proc.terminate()
            proc.wait(timeout=30)


@contextlib.contextmanager
def nginx(conf: str, work: Path) -> Iterator[subprocess.Popen[bytes]]:
    """Real nginx with ``conf``, in the foreground, logging to stderr."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    work.mkdir(parents=True, exist_ok=True)
    path = work / "nginx.conf"
    path.write_text(conf, encoding="utf-8")
    global_directives = f"daemon off; pid {work / 'nginx.pid'}; error_log {work / 'error.log'};"
    proc = subprocess.Popen([binary, "-p", str(work), "-c", str(path), "-g", global_directives])
    try:
        yield proc
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def nginx_in_front(conf: str, ports: list[int], listen: int) -> str:
    """The generated nginx configuration as documented without compose: the replicas' and its own address."""
    ours = conf.replace("server replica-1:8000", f"server 127.0.0.1:{ports[0]}")
    ours = ours.replace("server replica-2:8000", f"server 127.0.0.1:{ports[1]}")
    ours = ours.replace("listen 8080;", f"listen 127.0.0.1:{listen};")
    assert ours.count("127.0.0.1:") == 3, "the generated configuration changed shape"
    return ours
