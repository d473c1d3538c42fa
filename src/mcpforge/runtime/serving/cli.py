"""The server's command line: options and environment from the settings table, then stdio or HTTP.

A configuration problem is one line on stderr and exit code 2, never a traceback. The MCP SDK is
imported only once the configuration is known to be good, so ``--help`` and errors are instant.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import importlib.util
import logging
import os
import signal
import sys
import textwrap
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..contract import ContractError, SearchFile, ToolsFile, load_package_contract
from ..observe.tracing import TRACING_VARIABLES
from ..redact import Redactor, SecretFilter
from ..settings.table import (
    SETTINGS,
    SettingError,
    Settings,
    all_settings,
    parse_value,
    read_settings,
    served_mode,
)
from ..settings.unknown import unknown_variables

if TYPE_CHECKING:
    from ..access.endpoint import Protection
    from ..access.signin import SignIn
    from ..access.signin_pages import Identity
    from ..observe.observer import Observer

__all__ = ["main", "run"]

_WIDTH = 100


def _help_epilog(data: ToolsFile) -> str:
    config = data["server"]
    prefix = config["envPrefix"]
    lines = ["environment variables (a command-line option wins over its variable; empty means unset):"]
    for setting in all_settings(config):
        note = " (secret)" if setting.secret else ""
        default = setting.shown_default()
        text = setting.help.replace("`", "") + note + (f" Default: {default}." if default else "")
        lines.append(f"  {setting.variable(prefix)}")
        lines += textwrap.wrap(text, _WIDTH - 6, initial_indent="      ", subsequent_indent="      ")
    lines.append(f"OpenTelemetry traces (with the tracing extra: pip install '{config['name']}[tracing]'):")
    for name, text in TRACING_VARIABLES:
        lines.append(f"  {name}")
        lines += textwrap.wrap(text, _WIDTH - 6, initial_indent="      ", subsequent_indent="      ")
    return "\n".join(lines)


def build_parser(data: ToolsFile) -> argparse.ArgumentParser:
    """The argument parser: one option per setting that has a flag, every variable in the epilog."""
    config = data["server"]
    parser = argparse.ArgumentParser(
        prog=config["command"],
        description=f"MCP server for {config['title']}.",
        epilog=_help_epilog(data),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    prefix = config["envPrefix"]
    for setting in SETTINGS:
        if setting.flag is None:
            continue
        default = setting.shown_default()
        help_text = setting.help + f" [env {setting.variable(prefix)}" + (f", default {default}]" if default else "]")
        dest = setting.name.lower()
        if setting.kind == "bool":
            parser.add_argument(setting.flag, dest=dest, action="store_const", const="true", help=help_text)
        elif setting.choices:
            parser.add_argument(setting.flag, dest=dest, metavar="{" + ",".join(setting.choices) + "}", help=help_text)
        else:
            parser.add_argument(setting.flag, dest=dest, metavar=setting.name, help=help_text)
    return parser


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for setting in SETTINGS:
        raw = getattr(args, setting.name.lower(), None) if setting.flag else None
        if raw is not None:
            values[setting.name] = parse_value(setting, str(raw).strip(), setting.flag or setting.name)
    return values


def _configure_logging(settings: Settings, secrets: Sequence[str]) -> None:
    logging.basicConfig(level=settings.log_level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    redactor = Redactor(secrets)
    for handler in logging.getLogger().handlers:
        handler.addFilter(SecretFilter(redactor))


def run(
    data: ToolsFile,
    argv: Sequence[str] | None = None,
    environ: Mapping[str, str] | None = None,
    search: Callable[[], SearchFile] | None = None,
) -> None:
    """Parse the command line and environment for the API of ``data``, then serve it.

    ``search`` makes the search index's words (``search.json``) when search mode needs them
    (``mcpforge serve``; a generated package reads its own file).
    """
    parser = build_parser(data)
    args = parser.parse_args(argv)
    env = os.environ if environ is None else environ
    # Before any error: a refusal for a missing setting comes after the word on its misspelt name
    # ("PETSTORE_AUTH_TOKEN_FILE ... did you mean PETSTORE_AUTH_TOKENS_FILE?").
    for line in unknown_variables(data["server"], env):  # stderr: stdout is the stdio transport's
        print(f"{parser.prog}: warning: {line}", file=sys.stderr)
    try:
        settings = read_settings(data["server"], env, _overrides(args))
        guard = _protection(data, settings) if settings.transport == "http" else None
    except SettingError as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    from ..access.credentials import redaction_secrets  # noqa: PLC0415 - httpx and the SDK load only when needed
    from .server import build_server  # noqa: PLC0415

    toolsets = list(settings.toolsets) or None
    mode = served_mode(settings, data["server"])
    if mode == "code" and importlib.util.find_spec("pydantic_monty") is None:
        parser.exit(
            2,
            f"{parser.prog}: error: {data['server']['envPrefix']}_MODE=code runs programs in a sandbox that is not "
            f"installed: pip install '{data['server']['name']}[code]' (pydantic-monty)\n",
        )
    observer = _observer(data, settings, parser)
    try:
        sign_in, identity = _sign_in(data, settings, guard, observer)
    except SettingError as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    words = search() if search is not None and mode in ("search", "code") else None
    try:
        server = build_server(
            data,
            settings,
            toolsets=toolsets,
            mode=mode,
            search=words,
            observer=observer,
            sign_in=sign_in,
            protected=guard is not None,
        )
    except ValueError as exc:  # an unknown toolset
        variable = f"{data['server']['envPrefix']}_TOOLSETS"
        parser.exit(2, f"{parser.prog}: error: {variable} (or --toolsets): {exc}\n")
    _configure_logging(settings, redaction_secrets(data["server"]["securitySchemes"], settings))
    if settings.transport == "stdio":
        from .stdio import serve_stdio  # noqa: PLC0415 - HTTP mode never loads it

        serve_stdio(server, settings.shutdown_timeout)
        return
    _serve_http(server, data, settings, guard, toolsets, observer, sign_in, identity, mode, words)


def _sign_in(
    data: ToolsFile, settings: Settings, guard: Protection | None, observer: Observer
) -> tuple[SignIn | None, Identity | None]:
    """Per-user sign-in to the API (:mod:`.signin`), when a scheme with an authorization code flow has a client id.

    Returns the sign-in and the identity check (OAuth endpoint), or ``(None, None)``.
    """
    from ..access.signin import sign_in_schemes  # noqa: PLC0415

    prefix = data["server"]["envPrefix"]
    schemes = data["server"]["securitySchemes"]
    clients = sign_in_schemes(schemes, settings.credentials)
    if not clients:
        return None, None
    client_ids = ", ".join(schemes[key]["env"]["clientId"] for key in clients)
    if settings.transport != "http":
        if any("tokenUrl" not in schemes[key] for key in clients):  # no client-credentials grant to fall back on
            raise SettingError(
                f"{client_ids} is set, and users sign in over HTTP only: set {prefix}_TRANSPORT=http (or, for one "
                "account, the scheme's _TOKEN variable instead)"
            )
        return None, None
    from ..access.endpoint import is_loopback  # noqa: PLC0415
    from ..access.signin import SignIn  # noqa: PLC0415
    from ..access.signin_pages import Identity  # noqa: PLC0415
    from ..access.store import open_store  # noqa: PLC0415

    public_url = _public_url(settings, prefix) if guard is not None or is_loopback(settings.host) else ""
    public_host = urlsplit(public_url).hostname or ""
    if guard is None and not (is_loopback(settings.host) and is_loopback(public_host)):
        # Unprotected, every caller is the same user: the first to sign in would lend everyone their account.
        raise SettingError(
            f"{client_ids} is set: each caller signs in to the API as themselves, so the MCP endpoint must tell "
            f"callers apart; set {prefix}_AUTH_TOKENS or {prefix}_OAUTH_ISSUER (without them, sign-in serves "
            f"one person on this computer: {prefix}_HOST and {prefix}_PUBLIC_URL on loopback)"
        )
    if urlsplit(public_url).scheme != "https" and not is_loopback(public_host):
        raise SettingError(
            f"{prefix}_PUBLIC_URL={public_url} is not https: sign-in links, the browser's cookie and the "
            "authorization code would cross the network in clear; use an https:// address"
        )
    if not settings.token_key:
        raise SettingError(
            f"{client_ids} is set: set {prefix}_TOKEN_KEY, the key users' API tokens are encrypted with; make one "
            'with: python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"'
        )
    identity = None
    if guard is not None and guard.issuer:
        if not settings.oauth_client_id:
            raise SettingError(
                f"{client_ids} is set and the MCP endpoint uses OAuth: set {prefix}_OAUTH_CLIENT_ID (and "
                f"{prefix}_OAUTH_CLIENT_SECRET), the client the sign-in page confirms each person with at "
                f"{settings.oauth_issuer}"
            )
        from ..access.oauth import OAuthVerifier  # noqa: PLC0415 - loaded already: the endpoint uses OAuth

        if not isinstance(guard.verifier, OAuthVerifier):  # protection() makes one whenever an issuer is set
            raise TypeError("an OAuth-protected endpoint without an OAuth verifier")
        identity = Identity(guard.verifier, settings.oauth_client_id, settings.oauth_client_secret or "")
    store = open_store(
        redis_url=settings.redis_url or "",
        folder=settings.token_dir or _state_folder(data["server"]["name"]),
        keys=settings.token_key,
        prefix=prefix,
    )
    sign_in = SignIn(
        clients,
        store,
        public_url=public_url,
        api_title=data["server"]["title"],
        client_auth=settings.sign_in_client_auth,
        observer=observer,
        keep_days=settings.sign_in_days,
    )
    return sign_in, identity


def _public_url(settings: Settings, prefix: str) -> str:
    """Where browsers reach this server: PUBLIC_URL, else OAUTH_RESOURCE without /mcp, else a loopback address."""
    from ..access.endpoint import is_loopback  # noqa: PLC0415

    if settings.public_url:
        return settings.public_url.rstrip("/")
    if settings.oauth_resource:
        return settings.oauth_resource.rstrip("/").removesuffix("/mcp")
    if is_loopback(settings.host):
        host = f"[{settings.host}]" if ":" in settings.host else settings.host
        return f"http://{host}:{settings.port}"
    raise SettingError(
        f"set {prefix}_PUBLIC_URL to this server's public address (https://mcp.example.com): sign-in links and "
        "the /signin/callback redirect URI are made from it"
    )


def _state_folder(name: str) -> str:
    """The default TOKEN_DIR: this server's folder in the user's state directory (XDG)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, name, "tokens")


