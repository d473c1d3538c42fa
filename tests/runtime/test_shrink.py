"""Shrinking a JSON result to a token budget: always valid JSON, same types, deterministic, and explained."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from mcpforge.runtime.results.shrink import shrink
from mcpforge.runtime.results.tokens import estimate_tokens, tokens_of

PULL = {
    "number": 1,
    "title": "Fix the thing",
    "body": "x" * 5000,
    "user": {"login": "octocat", "id": 1, "avatar_url": "https://avatars.example/u/1"},
    "labels": [{"name": f"label-{i}", "color": "ffffff"} for i in range(5)],
    "head": {"repo": {"full_name": "o/r", "owner": {"login": "o", "url": "https://api.example/users/o"}}},
    **{f"{name}_url": f"https://api.example/repos/o/r/pulls/1/{name}" for name in ("commits", "review", "issue")},
}
SHAPE = {
    "type": "object",
    "properties": {
        "result": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "number": {"type": "integer"},
                    "title": {"type": "string"},
                    "body": {"type": ["string", "null"]},
                    "user": {"type": "object"},
                    "labels": {"type": "array", "items": {}},
                    "head": {"type": "object"},
                },
            },
        }
    },
}


def measure(value: Any) -> int:
    return tokens_of(json.dumps(value, ensure_ascii=False))


def test_the_estimate_is_bytes_over_three() -> None:
    assert tokens_of("abc") == 1 and tokens_of("abcd") == 2 and tokens_of("日本") == 2
    assert estimate_tokens(3000) == 1000


@pytest.mark.parametrize("budget", [50_000, 5_000, 1_500, 400, 120, 40])
def test_a_page_of_pulls_fits_and_keeps_its_shape(budget: int) -> None:
    page = [dict(PULL, number=i) for i in range(30)]
    shrunk = shrink(page, budget, measure)
    assert measure(shrunk.value) <= budget
    jsonschema.validate({"result": shrunk.value}, SHAPE)
    assert shrink(page, budget, measure) == shrunk  # deterministic
    if measure(page) > budget:
        assert shrunk.cuts


def test_whole_items_are_kept_before_anything_else_is_cut() -> None:
    page = [dict(PULL, body="short", number=i) for i in range(30)]
    budget = measure(page[:7]) + 5
    shrunk = shrink(page, budget, measure)
    assert shrunk.value == page[: len(shrunk.value)] and 5 <= len(shrunk.value) <= 7
    assert shrunk.items_left_out == 30 - len(shrunk.value)
    assert shrunk.cuts == (
        f"kept the first {len(shrunk.value)} of 30 items of the result ({shrunk.items_left_out} left out)",
    )


def test_long_strings_are_shortened_with_a_marker_first() -> None:
    shrunk = shrink([PULL], measure([PULL]) - 100, measure)
    body = shrunk.value[0]["body"]
    assert body.startswith("x" * 2000) and body.endswith("…[3,000 more characters]")
    assert shrunk.value[0]["user"] == PULL["user"]  # nothing else changed
    assert "shortened 1 string(s) to 2,000 characters" in shrunk.cuts[0]


def test_deep_detail_goes_before_top_level_fields() -> None:
    shrunk = shrink(PULL, 130, measure)
    assert measure(shrunk.value) <= 130
    assert shrunk.value["number"] == 1 and shrunk.value["title"] == "Fix the thing"
    assert shrunk.value["head"] in ({}, {"repo": {}})
    assert any("emptied nested values" in cut for cut in shrunk.cuts)


def test_inner_lists_are_not_cut_when_the_outer_list_can_be() -> None:
    search = {"total_count": 30, "items": [dict(PULL, body="b", number=i) for i in range(30)]}
    shrunk = shrink(search, measure(search) // 3, measure)
    assert shrunk.value["total_count"] == 30 and 0 < len(shrunk.value["items"]) < 30
    assert all(len(item["labels"]) == 5 for item in shrunk.value["items"])
    assert "items of `items`" in shrunk.cuts[0]
