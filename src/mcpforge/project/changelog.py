"""The generated package's version and ``CHANGELOG.md``, from what each regeneration changed for its clients.

With the ``changelog`` option, a regeneration compares its tools with those of the output it
replaces (:mod:`mcpforge.changes`): when they changed, the package's version is raised as
semantic versioning says (major when something breaks a client, minor when something was added,
patch otherwise) and an entry listing the changes opens ``CHANGELOG.md``; when nothing changed,
both stay as they were, so regenerating is idempotent and ``--check`` stays meaningful. Entries
carry no dates: output is a function of its inputs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcpforge.changes.compare import compare
from mcpforge.changes.report import bump_of, markdown_text, next_version
from mcpforge.changes.rules import Change
from mcpforge.project.files import RenderedFile
from mcpforge.project.lock import FIRST_VERSION, Lock

__all__ = ["CHANGELOG_FILE", "History", "read_history", "release"]

CHANGELOG_FILE = "CHANGELOG.md"
_VERSION_LINE = re.compile(r'^version = "([^"]+)"$', re.MULTILINE)
_HEADER = (
    "# Changelog\n\nWhat each regeneration changed for the clients of this server's tools (written by mcpforge).\n"
)


@dataclass(frozen=True, slots=True)
class History:
    """What the output being replaced says of itself: its package version, tools and changelog."""

    version: str
    tools: list[Any] | None  # its tools.json's tools (None: none could be read)
    changelog: str


def read_history(out_dir: Path, lock: Lock | None) -> History | None:
    """The history of an earlier output in ``out_dir`` (None: there is none).

    The lock names its files and version; without one (removed to refresh the names) the package's
    ``tools.json`` and ``pyproject.toml`` version are read where mcpforge writes them.
    """
    changelog = _text(out_dir / CHANGELOG_FILE)
    listed = (
        sorted(lock.files) if lock else sorted(str(p.relative_to(out_dir)) for p in out_dir.glob("src/*/tools.json"))
    )
    contracts = [p for p in listed if p.startswith("src/") and p.endswith("/tools.json")]
    if lock is None and not contracts and not changelog:
        return None
    tools = None
    try:
        data = json.loads((out_dir / contracts[0]).read_bytes()) if contracts else None
        tools = data.get("tools") if isinstance(data, dict) and isinstance(data.get("tools"), list) else None
    except (OSError, ValueError):
        tools = None
    version = lock.raw.get("packageVersion") if lock else None
    if not isinstance(version, str):
        found = _VERSION_LINE.search(_text(out_dir / "pyproject.toml"))
        version = found.group(1) if found else FIRST_VERSION
    return History(version, tools, changelog)


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _item(change: Change) -> str:
    # The details quote the document (enum values, defaults): one line each, no markup.
    return f"- `{markdown_text(change.tool)}`: {markdown_text(change.detail)}"


def _entry(version: str, changes: Sequence[Change], about: str) -> str:
    lines = [f"## {version}", "", about]
    for title, group in (
        ("Breaking for clients that call these tools:", [c for c in changes if c.breaking]),
        ("Compatible:", [c for c in changes if not c.breaking]),
    ):
        if group:
            lines += ["", title, "", *(_item(change) for change in group)]
    return "\n".join(lines) + "\n"


def release(history: History | None, tools: Sequence[Any], about: str) -> tuple[str, RenderedFile]:
    """The package's version and ``CHANGELOG.md`` for a run generating ``tools`` (``about``: the API, one line)."""
    changes: list[Change] = []
    version = history.version if history else FIRST_VERSION
    if history is not None and history.tools is not None:
        changes = compare(history.tools, list(tools))
        version = next_version(history.version, bump_of(changes))
    body = history.changelog.removeprefix(_HEADER).lstrip("\n") if history else ""
    if changes:
        entry = _entry(version, changes, f"Regenerated from {about}.")
    elif not body:
        entry = _entry(version, [], f"Generated from {about}: {len(tools):,} tools.")
    else:
        entry = ""  # nothing changed: the changelog stays as it is
    return version, RenderedFile.of_text(CHANGELOG_FILE, _HEADER + "\n" + "\n".join(p for p in (entry, body) if p))
