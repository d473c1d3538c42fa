"""Secrets never leave the server: redaction of texts, parsed JSON and log records.

A secret can reach a message in many spellings: raw, JSON- or Python-escaped (an exception's
``repr`` of a header value), percent-encoded (a query string), or base64 (HTTP basic
credentials). Every spelling of every configured secret is replaced with ``***``.
"""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import Iterable
from contextvars import ContextVar
from typing import Any
from urllib.parse import quote, quote_plus

__all__ = ["CALL_REDACTOR", "MIN_SECRET_LENGTH", "Redactor", "SecretFilter", "spellings"]

MIN_SECRET_LENGTH = 4  # shorter values would mask ordinary words
_COOKIE_SAFE = "-._~!$&'()*+/:=?@[]^`{|}"


def spellings(secret: str) -> set[str]:
    """Every form in which ``secret`` may appear in a message, log line or URL."""
    forms = {
        secret,
        json.dumps(secret)[1:-1],
        json.dumps(secret, ensure_ascii=False)[1:-1],
        repr(secret)[1:-1],
        repr(secret.encode("utf-8"))[2:-1],
        quote(secret, safe=""),
        quote(secret),
        quote(secret, safe=_COOKIE_SAFE),
        quote_plus(secret),
        base64.b64encode(secret.encode("utf-8")).decode("ascii"),
    }
    return {form for form in forms if len(form) >= MIN_SECRET_LENGTH}


class Redactor:
    """Replaces every spelling of every configured secret in a text with ``***``."""

    def __init__(self, secrets: Iterable[str]) -> None:
        forms = {form for secret in secrets if len(secret) >= MIN_SECRET_LENGTH for form in spellings(secret)}
        # Longest first: a secret's escaped form may contain a shorter secret.
        self._forms = sorted(forms, key=lambda f: (-len(f), f))

    def __bool__(self) -> bool:
        return bool(self._forms)

    def __call__(self, text: str) -> str:
        for form in self._forms:
            if form in text:
                text = text.replace(form, "***")
        return text

    def value(self, value: Any) -> Any:
        """``value`` (parsed JSON) with secrets replaced in every string, keys included."""
        if not self._forms:
            return value
        if isinstance(value, str):
            return self(value)
        if isinstance(value, dict):
            return {self(k): self.value(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.value(v) for v in value]
        return value


# The redactor of the tool call being run, for its per-user secrets in log records (contexts keep calls apart).
CALL_REDACTOR: ContextVar[Redactor | None] = ContextVar("CALL_REDACTOR", default=None)


class SecretFilter(logging.Filter):
    """Redacts secrets from every log record, its arguments and its traceback, whatever logger wrote it.

    Installed on the log handlers: httpx logs request URLs (an API key may be in the query) and
    a traceback may quote a header value.
    """

    def __init__(self, redact: Redactor) -> None:
        super().__init__()
        self._redact = redact

    def _clean(self, text: str) -> str:
        text = self._redact(text)
        call = CALL_REDACTOR.get()
        return call(text) if call is not None else text

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact ``record`` in place; always keep it."""
        message = record.getMessage()
        cleaned = self._clean(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._clean(record.exc_text)
        if record.stack_info:
            record.stack_info = self._clean(record.stack_info)
        return True
