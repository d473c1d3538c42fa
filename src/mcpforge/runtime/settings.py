"""Every environment variable the server reads, in one table: parsing, checks, ``--help`` and docs.

:data:`SETTINGS` lists the server's own variables (``<PREFIX>_<NAME>``); :func:`credential_settings`
adds one secret per credential of the API's security schemes. The same rows drive the parsing and
checking below, the server's ``--help``, and the generated README table and ``.env.example``
(mcpforge renders those from this module). A bad value is one :class:`SettingError` line naming the
variable, the value (never a secret's) and what is allowed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit

from .contract import SchemeConfig, ServerConfig

__all__ = [
    "SETTINGS",
    "Setting",
    "SettingError",
    "Settings",
    "all_settings",
    "check_base_url",
    "credential_settings",
    "documented",
    "header_borne",
    "parse_value",
    "read_settings",
]

Kind = Literal["url", "int", "float", "bool", "choice", "text", "list", "secret"]
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

    @property
    def secret(self) -> bool:
        """Whether the value must never be shown (logs, errors, ``--help``)."""
        return self.kind == "secret"

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
            return f"a number of seconds above {self.minimum:g} and at most {self.maximum:g}"
        if self.kind == "bool":
            return "true or false (also 1/0, yes/no, on/off)"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "url":
            return "an absolute http:// or https:// URL"
        if self.kind == "list":
            return "comma-separated names"
        if self.kind == "secret" and self.min_length:
            return f"at least {self.min_length} characters"
        return "text"


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "BASE_URL",
        "url",
        None,
        "Base URL of the API; request paths are appended to it (its query parameters are sent with every request).",
    ),
    Setting("TIMEOUT", "float", 30.0, "Seconds to wait for the API to connect, send and answer.", 0.0, 3600.0),
    Setting(
        "MAX_RESULT_TOKENS",
        "int",
        20_000,
        "Largest tool result in estimated tokens (UTF-8 bytes / 3); larger JSON results are shortened, keeping "
        "their structure, with a note on what was cut and how to get the rest.",
        500,
        10_000_000,
    ),
    Setting(
        "MAX_RESPONSE_BYTES",
        "int",
        5_000_000,
        "Largest API response read into memory (protects memory; results are then fitted to the token budget).",
        1024,
        1_000_000_000,
    ),
    Setting("PAGE_SIZE", "int", 100, "Tools per tools/list page (0: every tool on one page).", 0, 100_000),
    Setting(
        "TOOLSETS",
        "list",
        (),
        "Serve only these toolsets (tags), comma-separated; 'all' serves every tool.",
        flag="--toolsets",
    ),
    Setting(
        "DYNAMIC",
        "bool",
        None,
        "Serve search/describe/call meta-tools instead of one tool per operation.",
        flag="--dynamic",
    ),
    Setting(
        "TRANSPORT",
        "choice",
        "stdio",
        "How clients connect: stdio (a desktop client starts the server) or http.",
        choices=("stdio", "http"),
        flag="--transport",
    ),
    Setting("HOST", "text", "127.0.0.1", "HTTP mode: address to listen on.", flag="--host"),
    Setting("PORT", "int", 8000, "HTTP mode: port to listen on.", 1, 65535, flag="--port"),
    Setting(
        "STATELESS",
        "bool",
        False,
        "HTTP mode: no sessions, every request stands alone (for replicas).",
        flag="--stateless",
    ),
    Setting(
        "JSON_RESPONSE",
        "bool",
        False,
        "HTTP mode: answer with JSON bodies instead of SSE streams.",
        flag="--json-response",
    ),
    Setting(
        "LOG_LEVEL",
        "choice",
        "WARNING",
        "Logging detail (to stderr); credentials are always redacted.",
        choices=LOG_LEVELS,
        flag="--log-level",
    ),
    Setting(
        "BRIDGE_TOKEN",
        "secret",
        None,
        "HTTP mode: enables the OpenAI bridge (/openai/tools, /openai/execute-tools) behind this bearer token.",
        min_length=16,
    ),
    Setting(
        "BRIDGE_MAX_BODY",
        "int",
        1_000_000,
        "HTTP mode: largest request body the OpenAI bridge accepts.",
        1024,
        100_000_000,
    ),
)

_CREDENTIAL_HELP = {
    "apiKey": "API key for `{key}` (sent in {where} `{name}`)",
    "username": "user name for `{key}` (HTTP basic)",
    "password": "password for `{key}` (HTTP basic)",
    "token": "access token for `{key}` (sent as a bearer token)",
    "clientId": "OAuth2 client id for `{key}` (client credentials flow)",
    "clientSecret": "OAuth2 client secret for `{key}`",
    "tokenUrl": "override of the OAuth2 token URL for `{key}`",
}


def _label(text: str, limit: int = 60) -> str:
    """Spec text shown in help and comments: printable, without backticks, bounded."""
    return "".join(ch for ch in text if ch.isprintable() and ch != "`")[:limit]


def credential_settings(schemes: Mapping[str, SchemeConfig], prefix: str) -> list[Setting]:
    """One setting per credential variable of the API's security schemes (all secret, except URLs)."""
    result: list[Setting] = []
    for key, scheme in schemes.items():
        kinds = [*scheme["env"].items(), *scheme.get("optionalEnv", {}).items()]
        for kind, variable in kinds:
            text = _CREDENTIAL_HELP.get(kind, "credential for `{key}`").format(
                key=_label(key), where=_label(scheme.get("in", "header")), name=_label(scheme.get("name", ""))
            )
            name = variable.removeprefix(f"{prefix}_")
            if kind == "tokenUrl":
                result.append(Setting(name, "url", scheme.get("tokenUrl"), text[:1].upper() + text[1:] + "."))
            else:
                result.append(Setting(name, "secret", None, text[:1].upper() + text[1:] + "."))
    return result


