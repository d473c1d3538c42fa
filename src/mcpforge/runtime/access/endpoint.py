"""Who may use the MCP endpoint in HTTP mode: static bearer tokens, or an OAuth 2.1 resource server.

Built on the MCP SDK's pieces (:mod:`mcp.server.auth`): the verifiers here implement its
``TokenVerifier``, its ``BearerAuthBackend`` authenticates every request, and its RFC 9728 route
publishes the Protected Resource Metadata. :class:`RequireAccess` gates a route the way RFC 6750
asks (no ``error=`` when no credentials were sent; 403 with ``scope=`` for a missing scope), which
the SDK's own gate does not. The token a client presents is checked here and never forwarded to
the upstream API (per-user API credentials travel in headers of their own: :mod:`.credentials`).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken, TokenVerifier
from starlette.types import ASGIApp, Receive, Scope, Send

from ..settings.setting import SettingError, check_secret
from ..settings.table import MIN_TOKEN_LENGTH, Settings

__all__ = [
    "Protection",
    "RequireAccess",
    "StaticTokens",
    "holder_and_token",
    "is_loopback",
    "protection",
    "read_token_file",
]


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address to listen on) is reachable from this machine only."""
    if host in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def holder_and_token(entry: str, source: str) -> tuple[str, str]:
    """``(holder, token)`` of one static token entry: ``name:token`` names who holds it (``""``: unnamed).

    A bearer token cannot contain ``:`` (RFC 6750's b64token), so the first one, if any, ends the name.
    """
    name, colon, token = entry.partition(":")
    holder, token = (name.strip(), token.strip()) if colon else ("", entry.strip())
    if colon and not (0 < len(holder) <= 64 and holder.isprintable()):
        raise SettingError(f"{source}: the name before ':' must be 1 to 64 printable characters")
    return holder, check_secret(token, source, MIN_TOKEN_LENGTH)


def read_token_file(path: str, variable: str) -> tuple[str, ...]:
    """The entries of a tokens file: one per line (``token`` or ``name: token``), blank lines and ``#`` comments
    ignored."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingError(f"{variable}: cannot read {path!r} ({exc.__class__.__name__})") from None
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        entry = line.strip()
        if entry and not entry.startswith("#"):
            holder_and_token(entry, f"{variable} line {number}")
            entries.append(entry)
    if not entries:
        raise SettingError(f"{variable}: {path!r} holds no token")
    return tuple(entries)


class StaticTokens(TokenVerifier):
    """A fixed set of bearer tokens, compared in constant time (every token, whatever matches).

    Each entry is a token, or ``name:token``: the name is who holds it, which the sign-in page shows.
    """

    def __init__(self, entries: Sequence[str], *, resource: str | None = None, scopes: Sequence[str] = ()) -> None:
        pairs = [holder_and_token(entry, f"static token {i}") for i, entry in enumerate(entries, 1)]
        self._holders = [holder for holder, _ in pairs]
        self._tokens = [token.encode("utf-8") for _, token in pairs]
        self._resource = resource
        # An operator-issued token is trusted with every scope the endpoint requires (OAUTH_SCOPES).
        self._scopes = list(scopes)

    async def verify_token(self, token: str) -> AccessToken | None:
        """The token's principal (``static-<n>``, its holder's name as a claim), or None when it is not one of them."""
        given = token.encode("utf-8", "replace")
        found = 0
        for index, expected in enumerate(self._tokens, 1):
            if hmac.compare_digest(given, expected):
                found = index
        if not found:
            return None
        holder = self._holders[found - 1]
        return AccessToken(
            token=token,
            client_id=f"static-{found}",
            scopes=self._scopes,
            resource=self._resource,
            claims={"holder": holder} if holder else None,
        )


@dataclass(frozen=True, slots=True)
class Protection:
    """How the endpoint is protected: the verifier, and for OAuth the resource and its metadata."""

    verifier: TokenVerifier
    required_scopes: tuple[str, ...] = ()
    resource: str | None = None  # this server's public MCP URL (OAuth)
    issuer: str | None = None
    metadata_url: str | None = None  # RFC 9728 Protected Resource Metadata


def _metadata_url(resource: str) -> str:
    from urllib.parse import urlsplit  # noqa: PLC0415

    parts = urlsplit(resource)
    path = parts.path if parts.path != "/" else ""
    return f"{parts.scheme}://{parts.netloc}/.well-known/oauth-protected-resource{path}"


def protection(settings: Settings, prefix: str) -> Protection | None:
    """The endpoint's protection from the settings; None when none is configured."""
    if bool(settings.oauth_issuer) != bool(settings.oauth_resource):
        raise SettingError(
            f"{prefix}_OAUTH_ISSUER and {prefix}_OAUTH_RESOURCE go together: set both (the authorization server, "
            "and this server's public MCP URL, which tokens must name as their audience)"
        )
    tokens = list(settings.auth_tokens)
    for index, entry in enumerate(tokens, 1):
        holder_and_token(entry, f"{prefix}_AUTH_TOKENS (value {index} of {len(tokens)})")
    if settings.auth_tokens_file:
        tokens += read_token_file(settings.auth_tokens_file, f"{prefix}_AUTH_TOKENS_FILE")
    if settings.oauth_issuer:
        from .oauth import OAuthVerifier  # noqa: PLC0415 - pyjwt loads only for an OAuth-protected server

        static = StaticTokens(tokens, scopes=settings.oauth_scopes) if tokens else None
        oauth = OAuthVerifier(settings, fallback=static)
        return Protection(
            verifier=oauth,
            required_scopes=settings.oauth_scopes,
            resource=settings.oauth_resource,
            issuer=settings.oauth_issuer,
            metadata_url=_metadata_url(settings.oauth_resource),
        )
    if tokens:
        return Protection(verifier=StaticTokens(tokens))
    return None


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


