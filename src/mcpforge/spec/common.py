"""Small helpers shared by the parser's modules (documents are untrusted: every value is checked)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["Skip", "is_json", "obj", "text"]


def obj(value: Any) -> Mapping[str, Any]:
    """``value`` if it is a mapping, else an empty one."""
    return value if isinstance(value, dict) else {}


class Skip(Exception):
    """An operation cannot become a tool: the parser skips it with this diagnostic."""

    def __init__(self, code: str, message: str, pointer: str) -> None:
        super().__init__(message)
        self.code, self.message, self.pointer = code, message, pointer


def text(value: Any) -> str | None:
    """A non-blank string, else None."""
    return value if isinstance(value, str) and value.strip() else None


def is_json(media_type: str) -> bool:
    """Whether a media type carries JSON."""
    base = media_type.split(";", maxsplit=1)[0].strip().lower()
    return base == "application/json" or base.endswith("+json") or base == "*/*"
