"""Signals as exceptions, and signals held back: how a run that writes or spawns cleans up on every signal.

By default SIGTERM and SIGHUP end Python at once, skipping every ``finally``: a half-written output
folder or an orphaned child process stays behind. Inside :func:`signals_raise` they (and Ctrl-C)
raise :class:`Signalled` instead, so clean-up code runs; inside :func:`signals_deferred` they wait
until a short critical step (swapping files into place) is over.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["SIGNALS", "Signalled", "leave_signals_to_the_main_thread", "signals_deferred", "signals_raise"]

SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class Signalled(BaseException):
    """A signal arrived; BaseException so that ``except Exception`` does not swallow it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


class _Deferral:
    """The signals that arrived inside :func:`signals_deferred` (main thread only); None outside it."""

    held: list[int] | None = None


def _raise(signum: int, frame: FrameType | None) -> None:
    if _Deferral.held is not None:  # a signal the kernel delivered before the block began, handled in it: later
        _Deferral.held.append(signum)
        return
    raise Signalled(signum)


@contextmanager
def signals_raise() -> Iterator[None]:
    """Within the block, SIGINT, SIGTERM and SIGHUP raise :class:`Signalled` (handlers only work in the main thread)."""
    if not _main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _raise) for sig in SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Within the block, SIGINT, SIGTERM and SIGHUP wait; the first raises :class:`Signalled` when it ends.

    Blocking them (POSIX) keeps new ones in the kernel; but Python runs a handler at its next step after
    the kernel delivered the signal, which may be inside the block: inside :func:`signals_raise` that
    handler then only notes it.
    """
    if not _main_thread() or _Deferral.held is not None:
        yield
        return
    _Deferral.held = []
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS) if hasattr(signal, "pthread_sigmask") else None
    try:
        yield
    finally:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # what waited in the kernel: noted, or raised below
        held, _Deferral.held = _Deferral.held, None
        if held:
            raise Signalled(held[0])


def leave_signals_to_the_main_thread() -> None:
    """In a helper thread: never take SIGINT, SIGTERM or SIGHUP (POSIX; a thread pool's initializer).

    The kernel hands a process's signal to any thread that does not block it, and Python then runs
    the handler in the main thread whatever that thread blocks: a helper thread (even one still
    exiting after a join) would break :func:`signals_deferred`.
    """
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
