"""Serving benchmark: a generated server and FastMCP's ``from_openapi`` side by side, under concurrent MCP sessions.

Usage: python bench/bench_serving.py [SPEC] [--sessions 1,10,50] [--seconds 10] [--modes stateful,stateless]
       [--responses sse,json] [--fastmcp-python PATH] [--no-peer] [--operation ID] [--arguments JSON]

Both servers serve the same document over streamable HTTP, answering each call as a server-sent
event stream (``sse``: what both do by default, and what clients meet) or as one JSON body
(``json``), against the same local upstream: a uvicorn app that
answers every request at once with the example of the operation's 200 response. Each server runs
on core 1; the upstream and the load run on core 0 (on a machine with one core, everything shares
it). The load is the MCP SDK client: SESSIONS concurrent sessions in one client process per 25
sessions; each session first makes one call, and all of them then call one tool in a loop for
SECONDS, starting together. The client does not check results against the tools' output schemas
(that is the client's work, not the server's, and it would make every session list every tool
first). Reported per server, mode and number of sessions: calls/s, p50 and p99 latency, errors
(there must be none), the server's CPU time per call and its peak RSS; and per server and mode,
the time a call adds over the upstream's own, one call at a time (raw JSON-RPC, no client library).

The tool is the operation ``--operation`` (default: GitHub's ``users/get-by-username``, else the
document's first GET operation whose required parameters are all in the path or query), called
with ``--arguments`` or values made from its parameters' schemas. FastMCP runs from a Python that
has ``fastmcp`` installed (``--fastmcp-python``; docs/benchmarks.md used fastmcp 4.1.2 in its own
venv: ``python3 -m venv /tmp/fm && /tmp/fm/bin/pip install fastmcp==4.1.2``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from shared_corpus import GITHUB  # one place finds the shared corpus (bench/ is on the path)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = GITHUB
SESSIONS_PER_CLIENT = 25

UPSTREAM = """
import sys, uvicorn
BODY = open(sys.argv[2], "rb").read()
async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": BODY})
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="error", access_log=False)
"""

FASTMCP = """
import json, sys
import httpx2
from fastmcp import FastMCP
spec, upstream, port = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
stateless, json_response = sys.argv[4] == "1", sys.argv[5] == "1"
server = FastMCP.from_openapi(openapi_spec=spec, client=httpx2.AsyncClient(base_url=upstream, timeout=30))
server.run(transport="http", host="127.0.0.1", port=port, stateless_http=stateless, json_response=json_response,
           log_level="warning", show_banner=False)
"""

# The MCP SDK's client session, without its check of results against the tools' output schemas: the
# servers are measured, not that check (which would also make every session list every tool first).
SESSION = """
class Session(ClientSession):
    async def validate_tool_result(self, name, result):
        pass
"""

# One client process: SESSIONS sessions; each calls once, says it is ready, waits for the stop time
# to appear in GO_FILE, then calls TOOL with ARGUMENTS until then.
CLIENT = (
    """
import json, sys, time
import anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
"""
    + SESSION
    + """url, tool, arguments = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
sessions, go_file = int(sys.argv[4]), sys.argv[5]
latencies, errors = [], []
async def stop_time():
    while True:
        try:
            text = open(go_file).read()
            if text:
                return float(text)
        except FileNotFoundError:
            pass
        await anyio.sleep(0.01)
async def session(ready):
    async with streamable_http_client(url) as (read, write, *_), Session(read, write) as client:
        await client.initialize()
        await client.call_tool(tool, arguments)
        ready()
        stop = await stop_time()
        while time.time() < stop:
            began = time.monotonic()
            try:
                result = await client.call_tool(tool, arguments)
                failed = result.is_error
            except Exception as exc:
                failed = repr(exc)
            latencies.append(time.monotonic() - began)
            if failed:
                errors.append(str(failed)[:200])
async def main():
    left = [sessions]
    def ready():
        left[0] -= 1
        if not left[0]:
            print("ready", flush=True)
    async with anyio.create_task_group() as group:
        for _ in range(sessions):
            group.start_soon(session, ready)
    print(json.dumps({"latencies": latencies, "errors": errors}))
anyio.run(main)
"""
)

# Which of SPELLINGS the server at URL answers ARGUMENTS with (servers spell operationIds their own way).
PROBE = (
    """
import json, sys, anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
"""
    + SESSION
    + """async def main():
    async with streamable_http_client(sys.argv[1]) as (read, write, *_), Session(read, write) as session:
        await session.initialize()
        for name in sys.argv[3:]:
            result = await session.call_tool(name, json.loads(sys.argv[2]))
            if not result.is_error:
                print(name)
                return
