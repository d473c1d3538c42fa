"""Formatting generated Python with black, memoised on disk.

black's output is a pure function of its input, mode and version, so a formatted file can be
reused whenever the same source comes back (the generated runtime barely changes between runs).
The cache only saves time: a missing or unwritable cache directory is silently skipped.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

__all__ = ["format_python"]

LINE_LENGTH = 120


def _cache_dir() -> Path:
    configured = os.environ.get("MCPFORGE_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mcpforge" / "black"


def _black_version() -> str:
    """The installed black's version, read from its metadata folder (importlib.metadata costs 20 ms)."""
    import importlib.util  # noqa: PLC0415

    spec = importlib.util.find_spec("black")
    origin = Path(spec.origin).parent.parent if spec and spec.origin else None
    found = sorted(origin.glob("black-*.dist-info")) if origin else []
    return found[-1].name.removesuffix(".dist-info") if found else "black-unknown"


def format_python(source: str) -> str:
    """``source`` formatted by black (line length 120, Python 3.11)."""
    key = hashlib.sha256(f"{_black_version()}\0{LINE_LENGTH}\0py311\0{source}".encode()).hexdigest()
    cached = _cache_dir() / f"{key}.py"
    try:
        return cached.read_text(encoding="utf-8")
    except OSError:
        pass
    import black  # noqa: PLC0415 - 0.1 s to import; only needed on a cache miss

    mode = black.Mode(line_length=LINE_LENGTH, target_versions={black.mode.TargetVersion.PY311})
    formatted = black.format_str(source, mode=mode)
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(formatted, encoding="utf-8")
        tmp.replace(cached)
    except OSError:
        pass
    return formatted
