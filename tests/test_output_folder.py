"""Writing output into any folder: ``.``, a symlinked folder, a mount point; local files kept; every interrupt safe.

Interrupts are real signals, sent by the writing process to itself at a chosen step (the n-th file
written to staging, or the n-th rename of the swap), so each moment is hit every time.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from mcpforge.output.write import BACKUP, STAGING, write_tree
from mcpforge.project.files import RenderedFile
from mcpforge.project.lock import LOCK_FILE

PETSTORE = FIXTURES / "golden" / "petstore_30" / "openapi.yaml"
MCPFORGE = [sys.executable, "-m", "mcpforge"]


def mcpforge(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [*MCPFORGE, *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=120, check=False
    )


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".venv" not in p.parts
    }


def lock_file(paths: list[str]) -> RenderedFile:
    return RenderedFile(LOCK_FILE, (json.dumps({"tools": {}, "files": sorted([*paths, LOCK_FILE])}) + "\n").encode())


def files(version: str, count: int = 12) -> list[RenderedFile]:
    made = [RenderedFile(f"src/pkg/m{i}.py", f"# {version} {i}\n".encode()) for i in range(count)]
    made.append(RenderedFile(f"only-{version}.txt", version.encode()))
    return [*made, lock_file([f.path for f in made])]


def test_dot_in_a_folder_holding_the_spec_and_local_files(tmp_path: Path) -> None:
    shutil.copy(PETSTORE, tmp_path / "openapi.yaml")
    first = mcpforge("generate", "openapi.yaml", "-o", ".", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    inode = tmp_path.stat().st_ino
    for local in (".venv/bin/python", "__pycache__/x.pyc", ".git/HEAD", ".DS_Store", "x.egg-info/PKG-INFO", ".env"):
        (tmp_path / local).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / local).write_text("mine")
    again = mcpforge("generate", "openapi.yaml", "-o", ".", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "0 file(s) written" in again.stdout  # nothing changed, nothing rewritten
    assert tmp_path.stat().st_ino == inode and (tmp_path / ".venv/bin/python").read_text() == "mine"
    assert (tmp_path / ".env").read_text() == "mine" and (tmp_path / "openapi.yaml").is_file()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".mcpforge-")]
    (tmp_path / "notes.txt").write_text("mine")  # anything else is still refused...
    refused = mcpforge("generate", "openapi.yaml", "-o", ".", cwd=tmp_path)
    assert refused.returncode == 1 and "notes.txt" in refused.stderr and "Traceback" not in refused.stderr
    forced = mcpforge("generate", "openapi.yaml", "-o", ".", "--force", cwd=tmp_path)
    assert forced.returncode == 0 and (tmp_path / "notes.txt").read_text() == "mine"  # ...and kept by --force


def test_an_input_inside_the_output_is_never_overwritten(tmp_path: Path) -> None:
    shutil.copy(PETSTORE, tmp_path / "README.md")  # a spec named like a generated file
    result = mcpforge("generate", "README.md", "-o", ".", cwd=tmp_path)
    assert result.returncode == 1 and "would overwrite an input" in result.stderr
    assert (tmp_path / "README.md").read_bytes() == PETSTORE.read_bytes()


def test_a_symlinked_output_folder_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real, target_is_directory=True)
    for _ in range(2):
        result = mcpforge("generate", str(PETSTORE), "-o", "link", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
    assert (tmp_path / "link").is_symlink() and (real / "mcpforge.lock").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "real"]


def test_an_empty_mount_point(tmp_path: Path) -> None:
    """A container volume: the folder cannot be renamed (EBUSY); files inside it can."""
    mount = tmp_path / "volume"
    mount.mkdir()
    namespace = ["unshare", "--mount"] + ([] if os.geteuid() == 0 else ["--map-root-user"])
    script = (
        f"mount -t tmpfs mcpforge-test {mount} && "
        f"{' '.join(MCPFORGE)} generate {PETSTORE} -o {mount} && "
        f"{' '.join(MCPFORGE)} generate {PETSTORE} -o {mount} --description-max 100 && "
        f"mountpoint -q {mount} && test -f {mount}/mcpforge.lock"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run(
        [*namespace, "sh", "-c", script], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "Device or resource busy" not in result.stderr


def test_files_a_run_no_longer_generates_are_removed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_tree(files("old"), out)
    report = write_tree(files("new", count=10), out)
    assert not (out / "only-old.txt").exists() and not (out / "src/pkg/m11.py").exists()
    assert "only-old.txt" in report.removed and tree(out) == {f.path: f.data for f in files("new", count=10)}


INTERRUPT = textwrap.dedent("""
    import os, signal, sys, json, time
    from pathlib import Path
    from mcpforge.output import write
    from mcpforge.project.files import RenderedFile
    from mcpforge.errors import MCPForgeError

    out, step, at, how = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
    new = [RenderedFile(p, d.encode("latin-1")) for p, d in json.loads(sys.stdin.read())]
    calls = 0

    def strike():
        global calls
        calls += 1
        if calls == at:
            if how == "error":
                raise OSError(28, "No space left on device")
            os.kill(os.getpid(), getattr(signal, how))
            time.sleep(0.5)  # in either thread: the main thread takes the signal before the staging can end

    if step == "staging":
        original = Path.write_bytes
        def write_bytes(self, data):
            strike()
            return original(self, data)
        Path.write_bytes = write_bytes
    else:
        original_replace = os.replace
        def replace(src, dst):
            if ".mcpforge-new" in str(src):
                strike()
            return original_replace(src, dst)
        write.os.replace = replace
    try:
        write.write_tree(new, out)
    except MCPForgeError as exc:
        print(exc.render(), file=sys.stderr)
        sys.exit(exc.exit_status)
    """)


def interrupted(out: Path, step: str, at: int, how: str) -> subprocess.CompletedProcess[str]:
    new = json.dumps([(f.path, f.data.decode("latin-1")) for f in files("new")])
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, "-c", INTERRUPT, str(out), step, str(at), how],
        input=new,
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM", "SIGHUP", "error"])
def test_an_interrupt_while_staging_leaves_the_old_output(tmp_path: Path, how: str) -> None:
    out = tmp_path / "out"
    write_tree(files("old"), out)
    before = tree(out)
    result = interrupted(out, "staging", 5, how)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "was left as it was" in result.stderr
    assert tree(out) == before and not (out / STAGING).exists() and not (out / BACKUP).exists()


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_a_signal_during_the_swap_waits_until_the_new_output_is_complete(tmp_path: Path, how: str) -> None:
    out = tmp_path / "out"
    write_tree(files("old"), out)
    result = interrupted(out, "swap", 3, how)
    assert result.returncode == 128 + {"SIGINT": 2, "SIGTERM": 15}[how], result.stderr
    assert "the new output is complete" in result.stderr
    assert tree(out) == {f.path: f.data for f in files("new")}
    assert not (out / STAGING).exists() and not (out / BACKUP).exists()


def test_an_error_during_the_swap_restores_the_old_output(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_tree(files("old"), out)
    before = tree(out)
    result = interrupted(out, "swap", 4, "error")
    assert result.returncode == 1 and "No space left on device" in result.stderr
    assert tree(out) == before and not (out / STAGING).exists() and not (out / BACKUP).exists()


SLOW_HELPER = textwrap.dedent("""
    import os, signal, sys, threading, time
    from pathlib import Path
    from mcpforge.output import write
    from mcpforge.project.files import RenderedFile
    from mcpforge.errors import MCPForgeError

    out = Path(sys.argv[1])
    helper_writing = threading.Event()
    original = Path.write_bytes

    def write_bytes(self, data):
        if threading.current_thread() is threading.main_thread():
            helper_writing.wait(10)  # the helper has a file first; this thread then writes the rest at once
            return original(self, data)
        helper_writing.set()
        threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()  # while this thread still writes
        time.sleep(0.6)
        result = original(self, data)
        print("helper done", file=sys.stderr, flush=True)
        return result

    Path.write_bytes = write_bytes
    new = [RenderedFile(f"f{i}.txt", b"new" * (10 - i)) for i in range(6)]
    try:
        write.write_tree(new, out)
    except MCPForgeError as exc:
        print("stopped", file=sys.stderr, flush=True)
        print(exc.render(), file=sys.stderr)
        sys.exit(exc.exit_status)
    """)


def test_a_signal_while_the_helper_still_writes_waits_for_its_file(tmp_path: Path) -> None:
    """Ctrl-C while this thread waits for the writing helper: staging is removed only once the helper is done."""
    out = tmp_path / "out"
    write_tree(files("old"), out)
    before = tree(out)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run(
        [sys.executable, "-c", SLOW_HELPER, str(out)],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 130, result.stderr
    lines = result.stderr.splitlines()
    assert lines[:2] == ["helper done", "stopped"], result.stderr
    assert "was left as it was" in result.stderr
    assert tree(out) == before and not (out / STAGING).exists() and not (out / BACKUP).exists()


def test_a_run_killed_mid_swap_is_repaired_by_the_next_one(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_tree(files("old"), out)
    before = tree(out)
    result = interrupted(out, "swap", 4, "SIGKILL")
    assert result.returncode == -9
    assert (out / BACKUP).exists() and tree(out) != before  # a mix of old and new, and the journal
    report = write_tree(files("old"), out)
    assert report.recovered is not None and "restored the previous output" in report.recovered
    assert tree(out) == before and report.written == ()  # restored exactly: nothing left to write
    assert not (out / STAGING).exists() and not (out / BACKUP).exists()
