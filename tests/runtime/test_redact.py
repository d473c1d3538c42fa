"""Redaction: every spelling of a secret is masked, in texts, parsed JSON and log records."""

from __future__ import annotations

import base64
import json
import logging
from urllib.parse import quote, quote_plus

from mcpforge.runtime.credentials import credential_secrets
from mcpforge.runtime.redact import Redactor, SecretFilter

SECRET = 'sk-live/é"x+y=z\\n'


def spelled(secret: str) -> list[str]:
    return [
        secret,
        json.dumps(secret)[1:-1],
        json.dumps(secret, ensure_ascii=False)[1:-1],
        repr(secret)[1:-1],
        repr(secret.encode())[2:-1],
        quote(secret, safe=""),
        quote(secret),
        quote_plus(secret),
        base64.b64encode(secret.encode()).decode(),
    ]


def test_every_spelling_is_masked() -> None:
    redact = Redactor([SECRET])
    for form in spelled(SECRET):
        assert redact(f"before {form} after") == "before *** after", form


def test_an_httpx_style_exception_quoting_a_header_value_is_masked() -> None:
    value = "sk-live-abcdef123456"
    message = f"LocalProtocolError: Illegal header value {(value + chr(10)).encode()!r}"
    assert value not in Redactor([value])(message)


def test_basic_credentials_are_masked_in_base64() -> None:
    schemes = {"basic": {"type": "http", "scheme": "basic", "env": {"username": "U", "password": "P"}}}
    secrets = credential_secrets(schemes, {"U": "alice", "P": "wonder-land"})  # type: ignore[arg-type]
    header = "Authorization: Basic " + base64.b64encode(b"alice:wonder-land").decode()
    assert Redactor(secrets)(header) == "Authorization: Basic ***"


def test_structured_values_keys_included_and_short_values_left_alone() -> None:
    redact = Redactor([SECRET, "abc"])
    value = {"k": [SECRET, {SECRET: quote(SECRET, safe="")}], "n": 1, "abc": "abc"}
    assert redact.value(value) == {"k": ["***", {"***": "***"}], "n": 1, "abc": "abc"}
    assert not Redactor([]) and Redactor([SECRET])


def test_log_records_and_tracebacks_are_masked() -> None:
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "url %s", (f"?key={quote_plus(SECRET)}",), None)
    try:
        raise ValueError(repr(SECRET))
    except ValueError:
        import sys

        record.exc_info = sys.exc_info()
    SecretFilter(Redactor([SECRET])).filter(record)
    assert record.getMessage() == "url ?key=***"
    assert record.exc_text is not None and "***" in record.exc_text
    assert all(form not in record.exc_text for form in spelled(SECRET))
