"""Writing output: all files or none, and never over files mcpforge did not write.

The tree is written to a temporary sibling directory and swapped into place with renames,
so an interrupted run leaves either the old output or the new one, never a mix.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from mcpforge.errors import OutputError
from mcpforge.render.files import RenderedFile
from mcpforge.render.lock import LOCK_FILE, read_lock

__all__ = ["write_tree"]


def _existing(out_dir: Path) -> set[str]:
    return {p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*") if p.is_file() or p.is_symlink()}


def _check_target(out_dir: Path, *, force: bool) -> None:
    if not out_dir.exists():
        return
    if not out_dir.is_dir():
        raise OutputError(f"{out_dir} exists and is not a directory", hint="choose another output path")
    existing = _existing(out_dir)
    if not existing or force:
        return
    lock = read_lock(out_dir)
    ours = set(lock.files if lock else ()) | {LOCK_FILE}
    foreign = sorted(f for f in existing - ours if "__pycache__" not in f and not f.endswith(".pyc"))
    if foreign:
        shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise OutputError(
            f"{out_dir} holds files mcpforge did not write ({shown})",
            hint="use an empty directory, or pass --force to replace the directory and its contents",
        )


def write_tree(files: Sequence[RenderedFile], out_dir: Path, *, force: bool = False) -> None:
    """Replace ``out_dir`` with exactly ``files``, atomically."""
    _check_target(out_dir, force=force)
    parent = out_dir.absolute().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.new-", dir=parent))
    except OSError as exc:
        raise OutputError(f"cannot create {out_dir}: {exc.strerror}") from None
    backup: Path | None = None
    try:
        for file in files:
            target = staging / file.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(file.data)
        os.chmod(staging, 0o755)  # noqa: S103 - mkdtemp makes 0700 dirs; output is an ordinary folder
        if out_dir.exists():
            backup = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.old-", dir=parent))
            os.rmdir(backup)
            os.rename(out_dir, backup)
        os.rename(staging, out_dir)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        if backup is not None and backup.exists() and not out_dir.exists():
            os.rename(backup, out_dir)
        raise OutputError(f"cannot write {out_dir}: {exc.strerror or exc}") from None
    if backup is not None:
        shutil.rmtree(backup, ignore_errors=True)