class RequireAccess:
    """An ASGI gate: the request's user must be authenticated (and hold the required scopes).

    Also accepts ``extra_token`` (the OpenAI bridge's own token) when given.
    """

    def __init__(self, app: ASGIApp, protection: Protection, *, extra_token: str | None = None) -> None:
        self.app = app
        self.protection = protection
        self._extra = f"Bearer {extra_token}".encode() if extra_token else None

    def _challenge(self, error: str | None = None, description: str | None = None) -> str:
        parts = []
        if error:
            parts.append(f"error={_quoted(error)}")
        if description:
            parts.append(f"error_description={_quoted(description)}")
        if error == "insufficient_scope" and self.protection.required_scopes:
            parts.append(f"scope={_quoted(' '.join(self.protection.required_scopes))}")
        if self.protection.metadata_url:
            parts.append(f"resource_metadata={_quoted(self.protection.metadata_url)}")
        return "Bearer" + (" " + ", ".join(parts) if parts else "")

    async def _refuse(self, send: Send, status: int, error: str | None, description: str) -> None:
        body = {"error": error or "unauthorized", "error_description": description}
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"www-authenticate", self._challenge(error, description if error else None).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": json.dumps(body).encode()})

    def _has_extra_token(self, scope: Scope) -> bool:
        if self._extra is None:
            return False
        given = dict(scope.get("headers") or []).get(b"authorization", b"")
        return hmac.compare_digest(given, self._extra)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        user: Any = scope.get("user")
        if not isinstance(user, AuthenticatedUser):
            if self._has_extra_token(scope):
                await self.app(scope, receive, send)
                return
            sent = any(name == b"authorization" for name, _ in scope.get("headers") or [])
            if not sent:
                await self._refuse(send, 401, None, "this endpoint needs a bearer token")
            else:
                await self._refuse(send, 401, "invalid_token", "the bearer token is not valid here")
            return
        missing = [s for s in self.protection.required_scopes if s not in user.scopes]
        if missing:
            await self._refuse(send, 403, "insufficient_scope", f"the token lacks the scope {missing[0]!r}")
            return
        await self.app(scope, receive, send)
