"""mcpforge diff: every change to a document named with its tool and classified, the reports, the exit statuses."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from conftest import ROOT
from mcpforge.changes.compare import compare
from mcpforge.changes.report import as_json, as_markdown, bump_of, next_version
from mcpforge.changes.rules import RULES, Change, rules_table
from mcpforge.cli import main

BASE: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Shop", "version": "1"},
    "servers": [{"url": "https://shop.example"}],
    "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}},
    "paths": {
        "/orders": {
            "get": {
                "operationId": "listOrders",
                "summary": "List orders",
                "parameters": [
                    {"name": "status", "in": "query", "schema": {"type": "string", "enum": ["open", "paid", "void"]}},
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 100, "default": 20}},
                ],
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {"total": {"type": "integer"}, "next": {"type": "string"}},
                                }
                            }
                        },
                    }
                },
            },
            "post": {
                "operationId": "createOrder",
                "summary": "Create an order",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["item"],
                                "properties": {"item": {"type": "string"}, "note": {"type": "string"}},
                            }
                        }
                    },
                },
                "responses": {"201": {"description": "created"}},
            },
        },
        "/orders/{id}": {
            "delete": {
                "operationId": "deleteOrder",
                "summary": "Delete an order",
                "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
                "responses": {"204": {"description": "gone"}},
            }
        },
    },
}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout


def diff_of(tmp_path: Path, change: Any, *extra: str) -> tuple[int, dict[str, Any]]:
    new = copy.deepcopy(BASE)
    change(new)
    (tmp_path / "old.yaml").write_text(yaml.safe_dump(BASE))
    (tmp_path / "new.yaml").write_text(yaml.safe_dump(new))
    code, out = run("diff", str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml"), "--format", "json", *extra)
    return code, json.loads(out)


def kinds(report: dict[str, Any]) -> set[tuple[str, str, bool]]:
    return {(c["tool"], c["kind"], c["breaking"]) for c in report["changes"]}


def params(spec: dict[str, Any]) -> list[dict[str, Any]]:
    return spec["paths"]["/orders"]["get"]["parameters"]  # type: ignore[no-any-return]


def body(spec: dict[str, Any]) -> dict[str, Any]:
    return spec["paths"]["/orders"]["post"]["requestBody"]["content"]["application/json"]["schema"]  # type: ignore


def drop_delete(spec: dict[str, Any]) -> None:
    del spec["paths"]["/orders/{id}"]


def add_operation(spec: dict[str, Any]) -> None:
    spec["paths"]["/refunds"] = {"get": {"operationId": "listRefunds", "responses": {"200": {"description": "ok"}}}}


CASES = [
    (drop_delete, {("deleteOrder", "tool-removed", True)}),
    (add_operation, {("listRefunds", "tool-added", False)}),
    (lambda s: params(s).append({"name": "shop", "in": "query", "required": True, "schema": {"type": "string"}}),
     {("listOrders", "required-argument-added", True)}),
    (lambda s: params(s).append({"name": "since", "in": "query", "schema": {"type": "string"}}),
     {("listOrders", "argument-added", False)}),
    (lambda s: body(s)["properties"].update(rush={"type": "boolean"}), {("createOrder", "argument-added", False)}),
    (lambda s: body(s)["required"].append("note"), {("createOrder", "argument-required", True)}),
    (lambda s: params(s)[1]["schema"].update(type="string"), {("listOrders", "type-changed", True)}),
    (lambda s: params(s)[1]["schema"].update(type="number"), {("listOrders", "type-widened", False)}),
    (lambda s: params(s)[0]["schema"]["enum"].remove("void"), {("listOrders", "enum-value-removed", True)}),
    (lambda s: params(s)[0]["schema"]["enum"].append("lost"), {("listOrders", "enum-value-added", False)}),
    (lambda s: params(s)[1]["schema"].update(maximum=50), {("listOrders", "constraint-narrowed", True)}),
    (lambda s: params(s)[1]["schema"].update(default=10), {("listOrders", "default-changed", False)}),
    (lambda s: params(s).pop(0), {("listOrders", "argument-removed", True)}),
    (lambda s: s["paths"]["/orders"]["get"].update(summary="Show every order"),
     {("listOrders", "description-changed", False)}),
    (lambda s: s["paths"]["/orders"]["post"].update(security=[{"key": []}]),
     {("createOrder", "security-added", True), ("createOrder", "description-changed", False)}),  # "Auth: ..." note
    (lambda s: s["paths"]["/orders"]["get"]["responses"]["200"]["content"]["application/json"]["schema"][
        "properties"].pop("next"),  # the next-page argument goes with the field that held the link
     {("listOrders", "output-property-removed", True), ("listOrders", "argument-removed", True)}),
    (lambda s: s["paths"]["/orders"]["get"].update(tags=["orders"]),
     {("listOrders", "toolset-joined", False), ("listOrders", "toolset-left", True)}),
]  # fmt: skip


@pytest.mark.parametrize(("change", "expected"), CASES, ids=[min(e)[1] for _, e in CASES])
def test_each_change_is_named_with_its_tool_and_classified(
    tmp_path: Path, change: Any, expected: set[tuple[str, str, bool]]
) -> None:
    code, report = diff_of(tmp_path, change, "--fail-on", "none")
    assert code == 0
    assert kinds(report) == expected, report["changes"]
    for item in report["changes"]:
        assert item["detail"] and item["kind"] in RULES


def test_a_document_against_itself_has_no_changes(tmp_path: Path) -> None:
    code, report = diff_of(tmp_path, lambda spec: None)
    assert code == 0 and report["changes"] == [] and report["version"] == {"bump": "none"}
    code, text = run("diff", str(tmp_path / "old.yaml"), str(tmp_path / "old.yaml"))
    assert code == 0 and text.strip() == "no tool changes"


def test_exit_statuses_follow_fail_on(tmp_path: Path) -> None:
    assert diff_of(tmp_path, drop_delete)[0] == 3  # breaking, the default
    assert diff_of(tmp_path, add_operation)[0] == 0
    assert diff_of(tmp_path, add_operation, "--fail-on", "any")[0] == 3
    assert diff_of(tmp_path, drop_delete, "--fail-on", "none")[0] == 0
    missing = CliRunner().invoke(main, ["diff", str(tmp_path / "missing.yaml"), str(tmp_path / "new.yaml")])
    assert missing.exit_code == 1 and "missing.yaml does not exist" in missing.stderr
    assert run("diff", str(tmp_path / "old.yaml"))[0] == 2


def test_many_changes_at_once_and_the_suggested_version(tmp_path: Path) -> None:
    def everything(spec: dict[str, Any]) -> None:
        drop_delete(spec)
        add_operation(spec)
        params(spec)[0]["schema"]["enum"].remove("void")

    code, report = diff_of(tmp_path, everything, "--from-version", "1.4.2")
    assert code == 3 and report["version"] == {"bump": "major", "next": "2.0.0"}
    assert report["summary"]["breaking"] == 2 and report["summary"]["compatible"] == 1
    assert report["summary"]["tools"]["tool-removed"] == ["deleteOrder"]


def test_a_renamed_operation_and_a_name_the_lock_kept(tmp_path: Path) -> None:
    def rename(spec: dict[str, Any]) -> None:
        spec["paths"]["/orders/{id}"]["delete"]["operationId"] = "removeOrder"

    code, report = diff_of(tmp_path, rename, "--fail-on", "none")
    assert kinds(report) == {("deleteOrder", "tool-renamed", True)}
    out = tmp_path / "out"
    (tmp_path / "old.yaml").write_text(yaml.safe_dump(BASE))
    assert run("generate", str(tmp_path / "old.yaml"), "-o", str(out))[0] == 0
    code, text = run("diff", str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml"), "-o", str(out))
    assert code == 0 and "deleteOrder: operationId deleteOrder is now removeOrder; the lock kept the name" in text


def test_markdown_is_a_pull_request_comment_with_breaking_changes_first(tmp_path: Path) -> None:
    changes = [
        Change("a_tool", "tool-added", "new tool (GET /a)"),
        Change("b|tool", "enum-value-removed", 'argument s: value "<b>x</b>" removed', "s"),
    ]
    text = as_markdown(changes)
    lines = text.splitlines()
    assert (
        lines[0] == "### mcpforge: 1 breaking and 1 compatible change(s) in 2 tool(s) (suggested version bump: major)"
    )
    assert lines[2:4] == ["| | tool | change | kind |", "|---|---|---|---|"]
    assert (
        lines[4] == r'| **breaking** | `b\|tool` | argument s: value "&lt;b>x&lt;/b>" removed | `enum-value-removed` |'
    )
    assert lines[5].startswith("| compatible | `a_tool` |")
    assert as_markdown([]) == "### mcpforge: no tool changes\n\n"


def test_versions_and_annotations() -> None:
    assert [next_version("1.4.2", b) for b in ("major", "minor", "patch", "none")] == [
        "2.0.0",
        "1.5.0",
        "1.4.3",
        "1.4.2",
    ]
    assert next_version("2024-01", "major") == "2024-01"
    assert bump_of([Change("t", "description-changed", "d")]) == "patch"
    tool = {"name": "t", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}}
    entry: Any = {"method": "GET", "path": "/a", "toolsets": [], "security": [], "tool": tool}
    writes = copy.deepcopy(entry)
    writes["tool"]["annotations"] = {"readOnlyHint": False, "destructiveHint": True}
    found = compare([entry], [writes])
    assert [(c.kind, c.detail) for c in found] == [
        ("annotation-riskier", "readOnlyHint true -> false"),
        ("annotation-riskier", "destructiveHint false -> true"),
    ]
    assert {c.kind for c in compare([writes], [entry])} == {"annotation-safer"}
    assert as_json(found)["summary"]["breaking"] == 2


def test_the_rules_table_in_the_docs_is_the_one_in_the_code() -> None:
    assert rules_table() in (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