def _observer(data: ToolsFile, settings: Settings, parser: argparse.ArgumentParser) -> Observer:
    """The audit log, metrics and traces the settings and ``OTEL_*`` variables ask for (a bad one exits 2)."""
    from ..observe.observer import Observer  # noqa: PLC0415

    prefix = data["server"]["envPrefix"]
    observer = Observer()
    try:
        if settings.audit_log:
            from ..observe.audit import AuditLog  # noqa: PLC0415

            try:
                observer.audit = AuditLog(settings.audit_log)
            except OSError as exc:
                raise SettingError(f"{prefix}_AUDIT_LOG: cannot open {settings.audit_log}: {exc.strerror}") from None
        # METRICS serves them on the HTTP endpoint: a stdio server has one only with METRICS_PORT.
        if settings.metrics_port or (settings.metrics and settings.transport == "http"):
            from ..observe.metrics import Metrics  # noqa: PLC0415

            observer.metrics = Metrics(entry["tool"]["name"] for entry in data["tools"])
            if settings.metrics_port:
                try:
                    observer.metrics.serve(settings.host, settings.metrics_port)
                except OSError as exc:
                    where = f"{settings.host}:{settings.metrics_port}"
                    raise SettingError(f"{prefix}_METRICS_PORT: cannot listen on {where}: {exc.strerror}") from None
        from ..observe.tracing import tracing_from_env  # noqa: PLC0415

        # The OpenTelemetry SDK reads the process's own environment: so is the decision to trace.
        observer.tracing = tracing_from_env(os.environ, data["server"]["command"], data["server"]["name"])
    except SettingError as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    return observer


