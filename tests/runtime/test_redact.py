"""Redaction: every spelling of a secret is masked, in texts, parsed JSON and log records."""

from __future__ import annotations

import base64
import json
import logging
from urllib.parse import quote, quote_plus

from mcpforge.runtime.access.credentials import credential_secrets
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


def test_lowercase_percent_hex_entities_and_unicode_escapes_are_masked() -> None:
    redact = Redactor([SECRET])
    raw = SECRET.encode()
    forms = [
        quote(SECRET, safe="").lower(),  # %2f instead of %2F (the letters of the secret are lower case already)
        "".join(f"%{b:02x}" for b in raw),  # every byte escaped
        raw.hex(),
        raw.hex().upper(),
        "".join(f"&#{ord(c)};" for c in SECRET),
        "".join(f"&#x{ord(c):x};" for c in SECRET),
        SECRET.replace("/", "&#x2F;").replace('"', "&quot;"),  # only some characters as entities
        quote(SECRET, safe="").replace("%2F", "/"),  # only some characters escaped
        "".join(f"\\u{ord(c):04x}" for c in SECRET),
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
    ]
    for form in forms:
        shown = redact(f"before {form} after")
        assert form not in shown and "***" in shown, form


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


def test_a_token_in_a_request_line_is_never_logged() -> None:
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "POST", "/mcp?x=1&access_token=eyJ.client.token&Token=abc", "1.1", 401),
        None,
    )
    SecretFilter(Redactor([])).filter(record)
    line = record.getMessage()
    assert "eyJ.client.token" not in line and "abc" not in line
    assert "/mcp?x=1&access_token=***&Token=***" in line
