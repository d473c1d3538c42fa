"""The forked worker: the same result as in-process, failures sent back, nothing left running."""

from __future__ import annotations

import gc
import os
import pickle
import signal
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from mcpforge.worker import Worker, WorkerError, can_fork, worker

needs_fork = pytest.mark.skipif(not can_fork(), reason="no fork on this platform")


def _pid_and_payload() -> tuple[int, bytes]:
    return os.getpid(), b"x" * 5_000_000  # large: written in pieces, read back whole


@needs_fork
def test_forked_work_runs_in_another_process_and_returns_its_value() -> None:
    with worker(_pid_and_payload) as running:
        pid, payload = running.result()
    assert pid != os.getpid()
    assert payload == b"x" * 5_000_000


def test_work_not_forked_runs_here_when_its_result_is_asked_for() -> None:
    calls: list[int] = []

    def work() -> int:
        calls.append(os.getpid())
        return 7

    running = Worker(work, fork=False)
    assert calls == []
    assert running.result() == 7
    assert calls == [os.getpid()]


@needs_fork
def test_an_exception_in_the_child_is_raised_in_the_parent() -> None:
    def fails() -> None:
        raise ValueError("bad value at /paths/~1pets")

    with worker(fails) as running, pytest.raises(ValueError, match="/paths/~1pets"):
        running.result()


class _Unpicklable(Exception):
    def __init__(self, handle: object) -> None:
        super().__init__("cannot travel")
        self.handle = handle

    def __reduce__(self) -> tuple[object, ...]:
        raise TypeError("no pickling")


@needs_fork
def test_an_exception_that_cannot_be_pickled_comes_back_as_its_traceback_text() -> None:
    def fails() -> None:
        raise _Unpicklable(threading.Lock())

    with worker(fails) as running, pytest.raises(WorkerError, match="cannot travel"):
        running.result()


@needs_fork
def test_a_killed_child_is_reported_with_its_signal() -> None:
    def dies() -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    with worker(dies) as running, pytest.raises(WorkerError, match="SIGKILL"):
        running.result()


@needs_fork
def test_leaving_the_block_early_stops_the_child(tmp_path: Path) -> None:
    marker = tmp_path / "pid"

    def forever() -> None:
        marker.write_text(str(os.getpid()))
        time.sleep(600)

    with pytest.raises(RuntimeError, match="parent failed"), worker(forever):
        deadline = time.monotonic() + 10
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        raise RuntimeError("parent failed")
    child = int(marker.read_text())
    with pytest.raises(ProcessLookupError):  # killed and reaped: no zombie either
        os.kill(child, 0)


def test_a_result_is_taken_once() -> None:
    running = Worker(lambda: 1, fork=False)
    running.result()
    with pytest.raises(RuntimeError, match="already taken"):
        running.result()


@needs_fork
def test_the_parents_objects_are_collectable_again_after_the_fork() -> None:
    assert gc.get_freeze_count() == 0
    with worker(lambda: 1) as running:
        assert gc.get_freeze_count() == 0  # frozen only across the fork itself
        assert running.result() == 1
    gc.freeze()  # a caller that freezes objects for its own reasons keeps them frozen
    try:
        frozen = gc.get_freeze_count()
        with worker(lambda: 2) as running:
            assert running.result() == 2
        assert gc.get_freeze_count() >= frozen
    finally:
        gc.unfreeze()


@needs_fork
def test_when_fork_fails_the_work_runs_here(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    opened = len(os.listdir("/proc/self/fd"))
    with worker(os.getpid) as running:
        assert running.result() == os.getpid()
    assert len(os.listdir("/proc/self/fd")) == opened  # the result file was closed
    assert gc.get_freeze_count() == 0


@needs_fork
def test_without_an_in_memory_file_the_result_comes_through_a_temporary_file(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_memfd(*_: object) -> int:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(os, "memfd_create", no_memfd, raising=False)
    with worker(_pid_and_payload) as running:
        pid, payload = running.result()
    assert pid != os.getpid()
    assert payload == b"x" * 5_000_000


def _buffers() -> dict[str, Any]:
    return {"big": pickle.PickleBuffer(b"m" * 3_000_000), "small": pickle.PickleBuffer(b""), "plain": [1, "two"]}


@needs_fork
def test_buffers_come_back_as_read_only_views_of_the_mapped_result_not_copies() -> None:
    with worker(_buffers) as running:
        value = running.result()
    assert isinstance(value["big"], memoryview) and value["big"].readonly
    assert value["big"] == b"m" * 3_000_000 and bytes(value["small"]) == b""
    assert value["plain"] == [1, "two"]


def test_not_forked_the_buffers_are_the_ones_made() -> None:
    value = Worker(_buffers, fork=False).result()
    assert memoryview(value["big"]) == b"m" * 3_000_000


@pytest.mark.parametrize("keep", [0, 5, 20, 40, 3_000_000])
def test_a_result_cut_short_is_reported_not_misread(keep: int) -> None:
    from mcpforge.worker import _receive, _send

    with tempfile.TemporaryFile() as file:
        _send(file, True, _buffers())
        file.flush()
        whole = file.tell()
        file.truncate(min(keep, whole - 1))
        with pytest.raises((EOFError, ValueError, pickle.UnpicklingError)):
            _receive(file)