def _serve_http(
    server: Any,
    data: ToolsFile,
    settings: Settings,
    guard: Protection | None,
    toolsets: Sequence[str] | None,
    observer: Observer,
    sign_in: SignIn | None,
    identity: Identity | None,
    mode: str = "tools",
    search: SearchFile | None = None,
) -> None:
    import uvicorn  # noqa: PLC0415 - only HTTP mode needs it

    from .web import http_app  # noqa: PLC0415

    app, lifecycle = http_app(
        server,
        data,
        settings,
        guard,
        toolsets=toolsets,
        observer=observer,
        sign_in=sign_in,
        identity=identity,
        mode=mode,
        search=search,
    )

    class Uvicorn(uvicorn.Server):
        """Readiness turns 503 when a shutdown signal arrives; after SIGTERM the server keeps serving for
        ``SHUTDOWN_DRAIN`` seconds (a load balancer's health checks take it out of rotation meanwhile),
        then stops accepting connections and lets in-flight calls finish."""

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started:  # one line saying where clients connect, whatever the log level
                host = f"[{settings.host}]" if ":" in settings.host else settings.host
                print(f"{data['server']['command']}: serving MCP at http://{host}:{settings.port}/mcp", file=sys.stderr)
                if sign_in is not None:
                    print(
                        f"{data['server']['command']}: users sign in to the API at {sign_in.callback_url}",
                        file=sys.stderr,
                    )

        def handle_exit(self, sig: int, frame: Any) -> None:
            draining = lifecycle.ready and sig == signal.SIGTERM and settings.shutdown_drain > 0
            lifecycle.ready = False
            if draining:
                # should_exit is a flag uvicorn's loop polls: setting it from a timer thread is safe.
                threading.Timer(settings.shutdown_drain, super().handle_exit, (sig, frame)).start()
                return
            super().handle_exit(sig, frame)

    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level.lower(),
        log_config=None,  # uvicorn's records go through the root handler and its secret filter
        timeout_graceful_shutdown=settings.shutdown_timeout,
    )
    Uvicorn(config).run()


