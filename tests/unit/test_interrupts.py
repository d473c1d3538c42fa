"""Signals and helper threads: the main thread alone takes SIGINT, SIGTERM and SIGHUP."""

from __future__ import annotations

import signal
import threading

import pytest

from mcpforge.output.interrupts import SIGNALS, leave_signals_to_the_main_thread

needs_masks = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")


@needs_masks
def test_a_helper_thread_blocks_the_signals_and_the_main_thread_does_not() -> None:
    seen: list[set[int]] = []

    def helper() -> None:
        leave_signals_to_the_main_thread()
        seen.append(set(signal.pthread_sigmask(signal.SIG_BLOCK, [])))

    thread = threading.Thread(target=helper)
    thread.start()
    thread.join()
    assert set(SIGNALS) <= seen[0]
    assert not set(SIGNALS) & set(signal.pthread_sigmask(signal.SIG_BLOCK, []))
