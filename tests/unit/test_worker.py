"""The forked worker: the same result as in-process, failures sent back, nothing left running."""

from __future__ import annotations

import gc
import os
import pickle
import signal
import tempfile
import threading
import time
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from mcpforge.handover import Blobs
from mcpforge.worker import Inbox, Worker, WorkerError, _reap_ended, can_fork, worker

needs_fork = pytest.mark.skipif(not can_fork(), reason="no fork on this platform")


def _pid_and_payload(_: Blobs) -> tuple[int, bytes]:
    return os.getpid(), b"x" * 5_000_000  # large: written in pieces, read back whole


@needs_fork
def test_forked_work_runs_in_another_process_and_returns_its_value() -> None:
    with worker(_pid_and_payload) as running:
        pid, payload = running.result()
    assert pid != os.getpid()
    assert payload == b"x" * 5_000_000


def test_work_not_forked_runs_here_when_its_result_is_asked_for() -> None:
    calls: list[int] = []

    def work(_: Blobs) -> int:
        calls.append(os.getpid())
        return 7

    running = Worker(work, fork=False)
    assert calls == []
    assert running.result() == 7
    assert calls == [os.getpid()]


@needs_fork
def test_an_exception_in_the_child_is_raised_in_the_parent() -> None:
    def fails(_: Blobs) -> None:
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
    def fails(_: Blobs) -> None:
        raise _Unpicklable(threading.Lock())

    with worker(fails) as running, pytest.raises(WorkerError, match="cannot travel"):
        running.result()


@needs_fork
def test_a_killed_child_is_reported_with_its_signal() -> None:
    def dies(_: Blobs) -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    with worker(dies) as running, pytest.raises(WorkerError, match="SIGKILL"):
        running.result()


@needs_fork
def test_leaving_the_block_early_stops_the_child(tmp_path: Path) -> None:
    marker = tmp_path / "pid"

    def forever(_: Blobs) -> None:
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
    running = Worker(lambda _: 1, fork=False)
    running.result()
    with pytest.raises(RuntimeError, match="already taken"):
        running.result()


@needs_fork
def test_the_parents_objects_are_collectable_again_after_the_fork() -> None:
    assert gc.get_freeze_count() == 0
    with worker(lambda _: 1) as running:
        assert gc.get_freeze_count() == 0  # frozen only across the fork itself
        assert running.result() == 1
    gc.freeze()  # a caller that freezes objects for its own reasons keeps them frozen
    try:
        frozen = gc.get_freeze_count()
        with worker(lambda _: 2) as running:
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
    with worker(lambda _: os.getpid()) as running:
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


def _blobs(blobs: Blobs) -> dict[str, Any]:
    big = blobs.write(b"m" * 1000 for _ in range(3000))
    return {"big": big, "small": blobs.write([]), "plain": [1, "two"], "again": big}


@needs_fork
def test_blobs_are_written_in_the_child_and_come_back_as_read_only_views_of_the_mapped_result() -> None:
    with worker(_blobs) as running:
        value = running.result()
    big = value["big"].content
    assert isinstance(big, memoryview) and big.readonly
    assert big == b"m" * 3_000_000 and bytes(value["small"].content) == b""
    assert value["plain"] == [1, "two"]
    assert value["again"] is value["big"]  # one blob, however often the result names it


def test_not_forked_the_blobs_hold_the_bytes_made() -> None:
    value = Worker(_blobs, fork=False).result()
    assert value["big"].content == b"m" * 3_000_000 and value["small"].content == b""


def test_a_blob_in_the_worker_is_only_a_place_in_its_file() -> None:
    with tempfile.TemporaryFile() as file, pytest.raises(RuntimeError, match="where the result arrives"):
        _ = Blobs(file).write([b"abc"]).content


def _sent(keep: int | None = None) -> tuple[bool, Any]:
    """A result sent into a file (as a child sends it), optionally cut to ``keep`` bytes, then received."""
    from mcpforge.handover import receive, reserve, send

    with tempfile.TemporaryFile() as file:
        send(file, True, _blobs(reserve(file)))
        file.flush()
        whole = file.seek(0, os.SEEK_END)
        if keep is not None:
            file.truncate(min(keep, whole - 1))
        return receive(file)


def test_a_result_read_back_from_its_file_is_the_one_sent() -> None:
    ok, value = _sent()
    assert ok and value["big"].content == b"m" * 3_000_000 and value["plain"] == [1, "two"]


@pytest.mark.parametrize("keep", [0, 5, 16, 40, 3_000_000])
def test_a_result_cut_short_is_reported_not_misread(keep: int) -> None:
    with pytest.raises((EOFError, ValueError, pickle.UnpicklingError)):
        _sent(keep)


def test_a_child_that_died_before_sending_leaves_no_result_to_misread() -> None:
    from mcpforge.handover import receive, reserve

    with tempfile.TemporaryFile() as file:
        reserve(file).write([b"half a manifest"])  # blobs written, then killed: no pickle, no header
        file.flush()
        with pytest.raises(EOFError):
            receive(file)


def _doubled_when_sent(inbox: Inbox[int], _: Blobs) -> tuple[int, int]:
    time.sleep(0.05)  # preparing: the value is sent meanwhile, and waits in its file
    return os.getpid(), 2 * inbox.receive()


@pytest.mark.parametrize("fork", [True, False])
def test_a_value_sent_after_the_work_started_reaches_it(fork: bool) -> None:
    inbox: Inbox[int] = Inbox()
    with worker(partial(_doubled_when_sent, inbox), fork=fork, inbox=inbox) as running:
        inbox.send(21)
        pid, doubled = running.result()
    assert doubled == 42
    assert (pid != os.getpid()) == (fork and can_fork())


@needs_fork
def test_a_large_value_is_sent_without_waiting_for_the_child_to_read_it() -> None:
    inbox: Inbox[bytes] = Inbox()

    def size_when_sent(_: Blobs) -> int:
        time.sleep(0.3)
        return len(inbox.receive())

    with worker(size_when_sent, inbox=inbox) as running:
        started = time.monotonic()
        inbox.send(b"v" * 20_000_000)  # far more than a pipe holds
        assert time.monotonic() - started < 0.25
        assert running.result() == 20_000_000


@needs_fork
def test_a_child_waiting_for_a_value_never_sent_ends_with_the_block() -> None:
    inbox: Inbox[int] = Inbox()
    with pytest.raises(RuntimeError, match="parent failed"), worker(partial(_doubled_when_sent, inbox), inbox=inbox):
        raise RuntimeError("parent failed")
    inbox = Inbox()
    with worker(partial(_doubled_when_sent, inbox), inbox=inbox) as running:
        inbox.close()  # nothing will come
        with pytest.raises(WorkerError, match="sent no value"):
            running.result()


@needs_fork
def test_a_worker_forked_later_does_not_keep_an_earlier_one_waiting_for_its_value() -> None:
    """The later child inherits the inbox's open end: it closes it, or the first child would wait for it."""
    inbox: Inbox[int] = Inbox()
    with worker(partial(_doubled_when_sent, inbox), inbox=inbox) as first, worker(lambda _: time.sleep(5)) as second:
        inbox.send(4)
        started = time.monotonic()
        assert first.result()[1] == 8
        assert time.monotonic() - started < 2
        second.cancel()


@needs_fork
def test_a_result_is_read_once_written_and_its_child_is_reaped_later() -> None:
    with worker(_pid_and_payload) as running:
        pid, _ = running.result()
    _reap_ended(block=True)
    with pytest.raises(ProcessLookupError):  # reaped: no zombie left behind
        os.kill(pid, 0)
