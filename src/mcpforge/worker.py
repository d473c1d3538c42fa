"""The second core: computations run in forked processes while the caller does other work.

Generation is pure CPU work on data that already sits in memory. A forked child sees that data
without copying or pickling it, computes, and leaves only its result in an in-memory file that the
caller maps as soon as it is written (:mod:`mcpforge.handover`). Large parts of a result (the
provider manifests) are written through :class:`~mcpforge.handover.Blobs` straight into that
file while they are made, never held whole in the child's memory, and never copied into this
process. A computation started early can be sent its input later (:class:`Inbox`). Where
``fork`` is missing or fails, or the caller asks not to fork, the computation runs in-process
when its result is asked for (its blobs then hold the bytes made): the result is the same either
way, so output never depends on which path ran.
"""

from __future__ import annotations

import atexit
import gc
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, BinaryIO, Generic, TypeVar

from mcpforge import handover
from mcpforge.handover import Blobs

__all__ = ["Inbox", "Worker", "WorkerError", "can_fork", "worker"]

T = TypeVar("T")
V = TypeVar("V")


class WorkerError(RuntimeError):
    """The worker process failed without an exception that could be sent back (killed, out of memory)."""


def can_fork() -> bool:
    """Whether a worker may fork here: POSIX ``fork`` (not macOS, where system frameworks forbid it) and one thread."""
    return hasattr(os, "fork") and sys.platform != "darwin" and threading.active_count() == 1


# The write ends of the inboxes of this process's running workers. A child forked while one is
# open closes its copy at once: a child waiting for its value reads until every copy is closed.
_CALLER_ENDS: set[int] = set()


class Inbox(Generic[V]):
    """One value a computation receives after it started: it can prepare first, and wait for it then.

    Given to :class:`Worker`: when the work is forked, the value travels through an in-memory file
    that :meth:`send` writes without waiting for the child to read it, and a pipe tells the child
    when it is there; else the value is simply kept.
    """

    def __init__(self) -> None:
        self._value: tuple[V] | None = None
        self._file: BinaryIO | None = None  # forked: where the value is written
        self._pipe: tuple[int, int] | None = None  # forked: closed by the caller once the value is written

    def _forking(self) -> None:
        self._file, self._pipe = handover.new_file(), os.pipe()

    def _forked(self, *, child: bool) -> None:
        """Keep this process's end of the pipe: the child reads, the caller closes."""
        assert self._pipe is not None
        read, write = self._pipe
        os.close(write if child else read)
        self._pipe = (read, -1) if child else (-1, write)
        if not child:
            _CALLER_ENDS.add(write)

    def _not_forked(self) -> None:
        """``fork`` failed: the value will be kept here."""
        assert self._pipe is not None and self._file is not None
        for end in self._pipe:
            os.close(end)
        self._file.close()
        self._file, self._pipe = None, None

    def send(self, value: V) -> None:
        """Give the computation its value."""
        if self._file is None:
            self._value = (value,)
            return
        with self._file as file:  # the child has its own copy of the file
            handover.reserve(file)  # the file's layout is a result's, with no blobs
            handover.send(file, True, value)
        self.close()

    def close(self) -> None:
        """Send nothing more: a forked computation still waiting for its value stops waiting."""
        if self._file is not None and self._pipe is not None and self._pipe[1] >= 0:
            self._file.close()
            _CALLER_ENDS.discard(self._pipe[1])
            os.close(self._pipe[1])
            self._pipe = (self._pipe[0], -1)

    def receive(self) -> V:
        """The value, once it was sent (a forked child waits for it here)."""
        if self._file is None or self._pipe is None:
            if self._value is None:
                raise RuntimeError("no value was sent")
            return self._value[0]
        _until_closed(self._pipe[0])
        try:
            _, value = handover.receive(self._file)
        except EOFError:
            raise WorkerError("the caller sent no value") from None
        received: V = value
        return received


