"""The upstream API's credentials: which security alternative applies, and putting it on a request.

Credentials come from environment variables (``tools.json`` names one per credential of each
security scheme) or, for the schemes ``PER_USER_CREDENTIALS`` names, from each request's own
headers (``X-Petstore-Bearerauth-Token`` for ``PETSTORE_BEARERAUTH_TOKEN``): such values serve that
call only, are built into a :class:`Credentials` of their own, and never fall back to the server's
unless ``PER_USER_FALLBACK`` says so. An operation's first alternative whose credentials are all
present is applied: API keys in a header, query or cookie; HTTP basic; bearer tokens; OAuth2
client credentials (a token fetched from the token URL, cached per client, refreshed a minute
before it expires).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import time
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import httpx

from ..contract import SchemeConfig
from ..settings.schemes import per_user_headers, user_header
from ..settings.table import Settings
from .grants import GrantError, request_token

__all__ = [
    "CredentialError",
    "Credentials",
    "TokenCache",
    "credential_secrets",
    "per_user_headers",
    "redaction_secrets",
    "user_credentials",
    "user_header",
]

_REFRESH_MARGIN = 60.0  # seconds before expiry at which a cached token is replaced


class CredentialError(ValueError):
    """Getting or applying a credential failed; the message names the variable or endpoint, never a secret."""


class Request(Protocol):
    """The parts of an outgoing request credentials go into (``calling.request.PreparedRequest``)."""

    params: list[tuple[str, str]]
    headers: dict[str, str]
    cookies: dict[str, str]


class TokenCache:
    """OAuth2 client-credentials tokens, keyed by the client (so per-user clients never share one)."""

    def __init__(self) -> None:
        self._tokens: dict[str, tuple[str, float]] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def token(self, client: httpx.AsyncClient, scheme: SchemeConfig, values: Mapping[str, str]) -> str:
        """A valid access token for the client whose id and secret ``values`` hold."""
        env = scheme["env"]
        client_id, secret = values[env["clientId"]], values[env["clientSecret"]]
        key = hashlib.sha256(f"{client_id}\0{secret}".encode()).hexdigest()
        cached = self._tokens.get(key)
        if cached and cached[1] > time.monotonic() + _REFRESH_MARGIN:
            return cached[0]
        async with self._locks.setdefault(key, asyncio.Lock()):
            cached = self._tokens.get(key)
            if cached and cached[1] > time.monotonic() + _REFRESH_MARGIN:
                return cached[0]
            token, lifetime = await _fetch_token(client, scheme, values, client_id, secret)
            self._tokens[key] = (token, time.monotonic() + lifetime)
            return token


async def _fetch_token(
    client: httpx.AsyncClient, scheme: SchemeConfig, values: Mapping[str, str], client_id: str, secret: str
) -> tuple[str, float]:
    override = scheme.get("optionalEnv", {}).get("tokenUrl")
    url = (values.get(override) if override else None) or scheme.get("tokenUrl")
    if not url:
        raise CredentialError(f"the OAuth2 token URL is not configured; set {override or 'the token URL variable'}")
    form = {"grant_type": "client_credentials"}
    if scheme.get("scopes"):
        form["scope"] = " ".join(scheme.get("scopes", []))
    try:
        grant = await request_token(client, url, form, client_id=client_id, client_secret=secret)
    except GrantError as exc:
        if exc.status is None:
            raise CredentialError(str(exc)) from None
        raise CredentialError(
            f"the OAuth2 token endpoint {url} refused the client credentials (HTTP {exc.status}); "
            f"check {scheme['env']['clientId']} and {scheme['env']['clientSecret']}"
        ) from None
    return grant.access_token, max(grant.expires_at - time.time(), 0.0)


def credential_secrets(schemes: Mapping[str, SchemeConfig], values: Mapping[str, str]) -> list[str]:
    """Every credential value to redact (not the token URL overrides), and the base64 of HTTP basic pairs."""
    public = {var for scheme in schemes.values() for var in scheme.get("optionalEnv", {}).values()}
    found = [value for var, value in values.items() if var not in public]
    for scheme in schemes.values():
        env = scheme["env"]
        if scheme["type"] == "http" and scheme.get("scheme") == "basic" and all(v in values for v in env.values()):
            pair = f"{values[env['username']]}:{values[env['password']]}"
            found.append(base64.b64encode(pair.encode("utf-8")).decode("ascii"))
    return found


def redaction_secrets(schemes: Mapping[str, SchemeConfig], settings: Settings) -> list[str]:
    """Everything the server must never show: credentials, and the bridge's token."""
    return [*credential_secrets(schemes, settings.credentials), *filter(None, [settings.bridge_token])]


