"""Rendered output: every file exists in memory, with its final content, before anything is written."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = ["RenderedFile", "json_file"]


@dataclass(frozen=True, slots=True)
class RenderedFile:
    """A file to write: POSIX path relative to the output directory, and its text."""

    path: str
    content: str


def json_file(path: str, data: Any) -> RenderedFile:
    """Deterministic, human-diffable JSON (UTF-8, two-space indent, trailing newline)."""
    return RenderedFile(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
