"""The second core: one computation runs in a forked process while the caller does other work.

Generation is pure CPU work on data that already sits in memory. A forked child sees that data
without copying or pickling it, computes, and leaves only its result in an in-memory file that the
caller maps once the child has ended. Large parts of a result go as :class:`pickle.PickleBuffer`
(for the provider manifests: their bytes): they are written beside the pickle, not into it, and
come back as read-only ``memoryview`` slices of the mapped file, never copied into this process.
Where ``fork`` is missing or fails, or the caller asks not to fork, the computation runs
in-process when its result is asked for (its buffers then come back as they were made): the
result is the same either way, so output never depends on which path ran.
"""

from __future__ import annotations

import gc
import mmap
import os
import pickle
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, BinaryIO, Generic, TypeVar

__all__ = ["Worker", "WorkerError", "can_fork", "worker"]

T = TypeVar("T")


class WorkerError(RuntimeError):
    """The worker process failed without an exception that could be sent back (killed, out of memory)."""


def can_fork() -> bool:
    """Whether a worker may fork here: POSIX ``fork`` (not macOS, where system frameworks forbid it) and one thread."""
    return hasattr(os, "fork") and sys.platform != "darwin" and threading.active_count() == 1


class Worker(Generic[T]):
    """A computation under way in a forked child, or deferred until :meth:`result` when not forked."""

    def __init__(self, work: Callable[[], T], *, fork: bool) -> None:
        self._work: Callable[[], T] | None = work
        self._pid: int | None = None
        self._file: BinaryIO | None = None
        if fork and can_fork():
            self._start()

    def _start(self) -> None:
        assert self._work is not None
        # A file, not a pipe: the child writes its result without waiting for this process to read
        # (which it does only once its own work is done), and this process maps it instead of
        # reading it. Microsoft Graph's 110 MB of manifests took 0.3 s to hand over through a pipe
        # (the copies and the page faults of a fresh heap), 0.1 s this way.
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
            return work()
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


def _result_file() -> BinaryIO:
    """An anonymous file in memory where possible (Linux), else an unnamed temporary file."""
    if hasattr(os, "memfd_create"):
        with suppress(OSError):  # no memfd (old kernel, sandbox): a temporary file does the same
            return os.fdopen(os.memfd_create("mcpforge-worker", os.MFD_CLOEXEC), "w+b")
    return tempfile.TemporaryFile()


_SIZE = 8  # bytes of each number in the header


def _send(stream: BinaryIO, ok: bool, value: object) -> None:
    """Write ``(ok, value)``: a header (the pickle's size, each buffer's size), the pickle, the buffers."""
    buffers: list[pickle.PickleBuffer] = []
    payload = pickle.dumps((ok, value), protocol=5, buffer_callback=buffers.append)
    raws = [buffer.raw() for buffer in buffers]
    sizes = [len(payload), len(raws), *(raw.nbytes for raw in raws)]
    stream.write(b"".join(size.to_bytes(_SIZE, "little") for size in sizes))
    stream.write(payload)
    for raw in raws:  # straight from the worker's memory to the file: no joined copy
        stream.write(raw)


def _receive(file: BinaryIO) -> tuple[bool, Any]:
    """Read what :func:`_send` wrote, mapping the file: the buffers are slices of it, not copies."""
    size = os.fstat(file.fileno()).st_size
    if size == 0:
        raise EOFError("empty result file")
    view = memoryview(mmap.mmap(file.fileno(), size, access=mmap.ACCESS_READ))

    def number(index: int) -> int:  # the header's index-th number
        return int.from_bytes(view[index * _SIZE : (index + 1) * _SIZE], "little")

    payload_size, count = number(0), number(1)
    start = (2 + count) * _SIZE
    if start > size:
        raise EOFError("truncated result file")
    sizes = [number(2 + i) for i in range(count)]
    if start + payload_size + sum(sizes) != size:
        raise EOFError("truncated result file")
    payload = view[start : start + payload_size]
    buffers, offset = [], start + payload_size
    for length in sizes:
        buffers.append(view[offset : offset + length])
        offset += length
    ok, value = pickle.loads(payload, buffers=buffers)  # noqa: S301 - our own child's output, in our own file
    return bool(ok), value


def _child(work: Callable[[], object], file: BinaryIO) -> None:
    """Run ``work`` and pickle ``(ok, value)`` into ``file``; never returns."""
    status = 0
    try:
        # The parent handles Ctrl-C and SIGTERM (and kills this child): here they simply end the process.
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        with file as stream:
            try:
                value = work()
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
def worker(work: Callable[[], T], *, fork: bool = True) -> Iterator[Worker[T]]:
    """Start ``work`` (forked when ``fork`` and possible); the child is stopped if the block fails."""
    running = Worker(work, fork=fork)
    try:
        yield running
    finally:
        running.cancel()
