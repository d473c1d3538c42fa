"""Escaping of spec text for each kind of generated file: Markdown, TOML, JSON literals, Python comments."""

from __future__ import annotations

import json
import re
from typing import Any

from mcpforge.text.prose import bounded

__all__ = ["comment", "json_string", "markdown", "toml_string"]


def markdown(value: Any) -> str:
    """Text safe inside a Markdown table cell: one line, no HTML, no cell breaks."""
    text = " ".join(str(value).split())
    text = text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("`", "'")


def toml_string(value: Any) -> str:
    """A TOML basic string."""
    return json.dumps(str(value), ensure_ascii=False).replace("\x7f", "\\u007f")


def json_string(value: Any) -> str:
    """A JSON string literal that cannot close a Markdown code fence or an HTML element."""
    return json.dumps(str(value)).replace("`", "\\u0060").replace("<", "\\u003c").replace(">", "\\u003e")


def comment(value: Any) -> str:
    """Text safe in a Python docstring or comment: printable ASCII letters, digits, simple punctuation."""
    text = re.sub(r"[^A-Za-z0-9 ,.:;()/_+-]+", " ", str(value))
    return bounded(text, 80) or "an API"
