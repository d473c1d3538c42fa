"""docs/ci.md's recipes run: the GitHub Actions workflow's commands and the pre-commit hook, in a git repository."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import ROOT

pytestmark = pytest.mark.e2e  # git repositories and mcpforge processes: seconds each

DOC = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
BLOCKS = [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", DOC, re.DOTALL)]
WORKFLOW: dict[str, Any] = next(b for b in BLOCKS if isinstance(b, dict) and "jobs" in b)
HOOKS: dict[str, Any] = next(b for b in BLOCKS if isinstance(b, dict) and "repos" in b)
SPEC = """
openapi: 3.0.3
info: {title: Shop, version: "1"}
servers: [{url: "https://shop.example/v1"}]
paths:
  /orders:
    get:
      operationId: listOrders
      parameters:
        - {name: status, in: query, schema: {type: string, enum: [open, paid, void]}}
      responses: {"200": {description: ok}}
  /orders/{id}:
    delete:
      operationId: deleteOrder
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {"204": {description: gone}}
"""
CHANGED = SPEC.replace(", void]", "]").replace(
    "operationId: listOrders", "operationId: listOrders\n      summary: Show orders"
)


def sh(repo: Path, command: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-e", "-c", command], cwd=repo, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def unstaged(repo: Path) -> str:
    return subprocess.run(["git", "diff", "--stat"], cwd=repo, capture_output=True, text=True, check=True).stdout


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    repo, runner = tmp_path / "repo", tmp_path / "runner"
    repo.mkdir()
    runner.mkdir()
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",  # this checkout's mcpforge
        "GITHUB_BASE_REF": "main",
        "RUNNER_TEMP": str(runner),
        "GIT_AUTHOR_NAME": "ci", "GIT_AUTHOR_EMAIL": "ci@example.com",
        "GIT_COMMITTER_NAME": "ci", "GIT_COMMITTER_EMAIL": "ci@example.com",
    }  # fmt: skip
    git(repo, "init", "-q", "-b", "main")
    (repo / "openapi.yaml").write_text(SPEC)
    config = next(b for b in re.findall(r"```toml\n(.*?)```", DOC, re.DOTALL) if "changelog" in b)
    (repo / "mcpforge.toml").write_text(config)
    assert sh(repo, "mcpforge generate", env).returncode == 0
    git(repo, "add", "-A")
    subprocess.run(["git", "commit", "-qm", "v1"], cwd=repo, env=env, check=True)
    git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")  # what actions/checkout fetches
    git(repo, "checkout", "-q", "-b", "pull-request")
    (repo / "openapi.yaml").write_text(CHANGED)
    return repo, env


def steps(job: str) -> dict[str, str]:
    """The job's ``run:`` steps by name, but installing mcpforge (this checkout's is on PATH) and posting to GitHub."""
    found = {}
    for step in WORKFLOW["jobs"][job]["steps"]:
        command = step.get("run")
        if command and not command.startswith("pip install") and not command.startswith("gh "):
            found[step["name"]] = command
    return found


def test_the_workflow_reports_posts_and_fails_as_documented(repo: tuple[Path, dict[str, str]]) -> None:
    root, env = repo
    check = steps("check")
    assert list(check) == [
        "The document before this pull request",
        "What changed for models and clients",
        "Fail on drift (the committed server is what the document generates)",
        "Fail on breaking changes unless the pull request says so",
    ]
    codes = {name: sh(root, command, env).returncode for name, command in check.items()}
    assert list(codes.values()) == [0, 0, 1, 3]  # the server was not regenerated: drift; a value removed: breaking
    comment = (Path(env["RUNNER_TEMP"]) / "tool-changes.md").read_text()
    assert comment.startswith(
        "### mcpforge: 1 breaking and 2 compatible change(s) in 1 tool(s)"
    )  # + title, description
    assert '| **breaking** | `listOrders` | argument status: value "void" removed | `enum-value-removed` |' in comment

    assert sh(root, "mcpforge generate", env).returncode == 0  # the developer regenerates
    codes = {name: sh(root, command, env).returncode for name, command in check.items()}
    assert list(codes.values()) == [0, 0, 0, 3]
    assert "## 1.0.0" in (root / "mcp-server" / "CHANGELOG.md").read_text()


def test_refreshing_the_lock_takes_names_from_the_document_and_keeps_the_changelog(
    repo: tuple[Path, dict[str, str]],
) -> None:
    root, env = repo
    (root / "openapi.yaml").write_text(SPEC.replace("operationId: listOrders", "operationId: orders/list"))
    assert sh(root, "mcpforge generate", env).returncode == 0
    lock = json.loads((root / "mcp-server" / "mcpforge.lock").read_text())
    assert lock["tools"]["GET /orders"] == "listOrders"  # the lock kept the name
    (refresh,) = steps("refresh-lock").values()
    assert sh(root, refresh, env).returncode == 0
    lock = json.loads((root / "mcp-server" / "mcpforge.lock").read_text())
    assert lock["tools"]["GET /orders"] == "orders_list" and lock["packageVersion"] == "1.0.0"
    changelog = (root / "mcp-server" / "CHANGELOG.md").read_text()
    assert "- `listOrders`: now named orders_list (GET /orders)" in changelog and "## 0.1.0" in changelog


def test_the_pre_commit_hook_regenerates_and_fails_the_commit_on_drift(repo: tuple[Path, dict[str, str]]) -> None:
    root, env = repo
    (hook,) = HOOKS["repos"][0]["hooks"]
    assert re.search(hook["files"], "openapi.yaml") and hook["pass_filenames"] is False
    assert sh(root, hook["entry"], env).returncode == 0
    assert "mcp-server/" in unstaged(root)  # files changed: pre-commit fails the commit; `git add` takes them
    git(root, "add", "-A")
    assert sh(root, hook["entry"], env).returncode == 0
    assert unstaged(root) == ""  # a second run changes nothing: the commit goes through