def user_credentials(headers: Mapping[str, str], wanted: Mapping[str, str]) -> dict[str, str]:
    """The per-user credentials a request carries (variable -> value); a bad value is a :class:`CredentialError`."""
    found = {}
    lowered = {k.lower(): v for k, v in headers.items()}
    for variable, header in wanted.items():
        value = lowered.get(header.lower(), "").strip()
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
            raise CredentialError(f"the header {header} holds a control character")
        if value:
            found[variable] = value
    return found


class Credentials:
    """Credential values by variable, and how each security scheme puts them on a request."""

    def __init__(self, schemes: Mapping[str, SchemeConfig], values: Mapping[str, str], tokens: TokenCache) -> None:
        self._schemes = schemes
        self._values = values
        self._tokens = tokens

    def _has(self, scheme: SchemeConfig) -> bool:
        env = scheme["env"]
        if scheme["type"] == "oauth2":
            # The client-credentials grant, where the scheme has that flow (a sign-in scheme's client is not one).
            client = "tokenUrl" in scheme and env["clientId"] in self._values and env["clientSecret"] in self._values
            return client or ("token" in env and env["token"] in self._values)
        return all(var in self._values for var in env.values())

    def missing(self, security: Sequence[Sequence[Sequence[Any]]], names: Mapping[str, str] | None = None) -> list[str]:
        """What to set, one entry per alternative the operation accepts, when none is fully configured.

        ``names`` maps variables to the names a user knows them by (per-user headers); variables by default.
        """
        if not security or any(all(self._has(self._schemes[key]) for key, _ in alt) for alt in security):
            return []
        show = names or {}
        alternatives: list[str] = []
        for alternative in security:
            needed = []
            for key, _ in alternative:
                scheme = self._schemes[key]
                if self._has(scheme):
                    continue
                env = scheme["env"]
                if scheme["type"] == "oauth2" and "tokenUrl" in scheme:
                    needed.append(
                        f"{show.get(env['token'], env['token'])} (or {show.get(env['clientId'], env['clientId'])} "
                        f"and {show.get(env['clientSecret'], env['clientSecret'])})"
                    )
                else:
                    needed += [show.get(var, var) for var in env.values() if var not in self._values]
            text = " and ".join(needed)
            if text and text not in alternatives:
                alternatives.append(text)
        return alternatives

    async def apply(
        self, security: Sequence[Sequence[Sequence[Any]]], request: Request, client: httpx.AsyncClient
    ) -> None:
        """Put the first fully configured alternative's credentials on ``request`` (none when none is)."""
        for alternative in security:
            schemes = [self._schemes[key] for key, _ in alternative]
            if all(self._has(s) for s in schemes):
                for scheme in schemes:
                    await self._apply(scheme, request, client)
                return

    async def _apply(self, scheme: SchemeConfig, request: Request, client: httpx.AsyncClient) -> None:
        values, env = self._values, scheme["env"]
        kind = scheme["type"]
        if kind == "apiKey":
            value = values[env["apiKey"]]
            where, name = scheme.get("in", "header"), scheme.get("name", "")
            if where == "query":
                request.params.append((name, value))
            elif where == "cookie":
                request.cookies[name] = value
            else:
                request.headers[name] = value
        elif kind == "http" and scheme.get("scheme") == "basic":
            raw = f"{values[env['username']]}:{values[env['password']]}".encode()
            request.headers["Authorization"] = "Basic " + base64.b64encode(raw).decode("ascii")
        elif "token" in env and env["token"] in values:
            request.headers["Authorization"] = f"Bearer {values[env['token']]}"
        elif kind == "oauth2":
            token = await self._tokens.token(client, scheme, values)
            request.headers["Authorization"] = f"Bearer {token}"
