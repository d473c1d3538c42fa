"""Operation selection and aggregated tool names."""

from __future__ import annotations

from pathlib import Path

from helpers import build, write_spec
from mcpforge.options.model import Options, Override
from mcpforge.text.names import aggregate_tool_names, toolset_name

SPEC = """
openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /repos/{id}/issues:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get: {operationId: issues_list, tags: [issues], responses: {"200": {description: ok}}}
    post: {operationId: issues_create, tags: [issues], responses: {"200": {description: ok}}}
  /repos/{id}/pulls:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get: {operationId: pulls_list, tags: [Pull Requests], responses: {"200": {description: ok}}}
  /legacy:
    get: {operationId: legacy, deprecated: true, responses: {"200": {description: ok}}}
"""


def names(tmp_path: Path, options: Options) -> list[str]:
    toolset, _ = build(write_spec(tmp_path, SPEC), options)
    return [t.name for t in toolset.tools]


def test_filters_combine(tmp_path: Path) -> None:
    assert names(tmp_path, Options()) == ["issues_list", "issues_create", "pulls_list"]
    assert names(tmp_path, Options(include_deprecated=True))[-1] == "legacy"
    assert names(tmp_path, Options(include_tags=("pull_requests",))) == ["pulls_list"]
    assert names(tmp_path, Options(include_tags=("Pull Requests",))) == ["pulls_list"]
    assert names(tmp_path, Options(exclude_tags=("issues",))) == ["pulls_list"]
    assert names(tmp_path, Options(include_operations=("*_list",))) == ["issues_list", "pulls_list"]
    assert names(tmp_path, Options(include_paths=("/repos/*/issues",), methods=("POST",))) == ["issues_create"]
    assert names(tmp_path, Options(exclude_paths=("*/pulls",), exclude_operations=("issues_c*",))) == ["issues_list"]


def test_overrides_by_operation_id_or_method_and_path(tmp_path: Path) -> None:
    overrides = {
        "issues_list": Override(name="list issues!"),
        "POST /repos/{id}/issues": Override(exclude=True),
        "pulls_list": Override(name="issues_list"),  # a free name once issues_list is renamed
    }
    assert names(tmp_path, Options(overrides=overrides)) == ["list_issues", "issues_list"]


def test_toolset_names_and_aggregation() -> None:
    assert toolset_name("Pull Requests") == "pull_requests" and toolset_name("") == "untagged"
    tools = [("github", "search"), ("gitlab", "search"), ("gitlab", "merge"), ("x", "bad.name"), ("y", "merge_2")]
    assert aggregate_tool_names(tools) == ["github_search", "gitlab_search", "merge", "bad_name", "merge_2"]
    long = [("server-" + "a" * 40, "t" * 60), ("other", "t" * 60)]
    result = aggregate_tool_names(long)
    assert len(set(result)) == 2 and all(len(n) <= 64 for n in result)
    assert aggregate_tool_names([("s", "x"), ("s", "x")]) == ["x", "x_2"]
