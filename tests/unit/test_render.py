"""Rendering helpers: JSON output is byte-identical to the stdlib's, whatever the encoder."""

from __future__ import annotations

import json
from typing import Any

from mcpforge.render.files import dump_json


def test_json_matches_stdlib_including_unicode_and_big_ints() -> None:
    data: dict[str, Any] = {"a": [1, 2.5, {"b": 'é\u2028"\\', "c": []}], "e": {}, "g": None, "h": True}
    assert dump_json(data).decode() == json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    big = {"max": 2**70}
    assert dump_json(big).decode() == json.dumps(big, indent=2) + "\n"
