"""Secrets never leave the server: redaction of texts, parsed JSON and log records.

A secret can reach a message in many spellings: raw, JSON- or Python-escaped (an exception's
``repr`` of a header value, ``\\u`` escapes), percent-encoded in either case (a query string), hex,
base64 (HTTP basic credentials) or HTML entities (an error page). Every spelling of every
configured secret is replaced with ``***``.
"""

from __future__ import annotations

import base64
import html
import json
import logging
import re
from collections.abc import Iterable
from contextvars import ContextVar
from typing import Any
from urllib.parse import quote, quote_plus, unquote

__all__ = ["CALL_REDACTOR", "MIN_SECRET_LENGTH", "Redactor", "SecretFilter", "spellings"]

MIN_SECRET_LENGTH = 4  # shorter values would mask ordinary words
_COOKIE_SAFE = "-._~!$&'()*+/:=?@[]^`{|}"


def _escaped_all(secret: str) -> list[str]:
    """Every character escaped, in the spellings that escape any character: JSON ``\\u``, HTML entities."""
    return [
        "".join(f"\\u{ord(ch):04x}" for ch in secret),
        "".join(f"\\u{ord(ch):04X}" for ch in secret),
        "".join(f"&#{ord(ch)};" for ch in secret),
        "".join(f"&#x{ord(ch):x};" for ch in secret),
        "".join(f"&#x{ord(ch):X};" for ch in secret),
    ]


def spellings(secret: str) -> set[str]:
    """Every form in which ``secret`` may appear in a message, log line, page or URL."""
    raw = secret.encode("utf-8")
    percent = [quote(secret, safe=""), quote(secret), quote(secret, safe=_COOKIE_SAFE), quote_plus(secret)]
    every = "".join(f"%{byte:02X}" for byte in raw)  # each byte escaped, as some clients do
    forms = {
        secret,
        json.dumps(secret)[1:-1],
        json.dumps(secret, ensure_ascii=False)[1:-1],
        repr(secret)[1:-1],
        repr(raw)[2:-1],
        html.escape(secret),
        html.escape(secret, quote=False),
        *percent,
        *(_lower_escapes(form) for form in percent),
        every,
        every.lower(),
        raw.hex(),
        raw.hex().upper(),
        base64.b64encode(raw).decode("ascii"),
        base64.urlsafe_b64encode(raw).decode("ascii"),
        base64.b64encode(raw).decode("ascii").rstrip("="),
        base64.urlsafe_b64encode(raw).decode("ascii").rstrip("="),
        *_escaped_all(secret),
    }
    return {form for form in forms if len(form) >= MIN_SECRET_LENGTH}


def _lower_escapes(text: str) -> str:
    """``%2F`` -> ``%2f``: percent escapes in lower case, as some clients and servers write them."""
    return re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), text)


class Redactor:
    """Replaces every spelling of every configured secret in a text with ``***``."""

    def __init__(self, secrets: Iterable[str]) -> None:
        kept = [secret for secret in secrets if len(secret) >= MIN_SECRET_LENGTH]
        forms = {form for secret in kept for form in spellings(secret)}
        # Longest first: a secret's escaped form may contain a shorter secret.
        self._forms = sorted(forms, key=lambda f: (-len(f), f))
        self._secrets = sorted(set(kept), key=len, reverse=True)

    def __bool__(self) -> bool:
        return bool(self._forms)

    def _replace(self, text: str) -> str:
        for form in self._forms:
            if form in text:
                text = text.replace(form, "***")
        return text

    def __call__(self, text: str) -> str:
        text = self._replace(text)
        # Escapes mixed within one secret (some characters as entities or %xx, others not) match no
        # spelling: where the decoded text still holds a secret, the text is shown decoded and redacted.
        for marker, decode in (("&", html.unescape), ("%", unquote)):
            if self._secrets and marker in text:
                decoded = decode(text)
                if any(secret in decoded for secret in self._secrets):
                    text = self._replace(decoded)
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


# Query parameters that carry credentials by name, whoever sent them (RFC 6750 access_token, API keys...), and
# a sign-in's OAuth state and code (whoever holds them could finish or disturb someone's sign-in).
_QUERY_SECRET = re.compile(
    r"([?&;](?:access_token|id_token|refresh_token|token|api_key|apikey|api-key|key|client_secret|secret|password|"
    r"code|state|sig|signature|auth|authorization)=)[^&;\s\"'#]*",
    re.IGNORECASE,
)

# A sign-in link's id is a secret until it is used (the access log prints request paths whole).
_SIGN_IN_LINK = re.compile(r"(/signin/)(?!callback\b)[A-Za-z0-9_-]{16,}")

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
        if "=" in text:  # a token a client put in a URL (the access log prints request lines whole)
            text = _QUERY_SECRET.sub(r"\1***", text)
        if "/signin/" in text:
            text = _SIGN_IN_LINK.sub(r"\1***", text)
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
