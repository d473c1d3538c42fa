"""``generate --check``: is the committed output current, and if not, what changed for its users.

Compares the files a run would write with those on disk, and the tools this run generates with
those of the ``tools.json`` on disk, as ``mcpforge diff`` does (:mod:`mcpforge.changes`): tools
added, removed and renamed, arguments, types, enums, defaults, results, annotations, toolsets and
security, each breaking or compatible.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mcpforge.changes.compare import compare
from mcpforge.changes.report import as_text
from mcpforge.changes.rules import Change
from mcpforge.output.write import OutputFolder
from mcpforge.project.files import RenderedFile

__all__ = ["CheckReport", "check_output"]


@dataclass(frozen=True, slots=True)
class CheckReport:
    """What differs between the output on disk and the output of this run."""

    stale_files: tuple[str, ...]  # missing, different or no longer generated
    changes: tuple[Change, ...]

    @property
    def current(self) -> bool:
        """Whether the output on disk is exactly what this run would write."""
        return not self.stale_files

    def lines(self) -> list[str]:
        """A human summary: each tool change (as ``mcpforge diff`` prints it), then the counts."""
        out = [f"  {line}" for line in as_text(self.changes).splitlines()[:-1]]
        breaking = sum(1 for change in self.changes if change.breaking)
        out.append(
            f"{len(self.stale_files)} file(s) out of date; {len(self.changes)} tool change(s), {breaking} breaking"
        )
        return out


def _contract_tools(data: bytes | None) -> list[Any]:
    try:
        tools = json.loads(data or b"").get("tools")
    except (ValueError, AttributeError):
        return []
    return tools if isinstance(tools, list) else []


def check_output(files: Sequence[RenderedFile], folder: OutputFolder) -> CheckReport:
    """Compare this run's ``files`` with the folder: files out of date, and the tools' changes."""
    out_dir, old_lock = folder.path, folder.lock
    new_files = {f.path: f.data for f in files}
    old_listed = set(old_lock.files) if old_lock else set()
    stale = []
    for path, content in sorted(new_files.items()):
        try:
            same = (out_dir / path).read_bytes() == content
        except OSError:
            same = False
        if not same:
            stale.append(path)
    stale += sorted(p for p in old_listed if isinstance(p, str) and p not in new_files)
    contract = next(path for path in new_files if path.startswith("src/") and path.endswith("/tools.json"))
    old_contracts = sorted(p for p in old_listed if p.startswith("src/") and p.endswith("/tools.json"))
    try:
        old_data: bytes | None = (out_dir / (old_contracts[0] if old_contracts else contract)).read_bytes()
    except OSError:
        old_data = None
    changes = compare(_contract_tools(old_data), _contract_tools(new_files[contract]))
    return CheckReport(tuple(stale), tuple(changes))
