"""Per-operation problems recorded as values: skipped or degraded operations, renames.

A diagnostic never stops a run. Fatal problems are exceptions from :mod:`mcpforge.errors`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import StrEnum
from typing import NamedTuple

__all__ = ["Diagnostic", "Diagnostics", "Effect", "Severity", "format_text", "printable"]


class Severity(StrEnum):
    """How much a diagnostic matters to the user."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


class Effect(StrEnum):
    """What happened to the output because of the problem."""

    NONE = "none"
    SKIPPED = "skipped"
    DEGRADED = "degraded"
    RENAMED = "renamed"


def printable(text: str) -> str:
    """``text`` with control and line-separator characters escaped: spec text cannot forge output lines."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


_SEVERITY_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


class Diagnostic(NamedTuple):
    """One problem: a stable code, a sentence, and where it is.

    A named tuple, not a frozen dataclass: Microsoft Graph records 59,000 of them, and a tuple is
    made and hashed in C (a frozen dataclass sets each field and hashes them in Python: 0.1 s).
    """

    severity: Severity
    effect: Effect
    code: str
    message: str
    operation: str | None = None
    pointer: str | None = None

    def render(self) -> str:
        """One line for humans."""
        where = self.operation or ""
        if self.pointer:
            where = f"{where} [{self.pointer}]" if where else self.pointer
        prefix = f"{self.severity.value}[{self.code}]"
        effect = f" ({self.effect.value})" if self.effect is not Effect.NONE else ""
        text = f"{prefix}{effect} {where}: {self.message}" if where else f"{prefix}{effect}: {self.message}"
        return printable(text)


class Diagnostics:
    """Collector passed explicitly through the pipeline; keeps insertion order."""

    def __init__(self) -> None:
        # A dict keeps insertion order and holds each diagnostic once, for one hash per addition
        # (Microsoft Graph records 59,000 notes).
        self._items: dict[Diagnostic, None] = {}

    def add(self, diagnostic: Diagnostic) -> None:
        """Record a diagnostic (exact duplicates are kept once, where first found)."""
        self._items[diagnostic] = None

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        """Record several diagnostics."""
        for item in diagnostics:
            self.add(item)

    def warn(
        self,
        code: str,
        message: str,
        *,
        effect: Effect = Effect.NONE,
        operation: str | None = None,
        pointer: str | None = None,
    ) -> None:
        """Record a warning."""
        self._record(Severity.WARNING, code, message, effect, operation, pointer)

    def info(
        self,
        code: str,
        message: str,
        *,
        effect: Effect = Effect.NONE,
        operation: str | None = None,
        pointer: str | None = None,
    ) -> None:
        """Record an informational note."""
        self._record(Severity.INFO, code, message, effect, operation, pointer)

    def _record(
        self, severity: Severity, code: str, message: str, effect: Effect, operation: str | None, pointer: str | None
    ) -> None:
        self.add(
            Diagnostic(
                severity=severity, effect=effect, code=code, message=message, operation=operation, pointer=pointer
            )
        )

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def freeze(self) -> tuple[Diagnostic, ...]:
        """The diagnostics in a stable order: severity, then the order they were found."""
        return tuple(sorted(self._items, key=lambda d: _SEVERITY_RANK[d.severity]))  # a stable sort keeps the order


def format_text(diagnostics: Iterable[Diagnostic]) -> str:
    """All diagnostics, one line each (the CLI and the golden files use this)."""
    return "".join(d.render() + "\n" for d in diagnostics)


def strict_failure(diagnostics: Iterable[Diagnostic]) -> tuple[str, str | None] | None:
    """Under ``--strict``: the first warning's message (with the number of the others) and location, if any."""
    problems = [d for d in diagnostics if d.severity is not Severity.INFO]
    if not problems:
        return None
    first = problems[0]
    more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
    return f"{first.message}{more}", " ".join(filter(None, [first.operation, first.pointer])) or None
