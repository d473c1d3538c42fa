"""Requests to an OAuth2 token endpoint: the client-credentials, authorization-code and refresh grants.

One place sends them, so every grant authenticates its client the same way (HTTP basic, or the id
and secret in the form: RFC 6749 section 2.3.1), reads the answer the same way, and fails with one
:class:`GrantError` line naming the endpoint and what to check, never a secret or a token. PKCE
(RFC 7636) pairs are made here too.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any, Literal

import httpx

__all__ = ["ClientAuth", "Grant", "GrantError", "TokenEndpoints", "pkce_pair", "request_token"]

ClientAuth = Literal["basic", "post"]
_DEFAULT_LIFETIME = 3600.0  # seconds, when the answer gives no expires_in


class GrantError(Exception):
    """The token endpoint refused or failed; ``error`` is its OAuth error code (``invalid_grant``...), if any."""

    def __init__(self, message: str, *, error: str = "", status: int | None = None) -> None:
        super().__init__(message)
        self.error = error
        self.status = status


@dataclass(frozen=True, slots=True)
class Grant:
    """What a token endpoint granted: the access token, when it expires (Unix time), refresh and ID tokens."""

    access_token: str
    expires_at: float
    refresh_token: str = ""
    id_token: str = ""
    refresh_expires_at: float | None = None  # when the refresh token expires, where the answer says


def pkce_pair() -> tuple[str, str]:
    """A PKCE code verifier and its S256 challenge."""
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


async def request_token(
    client: httpx.AsyncClient,
    url: str,
    form: dict[str, str],
    *,
    client_id: str,
    client_secret: str,
    auth: ClientAuth = "basic",
) -> Grant:
    """Ask ``url`` for a token with ``form`` (the grant's fields), the client authenticated as ``auth`` says.

    A client without a secret (a public client, PKCE only) sends its id in the form.
    """
    data = dict(form)
    credentials: Any = httpx.USE_CLIENT_DEFAULT
    if client_secret and auth == "basic":
        credentials = (client_id, client_secret)
    else:
        data["client_id"] = client_id
        if client_secret:
            data["client_secret"] = client_secret
    try:
        response = await client.post(url, data=data, auth=credentials, headers={"Accept": "application/json"})
    except httpx.TimeoutException:
        raise GrantError(f"the OAuth2 token endpoint {url} did not answer in time") from None
    except httpx.HTTPError as exc:
        raise GrantError(f"the OAuth2 token request to {url} failed: {type(exc).__name__}: {exc}") from None
    try:
        payload: Any = response.json()
    except ValueError:
        payload = None
    answer = payload if isinstance(payload, dict) else {}
    if response.status_code >= 400:
        error = str(answer.get("error") or "")[:64]
        detail = f" ({error})" if error.replace("_", "").isalnum() else ""
        raise GrantError(
            f"the OAuth2 token endpoint {url} refused the request (HTTP {response.status_code}){detail}",
            error=error,
            status=response.status_code,
        )
    token = answer.get("access_token")
    if not isinstance(token, str) or not token:
        raise GrantError(
            f"the OAuth2 token endpoint {url} answered without an access_token (HTTP {response.status_code})"
        )
    now = time.time()
    lifetime = _seconds(answer.get("expires_in"))
    # Not in RFC 6749, but common: GitHub says refresh_token_expires_in, Keycloak refresh_expires_in.
    refresh_life = _seconds(answer.get("refresh_token_expires_in") or answer.get("refresh_expires_in"))
    return Grant(
        access_token=token,
        expires_at=now + (lifetime or _DEFAULT_LIFETIME),
        refresh_token=str(answer.get("refresh_token") or ""),
        id_token=str(answer.get("id_token") or ""),
        refresh_expires_at=None if not refresh_life else now + refresh_life,
    )


def _seconds(value: Any) -> float | None:
    """A lifetime in seconds from a token answer (None when absent or unreadable)."""
    try:
        return max(float(value), 0.0) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


class TokenEndpoints:
    """Token requests of this server's clients, authenticated as ``SIGN_IN_CLIENT_AUTH`` says.

    ``auto``: the methods the authorization server's metadata lists; without metadata, HTTP basic,
    and the form once basic is refused with ``invalid_client`` (remembered per token URL).
    """

    def __init__(self, client: httpx.AsyncClient, mode: str = "auto") -> None:
        self.http = client
        self._mode = mode
        self._methods: dict[str, ClientAuth] = {}  # token URL -> how its client authenticates (auto)

    async def grant(
        self, url: str, form: dict[str, str], client_id: str, secret: str, methods: list[str] | None = None
    ) -> Grant:
        """A token endpoint's grant; ``methods``: its metadata's ``token_endpoint_auth_methods_supported``."""
        auth = self._auth_for(url, methods)
        try:
            return await request_token(self.http, url, form, client_id=client_id, client_secret=secret, auth=auth)
        except GrantError as exc:
            guessing = self._mode == "auto" and url not in self._methods and secret
            if not (guessing and auth == "basic" and exc.error == "invalid_client"):
                raise
        grant = await request_token(self.http, url, form, client_id=client_id, client_secret=secret, auth="post")
        self._methods[url] = "post"
        return grant

    def _auth_for(self, url: str, methods: list[str] | None) -> ClientAuth:
        if self._mode in ("basic", "post"):
            return "post" if self._mode == "post" else "basic"
        if url in self._methods:
            return self._methods[url]
        if methods and "client_secret_basic" not in methods and "client_secret_post" in methods:
            self._methods[url] = "post"
        elif methods:
            self._methods[url] = "basic"
        return self._methods.get(url, "basic")
