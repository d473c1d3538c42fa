"""Code mode as a model meets it: GitHub's 1,186 operations, an installed server, the real MCP client over stdio.

A local upstream plays GitHub's issues (pages of them, one by number, 404 past the last, the
account). Programs page in a loop, call at once, catch a 404 and miss an argument; hostile ones
each end their run with an error; the server keeps serving, keeps nothing between runs, sends the
configured token on every request, writes one audit line per API call, and shows the token nowhere.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from conftest import CORPUS
from e2e.harness import Project, generate_project, server_env
from e2e.test_server import list_all, stdio_session, text
from helpers import read_body, serve
from mcpforge.options.model import Options, ServerMode

GITHUB = CORPUS / "bench" / "octokit-openapi__generated_api.github.com.json"
TOKEN = "ghp_codeModeSecret0123456789abcdef"
# GitHub's document declares no security scheme (clients add the token): an overlay adds the bearer token.
OVERLAY = """overlay: 1.0.0
info: {title: the GitHub token, version: "1"}
actions:
  - target: $
    update:
      security: [{token: []}]
  - target: $.components
    update:
      securitySchemes: {token: {type: http, scheme: bearer}}
"""
ISSUES = [
    {"number": n, "title": f"issue {n}", "state": "open", "labels": [{"name": "bug"}] if n % 4 == 0 else [],
     "body": "steps to reproduce " * 40, "user": {"login": f"user{n % 7}"}}
    for n in range(1, 231)
]  # fmt: skip


class GitHub:
    """The issues of acme/widgets, paged as GitHub pages them, and the account; it records each request's token."""

    def __init__(self) -> None:
        self.authorizations: list[str] = []
        self.page_bytes = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        await read_body(receive)
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        self.authorizations.append(headers.get("authorization", ""))
        query = dict(p.split("=", 1) for p in scope["query_string"].decode().split("&") if "=" in p)
        status, payload = self.route(scope["path"], query)
        body = json.dumps(payload).encode()
        if scope["path"] == "/repos/acme/widgets/issues":
            self.page_bytes += len(body)
        await send(
            {"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]}
        )
        await send({"type": "http.response.body", "body": body})

    def route(self, path: str, query: dict[str, str]) -> tuple[int, Any]:
        if path == "/repos/acme/widgets/issues":
            page, size = int(query.get("page", 1)), int(query.get("per_page", 30))
            return 200, ISSUES[(page - 1) * size : page * size]
        found = re.fullmatch(r"/repos/acme/widgets/issues/(\d+)", path)
        if found:
            number = int(found.group(1))
            if number > len(ISSUES):
                return 404, {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}
            return 200, ISSUES[number - 1]
        if path == "/user":
            return 200, {"login": "octocat", "id": 1}
        return 404, {"message": "Not Found"}


@pytest.fixture(scope="module")
def github(e2e_python: Path, tmp_path_factory: pytest.TempPathFactory) -> Project:
    folder = tmp_path_factory.mktemp("github-code")
    overlay = folder / "token.overlay.yaml"
    overlay.write_text(OVERLAY)
    options = Options(spec=GITHUB, overlay=(overlay,), mode=ServerMode.CODE)
    return generate_project(GITHUB, folder / "out", e2e_python, options)


@pytest.fixture(scope="module")
def upstream() -> Iterator[tuple[GitHub, str]]:
    api = GitHub()
    with serve(api) as url:
        yield api, url


PAGING = """
bugs, page = 0, 1
while True:
    issues = api.issues_list_for_repo(owner="acme", repo="widgets", state="open", per_page=100, page=page)
    bugs += sum(1 for issue in issues if any(label["name"] == "bug" for label in issue["labels"]))
    if len(issues) < 100:
        break
    page += 1
bugs
"""
PROGRAMS = [
    (PAGING, False, "57"),
    ("[i['title'] for i in await asyncio.gather(*(aio.issues_get(owner='acme', repo='widgets', issue_number=n) "
     "for n in (1, 2, 3)))]", False, '["issue 1","issue 2","issue 3"]'),
    ("try:\n    api.issues_get(owner='acme', repo='widgets', issue_number=999)\n"
     "except OSError as e:\n    print(e)\n'ok'", False, "HTTP 404 Not Found: Not Found"),
    ("api.issues_get(owner='acme', repo='widgets')", True, "issue_number"),
    ("import os\nos.environ", True, "Error"),
    ("open('/etc/passwd').read()", True, "PermissionError"),
    ("import subprocess\nsubprocess.run(['id'])", True, "ModuleNotFoundError"),
    ("while True:\n    pass", True, "CODE_TIMEOUT"),
    ("x = [0] * (10 ** 10)", True, "CODE_MAX_MEMORY"),
    ("[api.users_get_authenticated() for _ in range(5000)]", True, "CODE_MAX_CALLS"),
    ("kept = 42\nkept", False, "42"),
    ("kept", True, "NameError"),
    ("api.users_get_authenticated()['login']", False, '"octocat"'),
]  # fmt: skip


def test_code_mode_on_github(github: Project, upstream: tuple[GitHub, str], tmp_path: Path) -> None:
    api, url = upstream
    audit = tmp_path / "audit.log"
    prefix = github.prefix
    env = server_env(
        github, url,
        {f"{prefix}_TOKEN_TOKEN": TOKEN, f"{prefix}_AUDIT_LOG": str(audit), f"{prefix}_CODE_TIMEOUT": "5"},
    )  # fmt: skip
    outcomes: list[Any] = []

    async def scenario() -> None:
        async with stdio_session(github, env) as session:
            listed = await list_all(session)
            listing = json.dumps([t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed])
            assert [t.name for t in listed] == ["search_api", "execute"] and len(listing) / 3 < 1_500
            found = await session.call_tool("search_api", {"query": "list the issues of a repository", "limit": 5})
            calls = [hit["call"] for hit in json.loads(text(found))["functions"]]
            assert any(call.startswith("api.issues_list_for_repo(owner: str, repo: str") for call in calls), calls
            for program, _, _ in PROGRAMS:
                outcomes.append(await session.call_tool("execute", {"code": program}))

    anyio.run(scenario)
    for (program, error, expected), result in zip(PROGRAMS, outcomes, strict=True):
        assert result.is_error is error and expected in text(result), (program, text(result)[:400])
        assert TOKEN not in text(result)
    assert api.authorizations and all(a == f"Bearer {TOKEN}" for a in api.authorizations)
    lines = [json.loads(line) for line in audit.read_text().splitlines()]
    answered = [line for line in lines if line.get("status") is not None]
    assert len(answered) == len(api.authorizations)  # one audit line per API call the upstream saw
    assert TOKEN not in audit.read_text()
    paging_answer = len(text(outcomes[0]).encode())
    assert paging_answer * 1000 < api.page_bytes  # the model read two bytes, not the pages' hundreds of kilobytes
