"""The second core: one computation runs in a forked process while the caller does other work.

Generation is pure CPU work on data that already sits in memory. A forked child sees that data
without copying or pickling it, computes, and leaves only its result in an in-memory file that the
caller maps once the child has ended. Large parts of a result (the provider manifests) are
written through :class:`Blobs` straight into that file while they are made, never held whole in
the child's memory; they come back as :class:`Blob` values whose content is a read-only
``memoryview`` slice of the mapped file, never copied into this process. Where ``fork`` is
missing or fails, or the caller asks not to fork, the computation runs in-process when its result
is asked for (its blobs then hold the bytes made): the result is the same either way, so output
never depends on which path ran.
"""

from __future__ import annotations

import gc
import io
import mmap
import os
import pickle
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, BinaryIO, Generic, TypeVar

__all__ = ["Blob", "Blobs", "Worker", "WorkerError", "can_fork", "worker"]

T = TypeVar("T")


class WorkerError(RuntimeError):
    """The worker process failed without an exception that could be sent back (killed, out of memory)."""


def can_fork() -> bool:
    """Whether a worker may fork here: POSIX ``fork`` (not macOS, where system frameworks forbid it) and one thread."""
    return hasattr(os, "fork") and sys.platform != "darwin" and threading.active_count() == 1


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


class Worker(Generic[T]):
    """A computation under way in a forked child, or deferred until :meth:`result` when not forked.

    The computation is given the :class:`Blobs` its large byte strings go through.
    """

    def __init__(self, work: Callable[[Blobs], T], *, fork: bool) -> None:
        self._work: Callable[[Blobs], T] | None = work
        self._pid: int | None = None
        self._file: BinaryIO | None = None
        if fork and can_fork():
            self._start()

    def _start(self) -> None:
        assert self._work is not None
        # A file, not a pipe: the child writes its result without waiting for this process to read
        # (which it does only once its own work is done), and this process maps it instead of
        # reading it. Microsoft Graph's 110 MB of manifests took 0.3 s to hand over through a pipe
        # (the copies and the page faults of a fresh heap), 0.02-0.05 s streamed into a file.
        file = _result_file()
        # Frozen objects are never scanned by the collector: in the child, the parent's objects then
        # stay untouched (a page the child writes, even a reference count, is copied: slow in a VM).
        frozen_before = gc.get_freeze_count()
        gc.freeze()
        try:
            pid = os.fork()
        except OSError:  # no process to spare (EAGAIN, ENOMEM): the work runs here instead
            pid = -1
        if pid == 0:  # the child: compute, write, and leave without running the parent's clean-up
            _child(self._work, file)
        if not frozen_before:  # a caller that froze objects itself keeps them frozen
            gc.unfreeze()
        if pid < 0:
            file.close()
            return
        self._pid, self._file, self._work = pid, file, None

    def result(self) -> T:
        """The computation's value (waits for the child); its exception is raised here."""
        if self._work is not None:
            work, self._work = self._work, None
            return work(Blobs())
        if self._file is None:
            raise RuntimeError("the worker's result was already taken")
        file, self._file = self._file, None
        status = self._reap()
        with file:
            try:
                ok, value = _receive(file)
            except (EOFError, ValueError, pickle.UnpicklingError) as exc:
                raise WorkerError(f"the worker process ended without a result ({_describe(status)})") from exc
        if not ok:
            raise value
        result: T = value
        return result

    def cancel(self) -> None:
        """Stop the child if it is still running (nothing happens when the work was not forked)."""
        self._work = None
        if self._file is not None:
            self._file.close()
            self._file = None
        if self._pid is not None:
            with suppress(ProcessLookupError):  # already gone
                os.kill(self._pid, signal.SIGKILL)
            self._reap()

    def _reap(self) -> int:
        pid, self._pid = self._pid, None
        return os.waitpid(pid, 0)[1] if pid is not None else 0


def _describe(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"


# Writes of a few kilobytes each (one tool's JSON): buffered into few system calls.
_WRITE_BUFFER = 1 << 20


def _result_file() -> BinaryIO:
    """An anonymous file in memory where possible (Linux), else an unnamed temporary file."""
    if hasattr(os, "memfd_create"):
        with suppress(OSError):  # no memfd (old kernel, sandbox): a temporary file does the same
            return os.fdopen(os.memfd_create("mcpforge-worker", os.MFD_CLOEXEC), "w+b", buffering=_WRITE_BUFFER)
    return io.BufferedRandom(tempfile.TemporaryFile(buffering=0), _WRITE_BUFFER)


# The file: a header (the pickle's offset and size), the blobs, the pickle. The header is written
# last, over zeros: a child that died before finishing leaves a header that matches no file.
_SIZE = 8  # bytes of each number in the header
_HEADER = 2 * _SIZE


def _start(stream: BinaryIO) -> Blobs:
    """Reserve the header: blobs follow it as they are written."""
    stream.write(bytes(_HEADER))
    return Blobs(stream)


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj: Any) -> Any:
        """A blob already in the file travels as its place there."""
        return ("blob", *obj.span) if isinstance(obj, Blob) and obj.span is not None else None


def _send(stream: BinaryIO, ok: bool, value: object) -> None:
    """Write ``(ok, value)`` after the blobs (see :func:`_start`), then the header."""
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
        """A blob: a slice of the mapped file, where :func:`_send` said it is."""
        match pid:
            case ("blob", int(offset), int(size)) if _HEADER <= offset <= offset + size <= self._blobs_end:
                pass
            case _:
                raise pickle.UnpicklingError(f"not a blob of the result file: {pid!r}")
        found = self._loaded.get(pid)
        if found is None:
            found = self._loaded[pid] = Blob(self._view[offset : offset + size])
        return found


def _receive(file: BinaryIO) -> tuple[bool, Any]:
    """Read what :func:`_send` wrote, mapping the file: blobs are slices of it, not copies."""
    size = os.fstat(file.fileno()).st_size
    if size < _HEADER:
        raise EOFError("truncated result file")
    view = memoryview(mmap.mmap(file.fileno(), size, access=mmap.ACCESS_READ))
    offset = int.from_bytes(view[:_SIZE], "little")
    payload_size = int.from_bytes(view[_SIZE:_HEADER], "little")
    if offset < _HEADER or offset + payload_size != size:
        raise EOFError("truncated result file")
    # Our own child's output, in our own file.
    ok, value = _Unpickler(view[offset:], view, offset).load()
    return bool(ok), value


def _child(work: Callable[[Blobs], object], file: BinaryIO) -> None:
    """Run ``work`` and pickle ``(ok, value)`` into ``file``; never returns."""
    status = 0
    try:
        # The parent handles Ctrl-C and SIGTERM (and kills this child): here they simply end the process.
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        with file as stream:
            blobs = _start(stream)
            try:
                value = work(blobs)
            except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
                failure: BaseException = exc
                try:
                    pickle.dumps(exc)
                except Exception:  # noqa: BLE001 - an exception that does not pickle: send its text
                    import traceback  # noqa: PLC0415 - only on this rare path

                    failure = WorkerError("".join(traceback.format_exception(exc)))
                _send(stream, False, failure)
            else:
                _send(stream, True, value)
    except BaseException:  # noqa: BLE001 - the parent sees the missing result
        status = 1
    finally:
        os._exit(status)


@contextmanager
def worker(work: Callable[[Blobs], T], *, fork: bool = True) -> Iterator[Worker[T]]:
    """Start ``work`` (forked when ``fork`` and possible); the child is stopped if the block fails."""
    running = Worker(work, fork=fork)
    try:
        yield running
    finally:
        running.cancel()
