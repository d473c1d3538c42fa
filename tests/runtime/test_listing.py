"""tools/list: every tool in one page by default, in pages a client can read over server-sent events."""

from __future__ import annotations

from typing import Any

import anyio
from mcp import types
from mcp.client import Client

from conftest import CORPUS
from helpers import contract_of
from mcpforge.runtime.serving.server import SSE_PAGE_BYTES, build_server
from mcpforge.runtime.settings.table import Settings

GITHUB = CORPUS / "bench" / "octokit-openapi__generated_api.github.com.json"


def pages(data: Any, settings: Settings) -> list[list[types.Tool]]:
    async def listing() -> list[list[types.Tool]]:
        found: list[list[types.Tool]] = []
        async with Client(build_server(data, settings)) as client:
            cursor = None
            while True:
                # bypass: the client's cache deep-copies a first page (a second for GitHub), which is not paging
                page = await client.list_tools(cursor=cursor, cache_mode="bypass")
                found.append(page.tools)
                cursor = page.next_cursor
                if cursor is None:
                    return found

    return anyio.run(listing)


def test_a_large_listing_over_server_sent_events_comes_in_pages_the_sdk_client_reads() -> None:
    data = contract_of(GITHUB)
    names = [entry["tool"]["name"] for entry in data["tools"]]
    base = "http://127.0.0.1:9"
    for one_page in (Settings(base_url=base), Settings(base_url=base, transport="http", json_response=True)):
        (only,) = pages(data, one_page)  # stdio and JSON responses: no size limit, one listing
        assert [t.name for t in only] == names
    split = pages(data, Settings(base_url=base, transport="http"))
    assert len(split) >= 2 and [t.name for page in split for t in page] == names
    for page in split:
        size = sum(len(t.model_dump_json(by_alias=True, exclude_none=True)) + 1 for t in page)
        assert size <= SSE_PAGE_BYTES < 1024 * 1024
    fixed = pages(data, Settings(base_url=base, transport="http", page_size=500))
    assert [len(page) for page in fixed] == [500, 500, len(names) - 1000]