def header_borne(scheme: SchemeConfig) -> list[str]:
    """The variables of ``scheme`` whose values travel in an HTTP header as they are (they must be ASCII)."""
    env = scheme["env"]
    if scheme["type"] == "apiKey":
        return [env["apiKey"]] if scheme.get("in", "header") == "header" else []
    if scheme["type"] == "http" and scheme.get("scheme") == "basic":
        return []  # base64-encoded: any character is fine
    return [var for kind, var in env.items() if kind in ("token", "clientId", "clientSecret")]


def all_settings(config: ServerConfig) -> list[Setting]:
    """Every variable this API's server reads, with the spec's base URL as ``BASE_URL``'s default."""
    rows = [Setting(s.name, s.kind, config["baseUrl"], s.help) if s.name == "BASE_URL" else s for s in SETTINGS]
    return rows + credential_settings(config["securitySchemes"], config["envPrefix"])


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
        if not math.isfinite(number) or number == setting.minimum or not _within(number, setting):
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
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in raw):
            raise SettingError(f"{variable} contains a control character (a line break?); remove it")
        if len(raw) < setting.min_length:
            raise SettingError(f"{variable} is too short: it must be at least {setting.min_length} characters")
    return raw


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """The server's configuration, parsed and checked (see :data:`SETTINGS` for each field's meaning)."""

    base_url: str
    timeout: float = 30.0
    max_result_tokens: int = 20_000
    max_response_bytes: int = 5_000_000
    page_size: int = 100
    toolsets: tuple[str, ...] = ()
    dynamic: bool = False
    transport: str = "stdio"
    host: str = "127.0.0.1"
    port: int = 8000
    stateless: bool = False
    json_response: bool = False
    log_level: str = "WARNING"
    bridge_token: str = ""
    bridge_max_body: int = 1_000_000
    # variable -> value of the API's credentials (and token URL overrides), only those that are set
    credentials: Mapping[str, str] = field(default_factory=dict)


def read_settings(config: ServerConfig, env: Mapping[str, str], overrides: Mapping[str, Any] | None = None) -> Settings:
    """The settings from ``env``; ``overrides`` (setting name -> parsed value, from the command line) win.

    Empty variables count as unset. Credentials lose surrounding whitespace (a key file written
    with ``echo`` ends in a newline); a control character inside one is an error.
    """
    prefix = config["envPrefix"]
    given = dict(overrides or {})
    values: dict[str, Any] = {}
    credentials: dict[str, str] = {}
    static = {s.name for s in SETTINGS}
    for setting in all_settings(config):
        variable = setting.variable(prefix)
        raw = env.get(variable, "").strip()
        if setting.name in given and given[setting.name] is not None:
            value = given[setting.name]
        elif raw:
            value = parse_value(setting, raw, variable)
        else:
            value = setting.default
        if setting.name in static:
            values[setting.name.lower()] = value
        elif value:
            credentials[variable] = value
    for scheme in config["securitySchemes"].values():
        for var in header_borne(scheme):
            if var in credentials and not credentials[var].isascii():
                raise SettingError(f"{var} holds a non-ASCII character, which an HTTP header cannot carry")
    base_url = values.pop("base_url")
    variable = f"{prefix}_BASE_URL"
    if base_url == config["baseUrl"] and not _absolute(base_url):
        found = f"only the relative server URL {base_url!r}" if base_url else "no server URL"
        raise SettingError(
            f"{variable} is not set and the API description gives {found}; "
            f"set {variable} to the API's address, for example https://api.example.com/v1"
        )
    return Settings(base_url=check_base_url(base_url, variable), credentials=credentials, **values)


def _absolute(url: str | None) -> bool:
    parts = urlsplit(url or "")
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)


def documented(config: ServerConfig) -> Sequence[tuple[str, str, str, bool]]:
    """``(variable, default, help, secret)`` for every variable, in table order (README, .env.example)."""
    prefix = config["envPrefix"]
    return [(s.variable(prefix), _label(s.shown_default(), 200), s.help, s.secret) for s in all_settings(config)]
