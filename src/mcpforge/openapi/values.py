"""Reading values of an untrusted document: every value is checked before it is used."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["obj", "text"]


def obj(value: Any) -> Mapping[str, Any]:
    """``value`` if it is a mapping, else an empty one."""
    return value if isinstance(value, dict) else {}


def text(value: Any) -> str | None:
    """A non-blank string, else None."""
    return value if isinstance(value, str) and value.strip() else None
