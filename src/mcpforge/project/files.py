"""Rendered output: every file exists in memory, with its final content, before anything is written."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from mcpforge.schema.memo import IdentityMemo

__all__ = [
    "RenderedFile",
    "SharedParts",
    "dump_compact",
    "dump_json",
    "encode",
    "encode_each",
    "json_file",
    "manifest_file",
]


@dataclass(frozen=True, slots=True)
class RenderedFile:
    """A file to write: POSIX path relative to the output directory, and its UTF-8 bytes.

    Large JSON stays bytes from the encoder to the disk: decoding and re-encoding Microsoft
    Graph's manifests cost seconds and hundreds of megabytes.
    """

    path: str
    data: bytes

    @classmethod
    def of_text(cls, path: str, text: str) -> RenderedFile:
        """A file holding ``text``."""
        return cls(path, text.encode("utf-8"))

    @property
    def text(self) -> str:
        """The content as text."""
        return self.data.decode("utf-8")


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


def _fragment_value(value: Any) -> Any:
    if isinstance(value, orjson.Fragment):
        return json.loads(value.contents)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _stdlib_compact(data: Any) -> bytes:
    # orjson refuses integers beyond 64 bits; the stdlib writes the same compact bytes for them.
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=_fragment_value).encode("utf-8")


def dump_compact(data: Any) -> bytes:
    """Compact JSON (UTF-8, no spaces, trailing newline): package data read at run time.

    ``data`` may hold already-encoded parts as :class:`orjson.Fragment` (copied, not encoded again).
    """
    try:
        return orjson.dumps(data, option=orjson.OPT_APPEND_NEWLINE)
    except (orjson.JSONEncodeError, TypeError):
        return _stdlib_compact(data) + b"\n"


def encode(item: Any) -> bytes:
    """``item`` as compact UTF-8 JSON (no newline); it may hold :class:`orjson.Fragment` parts."""
    try:
        return orjson.dumps(item)
    except (orjson.JSONEncodeError, TypeError):
        return _stdlib_compact(item)


def encode_each(items: Sequence[Any]) -> list[bytes]:
    """Each item encoded with :func:`encode`."""
    return [encode(item) for item in items]


class SharedParts:
    """Each part (by identity) encoded once and reused as an :class:`orjson.Fragment`."""

    def __init__(self) -> None:
        self._done = IdentityMemo[orjson.Fragment]()

    def __call__(self, part: Any) -> orjson.Fragment:
        """``part`` encoded (once)."""
        found = self._done.get(part)
        return found if found is not None else self._done.put(part, orjson.Fragment(encode(part)))


def manifest_file(path: str, encoded: Iterable[bytes]) -> RenderedFile:
    """A tool manifest from its encoded tools (:func:`encode_each`): a JSON array, one tool per line.

    Diffs show which tools changed, and the file is half the size of an indented one (Microsoft
    Graph's seven manifests: 190 MB instead of 385 MB, a second less to write). ``encoded`` may be
    a generator: then no list of encoded tools exists beside the joined file.
    """
    return RenderedFile(path, b"".join(_spelled(encoded)))


def _spelled(lines: Iterable[bytes]) -> Iterator[bytes]:
    """The one spelling of a manifest: ``[``, one tool per line, ``]`` (``[]`` when empty)."""
    separator = b"[\n"
    for line in lines:
        yield separator
        yield line
        separator = b",\n"
    yield b"[]\n" if separator == b"[\n" else b"\n]\n"
