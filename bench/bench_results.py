"""Result-size benchmark: tokens a model reads for realistic calls, ours (default, field selection) and FastMCP's.

Usage: python bench/bench_results.py [--fastmcp-python PATH] [--budget N]

A local upstream serves realistic pages for GitHub's REST API: each operation's documented example,
its item repeated to the page size asked for (GitHub's default, 30), with a ``Link`` header. The
same calls run through mcpforge's runtime (the code every generated server carries) with its
default result budget, then with field selection, and, with ``--fastmcp-python`` (a Python with
``fastmcp`` installed, e.g. a separate venv), through ``FastMCP.from_openapi`` on the same spec and
upstream (with ``validate_output=False``: its output validation rejects GitHub's own documented
examples for some of these calls, with an exception rather than a result). Tokens are the runtime's
estimate (UTF-8 bytes / 3) of every text block of the result. The script also checks that each
field-selected result holds the requested information.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
from shared_corpus import GITHUB  # one place finds the shared corpus (bench/ is on the path)

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests")]
SPEC = GITHUB

from e2e.realistic import ExampleUpstream  # noqa: E402
from helpers import contract_of, serve  # noqa: E402
from mcpforge.runtime.calling.api import Api, http_client  # noqa: E402
from mcpforge.runtime.results.tokens import tokens_of  # noqa: E402
from mcpforge.runtime.settings.table import Settings  # noqa: E402

REPO = {"owner": "octocat", "repo": "hello-world"}
# (label, METHOD /path, arguments, fields the model asks for)
CALLS: list[tuple[str, str, dict[str, Any], list[str]]] = [
    ("list issues", "GET /repos/{owner}/{repo}/issues", REPO, ["number", "title", "state", "user.login"]),
    ("list pull requests", "GET /repos/{owner}/{repo}/pulls", REPO, ["number", "title", "state", "user.login"]),
    (
        "get a pull request",
        "GET /repos/{owner}/{repo}/pulls/{pull_number}",
        {**REPO, "pull_number": 1},
        ["number", "title", "state", "mergeable", "user.login"],
    ),
    (
        "get a repository",
        "GET /repos/{owner}/{repo}",
        REPO,
        ["full_name", "description", "stargazers_count", "default_branch"],
    ),
    (
        "search repositories",
        "GET /search/repositories",
        {"q": "mcp"},
        ["total_count", "items.full_name", "items.stargazers_count"],
    ),
    ("list commits", "GET /repos/{owner}/{repo}/commits", REPO, ["sha", "commit.message", "commit.author.name"]),
    ("list releases", "GET /repos/{owner}/{repo}/releases", REPO, ["tag_name", "name", "published_at"]),
    (
        "list workflow runs",
        "GET /repos/{owner}/{repo}/actions/runs",
        REPO,
        ["total_count", "workflow_runs.id", "workflow_runs.status", "workflow_runs.conclusion"],
    ),
    (
        "list issue comments",
        "GET /repos/{owner}/{repo}/issues/{issue_number}/comments",
        {**REPO, "issue_number": 1},
        ["id", "body", "user.login"],
    ),
    ("list branches", "GET /repos/{owner}/{repo}/branches", REPO, ["name", "protected"]),
]

# FastMCP names tools its own way; each call is found by its route (method and path).
FASTMCP_SCRIPT = """
import asyncio, json, sys
import httpx2
from fastmcp import Client, FastMCP
spec = json.load(open(sys.argv[1]))
calls = json.loads(sys.argv[3])
client = httpx2.AsyncClient(base_url=sys.argv[2], timeout=60)
server = FastMCP.from_openapi(openapi_spec=spec, client=client, validate_output=False)
async def main():
    by_route = {f"{t._route.method} {t._route.path}": t.name for t in await server.list_tools()}
    out = {}
    async with Client(server) as client:
        for key, args in calls:
            result = await client.call_tool(by_route[key], args, raise_on_error=False)
            out[key] = {"error": result.is_error, "texts": [getattr(c, "text", "") for c in result.content]}
    print(json.dumps(out))
asyncio.run(main())
"""


def _present(value: Any, path: list[str]) -> bool:
    """Whether ``path`` reaches a value in ``value`` (lists are searched item by item)."""
    if not path:
        return True
    if isinstance(value, list):
        return any(_present(item, path) for item in value)
    return isinstance(value, dict) and path[0] in value and _present(value[path[0]], path[1:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fastmcp-python", type=Path, help="a Python with fastmcp installed")
    parser.add_argument("--budget", type=int, default=20_000)
    args = parser.parse_args()
    data = contract_of(SPEC)
    by_key = {f"{e['method']} {e['path']}": e for e in data["tools"]}
    upstream = ExampleUpstream(SPEC)
    rows: list[dict[str, Any]] = []
    with serve(upstream) as url:

        async def ours() -> None:
            settings = Settings(base_url=url, max_result_tokens=args.budget)
            async with http_client(settings) as client:
                api = Api(data, settings, client)
                for label, key, arguments, fields in CALLS:
                    entry = by_key[key]
                    name = entry["tool"]["name"]
                    full = await api.call(name, arguments)
                    picked = await api.call(name, {**arguments, entry["select"]: fields})
                    assert not full.is_error and not picked.is_error, (label, full.content, picked.content)
                    selected = json.loads(picked.content[0].text)  # type: ignore[union-attr]
                    missing = [f for f in fields if not _present(selected, f.split("."))]
                    assert not missing, (label, missing)
                    rows.append(
                        {
                            "label": label,
                            "key": key,
                            "arguments": arguments,
                            "default": sum(tokens_of(getattr(c, "text", "")) for c in full.content),
                            "selected": sum(tokens_of(getattr(c, "text", "")) for c in picked.content),
                        }
                    )

        anyio.run(ours)
        if args.fastmcp_python:
            calls = [[row["key"], row["arguments"]] for row in rows]
            done = subprocess.run(
                [str(args.fastmcp_python), "-c", FASTMCP_SCRIPT, str(SPEC), url, json.dumps(calls)],
                check=False,
                capture_output=True,
                text=True,
            )
            if done.returncode:
                raise SystemExit(f"FastMCP failed: {done.stderr[:1500]}")
            theirs = json.loads(done.stdout.strip().splitlines()[-1])
            for row in rows:
                answer = theirs[row["key"]]
                assert not answer["error"], (row["label"], answer["texts"][:1])
                row["fastmcp"] = sum(tokens_of(text) for text in answer["texts"])
    print("| call | ours, default (tokens) | ours, field selection | FastMCP from_openapi | selection / FastMCP |")
    print("|---|---|---|---|---|")
    totals = {"default": 0, "selected": 0, "fastmcp": 0}
    for row in rows:
        for key in totals:
            totals[key] += row.get(key, 0)
        theirs_text = f"{row['fastmcp']:,}" if "fastmcp" in row else "-"
        ratio = f"{row['selected'] / row['fastmcp']:.1%}" if row.get("fastmcp") else "-"
        print(f"| {row['label']} | {row['default']:,} | {row['selected']:,} | {theirs_text} | {ratio} |")
    ratio = f"{totals['selected'] / totals['fastmcp']:.1%}" if totals["fastmcp"] else "-"
    total = f"| **all {len(rows)} calls** | {totals['default']:,} | {totals['selected']:,} | {totals['fastmcp']:,}"
    print(f"{total} | {ratio} |")


if __name__ == "__main__":
    main()
