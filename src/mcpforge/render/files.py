"""Rendered output: every file exists in memory, with its final content, before anything is written."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson

__all__ = ["RenderedFile", "dump_compact", "dump_json", "encode_each", "json_file", "manifest_file"]


@dataclass(frozen=True, slots=True)
class RenderedFile:
    """A file to write: POSIX path relative to the output directory, and its text (or UTF-8 bytes).

    Large JSON stays bytes from the encoder to the disk: decoding and re-encoding Microsoft
    Graph's manifests cost seconds and hundreds of megabytes.
    """

    path: str
    content: str | bytes

    @property
    def data(self) -> bytes:
        """The content as UTF-8 bytes."""
        return self.content if isinstance(self.content, bytes) else self.content.encode("utf-8")

    @property
    def text(self) -> str:
        """The content as text."""
        return self.content.decode("utf-8") if isinstance(self.content, bytes) else self.content


def dump_json(data: Any) -> bytes:
    """Deterministic, human-diffable JSON (UTF-8, two-space indent, trailing newline).

    orjson writes the same bytes as ``json.dumps(indent=2, ensure_ascii=False)`` several times
    faster (the stdlib's C encoder is not used when indenting); integers beyond 64 bits, which
    orjson refuses, fall back to the stdlib.
    """
    try:
        return orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)
    except (orjson.JSONEncodeError, TypeError):
        return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def json_file(path: str, data: Any) -> RenderedFile:
    """A JSON file rendered with :func:`dump_json`."""
    return RenderedFile(path, dump_json(data))


def dump_compact(data: Any) -> bytes:
    """Compact JSON (UTF-8, no spaces, trailing newline): package data read at run time."""
    try:
        return orjson.dumps(data, option=orjson.OPT_APPEND_NEWLINE)
    except (orjson.JSONEncodeError, TypeError):
        return (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def encode_each(items: Sequence[Any]) -> list[bytes]:
    """Each item as compact UTF-8 JSON (no newline)."""
    encoded = []
    for item in items:
        try:
            encoded.append(orjson.dumps(item))
        except (orjson.JSONEncodeError, TypeError):
            encoded.append(json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    return encoded


def manifest_file(path: str, encoded: Sequence[bytes]) -> RenderedFile:
    """A tool manifest from its encoded tools (:func:`encode_each`): a JSON array, one tool per line.

    Diffs show which tools changed, and the file is half the size of an indented one (Microsoft
    Graph's seven manifests: 190 MB instead of 385 MB, a second less to write).
    """
    if not encoded:
        return RenderedFile(path, b"[]\n")
    return RenderedFile(path, b"[\n" + b",\n".join(encoded) + b"\n]\n")
