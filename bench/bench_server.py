"""Benchmark a generated server (default: GitHub's 1,223 tools) over stdio with raw JSON-RPC.

Measures: process start until ``initialize`` is answered, beside a fresh process that only imports
the MCP SDK (``import mcp.server.lowlevel``), alternated and each the median of ``--starts`` runs
(their difference is the server's own share of start-up); ``tools/list`` over all pages; the
median time a ``tools/call`` adds over calling the same local upstream directly with httpx; and
the server's peak RSS. Usage: python bench/bench_server.py [SPEC] [--calls N] [--starts N]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from shared_corpus import GITHUB  # one place finds the shared corpus (bench/ is on the path)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = GITHUB
UPSTREAM = """
import sys, uvicorn
async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": b'{"ok": true}'})
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="error")
"""


SDK_IMPORT = "import sys, mcp.server.lowlevel; sys.stdout.write('imported\\n'); sys.stdout.flush(); sys.stdin.read()"


class Rpc:
    """JSON-RPC over a server's stdin/stdout."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.next_id = 0

    def request(self, method: str, params: dict[str, Any] | None = None) -> Any:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params or {}}
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()
        while True:
            reply = json.loads(self.proc.stdout.readline())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(reply["error"])
                return reply["result"]

    def notify(self, method: str) -> None:
        assert self.proc.stdin
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}).encode() + b"\n")
        self.proc.stdin.flush()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("spec", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--starts", type=int, default=5, help="server starts to time (median)")
    parser.add_argument("--tool", default="meta_root", help="a tool without required arguments")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        subprocess.run(
            [sys.executable, "-m", "mcpforge", "generate", str(args.spec), "-o", str(out)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        package = next((out / "src").iterdir()).name
        port = free_port()
        upstream = subprocess.Popen([sys.executable, "-c", UPSTREAM, str(port)])
        time.sleep(1.5)
        prefix = json.loads((out / "src" / package / "tools.json").read_text())["server"]["envPrefix"]
        env = {**os.environ, "PYTHONPATH": str(out / "src"), f"{prefix}_BASE_URL": f"http://127.0.0.1:{port}"}
        try:
            startups, sdk_imports = [], []
            proc: subprocess.Popen[bytes] | None = None
            for _ in range(args.starts):  # alternated, so both see the same machine load
                # Timed until the import is done (not the interpreter's teardown), like the server's start.
                began = time.perf_counter()
                probe = subprocess.Popen([sys.executable, "-c", SDK_IMPORT], stdout=subprocess.PIPE, env=env)
                assert probe.stdout is not None and probe.stdout.readline() == b"imported\n"
                sdk_imports.append(time.perf_counter() - began)
                probe.kill()
                probe.wait()
                if proc is not None:
                    proc.kill()
                    proc.wait()
                start = time.perf_counter()
                proc = subprocess.Popen(
                    [sys.executable, "-m", package], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
                )
                rpc = Rpc(proc)
                rpc.request(
                    "initialize",
                    {
                        "protocolVersion": "2025-11-25",
                        "capabilities": {},
                        "clientInfo": {"name": "bench", "version": "0"},
                    },
                )
                startups.append(time.perf_counter() - start)
            startup, sdk_import = statistics.median(startups), statistics.median(sdk_imports)
            rpc.notify("notifications/initialized")
            list_times, tools = [], 0
            for _ in range(3):
                began, cursor, tools = time.perf_counter(), None, 0
                while True:
                    page = rpc.request("tools/list", {"cursor": cursor} if cursor else {})
                    tools += len(page["tools"])
                    cursor = page.get("nextCursor")
                    if not cursor:
                        break
                list_times.append(time.perf_counter() - began)
            for _ in range(20):
                rpc.request("tools/call", {"name": args.tool, "arguments": {}})
            via_mcp = []
            for _ in range(args.calls):
                began = time.perf_counter()
                result = rpc.request("tools/call", {"name": args.tool, "arguments": {}})
                via_mcp.append(time.perf_counter() - began)
            assert not result.get("isError"), result
            direct = []
            with httpx.Client() as client:
                for _ in range(20):
                    client.get(f"http://127.0.0.1:{port}/")
                for _ in range(args.calls):
                    began = time.perf_counter()
                    client.get(f"http://127.0.0.1:{port}/").json()
                    direct.append(time.perf_counter() - began)
            status = Path(f"/proc/{proc.pid}/status").read_text()
            rss = int(next(line for line in status.splitlines() if line.startswith("VmHWM")).split()[1]) / 1024
            proc.terminate()
            proc.wait()
        finally:
            upstream.terminate()
            upstream.wait()
    overhead = (statistics.median(via_mcp) - statistics.median(direct)) * 1000
    call, plain = statistics.median(via_mcp) * 1000, statistics.median(direct) * 1000
    header = [
        "server",
        "tools",
        "start → initialize (s)",
        "SDK import alone (s)",
        "our share (s)",
        "tools/list, all pages (s)",
        "call median (ms)",
        "direct httpx median (ms)",
        "overhead (ms)",
        "peak RSS (MB)",
    ]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    row = [
        args.spec.name,
        f"{tools:,}",
        f"{startup:.2f}",
        f"{sdk_import:.2f}",
        f"{startup - sdk_import:.2f}",
        f"{statistics.median(list_times):.3f}",
        f"{call:.2f}",
        f"{plain:.2f}",
        f"{overhead:.2f}",
        f"{rss:.0f}",
    ]
    print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
