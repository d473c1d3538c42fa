"""The runtime's request serialisation (mcpforge.runtime.calling.request, copied into every generated package)."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from mcpforge.runtime.calling import request as http
from mcpforge.runtime.calling.api import drop_injected_nulls


def prepare(bindings: list[dict[str, Any]], arguments: dict[str, Any], path: str = "/x") -> Any:
    return http.prepare_request("GET", path, bindings, arguments)


@pytest.mark.parametrize("value", ["../admin", "a/b", "x?y=1", "frag#ment", "..", ".", "100%", "a b"])
def test_path_values_cannot_change_the_path(value: str) -> None:
    req = prepare([{"arg": "id", "in": "path", "style": "simple", "explode": False}], {"id": value}, "/items/{id}")
    segment = req.path[len("/items/") :]
    assert "/" not in segment and "?" not in segment and "#" not in segment and segment not in (".", "..")
    assert req.path.startswith("/items/")


@pytest.mark.parametrize(
    ("style", "explode", "value", "expected"),
    [
        ("simple", False, [1, 2], "/p/1,2"),
        ("simple", False, {"a": 1, "b": "x"}, "/p/a,1,b,x"),
        ("simple", True, {"a": 1, "b": "x"}, "/p/a=1,b=x"),
        ("label", False, [1, 2], "/p/.1,2"),
        ("label", True, [1, 2], "/p/.1.2"),
        ("matrix", False, 5, "/p/;id=5"),
        ("matrix", True, [1, 2], "/p/;id=1;id=2"),
    ],
)
def test_path_styles(style: str, explode: bool, value: Any, expected: str) -> None:
    req = prepare([{"arg": "id", "in": "path", "style": style, "explode": explode}], {"id": value}, "/p/{id}")
    assert req.path == expected


@pytest.mark.parametrize(
    ("binding", "value", "expected"),
    [
        ({"style": "form", "explode": True}, [1, 2], [("q", "1"), ("q", "2")]),
        ({"style": "form", "explode": False}, [1, 2], [("q", "1,2")]),
        ({"style": "spaceDelimited", "explode": False}, ["a", "b"], [("q", "a b")]),
        ({"style": "pipeDelimited", "explode": False}, ["a", "b"], [("q", "a|b")]),
        ({"style": "tabDelimited", "explode": False}, ["a", "b"], [("q", "a\tb")]),
        ({"style": "deepObject", "explode": True}, {"a": 1, "b": True}, [("q[a]", "1"), ("q[b]", "true")]),
        (
            {"style": "deepObject", "explode": True},
            {"a": {"b": [1, {"c": "d"}]}},
            [("q[a][b][0]", "1"), ("q[a][b][1][c]", "d")],
        ),
        ({"style": "form", "explode": True}, {"a": 1, "b": 2}, [("a", "1"), ("b", "2")]),
        ({"style": "form", "explode": False}, {"a": 1, "b": 2}, [("q", "a,1,b,2")]),
        ({"style": "form", "explode": True}, False, [("q", "false")]),
        ({"style": "form", "explode": True, "contentType": "application/json"}, {"a": [1]}, [("q", '{"a": [1]}')]),
    ],
)
def test_query_styles(binding: dict[str, Any], value: Any, expected: list[tuple[str, str]]) -> None:
    assert prepare([{"arg": "q", "in": "query", **binding}], {"q": value}).params == expected


def test_wire_names_headers_cookies_and_crlf() -> None:
    bindings = [
        {"arg": "X_Id", "name": "X-Id", "in": "header", "style": "simple", "explode": False},
        {"arg": "s", "in": "cookie", "style": "form", "explode": True},
    ]
    req = prepare(bindings, {"X_Id": [1, 2], "s": "abc"})
    assert req.headers == {"X-Id": "1,2"} and req.cookies == {"s": "abc"}
    with pytest.raises(http.ArgumentError, match="CR"):
        prepare(bindings, {"X_Id": "a\r\nInjected: 1"})
    with pytest.raises(http.ArgumentError, match="CR"):
        prepare(bindings, {"s": "a\nb"})


def test_bodies() -> None:
    json_req = prepare(
        [{"arg": "body", "in": "body", "kind": "json", "contentType": "application/json"}], {"body": [1, 2]}
    )
    assert json_req.has_json and json_req.json_body == [1, 2]
    form = prepare(
        [
            {
                "arg": "body",
                "in": "body",
                "kind": "form",
                "fields": {
                    "tags": {"style": "form", "explode": True},
                    "meta": {"style": "deepObject", "explode": True},
                },
            }
        ],
        {"body": {"email": "a@b.c", "tags": ["x", "y"], "meta": {"k": "v"}, "skip": None}},
    )
    assert form.content == b"email=a%40b.c&tags=x&tags=y&meta%5Bk%5D=v"
    assert form.headers["Content-Type"] == "application/x-www-form-urlencoded"
    upload = prepare(
        [{"arg": "body", "in": "body", "kind": "multipart", "fields": {"file": {"file": True}}}],
        {"body": {"file": base64.b64encode(b"hello").decode(), "note": "n"}},
    )
    assert upload.files == [("file", ("file", b"hello", "application/octet-stream")), ("note", (None, b"n", None))]
    with pytest.raises(http.ArgumentError, match="base64"):
        prepare(
            [{"arg": "body", "in": "body", "kind": "multipart", "fields": {"file": {"file": True}}}],
            {"body": {"file": "not base64!"}},
        )
    raw = prepare(
        [{"arg": "body", "in": "body", "kind": "binary", "contentType": "image/png"}],
        {"body": base64.b64encode(b"\x89PNG").decode()},
    )
    assert raw.content == b"\x89PNG" and raw.headers["Content-Type"] == "image/png"
    text = prepare([{"arg": "body", "in": "body", "kind": "text", "contentType": "text/csv"}], {"body": "a,b"})
    assert text.content == b"a,b" and text.headers["Content-Type"] == "text/csv"


def test_absent_and_null_arguments_are_not_sent() -> None:
    req = prepare([{"arg": "q", "in": "query", "style": "form", "explode": True}], {"q": None})
    assert req.params == []


def test_strict_mode_nulls_are_dropped_before_the_request() -> None:
    schema: dict[str, Any] = {
        "type": "object",
        "required": ["body"],
        "properties": {
            "limit": {"type": "integer"},
            "tag": {"type": ["string", "null"]},
            "body": {"$ref": "#/$defs/Pet"},
        },
        "$defs": {
            "Pet": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": {"type": "string"},
                    "nick": {"type": "string"},
                    "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                },
            }
        },
    }
    strict_call = {"limit": None, "tag": None, "body": {"name": "Rex", "nick": None, "note": None}}
    assert drop_injected_nulls(strict_call, schema, schema["$defs"]) == {
        "tag": None,
        "body": {"name": "Rex", "note": None},
    }  # nulls the API accepts are kept
