"""Field selection (paths checked against the output schema) and next-page hints in this tool's arguments."""

from __future__ import annotations

from typing import Any

import pytest

from mcpforge.runtime.results.pages import Paging, next_page
from mcpforge.runtime.results.select import SelectionError, check_paths, parse_paths, select, unmatched

SHAPE = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "number": {"type": "integer"},
            "title": {"type": "string"},
            "user": {"type": ["object", "null"]},
            "labels": {"type": "array", "items": {}},
        },
    },
}
ITEMS = [
    {"number": 1, "title": "a", "user": {"login": "x", "id": 9}, "labels": [{"name": "bug", "id": 2}], "body": "b"},
    {"number": 2, "title": "b", "user": None, "labels": []},
]


def test_paths_parse_and_select_exactly_the_fields() -> None:
    paths = parse_paths(["number", "user.login", "labels[].name"], "fields")
    assert paths == [("number",), ("user", "login"), ("labels", "name")]
    assert check_paths(paths, SHAPE, "fields") == [("user", "login"), ("labels", "name")]  # below the shape
    assert select(ITEMS, paths) == [
        {"number": 1, "user": {"login": "x"}, "labels": [{"name": "bug"}]},
        {"number": 2, "user": None, "labels": []},
    ]
    assert select(ITEMS[0], [("user",), ("user", "login")]) == {"user": {"login": "x", "id": 9}}


@pytest.mark.parametrize(
    ("paths", "message"),
    [
        (["nmber"], "unknown field 'nmber'; fields available at the top level: labels, number, title, user"),
        (["number.x"], "'number' has no fields, so 'number.x' is unknown"),
        (["a..b"], "is not a field path"),
        ([""], "is not a field path"),
        ("number", "must be a list of field paths"),
    ],
)
def test_bad_paths_are_errors_that_list_what_is_available(paths: Any, message: str) -> None:
    with pytest.raises(SelectionError) as problem:
        check_paths(parse_paths(paths, "fields"), SHAPE, "fields")
    assert message in str(problem.value) and str(problem.value).startswith("fields")


def test_paths_below_the_schema_are_checked_against_the_response() -> None:
    assert unmatched(ITEMS, [("user", "login")], "fields") is None
    assert (
        unmatched(ITEMS, [("user", "logn")], "fields")
        == "fields: no field 'user.logn' in the result; fields there: id, login"
    )


ENTRY: Any = {
    "tool": {
        "name": "list_pulls",
        "inputSchema": {
            "properties": {"page": {"type": "integer"}, "per_page": {"type": "integer"}, "after": {"type": "string"}}
        },
    },
    "bindings": [
        {"arg": "page", "in": "query"},
        {"arg": "per_page", "in": "query"},
        {"arg": "after", "in": "query"},
        {"arg": "starting_after", "in": "query"},
        {"arg": "owner", "in": "path"},
    ],
}


def test_next_page_from_a_link_header() -> None:
    link = (
        '<https://api.example/repos/o/r/pulls?per_page=30&page=3>; rel="next", '
        '<https://api.example/x?page=9>; rel="last"'
    )
    assert next_page(ENTRY, link, [], {"owner": "o", "per_page": 30, "page": 2}) == {
        "owner": "o",
        "per_page": 30,
        "page": 3,
    }
    assert next_page(ENTRY, '<https://x/y?page=9>; rel="last"', [], {"page": 9}) is None


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"items": [], "next_cursor": "abc"}, {"after": "abc"}),
        ({"response_metadata": {"next_cursor": "c2"}}, {"after": "c2"}),
        ({"@odata.nextLink": "https://graph.example/v1/x?after=zz"}, {"after": "zz"}),
        ({"pagination": {"next_page": 4}}, {"page": 4}),
        ({"has_more": True, "data": [{"id": "a"}, {"id": "cus_9"}]}, {"starting_after": "cus_9"}),
        ({"page": 2, "total_pages": 5, "items": []}, {"page": 3}),
        ({"page": 5, "total_pages": 5}, None),
        ({"has_more": False, "data": [{"id": "a"}]}, None),
    ],
)
def test_next_page_from_the_body(body: dict[str, Any], expected: dict[str, Any] | None) -> None:
    found = next_page(ENTRY, "", body, {"owner": "o"})
    assert found == (None if expected is None else {"owner": "o", **expected})


# A tool that takes no paging argument at all: only a filter.
NO_PAGING: Any = {
    "tool": {"name": "list_users", "inputSchema": {"properties": {"state": {"type": "string"}}}},
    "bindings": [{"arg": "state", "in": "query"}],
}
ROWS = [{"id": 1}, {"id": 2}]


@pytest.mark.parametrize(
    ("entry", "link", "body"),
    [
        (NO_PAGING, '<https://x/users?state=open&since=2>; rel="next"', ROWS),  # a query it does not take
        (NO_PAGING, '<https://x/users/page/2>; rel="next"', ROWS),  # another path
        (NO_PAGING, "", {"items": ROWS, "next_cursor": "c2"}),
        (NO_PAGING, "", {"data": ROWS, "has_more": True}),
        (NO_PAGING, "", {"results": ROWS, "page": 1, "total_pages": 3}),
        (NO_PAGING, "", {"items": ROWS, "pagination": {"next_page": 2}}),
    ],
)
def test_more_results_the_arguments_cannot_ask_for_are_said(entry: Any, link: str, body: Any) -> None:
    assert next_page(entry, link, body, {"state": "open"}) is Paging.UNREACHABLE


@pytest.mark.parametrize(
    ("link", "body", "expected"),
    [
        ('<https://x/users?state=open>; rel="next"', ROWS, None),  # the same call again: never a loop
        ("", {"id": 7, "next": "2026-12-01"}, None),  # a record's field named "next", not a page of items
        ("", {"items": ROWS, "has_more": False}, None),
        # The Link header's next URL asks for a query the tool lacks, but the body's cursor is one it takes.
        ('<https://x/p?since=2>; rel="next"', {"items": ROWS, "next_cursor": "c2"}, {"after": "c2"}),
    ],
)
def test_unreachable_only_when_nothing_can_ask_for_more(link: str, body: Any, expected: Any) -> None:
    entry = ENTRY if expected else NO_PAGING
    found = next_page(entry, link, body, {"state": "open"})
    assert found == (None if expected is None else {"state": "open", **expected})


def test_a_page_count_without_a_page_argument_pages_by_the_tools_offset() -> None:
    by_offset: Any = {
        "tool": {"name": "list", "inputSchema": {"properties": {"offset": {"type": "integer"}}}},
        "bindings": [{"arg": "offset", "in": "query"}],
    }
    body = {"results": ROWS, "page": 1, "total_pages": 3}
    assert next_page(by_offset, "", body, {}) == {"offset": 2}
