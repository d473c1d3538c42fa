"""Text typed by a JSON Schema: a next URL's query values, and the leaves of an XML answer."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["kinds", "typed_text"]

_INTEGER = re.compile(r"-?\d+")


def kinds(schema: Mapping[str, Any]) -> list[Any]:
    """The schema's ``type`` as a list (``[None]`` when it names none)."""
    kind = schema.get("type")
    return kind if isinstance(kind, list) else [kind]


def typed_text(text: str, schema: Mapping[str, Any]) -> Any:
    """``text`` as the boolean, integer or number the schema asks for; the text itself otherwise."""
    types = kinds(schema)
    if "boolean" in types and text in ("true", "false"):
        return text == "true"
    if "integer" in types and _INTEGER.fullmatch(text):
        return int(text)
    if "number" in types:
        try:
            number = float(text)
        except ValueError:
            return text
        return int(number) if _INTEGER.fullmatch(text) else number
    return text
