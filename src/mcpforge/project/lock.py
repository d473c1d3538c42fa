"""The lock file, ``mcpforge.lock``: what a run wrote, from what, and which name each operation's tool got.

It records the generator's version, the spec's name and hash (overlays included), the options
that shape the output, ``METHOD /path`` -> tool name, and every file written. A later run over the
same output keeps every recorded name, replaces only the recorded files, and ``--check`` compares
against it. A damaged lock (merge-conflict markers, invalid JSON) is an error naming the file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcpforge import __version__
from mcpforge.errors import OutputError
from mcpforge.project.files import RenderedFile, json_file
from mcpforge.text.names import recorded_project_name

__all__ = ["FIRST_VERSION", "LOCK_FILE", "Lock", "lock_file", "read_lock"]

FIRST_VERSION = "0.1.0"  # a generated package's version until a changelog gives it another

LOCK_FILE = "mcpforge.lock"


@dataclass(frozen=True, slots=True)
class Lock:
    """What an earlier run recorded."""

    names: Mapping[str, str]  # METHOD /path -> tool name
    files: frozenset[str]
    raw: Mapping[str, Any]

    @property
    def project_name(self) -> str | None:
        """The name the recorded run gave the project (kept, so that a default name never changes under it)."""
        return recorded_project_name(self.files)


def lock_file(
    *,
    source_name: str,
    spec_sha256: str,
    options: Mapping[str, Any],
    names: Mapping[str, str],
    files: Sequence[str],
    overlays: Sequence[tuple[str, str]] = (),
    package_version: str | None = None,
) -> RenderedFile:
    """The lock file of a run that writes ``files`` (the lock itself is added to the list).

    ``spec_sha256`` covers the spec and its overlays; ``overlays`` are (file name, sha256) in order;
    ``package_version``: the version the changelog gave the package (kept for the next run).
    """
    spec: dict[str, Any] = {"name": source_name, "sha256": spec_sha256}
    if overlays:
        spec["overlays"] = [{"name": name, "sha256": digest} for name, digest in overlays]
    content = {
        "generator": "mcpforge",
        "version": __version__,
        "spec": spec,
        "options": dict(options),
        "tools": dict(names),
        "files": sorted([*files, LOCK_FILE]),  # every file, so a rerun may replace them
    }
    if package_version is not None:
        content["packageVersion"] = package_version
    return json_file(LOCK_FILE, content)


def _damaged(path: Path, why: str) -> OutputError:
    return OutputError(
        f"{path} is damaged ({why})",
        hint="restore it (for example `git checkout -- mcpforge.lock`) or resolve the conflict; "
        "or delete it and regenerate with --force (tool names may then change)",
    )


def read_lock(out_dir: Path) -> Lock | None:
    """The lock file in ``out_dir``; None when there is none."""
    path = out_dir / LOCK_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise _damaged(path, f"unreadable: {exc}") from None
    if any(line.startswith(("<<<<<<< ", "=======", ">>>>>>> ")) for line in text.splitlines()):
        raise _damaged(path, "it holds merge-conflict markers")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise _damaged(path, f"not valid JSON: {exc}") from None
    tools, files = (data.get("tools"), data.get("files")) if isinstance(data, dict) else (None, None)
    if not isinstance(tools, dict) or not isinstance(files, list):
        raise _damaged(path, "it lacks the 'tools' or 'files' of an mcpforge lock")
    names = {k: v for k, v in tools.items() if isinstance(k, str) and isinstance(v, str)}
    return Lock(names=names, files=frozenset(f for f in files if isinstance(f, str)), raw=data)
