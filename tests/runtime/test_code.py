"""Code mode over the real MCP client and the real Monty worker, against a real local upstream.

Programs that page, call several operations at once, catch an API error and miss an argument; every
call on the same path as a tool call (the configured credential on each request, never in any
output, one audit line each); hostile programs each ending their run with an error while the server
keeps serving; nothing kept between runs.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, types

from conftest import FIXTURES
from helpers import contract_of, read_body, serve
from mcpforge.runtime.modes.functions import function_names, signature
from mcpforge.runtime.observe.audit import AuditLog
from mcpforge.runtime.observe.observer import Observer
from mcpforge.runtime.serving.server import build_server
from mcpforge.runtime.settings.table import read_settings

pytestmark = pytest.mark.xdist_group("code-mode")  # the workers of one sandbox pool: one test process
SECRET = "tracker-key-0123456789abcdef"
ISSUES: list[dict[str, Any]] = [
    {"number": n, "title": f"issue {n}", "state": "open" if n % 3 else "closed", "labels": ["bug"] * (n % 2)}
    for n in range(1, 96)
]


class Tracker:
    """The fixture's API: pages of 95 issues, one issue by number (404 past them), creation, the account."""

    def __init__(self) -> None:
        self.seen: list[dict[str, str]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = await read_body(receive)
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        self.seen.append(headers)
        query = dict(p.split("=", 1) for p in scope["query_string"].decode().split("&") if "=" in p)
        if re.fullmatch(r"/api/projects/acme/issues/5\d", scope["path"]):
            await anyio.sleep(0.4)  # issues 50-59 are slow to answer: calls made at once overlap
        status, payload = self.route(scope["method"], scope["path"], query, body)
        await send(
            {"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]}
        )
        await send({"type": "http.response.body", "body": json.dumps(payload).encode()})

    def route(self, method: str, path: str, query: dict[str, str], body: bytes) -> tuple[int, Any]:
        if path == "/api/projects/acme/issues" and method == "GET":
            page, size = int(query.get("page", 1)), int(query.get("per_page", 30))
            wanted = [i for i in ISSUES if query.get("state", "open") in ("all", i["state"])]
            return 200, wanted[(page - 1) * size : page * size]
        if path == "/api/projects/acme/issues" and method == "POST":
            return 201, {"number": 96, "state": "open", **json.loads(body)}
        found = re.fullmatch(r"/api/projects/acme/issues/(\d+)", path)
        if found:
            number = int(found.group(1))
            if number > len(ISSUES):
                return 404, {"message": f"Issue {number} not found"}
            return 200, ISSUES[number - 1]
        if path == "/api/me":
            return 200, {"login": "octo", "echo": "none"}
        return 404, {"message": "no route"}


@pytest.fixture(scope="module")
def data() -> Any:
    return contract_of(FIXTURES / "specs" / "code.yaml")


@pytest.fixture(scope="module")
def tracker() -> Iterator[tuple[Tracker, str]]:
    upstream = Tracker()
    with serve(upstream) as url:
        yield upstream, url


def settings(data: Any, url: str, **extra: str) -> Any:
    env = {
        "TRACKER_BASE_URL": f"{url}/api",
        "TRACKER_KEY_API_KEY": SECRET,
        **{f"TRACKER_{k}": v for k, v in extra.items()},
    }
    return read_settings(data["server"], env)


def run(
    data: Any, url: str, programs: list[str], *, log: Path | None = None, **extra: str
) -> list[types.CallToolResult]:
    observer = Observer(audit=AuditLog(str(log))) if log else None
    server = build_server(data, settings(data, url, **extra), mode="code", observer=observer)

    async def scenario() -> list[types.CallToolResult]:
        async with Client(server) as client:
            return [await client.call_tool("execute", {"code": program}) for program in programs]

    return anyio.run(scenario)


def text(result: types.CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, types.TextContent))


def test_the_listing_is_two_tools_under_1500_tokens_and_search_shows_the_call(data: Any, tracker: Any) -> None:
    server = build_server(data, settings(data, tracker[1]), mode="code")

    async def scenario() -> tuple[list[types.Tool], Any]:
        async with Client(server) as client:
            listed = (await client.list_tools()).tools
            found = await client.call_tool("search_api", {"query": "open a new bug report", "limit": 2})
            return listed, json.loads(text(found))

    listed, found = anyio.run(scenario)
    assert [t.name for t in listed] == ["search_api", "execute"]
    listing = json.dumps([t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed])
    assert len(listing) / 3 < 1_500
    assert found["functions"][0] == {
        "call": "api.issues_create(project: str, body: {title: str, labels?: list[str]}) -> dict",
        "summary": "Open an issue",
        "operation": "POST /projects/{project}/issues",
    }


def test_names_are_python_names_told_apart_in_order_and_signatures_show_types() -> None:
    entries: Any = [{"tool": {"name": n, "inputSchema": {}}, "outputWrapped": False} for n in
                    ("issues/list", "issues_list", "2fa.get", "class", "_hidden")]  # fmt: skip
    assert function_names(entries) == {
        "issues_list": "issues/list", "issues_list_2": "issues_list", "op_2fa_get": "2fa.get", "class_": "class",
        "op__hidden": "_hidden",
    }  # fmt: skip
    properties = {
        "id": {"type": "integer"},
        "X-Trace": {"type": "string"},
        "state": {"enum": ["a", "b"], "default": "a"},
    }
    schema = {"type": "object", "required": ["id"], "properties": properties}
    entry: Any = {"tool": {"name": "t", "inputSchema": schema}, "outputWrapped": True}
    assert signature("t", entry) == 'api.t(id: int, state: "a"|"b" = "a", **{"X-Trace": str = None}) -> Any'


def test_programs_page_call_at_once_catch_errors_and_miss_arguments(data: Any, tracker: Any, tmp_path: Path) -> None:
    upstream, url = tracker
    before = len(upstream.seen)
    log = tmp_path / "audit.log"
    paging = """
count, page = 0, 1
while True:
    issues = api.issues_list(project="acme", state="all", per_page=30, page=page)
    if not issues:
        break
    count += sum(1 for i in issues if "bug" in i["labels"])
    page += 1
count
"""
    concurrent = (
        "[i['title'] for i in await asyncio.gather(*(aio.issues_get(project='acme', number=n) for n in (1, 2, 3)))]"
    )
    caught = """
try:
    api.issues_get(project="acme", number=404)
except OSError as error:
    print("missing:", error)
'done'
"""
    missing = "api.issues_create(project='acme', body={'labels': ['bug']})"
    results = run(data, url, [paging, concurrent, caught, missing, "api.whoami()"], log=log)
    assert [r.is_error for r in results] == [False, False, False, True, False]
    assert json.loads(text(results[0])) == sum(1 for i in ISSUES if "bug" in i["labels"])  # pages, one number
    assert json.loads(text(results[1])) == ["issue 1", "issue 2", "issue 3"]
    assert json.loads(text(results[2])) == {
        "result": "done",
        "printed": "missing: HTTP 404 Not Found: Issue 404 not found\n",
    }
    assert "ValueError" in text(results[3]) and "title" in text(results[3])
    calls = len(upstream.seen) - before
    assert calls == 5 + 3 + 1 + 1  # four pages and the empty one; the missing argument never reached the API
    assert all(seen["x-api-key"] == SECRET for seen in upstream.seen[before:])
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(lines) == calls + 1  # one audit line per API call (and one for the invalid call)
    assert {line["tool"] for line in lines} == {"issues_list", "issues_get", "issues_create", "whoami"}
    assert all(SECRET not in text(r) for r in results) and SECRET not in log.read_text()


HOSTILE = [
    ("import os\nos.listdir('/')", "PermissionError"),
    ("open('/etc/passwd').read()", "PermissionError"),
    ("import subprocess", "ModuleNotFoundError"),
    ("import socket", "ModuleNotFoundError"),
    ("__import__('os')", "NameError"),
    ("while True:\n    pass", "TRACKER_CODE_TIMEOUT"),
    ("x = 'a' * (10 ** 10)", "TRACKER_CODE_MAX_MEMORY"),
    ("def f(n):\n    return f(n + 1)\nf(0)", "RecursionError"),
    ("for i in range(10 ** 7):\n    print('spam and eggs' * 10)", "TRACKER_CODE_MAX_OUTPUT"),
    ("[api.whoami() for _ in range(1000)]", "TRACKER_CODE_MAX_CALLS"),
    ("api.whoami(42)", "keyword arguments"),
    ("api.no_such_thing()", "AttributeError"),
]


def test_hostile_programs_end_their_run_with_an_error_and_the_server_keeps_serving(data: Any, tracker: Any) -> None:
    programs = [program for program, _ in HOSTILE] + ["secret = 1\nsecret", "secret", "api.whoami()['login']"]
    results = run(data, tracker[1], programs, CODE_TIMEOUT="2", CODE_MAX_CALLS="20", CODE_MAX_OUTPUT="100000")
    for (program, expected), result in zip(HOSTILE, results, strict=False):
        assert result.is_error and expected in text(result), (program, text(result)[:300])
    *_, defined, later, alive = results
    assert json.loads(text(defined)) == 1
    assert later.is_error and "NameError" in text(later)  # nothing one run defines is seen by the next
    assert json.loads(text(alive)) == "octo"  # the server and its sandbox still serve


def test_a_large_answer_is_cut_to_the_budget_as_valid_json(data: Any, tracker: Any) -> None:
    (result,) = run(data, tracker[1], ["api.issues_list(project='acme', state='all', per_page=100) * 20"],
                    MAX_RESULT_TOKENS="2000")  # fmt: skip
    blocks = [c.text for c in result.content if isinstance(c, types.TextContent)]
    assert not result.is_error and "Result shortened to fit 2,000 tokens" in blocks[1]
    assert isinstance(json.loads(blocks[0]), list) and len(blocks[0]) < 2000 * 3


def test_the_openai_bridge_runs_code_mode_tool_calls(data: Any, tracker: Any) -> None:
    from starlette.applications import Starlette

    from mcpforge.runtime.agents.bridge import bridge_routes
    from mcpforge.runtime.calling.api import Api, http_client
    from mcpforge.runtime.modes.code import CodeMode

    configured = settings(data, tracker[1])
    call = {"id": "c1", "type": "function", "function": {"name": "execute", "arguments": json.dumps(
        {"code": "len(api.issues_list(project='acme', state='all', per_page=100))"})}}  # fmt: skip
    search = {"id": "c2", "type": "function", "function": {"name": "search_api", "arguments": json.dumps(
        {"query": "get one issue", "toolset": None, "limit": None})}}  # fmt: skip

    async def scenario() -> Any:
        import httpx

        async with http_client(configured, data["server"]) as client:
            api = Api(data, configured, client)
            code = CodeMode(data["tools"], None, configured, "TRACKER")
            routes = bridge_routes(lambda: api, token="t" * 20, max_body=100_000, code=lambda: code)
            transport = httpx.ASGITransport(app=Starlette(routes=routes))
            try:
                async with httpx.AsyncClient(transport=transport, base_url="http://bridge") as bridge:
                    response = await bridge.post(
                        "/openai/execute-tools",
                        json={"tool_calls": [call, search]},
                        headers={"Authorization": "Bearer " + "t" * 20},
                    )
            finally:
                await code.sandbox.close()
            return response.json()["messages"]

    executed, searched = anyio.run(scenario)
    assert executed == {"role": "tool", "tool_call_id": "c1", "content": "95"}
    assert json.loads(searched["content"])["functions"][0]["call"].startswith(
        "api.issues_get(project: str, number: int)"
    )


def test_calls_a_program_makes_at_once_run_at_once(data: Any, tracker: Any) -> None:
    at_once = "len(await asyncio.gather(*(aio.issues_get(project='acme', number=n) for n in range(50, 55))))"
    one_by_one = "len([api.issues_get(project='acme', number=n) for n in range(50, 55)])"
    timed = []
    for program in (at_once, one_by_one):
        began = time.perf_counter()
        (result,) = run(data, tracker[1], [program])
        timed.append(time.perf_counter() - began)
        assert json.loads(text(result)) == 5
    assert timed[0] < 5 * 0.4 * 0.6 < timed[1]  # five 0.4 s answers: together well under 2 s, in turn 2 s or more
