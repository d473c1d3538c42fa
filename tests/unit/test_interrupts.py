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


def test_a_signal_inside_a_deferred_block_is_raised_when_it_ends() -> None:
    from mcpforge.output.interrupts import Signalled, signals_deferred, signals_raise

    steps: list[str] = []
    with pytest.raises(Signalled) as raised, signals_raise():
        with signals_deferred():
            signal.raise_signal(signal.SIGTERM)
            steps.append("still running")
        steps.append("after the block")
    assert steps == ["still running"] and raised.value.signum == signal.SIGTERM


def test_a_signal_the_kernel_delivered_before_the_block_is_noted_inside_it() -> None:
    """Python may run a handler at its next step inside the block, for a signal delivered just before it."""
    from mcpforge.output import interrupts

    steps: list[str] = []
    with pytest.raises(interrupts.Signalled), interrupts.signals_raise(), interrupts.signals_deferred():
        interrupts._raise(signal.SIGINT, None)  # what the handler does when Python runs it here
        steps.append("still running")
    assert steps == ["still running"]
