"""The second core: one computation runs in a forked process while the caller does other work.

Generation is pure CPU work on data that already sits in memory. A forked child sees that data
without copying or pickling it, computes, and sends back only its result (for the provider
manifests: bytes, which pickle at the speed of a copy). Where ``fork`` is missing or fails, or
the caller asks not to fork, the computation runs in-process when its result is asked for: the
result is the same either way, so output never depends on which path ran.
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Generic, TypeVar

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
        self._reader: int | None = None
        if fork and can_fork():
            self._start()

    def _start(self) -> None:
        assert self._work is not None
        reader, writer = os.pipe()
        # Frozen objects are never scanned by the collector: in the child, the parent's objects then
        # stay untouched (a page the child writes, even a reference count, is copied: slow in a VM).
        frozen_before = gc.get_freeze_count()
        gc.freeze()
        try:
            pid = os.fork()
        except OSError:  # no process to spare (EAGAIN, ENOMEM): the work runs here instead
            pid = -1
        if pid == 0:  # the child: compute, send, and leave without running the parent's clean-up
            os.close(reader)
            _child(self._work, writer)
        if not frozen_before:  # a caller that froze objects itself keeps them frozen
            gc.unfreeze()
        os.close(writer)
        if pid < 0:
            os.close(reader)
            return
        self._pid, self._reader, self._work = pid, reader, None

    def result(self) -> T:
        """The computation's value (waits for the child); its exception is raised here."""
        if self._work is not None:
            work, self._work = self._work, None
            return work()
        if self._reader is None:
            raise RuntimeError("the worker's result was already taken")
        reader, self._reader = self._reader, None
        try:
            with os.fdopen(reader, "rb") as stream:
                ok, value = pickle.load(stream)  # noqa: S301 - our own child's output, over our own pipe
        except (EOFError, ValueError, pickle.UnpicklingError) as exc:
            status = self._reap()
            raise WorkerError(f"the worker process ended without a result ({_describe(status)})") from exc
        self._reap()
        if not ok:
            raise value
        result: T = value
        return result

    def cancel(self) -> None:
        """Stop the child if it is still running (nothing happens when the work was not forked)."""
        self._work = None
        if self._reader is not None:
            os.close(self._reader)
            self._reader = None
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


def _child(work: Callable[[], object], writer: int) -> None:
    """Run ``work`` and pickle ``(ok, value)`` into ``writer``; never returns."""
    status = 0
    try:
        # The parent handles Ctrl-C and SIGTERM (and kills this child): here they simply end the process.
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        with os.fdopen(writer, "wb") as stream:
            try:
                value = work()
            except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
                try:
                    payload = pickle.dumps((False, exc))
                except Exception:  # noqa: BLE001 - an exception that does not pickle: send its text
                    payload = pickle.dumps((False, WorkerError("".join(traceback.format_exception(exc)))))
                stream.write(payload)
            else:
                # Streamed: large bytes go to the pipe without a second copy in memory.
                pickle.dump((True, value), stream, protocol=pickle.HIGHEST_PROTOCOL)
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
