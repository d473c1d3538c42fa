"""The audit log: one JSON line per tool call, when ``AUDIT_LOG`` names where (``stderr`` or a file).

A line says when, which tool, how it ended, the API's HTTP status, how long it took, and who
called: a hash of the caller's subject (the access token's subject, else its client), never the
subject itself, an argument, a credential or a token.
"""

from __future__ import annotations

import hashlib
import json
import sys
import threading
from datetime import UTC, datetime
from typing import IO, Any

__all__ = ["AuditLog", "caller_hash"]


def caller_hash(subject: str | None) -> str | None:
    """A short, stable pseudonym of a caller: enough to tell callers apart in the log, not to name them."""
    if not subject:
        return None
    return hashlib.sha256(b"mcpforge-audit\0" + subject.encode("utf-8")).hexdigest()[:16]


class AuditLog:
    """Lines appended to ``stderr`` or a file; a line is written whole, whatever runs beside it."""

    def __init__(self, target: str) -> None:
        # Open for the server's lifetime; closed with it (:meth:`close`).
        stream = sys.stderr if target == "stderr" else open(target, "a", encoding="utf-8")  # noqa: SIM115
        self._stream: IO[str] = stream
        self._lock = threading.Lock()

    def record(self, *, tool: str, error: bool, status: int | None, seconds: float, subject: str | None) -> None:
        """One line for one finished call."""
        line: dict[str, Any] = {
            "time": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "event": "tool_call",
            "tool": tool,
            "outcome": "error" if error else "ok",
            "status": status,
            "duration_ms": round(seconds * 1000, 1),
            "caller": caller_hash(subject),
        }
        text = json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n"
        with self._lock:
            self._stream.write(text)
            self._stream.flush()

    def close(self) -> None:
        """Close the file (standard error stays open)."""
        if self._stream is not sys.stderr:
            self._stream.close()