def _protection(data: ToolsFile, settings: Settings) -> Any:
    """The endpoint's protection; refuse an unprotected non-loopback address unless explicitly allowed."""
    from ..access.endpoint import is_loopback, protection  # noqa: PLC0415

    prefix = data["server"]["envPrefix"]
    guard = protection(settings, prefix)
    if guard is None and not is_loopback(settings.host) and not settings.allow_unauthenticated:
        raise SettingError(
            f"refusing to serve {settings.host} without protection: anyone who reaches it would use the API "
            f"with this server's credentials. Set {prefix}_AUTH_TOKENS (or {prefix}_AUTH_TOKENS_FILE), or "
            f"{prefix}_OAUTH_ISSUER and {prefix}_OAUTH_RESOURCE; or pass --allow-unauthenticated "
            f"({prefix}_ALLOW_UNAUTHENTICATED=true) if something in front of it already does"
        )
    return guard


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of a generated package: its ``tools.json``, the command line and the environment."""
    # No collection at exit: the process is ending and the OS takes its memory back at once, while
    # the interpreter's last collections walk every object of the MCP SDK (half a second at every
    # stop or restart). Files are flushed as they are written; nothing waits on a finalizer.
    atexit.register(gc.freeze)
    try:
        data = load_package_contract()
    except ContractError as exc:
        sys.exit(f"error: {exc}")
    run(data, argv)
