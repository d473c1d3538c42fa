"""Every environment variable the server reads, in one table: parsing, checks, ``--help`` and docs.

:data:`SETTINGS` lists the server's own variables (``<PREFIX>_<NAME>``); :func:`credential_settings`
adds one secret per credential of the API's security schemes. The same rows drive the parsing and
checking below, the server's ``--help``, and the generated README table and ``.env.example``
(mcpforge renders those from this module). A bad value is one :class:`SettingError` line naming the
variable, the value (never a secret's) and what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..contract import MODES, ServerConfig
from .schemes import credential_settings, header_borne, label
from .setting import LOG_LEVELS, Setting, SettingError, check_base_url, is_absolute, parse_value
from .values import Settings

__all__ = [
    "SETTINGS",
    "Setting",
    "SettingError",
    "Settings",
    "all_settings",
    "check_base_url",
    "documented",
    "parse_value",
    "read_settings",
    "served_mode",
]

MIN_TOKEN_LENGTH = 16

SETTINGS: tuple[Setting, ...] = (
    Setting(
        "BASE_URL",
        "url",
        None,
        "Base URL of the API; request paths are appended to it (its query parameters are sent with every request).",
    ),
    Setting(
        "TIMEOUT",
        "float",
        30.0,
        "Seconds to wait for the API to connect, send and answer.",
        0.0,
        3600.0,
        above_minimum=True,
    ),
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
    Setting(
        "STREAM_SECONDS",
        "float",
        10.0,
        "Longest time spent reading a streamed response (server-sent events, JSON Lines) for one result.",
        0.0,
        3600.0,
        above_minimum=True,
    ),
    Setting(
        "RETRIES",
        "int",
        2,
        "Times a request is retried after 429 or 503 (and 502/504 for idempotent methods), with exponential backoff "
        "and jitter, honouring Retry-After; POST and PATCH only when they carry an Idempotency-Key.",
        0,
        10,
    ),
    Setting(
        "RETRY_MAX_WAIT",
        "float",
        30.0,
        "Longest wait before a retry, in seconds; an API asking for a longer wait gets an error saying when to retry.",
        0.0,
        3600.0,
    ),
    Setting(
        "PAGE_SIZE",
        "int",
        0,
        "Tools per tools/list page; 0 lists every tool at once (many clients read only the first page), except over "
        "HTTP with server-sent events, where a listing over 768 KB comes in pages of at most that size (the MCP "
        "Python SDK client reads at most 1 MiB per event).",
        0,
        100_000,
    ),
    Setting(
        "TOOLSETS",
        "list",
        (),
        "Serve only these toolsets (tags), comma-separated; 'all' serves every tool.",
        flag="--toolsets",
    ),
    Setting(
        "MODE",
        "choice",
        None,
        "What the server lists: tools (one tool per operation), search (four tools that search, describe and call "
        "the operations: a listing of constant size for large APIs), code (two tools: search the API, and run a "
        "short Python program against it in a sandbox). Default: the mode chosen at generation.",
        choices=MODES,
        flag="--mode",
    ),
    Setting(
        "DYNAMIC",
        "bool",
        None,
        "The former name of MODE: true is MODE=search, false MODE=tools.",
        flag="--dynamic",
    ),
    Setting(
        "CODE_TIMEOUT", "float", 30.0, "MODE=code: seconds one program may run, its API calls included.", 0.1, 3600
    ),
    Setting("CODE_MAX_CALLS", "int", 50, "MODE=code: API calls one program may make.", 1, 10_000),
    Setting("CODE_MAX_MEMORY", "int", 256, "MODE=code: megabytes of memory one program may use.", 16, 65_536),
    Setting("CODE_MAX_OUTPUT", "int", 1_000_000, "MODE=code: bytes one program may print.", 1_000, 100_000_000),
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
        "AUDIT_LOG",
        "text",
        "",
        "Where to write the audit log, one JSON line per tool call (time, tool, outcome, HTTP status, duration, "
        "a hash of the caller's subject; never arguments, credentials or tokens): `stderr` or a file path. "
        "Empty: no audit log.",
        flag="--audit-log",
    ),
    Setting(
        "METRICS",
        "bool",
        False,
        "HTTP mode: serve Prometheus metrics at /metrics, behind the MCP endpoint's protection (tool calls by tool "
        "and outcome, call and API latency, retries, shortened results).",
        flag="--metrics",
    ),
    Setting(
        "METRICS_PORT",
        "int",
        0,
        "Serve the Prometheus metrics on this port of HOST instead, without the endpoint's protection (for a "
        "scraper on a private network; keep the port unpublished); works with stdio too. 0: off.",
        0,
        65535,
        flag="--metrics-port",
    ),
    Setting(
        "AUTH_TOKENS",
        "secrets",
        (),
        "HTTP mode: bearer tokens that may use the MCP endpoint (comma-separated, 16+ characters each); "
        "`name:token` names the person who holds it (sign-in pages show the name).",
        min_length=MIN_TOKEN_LENGTH,
    ),
    Setting(
        "AUTH_TOKENS_FILE",
        "text",
        "",
        "HTTP mode: a file of such tokens, one per line (`name: token` or a token alone; # starts a comment).",
    ),
    Setting(
        "OAUTH_ISSUER",
        "url",
        "",
        "HTTP mode: the OAuth 2.1 authorization server whose access tokens the MCP endpoint accepts.",
    ),
    Setting(
        "OAUTH_RESOURCE",
        "url",
        "",
        "HTTP mode: this server's public MCP URL (https://host/mcp), the audience every token must name.",
    ),
    Setting("OAUTH_SCOPES", "list", (), "HTTP mode: scopes every token must carry, comma-separated."),
    Setting("OAUTH_JWKS_URL", "url", "", "HTTP mode: the issuer's JWKS (default: from its metadata)."),
    Setting(
        "OAUTH_INTROSPECTION_URL",
        "url",
        "",
        "HTTP mode: RFC 7662 introspection for opaque tokens (default: from the issuer's metadata).",
    ),
    Setting(
        "OAUTH_LEEWAY",
        "int",
        60,
        "HTTP mode: seconds of clock skew allowed when checking a token's exp, nbf and iat.",
        0,
        600,
    ),
    Setting("OAUTH_CLIENT_ID", "text", "", "HTTP mode: client id this server introspects tokens with."),
    Setting("OAUTH_CLIENT_SECRET", "secret", None, "HTTP mode: that client's secret."),
    Setting(
        "ALLOW_UNAUTHENTICATED",
        "bool",
        False,
        "HTTP mode: serve a non-loopback address without endpoint protection (anyone reaching it uses the API).",
        flag="--allow-unauthenticated",
    ),
    Setting(
        "ALLOWED_HOSTS",
        "list",
        (),
        "HTTP mode: Host headers accepted (DNS-rebinding protection; default: the OAUTH_RESOURCE host, "
        "or loopback names on a loopback address).",
    ),
    Setting(
        "PER_USER_CREDENTIALS",
        "list",
        (),
        "HTTP mode: security schemes whose API credential each request brings in its own header "
        "(X-<PREFIX>-<SCHEME>-<KIND>; 'all' for every scheme).",
    ),
    Setting(
        "PER_USER_FALLBACK",
        "bool",
        False,
        "HTTP mode: when a request lacks its per-user credential, use the server's own (default: refuse).",
    ),
    Setting(
        "PUBLIC_URL",
        "url",
        "",
        "HTTP mode: this server's public address (https://mcp.example.com), for sign-in links and the "
        "/signin/callback redirect URI to register with the API's authorization server (default: from "
        "OAUTH_RESOURCE, or the loopback address served).",
    ),
    Setting(
        "TOKEN_KEY",
        "secret",
        None,
        "HTTP mode: Fernet key(s) encrypting users' API tokens at rest, comma-separated (the first encrypts, "
        "any decrypts: rotation); needed for sign-in.",
    ),
    Setting(
        "REDIS_URL",
        "secret",
        None,
        "HTTP mode: Redis (redis://, rediss://) where users' API tokens are kept, shared by every replica "
        "(default: TOKEN_DIR).",
    ),
    Setting(
        "TOKEN_DIR",
        "text",
        "",
        "HTTP mode: folder where users' API tokens are kept without REDIS_URL (default: a folder in the user's "
        "state directory).",
    ),
    Setting(
        "SIGN_IN_CLIENT_AUTH",
        "choice",
        "auto",
        "HTTP mode: how the sign-in client authenticates to the API's token endpoint: basic, post, or auto (what "
        "the scheme's metadata lists, else basic, then post if basic is refused).",
        choices=("auto", "basic", "post"),
    ),
    Setting(
        "SIGN_IN_WAIT",
        "float",
        60.0,
        "HTTP mode: seconds a call whose caller accepted a sign-in link waits for the sign-in to finish; then it "
        "answers with the link and asks to call again.",
        1.0,
        600.0,
    ),
    Setting(
        "SIGN_IN_DAYS",
        "int",
        30,
        "HTTP mode: days a user's API sign-in is kept after its last refresh, when the authorization server does not "
        "say how long its refresh tokens live.",
        1,
        3650,
    ),
    Setting(
        "SHUTDOWN_DRAIN",
        "float",
        0.0,
        "HTTP mode: seconds to keep serving after SIGTERM while /readyz says 503, so a load balancer stops "
        "sending new calls first (set it above the balancer's health-check interval).",
        0.0,
        600.0,
    ),
    Setting(
        "SHUTDOWN_TIMEOUT",
        "int",
        30,
        "Seconds in-flight calls may take to finish after SIGTERM (HTTP) or once stdin closes (stdio).",
        1,
        3600,
    ),
    Setting(
        "TOOLS_CACHE_TTL",
        "int",
        3600,
        "Seconds clients may cache tools/list (MCP 2026-07-28 caching hints).",
        0,
        604_800,
    ),
    Setting(
        "BRIDGE",
        "bool",
        False,
        "HTTP mode: serve the OpenAI bridge (/openai/tools, /openai/execute-tools) behind the endpoint's protection.",
    ),
    Setting(
        "BRIDGE_TOKEN",
        "secret",
        None,
        "HTTP mode: a bearer token for the OpenAI bridge alone (also enables it).",
        min_length=MIN_TOKEN_LENGTH,
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


def all_settings(config: ServerConfig) -> list[Setting]:
    """Every variable this API's server reads, with the spec's base URL as ``BASE_URL``'s default."""
    rows = [Setting(s.name, s.kind, config["baseUrl"], s.help) if s.name == "BASE_URL" else s for s in SETTINGS]
    return rows + credential_settings(config["securitySchemes"], config["envPrefix"])


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
    unknown = [key for key in values["per_user_credentials"] if key != "all" and key not in config["securitySchemes"]]
    if unknown:
        known = ", ".join(["all", *config["securitySchemes"]])
        raise SettingError(
            f"{prefix}_PER_USER_CREDENTIALS names unknown security scheme(s) {', '.join(unknown)}; known: {known}"
        )
    if values["mode"] and values["dynamic"] is not None and (values["mode"] == "search") != values["dynamic"]:
        raise SettingError(
            f"{prefix}_MODE={values['mode']} and {prefix}_DYNAMIC={str(values['dynamic']).lower()} disagree; "
            f"set only {prefix}_MODE"
        )
    base_url = values.pop("base_url")
    variable = f"{prefix}_BASE_URL"
    if base_url == config["baseUrl"] and not is_absolute(base_url):
        found = f"only the relative server URL {base_url!r}" if base_url else "no server URL"
        raise SettingError(
            f"{variable} is not set and the API description gives {found}; "
            f"set {variable} to the API's address, for example https://api.example.com/v1"
        )
    return Settings(base_url=check_base_url(base_url, variable), credentials=credentials, **values)


def served_mode(settings: Settings, config: ServerConfig) -> str:
    """The mode served: MODE, else DYNAMIC's, else the one chosen at generation."""
    if settings.mode:
        return settings.mode
    if settings.dynamic is not None:
        return "search" if settings.dynamic else "tools"
    return config["mode"]


def documented(config: ServerConfig) -> Sequence[tuple[str, str, str, bool]]:
    """``(variable, default, help, secret)`` for every variable, in table order (README, .env.example)."""
    prefix = config["envPrefix"]
    return [(s.variable(prefix), label(s.shown_default(), 200), s.help, s.secret) for s in all_settings(config)]