anyio.run(main)
"""
)


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _pinned(core: int) -> Callable[[], None]:
    cores = os.sched_getaffinity(0)
    chosen = {core} if core in cores and len(cores) > 1 else cores
    return lambda: os.sched_setaffinity(0, chosen)


@contextmanager
def process(command: list[str], env: dict[str, str], core: int, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """A process pinned to ``core``, once it listens on ``port``; stopped on leaving."""
    proc = subprocess.Popen(
        command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, preexec_fn=_pinned(core)  # noqa: PLW1509
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"{command[:3]} exited with {proc.returncode}")
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if time.monotonic() > deadline:
                raise SystemExit(f"nothing listens on {port} after 120 s")
            time.sleep(0.05)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_mb(pid: int) -> float:
    """The high-water mark of ``pid``'s resident set, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _resolved(spec: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node and str(node["$ref"]).startswith("#/"):
        target: Any = spec
        for key in node["$ref"][2:].split("/"):
            target = target[key.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def _value(schema: dict[str, Any]) -> Any:
    if schema.get("enum"):
        return schema["enum"][0]
    kind = schema.get("type")
    return {"integer": 1, "number": 1, "boolean": True}.get(kind if isinstance(kind, str) else "", "octocat")


def example_body(spec: dict[str, Any], operation_id: str) -> bytes:
    """The JSON example of the operation's 200 response (a peer may check results against the schema)."""
    for item in spec.get("paths", {}).values():
        operation = item.get("get") if isinstance(item, dict) else None
        if not isinstance(operation, dict) or operation.get("operationId") != operation_id:
            continue
        response = _resolved(spec, operation.get("responses", {}).get("200", {}))
        media = response.get("content", {}).get("application/json", {})
        if "example" in media:
            return json.dumps(media["example"]).encode()
        for example in media.get("examples", {}).values():
            value = _resolved(spec, example).get("value")
            if value is not None:
                return json.dumps(value).encode()
    return b'{"ok": true}'


def choose_operation(spec: dict[str, Any], wanted: str | None) -> tuple[str, dict[str, Any]]:
    """The operationId to call, and arguments made from its required parameters."""
    for path, item in spec.get("paths", {}).items():
        operation = item.get("get") if isinstance(item, dict) else None
        if not isinstance(operation, dict) or "operationId" not in operation:
            continue
        if wanted is not None and operation["operationId"] != wanted:
            continue
        parameters = [_resolved(spec, p) for p in [*item.get("parameters", []), *operation.get("parameters", [])]]
        required = [p for p in parameters if p.get("required")]
        if any(p.get("in") not in ("path", "query") for p in required) or ("{" in path and not required):
            continue
        return operation["operationId"], {p["name"]: _value(p.get("schema", p)) for p in required}
    raise SystemExit(f"no usable GET operation {wanted or ''} in the document")


def operation_path(spec: dict[str, Any], operation_id: str, arguments: dict[str, Any]) -> str:
    """The operation's path with its path arguments filled in (the request the upstream answers directly)."""
    for path, item in spec.get("paths", {}).items():
        if (
            isinstance(item, dict)
            and isinstance(item.get("get"), dict)
            and item["get"].get("operationId") == operation_id
        ):
            return re.sub(r"\{([^}]+)\}", lambda m: str(arguments.get(m.group(1), "x")), path)
    return "/"


def tool_name(url: str, operation_id: str, arguments: dict[str, Any]) -> str:
    """The name the server at ``url`` gave the operation's tool, found by calling the likely spellings."""
    spellings = dict.fromkeys(
        [
            operation_id,
            re.sub(r"[^A-Za-z0-9_-]", "_", operation_id),
            re.sub(r"[^A-Za-z0-9]", "_", operation_id),
            re.sub(r"[^A-Za-z0-9_]", "", operation_id.replace("-", "_")),  # FastMCP: usersget_by_username
        ]
    )
    command = [sys.executable, "-c", PROBE, url, json.dumps(arguments), *spellings]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not done.stdout.strip():
        raise SystemExit(f"{url}: no tool for {operation_id} answers {arguments}: {done.stderr[-2000:]}")
    return done.stdout.strip()


def measure(server: subprocess.Popen[bytes], url: str, tool: str, arguments: dict[str, Any], sessions: int,
            seconds: float, work: Path) -> dict[str, Any]:  # fmt: skip
    """One row: the server under ``sessions`` sessions for ``seconds``."""
    counts = [SESSIONS_PER_CLIENT] * (sessions // SESSIONS_PER_CLIENT)
    if sessions % SESSIONS_PER_CLIENT:
        counts.append(sessions % SESSIONS_PER_CLIENT)
    go = work / "go"
    go.unlink(missing_ok=True)
    clients = [
        subprocess.Popen(
            [sys.executable, "-c", CLIENT, url, tool, json.dumps(arguments), str(count), str(go)],
            stdout=subprocess.PIPE,
            text=True,
            preexec_fn=_pinned(0),  # noqa: PLW1509 - the load stays off the server's core
        )
        for count in counts
    ]
    for client in clients:
        assert client.stdout is not None
        if client.stdout.readline().strip() != "ready":
            raise SystemExit(f"a client could not start its sessions (exit {client.wait()})")
    cpu_before = cpu_seconds(server.pid)
    go.write_text(str(time.time() + seconds))
    latencies: list[float] = []
    errors: list[str] = []
    for client in clients:
        out, _ = client.communicate(timeout=seconds + 120)
        if client.returncode != 0:
            raise SystemExit(f"a client failed with {client.returncode}")
        data = json.loads(out)
        latencies += data["latencies"]
        errors += data["errors"]
    cpu = cpu_seconds(server.pid) - cpu_before  # the sessions' closing included
    latencies.sort()
    calls = len(latencies)
    return {
        "sessions": sessions,
        "calls": calls,
        "errors": len(errors),
        "first_error": errors[0] if errors else "",
        "calls_per_s": calls / seconds,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else 0.0,
        "p99_ms": 1000 * latencies[min(calls - 1, int(calls * 0.99))] if latencies else 0.0,
        "cpu_ms_per_call": 1000 * cpu / calls if calls else 0.0,
        "rss_mb": peak_rss_mb(server.pid),
    }


def _message(response: Any) -> dict[str, Any]:
    """The JSON-RPC message of an answer: a JSON body, or the last event of an event stream."""
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        data = [line[5:].strip() for line in response.text.splitlines() if line.startswith("data:")]
        return dict(json.loads(data[-1])) if data else {}
    return dict(response.json())


def overhead_ms(url: str, upstream: str, path: str, tool: str, arguments: dict[str, Any], calls: int = 300) -> float:
    """Median time a tools/call takes over the upstream's own answer to the same request, in ms, one at a time.

    Raw JSON-RPC over HTTP (no MCP client library on either side of the comparison), alternating a
    call through the server with the same GET sent to the upstream directly.
    """
    import httpx

    headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}
    with httpx.Client(timeout=30) as http:
        hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
        answer = http.post(
            url, headers=headers, json={"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}
        )
        if "mcp-session-id" in answer.headers:
            headers["Mcp-Session-Id"] = answer.headers["mcp-session-id"]
        http.post(url, headers=headers, json={"jsonrpc": "2.0", "method": "notifications/initialized"})
        through, direct = [], []
        for i in range(1, calls + 1):
            call = {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
            began = time.perf_counter()
            result = http.post(url, headers=headers, json=call)
            through.append(time.perf_counter() - began)
            if result.status_code != 200 or "error" in _message(result):
                raise SystemExit(f"{url}: tools/call failed: {result.text[:300]}")
            began = time.perf_counter()
            http.get(upstream + path)
            direct.append(time.perf_counter() - began)
    return 1000 * (statistics.median(through) - statistics.median(direct))


def _commands(name: str, out: Path, spec_json: Path, upstream: str, port: int, stateless: bool, json_response: bool,
              fastmcp: Path) -> tuple[list[str], dict[str, str]]:  # fmt: skip
    if name == "FastMCP":
        flags = ["1" if stateless else "0", "1" if json_response else "0"]
        return [str(fastmcp), "-c", FASTMCP, str(spec_json), upstream, str(port), *flags], dict(os.environ)
    package = next((out / "src").glob("*/tools.json")).parent.name
    prefix = package.removesuffix("_mcp").upper()
    env = {
        **os.environ,
        "PYTHONPATH": str(out / "src"),
        f"{prefix}_BASE_URL": upstream,
        f"{prefix}_LOG_LEVEL": "WARNING",
    }
    command = [sys.executable, "-m", package, "--transport", "http", "--port", str(port)]
    return [*command, *(["--stateless"] if stateless else []), *(["--json-response"] if json_response else [])], env


Target = tuple[str, str, dict[str, Any]]  # operationId, the request's path, the tool's arguments


def serve_and_load(
    name: str,
    command: list[str],
    env: dict[str, str],
    port: int,
    target: Target,
    sessions: list[int],
    mode: str,
    seconds: float,
    upstream: str,
    work: Path,
) -> list[dict[str, Any]]:
    """Start one server and measure it at each number of sessions."""
    operation, path, arguments = target
    rows = []
    with process(command, env, 1, port) as server:
        url = f"http://127.0.0.1:{port}/mcp"
        tool = tool_name(url, operation, arguments)
        extra = overhead_ms(url, upstream, path, tool, arguments)
        for count in sessions:
            row: dict[str, Any] = {"server": name, "mode": mode, "overhead_ms": extra}
            row.update(measure(server, url, tool, arguments, count, seconds, work))
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    return rows


def _table(rows: list[dict[str, Any]], modes: list[str], sessions: list[int]) -> None:
    print("| server | mode | sessions | calls/s | p50 (ms) | p99 (ms) | errors | CPU/call (ms) | peak RSS (MB) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['server']} | {r['mode']} | {r['sessions']} | {r['calls_per_s']:,.0f} | {r['p50_ms']:.1f} | "
            f"{r['p99_ms']:.1f} | {r['errors']} | {r['cpu_ms_per_call']:.2f} | {r['rss_mb']:.0f} |"
        )
    print("\nOne call at a time, raw JSON-RPC: median tools/call minus the upstream's own median (ms):")
    for r in rows:
        if r["sessions"] == sessions[0]:
            print(f"- {r['server']}, {r['mode']}: {r['overhead_ms']:.2f}")
    for mode in modes:
        for count in sessions:
            pair = {r["server"]: r for r in rows if r["mode"] == mode and r["sessions"] == count}
            if "FastMCP" in pair and pair["FastMCP"]["calls_per_s"]:
                ratio = pair["mcpforge"]["calls_per_s"] / pair["FastMCP"]["calls_per_s"]
                print(f"{mode}, {count} sessions: mcpforge makes {ratio:.2f}x FastMCP's calls/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("spec", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--sessions", default="1,10,50")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--modes", default="stateful,stateless")
    parser.add_argument("--responses", default="sse,json", help="sse (event streams, the default), json, or both")
    parser.add_argument("--fastmcp-python", type=Path, default=Path("/tmp/fm/bin/python"))
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--operation", default=None)
    parser.add_argument("--arguments", default=None, help="the tool's arguments as JSON")
    args = parser.parse_args()
    if args.spec.suffix == ".json":
        spec = json.loads(args.spec.read_text())
    else:
        import yaml

        spec = yaml.safe_load(args.spec.read_text())
    wanted = args.operation or ("users/get-by-username" if args.spec == DEFAULT else None)
    operation, arguments = choose_operation(spec, wanted)
    if args.arguments:
        arguments = json.loads(args.arguments)
    path = operation_path(spec, operation, arguments)
    modes = args.modes.split(",")
    sessions = [int(s) for s in args.sessions.split(",")]
    servers = ["mcpforge"] if args.no_peer else ["mcpforge", "FastMCP"]
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        spec_json = work / "spec.json"
        spec_json.write_text(json.dumps(spec))
        out = work / "out"
        generate = [sys.executable, "-m", "mcpforge", "generate", str(args.spec), "-o", str(out)]
        subprocess.run(generate, check=True, capture_output=True)
        body = work / "body.json"
        body.write_bytes(example_body(spec, operation))
        upstream_port = free_port()
        upstream = f"http://127.0.0.1:{upstream_port}"
        with process(
            [sys.executable, "-c", UPSTREAM, str(upstream_port), str(body)], dict(os.environ), 0, upstream_port
        ):
            for response in args.responses.split(","):
                for state in modes:
                    mode = f"{state}, {response}"
                    for name in servers:
                        port = free_port()
                        command, env = _commands(name, out, spec_json, upstream, port, state == "stateless",
                                                 response == "json", args.fastmcp_python)  # fmt: skip
                        try:
                            rows += serve_and_load(name, command, env, port, (operation, path, arguments), sessions,
                                                   mode, args.seconds, upstream, work)  # fmt: skip
                        except SystemExit as exc:
                            if name == "mcpforge":
                                raise
                            print(f"{name} could not serve this document ({mode}): {exc}", flush=True)
            modes = [f"{state}, {response}" for response in args.responses.split(",") for state in modes]
    print(f"{args.spec.name}: the tool of {operation} with {json.dumps(arguments)}, {args.seconds:g} s per row")
    _table(rows, modes, sessions)


if __name__ == "__main__":
    main()
