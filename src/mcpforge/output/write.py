"""Writing output: files replaced in place, all of them or none, never over files mcpforge did not write.

The folder itself is never replaced (it may be ``.``, a mount point or a symbolic link, which
stays). A run works inside it:

1. the changed files are written to ``.mcpforge-new/`` (same file system, so renames are atomic);
2. a journal is written to ``.mcpforge-old/``; then, with signals held back, each replaced or
   obsolete file is moved to ``.mcpforge-old/`` and each new one renamed into place;
3. the journal is deleted (the commit point), then both working folders.

Ctrl-C, SIGTERM, SIGHUP or an error before step 3 restores the previous files. A run killed
outright (SIGKILL, power loss) leaves the working folders; the next run finds them, restores the
previous output from the journal, and says so. Files identical to the new ones are not touched.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mcpforge.errors import Interrupted, OutputError
from mcpforge.output.interrupts import Signalled, leave_signals_to_the_main_thread, signals_deferred, signals_raise
from mcpforge.output.local import LOCAL_PATTERNS, WORK_PREFIX, walk_files
from mcpforge.project.files import RenderedFile
from mcpforge.project.lock import LOCK_FILE, Lock, read_lock

__all__ = ["BACKUP", "STAGING", "OutputFolder", "WriteReport", "write_tree"]

STAGING = WORK_PREFIX + "new"
BACKUP = WORK_PREFIX + "old"
_JOURNAL = "journal.json"


@dataclass(frozen=True, slots=True)
class WriteReport:
    """What a write changed."""

    written: tuple[str, ...]  # new or changed files
    unchanged: int
    removed: tuple[str, ...]  # files of the previous run that this one no longer generates
    recovered: str | None = None  # what was done about an earlier interrupted run


def _shown(paths: Sequence[str]) -> str:
    return ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")


def _inside(paths: Iterable[Path], out_dir: Path) -> set[str]:
    """``paths`` (inputs of this run) that lie inside ``out_dir``, relative to it."""
    root = out_dir.resolve()
    found = set()
    for path in paths:
        try:
            found.add(path.resolve().relative_to(root).as_posix())
        except ValueError:
            continue
    return found


def _prepare(out_dir: Path) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError(f"{out_dir} exists and is not a directory", hint="choose another output path")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create {out_dir}: {exc.strerror or exc}") from None


def _move(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(source, target)


def _exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def _restore(out_dir: Path, placed: Sequence[str], removed: Sequence[str]) -> None:
    """Undo a swap: new files out, the previous ones back (what is in ``.mcpforge-old``)."""
    staging, backup = out_dir / STAGING, out_dir / BACKUP
    for path in placed:
        if not _exists(staging / path) and _exists(out_dir / path):
            (out_dir / path).unlink()  # renamed into place: this is the new file
    for path in [*placed, *removed]:
        if _exists(backup / path):
            _move(backup / path, out_dir / path)


def _recover(out_dir: Path) -> str | None:
    """Clean up after a run that was killed; restore the previous output if it died mid-swap."""
    staging, backup = out_dir / STAGING, out_dir / BACKUP
    if not _exists(staging) and not _exists(backup):
        return None
    message = f"removed the working folders of an earlier interrupted run from {out_dir}"
    journal = backup / _JOURNAL
    if journal.is_file():
        try:
            data = json.loads(journal.read_text(encoding="utf-8"))
            placed, removed = list(data["placed"]), list(data["removed"])
        except (OSError, ValueError, KeyError, TypeError):
            raise OutputError(
                f"{journal} is damaged: an earlier run was killed while replacing files",
                hint=f"restore {out_dir} from version control (or delete it), then remove {staging} and {backup}",
            ) from None
        _restore(out_dir, placed, removed)
        message = f"an earlier run was killed while replacing files; restored the previous output of {out_dir}"
    shutil.rmtree(staging, ignore_errors=True)
    shutil.rmtree(backup, ignore_errors=True)
    return message


def _check_foreign(out_dir: Path, new: set[str], previous: set[str], inputs: set[str], *, force: bool) -> None:
    clobbered = sorted(inputs & new)
    if clobbered:
        raise OutputError(
            f"writing {out_dir} would overwrite an input of this run ({_shown(clobbered)})",
            hint="move the input out of the output folder, or choose another output folder",
        )
    foreign = sorted(set(walk_files(out_dir)) - previous - {LOCK_FILE} - inputs)
    if foreign and not force:
        raise OutputError(
            f"{out_dir} holds files mcpforge did not write ({_shown(foreign)})",
            hint="use an empty folder, or pass --force to write anyway (other files are left alone; files at "
            f"generated paths are replaced). Local files are always ignored: {', '.join(LOCAL_PATTERNS[:6])}...",
        )


def _changed(files: Sequence[RenderedFile], out_dir: Path) -> list[RenderedFile]:
    changed = []
    for file in files:
        target = out_dir / file.path
        try:
            if target.is_file() and not target.is_symlink() and target.read_bytes() == file.data:
                continue
        except OSError:
            pass
        changed.append(file)
    # The lock goes last: whenever a lock is in place, the files it lists are too.
    return sorted(changed, key=lambda f: f.path == LOCK_FILE)


def _swap(out_dir: Path, placed: Sequence[str], removed: Sequence[str]) -> None:
    staging, backup = out_dir / STAGING, out_dir / BACKUP
    backup.mkdir()
    (backup / _JOURNAL).write_text(json.dumps({"placed": list(placed), "removed": list(removed)}), encoding="utf-8")
    for path in removed:
        _move(out_dir / path, backup / path)
    for path in placed:
        target = out_dir / path
        if _exists(target):
            _move(target, backup / path)
        _move(staging / path, target)
    (backup / _JOURNAL).unlink()  # the commit point: from here on the new output stands


def _prune(out_dir: Path, removed: Sequence[str]) -> None:
    """Remove folders that removing obsolete files left empty."""
    for path in removed:
        folder = (out_dir / path).parent
        while folder != out_dir and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent


def _stage(staging: Path, files: Sequence[RenderedFile]) -> None:
    """Write ``files`` under ``staging``: this thread and a helper, largest first.

    A write releases the GIL while the kernel copies the bytes, so two run at once (Microsoft
    Graph's 230 MB: 0.38 s instead of 0.63). The first error is raised once both have stopped; after
    an error or a signal, no new file is started. A bare thread, not a pool: ``concurrent.futures``
    (with ``logging``) costs 4 ms to import, a tenth of a small document's run.
    """
    for folder in sorted({(staging / f.path).parent for f in files}):
        folder.mkdir(parents=True, exist_ok=True)
    queue = iter(sorted(files, key=_largest_first))  # shared: each next() hands one file to one thread
    failed: list[BaseException] = []  # the first failure of either thread: the other starts no new file

    def write_queued() -> None:
        for file in queue:
            if failed:
                return
            (staging / file.path).write_bytes(file.data)

    def helper() -> None:
        leave_signals_to_the_main_thread()
        try:
            write_queued()
        except BaseException as exc:  # noqa: BLE001 - raised by the main thread once both have stopped
            failed.append(exc)
        finally:
            done.set()

    done = threading.Event()
    threading.Thread(target=helper, name="mcpforge-write", daemon=True).start()
    try:
        write_queued()
    except BaseException as exc:  # an error here, or a signal (Ctrl-C): the helper stops after its file
        failed.append(exc)
        raise
    finally:
        _wait(done)
    if failed:
        raise failed[0]


def _wait(done: threading.Event) -> None:
    """Wait until ``done`` is set, even across signals; the first signal's exception is raised then.

    Returning earlier would let the caller remove the staging folder while the helper still writes
    into it. Not ``Thread.join``: on Python 3.11 a join interrupted by a signal can leave the thread
    marked as ended while it still runs.
    """
    interrupted: BaseException | None = None
    while not done.is_set():
        try:
            done.wait()
        except BaseException as exc:  # noqa: BLE001 - a signal handler raised here: raised once the helper is done
            interrupted = interrupted or exc
    if interrupted is not None:
        raise interrupted


def _largest_first(file: RenderedFile) -> int:
    return -len(file.data)


class OutputFolder:
    """An output folder as a run finds it: its lock file read once, after an interrupted run's leftovers are dealt with.

    ``writing``: an earlier interrupted run is recovered first (``recovered`` says what was done);
    without it (``--check``) nothing on disk changes. Nothing is created until :func:`write_tree`.
    """

    def __init__(self, path: Path, *, writing: bool = True) -> None:
        self.path = path
        self.recovered = _recover(path) if writing and path.is_dir() else None
        self.lock: Lock | None = read_lock(path) if path.is_dir() else None


def write_tree(
    files: Sequence[RenderedFile], out: Path | OutputFolder, *, force: bool = False, inputs: Sequence[Path] = ()
) -> WriteReport:
    """Make the folder hold exactly ``files`` (plus local files and ``inputs`` already there), atomically."""
    folder = out if isinstance(out, OutputFolder) else OutputFolder(out)
    out_dir, recovered = folder.path, folder.recovered
    _prepare(out_dir)
    previous = set(folder.lock.files) if folder.lock else set()
    new = {f.path for f in files}
    _check_foreign(out_dir, new, previous, _inside(inputs, out_dir), force=force)
    changed = _changed(files, out_dir)
    removed = sorted(p for p in previous - new if _exists(out_dir / p) and (out_dir / p).is_file())
    placed = [f.path for f in changed]
    swapped = False
    try:
        with signals_raise():
            try:
                _stage(out_dir / STAGING, changed)
                with signals_deferred():
                    try:
                        _swap(out_dir, placed, removed)
                        swapped = True
                    except OSError:
                        _restore(out_dir, placed, removed)
                        raise
            finally:
                with signals_deferred():  # a signal now would leave the staging folder half removed
                    shutil.rmtree(out_dir / STAGING, ignore_errors=True)
                    shutil.rmtree(out_dir / BACKUP, ignore_errors=True)
    except OSError as exc:
        raise OutputError(
            f"cannot write {out_dir}: {exc.strerror or exc}" + (f" ({exc.filename})" if exc.filename else ""),
            hint=f"{out_dir} was left as it was",
        ) from None
    except Signalled as signal:
        state = "the new output is complete" if swapped else f"{out_dir} was left as it was"
        raise Interrupted(f"interrupted by {signal}; {state}", signum=signal.signum) from None
    _prune(out_dir, removed)
    return WriteReport(tuple(placed), len(files) - len(changed), tuple(removed), recovered)
