"""Context budget benchmark: what ``tools/list`` costs a model, ours against FastMCP's.

Usage: python bench/bench_context.py [SPEC] [--fastmcp-python PATH]

Generates SPEC (default: GitHub REST), starts the generated server in-process and lists every
tool over an MCP session (all pages), in the default mode and in search mode; reports the bytes
of each payload and of its input schemas, and checks that no argument was lost: every
operation's parameters (less Authorization/Content-Type/Accept, which the server sets) and its
body are top-level properties of its tool's input schema. With ``--fastmcp-python`` (a Python that
has ``fastmcp`` installed, e.g. a separate venv), the same spec is loaded with
``FastMCP.from_openapi`` and its ``tools/list`` measured the same way.
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from shared_corpus import GITHUB  # one place finds the shared corpus (bench/ is on the path)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = GITHUB
METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
SERVER_SET = {"authorization", "content-type", "accept"}

FASTMCP_SCRIPT = """
import asyncio, json, sys
import httpx2
from fastmcp import Client, FastMCP
spec = json.load(open(sys.argv[1]))
server = FastMCP.from_openapi(openapi_spec=spec, client=httpx2.AsyncClient(base_url="http://127.0.0.1:1"))
async def main():
    async with Client(server) as client:
        tools = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in await client.list_tools()]
        size = lambda x: len(json.dumps(x, separators=(",", ":"), ensure_ascii=False).encode())
        inputs = sum(size(t["inputSchema"]) for t in tools)
        seen = sum(size({k: t[k] for k in ("name", "description", "inputSchema") if k in t}) for t in tools)
        print(json.dumps({"tools": len(tools), "total": size({"tools": tools}), "input": inputs, "seen": seen}))
asyncio.run(main())
"""


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def _listing(package: str, search: bool) -> list[dict[str, Any]]:
    server = importlib.import_module(f"{package}.serving.server")
    data = importlib.import_module(f"{package}.contract").load_package_contract(package)
    settings = importlib.import_module(f"{package}.settings.table").Settings(base_url="http://127.0.0.1:9")

    async def run() -> list[dict[str, Any]]:
        tools: list[dict[str, Any]] = []
        cursor = None
        async with Client(server.build_server(data, settings, mode="search" if search else "tools")) as client:
            while True:
                page = await client.list_tools(cursor=cursor)
                tools += [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in page.tools]
                cursor = page.next_cursor
                if cursor is None:
                    return tools

    return anyio.run(run)


def _model_visible(tools: list[dict[str, Any]]) -> int:
    """What a model reads of each tool: its name, description and input schema (bytes)."""
    return sum(_size({k: t[k] for k in ("name", "description", "inputSchema") if k in t}) for t in tools)


def _lost_arguments(spec: dict[str, Any], data: dict[str, Any]) -> list[str]:
    """Operations whose tool has fewer top-level arguments than the operation has inputs."""
    by_key = {f"{e['method']} {e['path']}": e for e in data["tools"]}
    lost = []
    for path, item in spec["paths"].items():
        shared = item.get("parameters", [])
        for method, operation in item.items():
            if method not in METHODS:
                continue
            entry = by_key.get(f"{method.upper()} {path}")
            if entry is None:
                continue  # excluded (deprecated) operations have no tool
            params = {
                (p.get("in"), p.get("name")) for p in [*shared, *operation.get("parameters", [])] if "$ref" not in p
            }
            refs = [p for p in [*shared, *operation.get("parameters", [])] if "$ref" in p]
            for ref in refs:
                node: Any = spec
                for token in ref["$ref"][2:].split("/"):
                    node = node[token.replace("~1", "/").replace("~0", "~")]
                params.add((node.get("in"), node.get("name")))
            expected = len({p for p in params if not (p[0] == "header" and str(p[1]).lower() in SERVER_SET)})
            expected += 1 if "requestBody" in operation else 0
            got = len(entry["tool"]["inputSchema"].get("properties", {}))
            if got < expected:
                lost.append(f"{method.upper()} {path}: {got} of {expected}")
    return lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("spec", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--fastmcp-python", type=Path, help="a Python with fastmcp installed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        subprocess.run(
            [sys.executable, "-m", "mcpforge", "generate", str(args.spec), "-o", str(out)],
            check=True,
            capture_output=True,
        )
        package = next(p.name for p in (out / "src").iterdir() if p.is_dir())
        sys.path.insert(0, str(out / "src"))
        full, searching = _listing(package, False), _listing(package, True)
        data = json.loads((out / "src" / package / "tools.json").read_text())
    spec = json.loads(args.spec.read_text())
    lost = _lost_arguments(spec, data)
    rows = [
        (name, len(tools), _size({"tools": tools}), sum(_size(t["inputSchema"]) for t in tools), _model_visible(tools))
        for name, tools in (("mcpforge (default)", full), ("mcpforge --mode search", searching))
    ]
    if args.fastmcp_python:
        measured = subprocess.run(
            [str(args.fastmcp_python), "-c", FASTMCP_SCRIPT, str(args.spec)], check=True, capture_output=True, text=True
        )
        fm = json.loads(measured.stdout.strip().splitlines()[-1])
        rows.append(("FastMCP from_openapi", fm["tools"], fm["total"], fm["input"], fm["seen"]))
    print(f"| {args.spec.name} | tools | tools/list (KB) | input schemas (KB) | model-visible (KB) | tokens (est.) |")
    print("|---|---|---|---|---|---|")
    for name, count, total, inputs, seen in rows:
        print(
            f"| {name} | {count:,} | {total / 1024:,.1f} | {inputs / 1024:,.1f} | {seen / 1024:,.1f} | {total // 4:,} |"
        )
    if args.fastmcp_python:
        print(f"\nmcpforge default / FastMCP: {rows[0][2] / rows[2][2]:.1%} of the bytes")
        print(f"model-visible (names, descriptions, input schemas): {rows[0][4] / rows[2][4]:.2f}x FastMCP's")
    print(f"operations with a lost argument: {len(lost)}" + (f" (e.g. {lost[:3]})" if lost else ""))


if __name__ == "__main__":
    main()
