"""Code mode against tool-by-tool calls: calls a model makes, bytes it reads, wall time; and the sandbox's overhead.

Usage: python bench/bench_code.py [--runs N]

The server is the one mcpforge generates for ``fixtures/specs/code.yaml`` (an issue tracker), run
in-process with the MCP SDK client; the API is a local uvicorn app holding 300 issues of about 2 KB
each (GitHub's issues are larger). Each task is done as a careful model does it with one tool per
operation (every page or item read back, asking only for the fields it needs with ``fields``),
once as a careless one (whole pages, which the result budget then shortens), and as one program in
code mode. "Bytes read" is the text of the results the model receives. Then: the first run's start
(the sandbox's worker pool), a trivial run, and one API call inside a program beside it as a tool.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
from mcp import Client, types

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

ISSUES = [
    {"number": n, "title": f"Crash when saving file {n}", "state": "open" if n % 5 else "closed",
     "labels": ["bug"] if n % 3 == 0 else ["feature"], "body": "Steps to reproduce: open, edit, save. " * 45}
    for n in range(1, 301)
]  # fmt: skip


async def tracker(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The issue tracker's API: pages of issues, one issue by number."""
    if scope["type"] != "http":
        return
    query = dict(p.split("=", 1) for p in scope["query_string"].decode().split("&") if "=" in p)
    path = scope["path"]
    if path.endswith("/issues"):
        page, size = int(query.get("page", 1)), int(query.get("per_page", 30))
        state = query.get("state", "open")
        payload: Any = [i for i in ISSUES if state in ("all", i["state"])][(page - 1) * size : page * size]
    else:
        payload = ISSUES[int(path.rsplit("/", 1)[1]) - 1]
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": json.dumps(payload).encode()})


def text(result: types.CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, types.TextContent))


class Meter:
    """The calls a model makes and the bytes it reads."""

    def __init__(self, client: Client) -> None:
        self.client, self.calls, self.read = client, 0, 0

    async def call(self, name: str, arguments: dict[str, Any]) -> Any:
        result = await self.client.call_tool(name, arguments)
        self.calls += 1
        self.read += len(text(result).encode())  # every block the model reads, notes included
        first = result.content[0]
        body = first.text if isinstance(first, types.TextContent) else ""
        try:
            return json.loads(body)
        except ValueError:
            return body


async def count_bugs_tools(tools: Meter, whole: bool = False) -> int:
    count, page = 0, 1
    while True:
        arguments = {"project": "acme", "state": "all", "per_page": 100, "page": page, "fields": ["labels"]}
        if whole:
            arguments = {"project": "acme", "state": "all", "per_page": 30, "page": page}
        found = await tools.call("issues_list", arguments)
        issues = found["result"] if isinstance(found, dict) else found
        if not issues:
            return count
        count += sum(1 for issue in issues if "bug" in issue["labels"])
        page += 1


COUNT_BUGS = """
count, page = 0, 1
while True:
    issues = api.issues_list(project="acme", state="all", per_page=100, page=page)
    if not issues:
        break
    count += sum(1 for issue in issues if "bug" in issue["labels"])
    page += 1
count
"""


async def titles_tools(tools: Meter) -> list[str]:
    return [
        (await tools.call("issues_get", {"project": "acme", "number": n, "fields": ["title"]}))["title"]
        for n in range(1, 11)
    ]


TITLES = "[i['title'] for i in await asyncio.gather(*(aio.issues_get(project='acme', number=n) for n in range(1, 11)))]"


async def closed_bugs_tools(tools: Meter) -> list[int]:
    arguments = {"project": "acme", "state": "closed", "per_page": 100, "fields": ["number", "labels"]}
    found = await tools.call("issues_list", arguments)
    issues = found["result"] if isinstance(found, dict) else found
    return [i["number"] for i in issues if "bug" in i["labels"]]


CLOSED_BUGS = (
    "[i['number'] for i in api.issues_list(project='acme', state='closed', per_page=100) if 'bug' in i['labels']]"
)


async def count_bugs_whole_pages(tools: Meter) -> int:
    return await count_bugs_tools(tools, whole=True)


TASKS = [
    ("count the bugs across every page (300 issues)", count_bugs_tools, COUNT_BUGS),
    ("the same, reading whole pages", count_bugs_whole_pages, COUNT_BUGS),
    ("the titles of issues 1 to 10", titles_tools, TITLES),
    ("the numbers of the closed bugs", closed_bugs_tools, CLOSED_BUGS),
]


async def measure(url: str, runs: int) -> None:
    from helpers import contract_of
    from mcpforge.runtime.serving.server import build_server
    from mcpforge.runtime.settings.table import read_settings

    data = contract_of(ROOT / "fixtures" / "specs" / "code.yaml")
    settings = read_settings(data["server"], {"TRACKER_BASE_URL": f"{url}/api", "TRACKER_KEY_API_KEY": "k" * 20})
    print("| task | way | calls | bytes read | wall ms (median) | answer |")
    print("|---|---|---:|---:|---:|---|")
    async with (
        Client(build_server(data, settings, mode="tools")) as tools_client,
        Client(build_server(data, settings, mode="code")) as code_client,
    ):
        began = time.perf_counter()
        await code_client.call_tool("execute", {"code": "1"})
        first = time.perf_counter() - began
        for label, by_tools, program in TASKS:
            rows = {}
            for way in ("tools", "code"):
                times, meter, answer = [], Meter(tools_client if way == "tools" else code_client), None
                for _ in range(runs):
                    meter.calls = meter.read = 0
                    began = time.perf_counter()
                    if way == "tools":
                        answer = await by_tools(meter)
                    else:
                        answer = await meter.call("execute", {"code": program})
                    times.append(1000 * (time.perf_counter() - began))
                rows[way] = (meter.calls, meter.read, statistics.median(times), answer)
            same = rows["tools"][3] == rows["code"][3]
            for way, (calls, read, ms, answer) in rows.items():
                shown = "one tool per operation" if way == "tools" else "one program (code mode)"
                told = json.dumps(answer)[:40] + ("" if same else " (differs)")
                print(f"| {label} | {shown} | {calls} | {read:,} | {ms:.0f} | {told} |")
        trivial, direct, inside = [], [], []
        for _ in range(max(runs, 10)):
            began = time.perf_counter()
            await code_client.call_tool("execute", {"code": "1 + 1"})
            trivial.append(1000 * (time.perf_counter() - began))
            began = time.perf_counter()
            await tools_client.call_tool("issues_get", {"project": "acme", "number": 1})
            direct.append(1000 * (time.perf_counter() - began))
            began = time.perf_counter()
            await code_client.call_tool(
                "execute", {"code": "[api.issues_get(project='acme', number=1) for _ in range(20)]"}
            )
            inside.append(1000 * (time.perf_counter() - began) / 20)
    print()
    print(
        f"first run (the worker pool starts): {1000 * first:.0f} ms; a trivial run: {statistics.median(trivial):.1f} ms"
    )
    tool_ms, program_ms = statistics.median(direct), statistics.median(inside)
    print(f"one API call: {tool_ms:.2f} ms as a tool, {program_ms:.2f} ms inside a program")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    port = 18_000 + (int(time.time()) % 1000)
    server = uvicorn.Server(uvicorn.Config(tracker, host="127.0.0.1", port=port, log_level="error"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    try:
        asyncio.run(measure(f"http://127.0.0.1:{port}", args.runs))
    finally:
        server.should_exit = True


if __name__ == "__main__":
    main()
