"""``mcpforge tools`` against servers that never answer: a time-out, and no child process left on any signal."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT

SILENT = "import time, os, pathlib, sys\npathlib.Path(sys.argv[1]).write_text(str(os.getpid()))\ntime.sleep(3600)\n"


def start(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[str], Path]:
    server = tmp_path / "silent.py"
    server.write_text(SILENT)
    pid_file = tmp_path / "child.pid"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    process = subprocess.Popen(
        [sys.executable, "-m", "mcpforge", "tools", "--stdio", f"silent={sys.executable} {server} {pid_file}", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    return process, pid_file


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead but not yet reaped by its parent (gone with it): read its state.
    state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][:1] if Path(f"/proc/{pid}").exists() else "X"
    return state not in ("Z", "X")


def child_pid(pid_file: Path) -> int:
    deadline = time.monotonic() + 30
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < deadline, "the server never started"
        time.sleep(0.05)
    return int(pid_file.read_text())


def test_a_server_that_never_answers_times_out_and_is_stopped(tmp_path: Path) -> None:
    process, pid_file = start(tmp_path, "--timeout", "2")
    child = child_pid(pid_file)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 1
    assert "server 'silent': no answer within 2 s" in err and "Traceback" not in err
    time.sleep(0.5)
    assert not alive(child)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_every_signal_stops_the_server_processes(tmp_path: Path, signum: signal.Signals) -> None:
    process, pid_file = start(tmp_path, "--timeout", "0")  # 0: wait for ever, so only the signal ends it
    child = child_pid(pid_file)
    time.sleep(0.5)  # the session is waiting for the server's answer
    process.send_signal(signum)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signum, err
    assert f"interrupted by {signum.name}" in err
    time.sleep(0.5)
    assert not alive(child)
