"""One environment setting: its kind, default, range or choices, and how a raw value is parsed and checked."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

__all__ = ["Setting", "SettingError", "check_base_url", "check_secret", "is_absolute", "parse_value"]

Kind = Literal["url", "int", "float", "bool", "choice", "text", "list", "secret", "secrets"]
_INTEGER = re.compile(r"^[+-]?[0-9][0-9_]*$")
_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingError(ValueError):
    """A variable has a value the server cannot use; the message is one line for the user."""


@dataclass(frozen=True, slots=True)
class Setting:
    """One environment variable: ``<PREFIX>_<name>``, its type, default, allowed values and meaning."""

    name: str
    kind: Kind
    default: Any
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    flag: str | None = None  # the command-line option that overrides it
    min_length: int = 0  # secrets: shorter values are refused
    above_minimum: bool = False  # numbers: the minimum itself is not allowed

    @property
    def secret(self) -> bool:
        """Whether the value must never be shown (logs, errors, ``--help``)."""
        return self.kind in ("secret", "secrets")

    def variable(self, prefix: str) -> str:
        """The environment variable's name."""
        return f"{prefix}_{self.name}"

    def shown_default(self) -> str:
        """The default as documentation shows it."""
        if self.default is None or self.default in ("", ()):
            return ""
        if self.kind == "bool":
            return "true" if self.default else "false"
        if isinstance(self.default, float) and self.default.is_integer():
            return str(int(self.default))
        return str(self.default)

    def allowed(self) -> str:
        """What values are accepted, for error messages and ``--help``."""
        if self.kind == "int":
            return f"a whole number from {self.minimum:,.0f} to {self.maximum:,.0f}"
        if self.kind == "float":
            low = f"above {self.minimum:g}" if self.above_minimum else f"from {self.minimum:g}"
            return f"a number of seconds {low} to {self.maximum:g}"
        if self.kind == "bool":
            return "true or false (also 1/0, yes/no, on/off)"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "url":
            return "an absolute http:// or https:// URL"
        if self.kind == "list":
            return "comma-separated names"
        if self.kind in ("secret", "secrets") and self.min_length:
            return f"at least {self.min_length} characters" + (
                " each, comma-separated" if self.kind == "secrets" else ""
            )
        return "text"


def check_base_url(text: str, variable: str) -> str:
    """An absolute http(s) URL without fragment or credentials, else a :class:`SettingError` naming ``variable``."""
    parts = urlsplit(text)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise SettingError(
            f"{variable}={text!r} is not an absolute http:// or https:// URL; set it to the API's address, "
            "for example https://api.example.com/v1"
        )
    if parts.username or parts.password:
        raise SettingError(f"{variable} must not carry credentials; use the credential variables instead")
    if parts.fragment:
        raise SettingError(f"{variable}={text!r} has a #fragment, which an API base URL cannot use")
    try:
        _ = parts.port
    except ValueError:
        raise SettingError(f"{variable}={text!r} has an invalid port") from None
    return text


def is_absolute(url: str | None) -> bool:
    """Whether ``url`` is an absolute http(s) URL."""
    parts = urlsplit(url or "")
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)


def _within(value: float, setting: Setting) -> bool:
    low = -math.inf if setting.minimum is None else setting.minimum
    high = math.inf if setting.maximum is None else setting.maximum
    return low <= value <= high


def parse_value(setting: Setting, raw: str, variable: str) -> Any:
    """``raw`` as ``setting``'s type, checked; ``variable`` names the source in errors (a variable or a flag)."""
    shown = "(hidden)" if setting.secret else repr(raw)
    problem = f"{variable}={shown} is not valid: expected {setting.allowed()}"
    if setting.kind == "int":
        if not _INTEGER.match(raw):
            raise SettingError(problem)
        value = int(raw.replace("_", ""))
        if not _within(value, setting):
            raise SettingError(problem)
        return value
    if setting.kind == "float":
        try:
            number = float(raw)
        except ValueError:
            raise SettingError(problem) from None
        at_minimum = setting.above_minimum and number == setting.minimum
        if not math.isfinite(number) or at_minimum or not _within(number, setting):
            raise SettingError(problem)
        return number
    if setting.kind == "bool":
        lowered = raw.lower()
        if lowered not in _TRUE | _FALSE:
            raise SettingError(problem)
        return lowered in _TRUE
    if setting.kind == "choice":
        for choice in setting.choices:
            if raw.lower() == choice.lower():
                return choice
        raise SettingError(problem)
    if setting.kind == "url":
        return check_base_url(raw, variable)
    if setting.kind == "list":
        return tuple(item.strip() for item in raw.split(",") if item.strip())
    if setting.kind == "secret":
        check_secret(raw, variable, setting.min_length)
    if setting.kind == "secrets":
        secrets = tuple(item.strip() for item in raw.split(",") if item.strip())
        for index, secret in enumerate(secrets, 1):
            check_secret(secret, f"{variable} (value {index} of {len(secrets)})", setting.min_length)
        return secrets
    return raw


def check_secret(value: str, source: str, min_length: int = 0) -> str:
    """``value`` when it is usable as a secret; else a :class:`SettingError` naming ``source``, never the value."""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise SettingError(f"{source} contains a control character (a line break?); remove it")
    if len(value) < min_length:
        raise SettingError(f"{source} is too short: it must be at least {min_length} characters")
    return value
