"""What lives in an output folder besides mcpforge's files: local files left alone, and the folder's walk.

Working with a generated project creates files mcpforge did not write: a virtual environment, caches,
a Git checkout, an editor's settings, a ``.env`` with real secrets. They never block regeneration and
are never touched. Anything else mcpforge did not write is refused, so a mistyped ``-o`` cannot
overwrite someone's work.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from fnmatch import fnmatchcase
from pathlib import Path

__all__ = ["LOCAL_PATTERNS", "WORK_PREFIX", "is_local", "walk_files"]

# Names (of a file or a folder, at any depth) that belong to the user's checkout, not to the output.
LOCAL_PATTERNS = (
    ".venv",
    "venv",
    "__pycache__",
    "*.pyc",
    ".git",
    ".hg",
    ".svn",
    ".DS_Store",
    "Thumbs.db",
    "*.egg-info",
    ".env",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".idea",
    ".vscode",
    "uv.lock",
    ".python-version",
)
WORK_PREFIX = ".mcpforge-"  # mcpforge's own working folders inside the output (staging, backup)


def is_local(name: str) -> bool:
    """Whether a file or folder called ``name`` is a local one mcpforge leaves alone."""
    return any(fnmatchcase(name, pattern) for pattern in LOCAL_PATTERNS)


def walk_files(out_dir: Path) -> Iterator[str]:
    """Every file under ``out_dir`` (POSIX relative paths), skipping local files and mcpforge's working folders."""
    for folder, dirs, files in os.walk(out_dir):
        here = Path(folder)
        kept = [d for d in dirs if not is_local(d) and not (here == out_dir and d.startswith(WORK_PREFIX))]
        links = [d for d in kept if (here / d).is_symlink()]  # a linked folder is one entry, never entered
        dirs[:] = sorted(d for d in kept if d not in links)
        for name in sorted([*files, *links]):
            if not is_local(name):
                yield (here / name).relative_to(out_dir).as_posix()
