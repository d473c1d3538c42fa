"""An OAuth 2.1 resource server's token check: JWT access tokens by signature, opaque ones by introspection.

JWTs (RFC 9068) are verified with the issuer's JWKS (fetched asynchronously, cached, fetched again
on an unknown ``kid`` at most every 30 seconds) against an explicit list of asymmetric algorithms
(never ``none`` or a shared-secret one), and must carry ``exp``, ``iss`` and ``aud``: the issuer and
this server's resource URL (RFC 8707 audience), ``exp``/``nbf`` with ``OAUTH_LEEWAY`` seconds of leeway
(the expiry handed to the MCP SDK, which checks it again without leeway, includes it), and the
required scopes (``scope`` or ``scp``). Other tokens go to RFC 7662 introspection (its answer cached
for at most a minute, never past the token's expiry), with the same audience, issuer and expiry
checks. The JWKS and introspection endpoints come from the settings or the issuer's RFC 8414 (or
OpenID) metadata, whose ``issuer`` must be exactly the configured one.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import secrets
import time
from typing import Any
from urllib.parse import urlsplit

import httpx
import jwt
from mcp.server.auth.provider import AccessToken, TokenVerifier

from ..settings.table import Settings

__all__ = ["ALGORITHMS", "OAuthVerifier"]

logger = logging.getLogger(__name__)

ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")
_JWKS_REFRESH_INTERVAL = 30.0
_INTROSPECTION_CACHE = 60.0
_NEGATIVE_CACHE = 5.0
_TIMEOUT = httpx.Timeout(10.0)


def _metadata_urls(issuer: str) -> list[str]:
    """RFC 8414 (path inserted after the host) and OpenID Connect discovery locations."""
    parts = urlsplit(issuer)
    path = parts.path.rstrip("/")
    origin = f"{parts.scheme}://{parts.netloc}"
    return [
        f"{origin}/.well-known/oauth-authorization-server{path}",
        f"{origin}/.well-known/openid-configuration{path}",
        f"{issuer.rstrip('/')}/.well-known/openid-configuration",
    ]


def _is_jwt(token: str) -> bool:
    parts = token.split(".")
    if len(parts) != 3:
        return False
    try:
        header = json.loads(base64.urlsafe_b64decode(parts[0] + "=" * (-len(parts[0]) % 4)))
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(header, dict) and "alg" in header


def _scopes(claims: dict[str, Any]) -> list[str]:
    raw = claims.get("scope", claims.get("scp", ""))
    if isinstance(raw, list):
        return [str(s) for s in raw]
    return str(raw).split() if raw else []


def _audiences(claims: dict[str, Any]) -> list[str]:
    aud = claims.get("aud")
    return [str(a) for a in aud] if isinstance(aud, list) else [str(aud)] if aud else []


_NAME_CLAIMS = ("email", "preferred_username", "name", "username")


def _same_url(a: str, b: str) -> bool:
    return a.rstrip("/") == b.rstrip("/")


class OAuthVerifier(TokenVerifier):
    """Verifies tokens issued by ``OAUTH_ISSUER`` for ``OAUTH_RESOURCE``; ``fallback`` may accept static tokens."""

    def __init__(self, settings: Settings, *, fallback: TokenVerifier | None = None) -> None:
        self._issuer = settings.oauth_issuer
        self._resource = settings.oauth_resource
        self._jwks_url = settings.oauth_jwks_url or None
        self._introspection_url = settings.oauth_introspection_url or None
        self._client = (settings.oauth_client_id, settings.oauth_client_secret) if settings.oauth_client_id else None
        self._fallback = fallback
        self._leeway = settings.oauth_leeway  # seconds of clock difference tolerated on exp and nbf
        self._metadata: dict[str, Any] | None = None
        self._keys: jwt.PyJWKSet | None = None
        self._keys_fetched = 0.0
        self._lock = asyncio.Lock()
        self._introspected: dict[str, tuple[float, AccessToken | None]] = {}

    async def verify_token(self, token: str) -> AccessToken | None:
        """The token's principal, or None (logged at INFO with the reason, never the token)."""
        if self._fallback is not None:
            found = await self._fallback.verify_token(token)
            if found is not None:
                return found
        try:
            if _is_jwt(token):
                return await self._verify_jwt(token)
            return await self._introspect(token)
        except (httpx.HTTPError, ValueError) as exc:
            logger.warning("cannot check an access token: %s: %s", type(exc).__name__, exc)
            return None

    async def _get(self, url: str) -> Any:
        async with httpx.AsyncClient(timeout=_TIMEOUT, follow_redirects=False) as client:
            response = await client.get(url, headers={"Accept": "application/json"})
            response.raise_for_status()
            return response.json()

    @property
    def issuer(self) -> str:
        """The issuer whose tokens are accepted (``OAUTH_ISSUER``)."""
        return self._issuer

    async def metadata(self) -> dict[str, Any]:
        """The issuer's RFC 8414 / OpenID Connect metadata, read once."""
        if self._metadata is not None:
            return self._metadata
        for url in _metadata_urls(self._issuer):
            try:
                metadata = await self._get(url)
            except (httpx.HTTPError, ValueError):
                continue
            if isinstance(metadata, dict):
                if metadata.get("issuer") != self._issuer:
                    raise ValueError(
                        f"the metadata at {url} names issuer {metadata.get('issuer')!r}, not {self._issuer!r}"
                    )
                self._metadata = metadata
                return metadata
        raise ValueError(f"no authorization server metadata found for {self._issuer}")

    async def _signing_keys(self, *, refresh: bool) -> jwt.PyJWKSet:
        async with self._lock:
            stale = time.monotonic() - self._keys_fetched > _JWKS_REFRESH_INTERVAL
            if self._keys is None or (refresh and stale):
                url = self._jwks_url or (await self.metadata()).get("jwks_uri")
                if not isinstance(url, str):
                    raise ValueError(f"{self._issuer} publishes no jwks_uri; set OAUTH_JWKS_URL")
                self._keys = jwt.PyJWKSet.from_dict(await self._get(url))
                self._keys_fetched = time.monotonic()
            return self._keys

    async def identity(self, id_token: str, *, client_id: str, nonce: str) -> str | None:
        """The subject of an OpenID Connect ID token this issuer signed for ``client_id`` with ``nonce``; else None."""
        try:
            header = jwt.get_unverified_header(id_token)
            algorithm = str(header.get("alg"))
            key = await self._key(header.get("kid")) if algorithm in ALGORITHMS else None
            if key is None:
                return None
            claims = jwt.decode(
                id_token,
                key,
                algorithms=[algorithm],
                audience=client_id,
                issuer=self._issuer,
                leeway=self._leeway,
                options={"require": ["exp", "iss", "aud", "sub"]},
            )
        except (jwt.InvalidTokenError, httpx.HTTPError, ValueError) as exc:
            logger.info("ID token refused: %s", exc)
            return None
        if not secrets.compare_digest(str(claims.get("nonce", "")), nonce):
            logger.info("ID token refused: its nonce is not this sign-in's")
            return None
        return str(claims["sub"])

    async def _key(self, kid: str | None) -> jwt.PyJWK | None:
        for refresh in (False, True):
            keys = await self._signing_keys(refresh=refresh)
            found = next((k for k in keys.keys if kid is None or k.key_id == kid), None)
            if found is not None:
                return found
        return None

    async def _verify_jwt(self, token: str) -> AccessToken | None:
        header = jwt.get_unverified_header(token)
        algorithm = header.get("alg")
        if algorithm not in ALGORITHMS:
            logger.info("access token refused: algorithm %r is not allowed", algorithm)
            return None
        key = await self._key(header.get("kid"))
        if key is None:
            logger.info("access token refused: its key %r is not in the issuer's JWKS", header.get("kid"))
            return None
        try:
            claims = jwt.decode(
                token,
                key,
                algorithms=[algorithm],
                audience=self._resource,
                issuer=self._issuer,
                leeway=self._leeway,
                options={"require": ["exp", "iss", "aud"]},
            )
        except jwt.InvalidTokenError as exc:
            logger.info("access token refused: %s", exc)
            return None
        return self._access_token(token, claims)

    def _access_token(self, token: str, claims: dict[str, Any]) -> AccessToken:
        subject = claims.get("sub")
        client_id = claims.get("client_id") or claims.get("azp") or subject or "unknown"
        return AccessToken(
            token=token,
            client_id=str(client_id),
            scopes=_scopes(claims),
            # The SDK drops a token whose expires_at has passed, with no leeway of its own.
            expires_at=int(claims["exp"]) + self._leeway if isinstance(claims.get("exp"), int | float) else None,
            resource=self._resource,
            subject=str(subject) if subject is not None else None,
            # The issuer, and the names a person knows themselves by (the sign-in page shows one).
            claims={"iss": claims.get("iss", self._issuer)}
            | {k: str(claims[k])[:100] for k in _NAME_CLAIMS if isinstance(claims.get(k), str) and claims[k]},
        )

    async def _introspect(self, token: str) -> AccessToken | None:
        key = hashlib.sha256(token.encode()).hexdigest()
        cached = self._introspected.get(key)
        if cached is not None and cached[0] > time.monotonic():
            return cached[1]
        url = self._introspection_url or (await self.metadata()).get("introspection_endpoint")
        if not isinstance(url, str):
            logger.info("access token refused: not a JWT, and %s offers no introspection", self._issuer)
            return None
        async with httpx.AsyncClient(timeout=_TIMEOUT, follow_redirects=False) as client:
            response = await client.post(url, data={"token": token}, auth=self._client or httpx.USE_CLIENT_DEFAULT)
            response.raise_for_status()
            answer = response.json()
        found = self._check_introspection(token, answer if isinstance(answer, dict) else {})
        expires = time.monotonic() + (_INTROSPECTION_CACHE if found else _NEGATIVE_CACHE)
        if found is not None and found.expires_at is not None:
            expires = min(expires, time.monotonic() + max(found.expires_at - time.time(), 0))
        self._introspected[key] = (expires, found)
        if len(self._introspected) > 10_000:  # bounded: drop the oldest half
            for old in list(self._introspected)[:5_000]:
                del self._introspected[old]
        return found

    def _check_introspection(self, token: str, answer: dict[str, Any]) -> AccessToken | None:
        if answer.get("active") is not True:
            logger.info("access token refused: introspection says it is not active")
            return None
        if not any(_same_url(aud, self._resource) for aud in _audiences(answer)):
            logger.info("access token refused: it was not issued for %s", self._resource)
            return None
        if "iss" in answer and answer["iss"] != self._issuer:
            logger.info("access token refused: issued by %r", answer["iss"])
            return None
        now = time.time()
        if isinstance(answer.get("exp"), int | float) and answer["exp"] + self._leeway < now:
            return None
        if isinstance(answer.get("nbf"), int | float) and answer["nbf"] - self._leeway > now:
            return None
        return self._access_token(token, {**answer, "iss": answer.get("iss", self._issuer)})
