"""Text from specs made fit for a model's context: one place for cleaning and bounding prose."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import orjson

__all__ = ["bounded", "clean", "json_excerpt", "with_notes"]

_LINK = re.compile(r"!?\[([^\]\n]{0,300})\]\((?:[^()\s]|\([^()\s]*\))*\)")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]{0,200})?/?>")
# A sentence that only points elsewhere ("For more information, see "Using pagination."") says nothing
# once its link is gone: it costs a model tokens on every tool that repeats it. The pattern starts with
# its first letter, so the engine skips to each F or T instead of trying every position (twice as fast
# on GitHub's descriptions); the look-behinds then check it starts the text or a sentence.
_POINTER = re.compile(
    r"[FT](?:(?<=^[FT])|(?<=[.!?:]\s[FT]))"
    r"(?:or (?:more )?(?:information|details)|o learn more)\b[^.]*\.[\"'”)]*(?=\s|$)\s*",
    re.IGNORECASE,
)


# Specs repeat their prose (Kubernetes: the same parameter descriptions on a thousand operations).
@lru_cache(maxsize=8192)
def bounded(text: str, limit: int) -> str:
    """Collapse whitespace and cut at a word boundary, marking the cut with an ellipsis."""
    # Newlines, tabs, U+2028... are not printable; str.split() splits exactly where a regex's \s
    # matches, five times faster.
    spaced = "  " in text or not text.isprintable()
    text = " ".join(text.split()) if spaced else text.strip()
    if len(text) <= limit:
        return text
    if limit <= 1:
        return text[:limit]
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-") + "…"


@lru_cache(maxsize=8192)
def clean(text: str, limit: int) -> str:
    """Markdown links reduced to their text, HTML tags and "for more information" pointers dropped,
    whitespace collapsed, length bounded.

    Link targets, markup and pointers to other pages cost context without helping a model call the API.
    """
    if "](" in text:
        text = _LINK.sub(r"\1", text)
    if "<" in text:
        text = _HTML_TAG.sub("", text)
    if "or more" in text or "earn more" in text or "or details" in text:
        text = _POINTER.sub("", text).strip() or text
    return bounded(text, limit)


def json_excerpt(value: Any, limit: int = 200) -> str:
    """The first ``limit`` characters of ``value`` as compact JSON (a keyword moved into a description).

    orjson encodes a large value (a thousand-item ``examples``) many times faster than the standard
    library, which costs it a tenth of GitHub's generation when only its start is shown.
    """
    try:
        text = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode("utf-8")
    except (orjson.JSONEncodeError, TypeError):  # an integer beyond 64 bits, from YAML
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    return text[:limit]


def with_notes(description: str | None, notes: Sequence[str], limit: int | None = None) -> str:
    """A description and notes of ours after it (``"words (note, note)"``), within ``limit`` characters.

    Notes say what a schema keyword said where a format cannot keep it (a constraint moved into
    the description). Under a limit, the description is cut to leave them room; where fewer than 16
    characters of it would fit, the notes alone are kept, bounded.
    """
    text = ", ".join(notes)
    if not description:
        return bounded(f"({text})", limit) if limit is not None else f"({text})"
    if limit is None or len(description) + len(text) + 3 <= limit:
        return f"{description} ({text})"
    room = limit - len(text) - 3
    return f"{bounded(description, room)} ({text})" if room >= 16 else bounded(text, limit)
