"""A forked computation's hand-over: one in-memory file, holding its large byte strings and its value.

The file is a header (the pickle's offset and size), the blobs, then the pickle of the value. The
header is written last, over zeros: a writer that died before finishing leaves a header that
matches no file. The reader maps the file; a blob comes back as a read-only ``memoryview`` slice
of the mapping, never copied. :mod:`mcpforge.worker` hands results back this way, and values to
a running worker.
"""

from __future__ import annotations

import io
import mmap
import os
import pickle
from collections.abc import Iterable
from contextlib import suppress
from typing import Any, BinaryIO

__all__ = ["Blob", "Blobs", "new_file", "receive", "reserve", "send"]


class Blob:
    """Bytes a computation wrote out through :class:`Blobs`: :attr:`content` where its result is read."""

    __slots__ = ("_content", "span")

    def __init__(self, content: bytes | memoryview | None, span: tuple[int, int] | None = None) -> None:
        self._content = content
        self.span = span  # (offset, size) in a worker's result file, until the result reaches the caller

    @property
    def content(self) -> bytes | memoryview:
        """The bytes (a read-only view of the mapped result when they come from a worker)."""
        if self._content is None:
            raise RuntimeError("a blob's content is read where the result arrives, not in the worker")
        return self._content


class Blobs:
    """Where a computation puts large byte strings: its worker's result file when forked, else memory."""

    def __init__(self, file: BinaryIO | None = None) -> None:
        self._file = file

    def write(self, chunks: Iterable[bytes]) -> Blob:
        """``chunks`` joined, written as they come: no joined copy exists in the worker."""
        if self._file is None:
            buffer = io.BytesIO()
            for chunk in chunks:
                buffer.write(chunk)
            return Blob(buffer.getvalue())
        start = self._file.tell()
        for chunk in chunks:
            self._file.write(chunk)
        return Blob(None, (start, self._file.tell() - start))


# Writes of a few kilobytes each (one tool's JSON): buffered into few system calls.
_WRITE_BUFFER = 1 << 20


def new_file() -> BinaryIO:
    """An anonymous file in memory where possible (Linux), else an unnamed temporary file."""
    if hasattr(os, "memfd_create"):
        with suppress(OSError):  # no memfd (old kernel, sandbox): a temporary file does the same
            return os.fdopen(os.memfd_create("mcpforge-worker", os.MFD_CLOEXEC), "w+b", buffering=_WRITE_BUFFER)
    import tempfile  # noqa: PLC0415 - only where memfd is missing; 2 ms of imports (shutil, lzma, random)

    return io.BufferedRandom(tempfile.TemporaryFile(buffering=0), _WRITE_BUFFER)


_SIZE = 8  # bytes of each number in the header
_HEADER = 2 * _SIZE


def reserve(stream: BinaryIO) -> Blobs:
    """Reserve the header: blobs follow it as they are written."""
    stream.write(bytes(_HEADER))
    return Blobs(stream)


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj: Any) -> Any:
        """A blob already in the file travels as its place there."""
        return ("blob", *obj.span) if isinstance(obj, Blob) and obj.span is not None else None


def send(stream: BinaryIO, ok: bool, value: object) -> None:
    """Write ``(ok, value)`` after the blobs (see :func:`reserve`), then the header."""
    offset = stream.tell()
    _Pickler(stream, protocol=pickle.HIGHEST_PROTOCOL).dump((ok, value))
    size = stream.tell() - offset
    stream.seek(0)
    stream.write(offset.to_bytes(_SIZE, "little") + size.to_bytes(_SIZE, "little"))


class _Unpickler(pickle.Unpickler):
    def __init__(self, payload: memoryview, view: memoryview, blobs_end: int) -> None:
        super().__init__(io.BytesIO(payload))
        self._view, self._blobs_end = view, blobs_end
        self._loaded: dict[Any, Blob] = {}  # a blob the result names twice is one object, as pickled objects are

    def persistent_load(self, pid: Any) -> Blob:
        """A blob: a slice of the mapped file, where :func:`send` said it is."""
        match pid:
            case ("blob", int(offset), int(size)) if _HEADER <= offset <= offset + size <= self._blobs_end:
                pass
            case _:
                raise pickle.UnpicklingError(f"not a blob of the result file: {pid!r}")
        found = self._loaded.get(pid)
        if found is None:
            found = self._loaded[pid] = Blob(self._view[offset : offset + size])
        return found


def receive(file: BinaryIO) -> tuple[bool, Any]:
    """Read what :func:`send` wrote, mapping the file: blobs are slices of it, not copies."""
    size = os.fstat(file.fileno()).st_size
    if size < _HEADER:
        raise EOFError("truncated result file")
    view = memoryview(mmap.mmap(file.fileno(), size, access=mmap.ACCESS_READ))
    offset = int.from_bytes(view[:_SIZE], "little")
    payload_size = int.from_bytes(view[_SIZE:_HEADER], "little")
    if offset < _HEADER or offset + payload_size != size:
        raise EOFError("truncated result file")
    # Our own worker's output, in our own file.
    ok, value = _Unpickler(view[offset:], view, offset).load()
    return bool(ok), value