class Worker(Generic[T]):
    """A computation under way in a forked child, or deferred until :meth:`result` when not forked.

    The computation is given the :class:`Blobs` its large byte strings go through, and may wait
    for a value from ``inbox`` (sent with :meth:`Inbox.send`) after preparing its work.
    """

    def __init__(self, work: Callable[[Blobs], T], *, fork: bool, inbox: Inbox[Any] | None = None) -> None:
        self._work: Callable[[Blobs], T] | None = work
        self._pid: int | None = None
        self._file: BinaryIO | None = None
        self._done: int | None = None  # read end of a pipe the child closes once its result is written
        self._inbox = inbox
        if fork and can_fork():
            _reap_ended()
            self._start()

    def _start(self) -> None:
        assert self._work is not None
        # A file, not a pipe: the child writes its result without waiting for this process to read
        # (which it does only once its own work is done), and this process maps it instead of
        # reading it. Microsoft Graph's 110 MB of manifests took 0.3 s to hand over through a pipe
        # (the copies and the page faults of a fresh heap), 0.02-0.05 s streamed into a file.
        file = handover.new_file()
        # The child closes its end of this pipe as soon as its result is written (or when it dies):
        # the result is read then, not once the child has exited. Ending a process that shares
        # this one's memory takes a while (GitHub: 8 ms; Microsoft Graph: 15 ms), and nothing needs
        # to wait for it.
        done, child_done = os.pipe()
        if self._inbox is not None:
            self._inbox._forking()
        # Frozen objects are never scanned by the collector: in the child, the parent's objects then
        # stay untouched (a page the child writes, even a reference count, is copied: slow in a VM).
        frozen_before = gc.get_freeze_count()
        gc.freeze()
        try:
            pid = os.fork()
        except OSError:  # no process to spare (EAGAIN, ENOMEM): the work runs here instead
            pid = -1
        if pid == 0:  # the child: compute, write, and leave without running the parent's clean-up
            os.close(done)
            for end in _CALLER_ENDS:  # another worker's: its child must see this process's end close
                os.close(end)
            _CALLER_ENDS.clear()
            if self._inbox is not None:
                self._inbox._forked(child=True)
            _child(self._work, file, child_done)
        os.close(child_done)
        if not frozen_before:  # a caller that froze objects itself keeps them frozen
            gc.unfreeze()
        if pid < 0:
            os.close(done)
            file.close()
            if self._inbox is not None:
                self._inbox._not_forked()
            return
        if self._inbox is not None:
            self._inbox._forked(child=False)
        self._pid, self._file, self._done, self._work = pid, file, done, None

    def result(self) -> T:
        """The computation's value (waits for the child); its exception is raised here."""
        if self._work is not None:
            work, self._work = self._work, None
            return work(Blobs())
        if self._file is None:
            raise RuntimeError("the worker's result was already taken")
        file, self._file = self._file, None
        self._wait_done()
        with file:
            try:
                ok, value = handover.receive(file)
            except (EOFError, ValueError, pickle.UnpicklingError) as exc:
                status = self._reap()  # it died: its end is near, and how it ended explains why
                raise WorkerError(f"the worker process ended without a result ({_describe(status)})") from exc
        self._reap(wait=False)
        if not ok:
            raise value
        result: T = value
        return result

    def _wait_done(self) -> None:
        """Block until the child has closed its end of the pipe: its result is complete, or it died."""
        done, self._done = self._done, None
        if done is None:
            return
        try:
            _until_closed(done)
        finally:
            os.close(done)

    def cancel(self) -> None:
        """Stop the child if it is still running (nothing happens when the work was not forked)."""
        self._work = None
        if self._inbox is not None:
            self._inbox.close()
        if self._done is not None:
            os.close(self._done)
            self._done = None
        if self._file is not None:
            self._file.close()
            self._file = None
        if self._pid is not None:
            with suppress(ProcessLookupError):  # already gone
                os.kill(self._pid, signal.SIGKILL)
            self._reap()

    def _reap(self, *, wait: bool = True) -> int:
        """The child's exit status; without ``wait``, a child still ending is reaped later (:func:`_reap_ended`)."""
        pid, self._pid = self._pid, None
        if pid is None:
            return 0
        if wait:
            return os.waitpid(pid, 0)[1]
        _ENDING.append(pid)
        _reap_ended()
        return 0


# Children whose result was read while they were still ending: reaped when a worker starts, and
# when the interpreter exits, so that no zombie outlives a long-lived caller's next run.
_ENDING: list[int] = []


def _reap_ended(*, block: bool = False) -> None:
    for pid in list(_ENDING):
        try:
            ended, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
        except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored, or a caller's own waitpid)
            ended = pid
        if ended:
            _ENDING.remove(pid)


atexit.register(_reap_ended, block=True)


def _until_closed(read_end: int) -> None:
    """Block until every write end of a pipe is closed: nothing is ever written on these pipes."""
    while os.read(read_end, 1):
        pass


def _describe(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"


def _child(work: Callable[[Blobs], object], file: BinaryIO, done: int) -> None:
    """Run ``work``, pickle ``(ok, value)`` into ``file``, then close ``done``; never returns."""
    status = 0
    try:
        # The parent handles Ctrl-C and SIGTERM (and kills this child): here they simply end the process.
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        with file as stream:
            blobs = handover.reserve(stream)
            try:
                value = work(blobs)
            except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
                failure: BaseException = exc
                try:
                    pickle.dumps(exc)
                except Exception:  # noqa: BLE001 - an exception that does not pickle: send its text
                    import traceback  # noqa: PLC0415 - only on this rare path

                    failure = WorkerError("".join(traceback.format_exception(exc)))
                handover.send(stream, False, failure)
            else:
                handover.send(stream, True, value)
        os.close(done)  # the file is closed (written out): the parent reads it now, while this process ends
    except BaseException:  # noqa: BLE001 - the parent sees the missing result
        status = 1
    finally:
        os._exit(status)


@contextmanager
def worker(work: Callable[[Blobs], T], *, fork: bool = True, inbox: Inbox[Any] | None = None) -> Iterator[Worker[T]]:
    """Start ``work`` (forked when ``fork`` and possible); the child is stopped if the block fails."""
    running = Worker(work, fork=fork, inbox=inbox)
    try:
        yield running
    finally:
        running.cancel()
