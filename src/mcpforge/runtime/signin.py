"""Per-user sign-in to the API: each MCP caller connects their own account through OAuth2 authorization code.

Where an operation needs a scheme with an authorization code flow (and the scheme's ``CLIENT_ID``
is set, in HTTP mode), a caller who has not signed in gets a link instead of a result (a URL-mode
elicitation, or the URL-elicitation-required error: :mod:`.server`). The link is single-use,
expires after :data:`LINK_SECONDS`, and is bound to the caller who asked for it: its page
(:mod:`.signin_web`) names that caller before sending the person on, and where the MCP endpoint
itself uses OAuth, the person must first prove at that issuer to be the same subject, so a
forwarded link cannot attach someone else's API account to the caller. The API's authorization
server is then asked for a code with PKCE (S256), exchanged with the client authenticated as its
metadata or ``SIGN_IN_CLIENT_AUTH`` says; the tokens are kept in the encrypted :mod:`.store`,
keyed by the caller, refreshed before they expire, and never returned, logged or shown.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any
from urllib.parse import urlencode

import httpx
from mcp.server.auth.middleware.auth_context import get_access_token

from .contract import SchemeConfig
from .grants import ClientAuth, Grant, GrantError, pkce_pair, request_token
from .observe import Observer
from .store import Store

__all__ = [
    "LINK_SECONDS",
    "Caller",
    "Flow",
    "Link",
    "SignIn",
    "SignInClient",
    "SignInDeferred",
    "SignInNeeded",
    "current_caller",
    "sign_in_schemes",
]

LINK_SECONDS = 600.0  # a sign-in link, and each leg of the sign-in it starts, lasts this long
_REFRESH_MARGIN = 60.0  # seconds before expiry at which a token is refreshed (at most a tenth of its life)
_POLL_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class Caller:
    """Who calls the MCP endpoint: ``key`` keys their API tokens; ``label`` names them on the sign-in page.

    ``subject`` is the OAuth subject the person completing a sign-in must prove to be (the MCP
    endpoint uses OAuth); None when the endpoint cannot tell people apart that way.
    """

    key: str
    label: str
    subject: str | None = None


def current_caller(*, protected: bool) -> Caller | None:
    """The caller of the current request; None when a protected endpoint's request names no one (bridge token)."""
    token = get_access_token()
    if token is None:
        # An unprotected server serves loopback only (access.py refuses otherwise): one person.
        return None if protected else Caller("local", "the user of this computer")
    if token.subject:
        issuer = str((token.claims or {}).get("iss", ""))
        return Caller(f"sub:{issuer}\0{token.subject}", token.subject, token.subject)
    if token.client_id.startswith("static-"):
        # A static token is one person: keyed by the token itself, so a new token starts afresh.
        digest = hashlib.sha256(token.token.encode("utf-8")).hexdigest()
        return Caller(f"token:{digest}", f"the holder of access token {token.client_id.removeprefix('static-')}")
    return Caller(f"client:{token.client_id}", f"the client {token.client_id}")


@dataclass(frozen=True, slots=True)
class SignInClient:
    """A scheme users sign in to: its flow's URLs and scopes, and this server's client at its authorization server."""

    key: str
    token_variable: str  # the scheme's token variable: a signed-in user's token takes its place
    authorization_url: str
    token_url: str
    refresh_url: str
    scopes: tuple[str, ...]
    client_id: str
    client_secret: str
    metadata_url: str = ""


def sign_in_schemes(schemes: Mapping[str, SchemeConfig], values: Mapping[str, str]) -> dict[str, SignInClient]:
    """The schemes users sign in to: those with an authorization code flow whose client id is set."""
    found = {}
    for key, scheme in schemes.items():
        flow = scheme.get("signIn")
        env, optional = scheme["env"], scheme.get("optionalEnv", {})
        client_id = values.get(env.get("clientId", ""), "")
        if flow is None or not client_id:
            continue
        token_url = values.get(optional.get("tokenUrl", ""), "") or flow["tokenUrl"]
        found[key] = SignInClient(
            key=key,
            token_variable=env["token"],
            authorization_url=values.get(optional.get("authorizationUrl", ""), "") or flow["authorizationUrl"],
            token_url=token_url,
            refresh_url=flow.get("refreshUrl") or token_url,
            scopes=tuple(flow["scopes"]),
            client_id=client_id,
            client_secret=values.get(env.get("clientSecret", ""), ""),
            metadata_url=flow.get("metadataUrl", ""),
        )
    return found


@dataclass(frozen=True, slots=True)
class Link:
    """A sign-in link made for one caller and scheme; ``id`` names it in the elicitation (it is no secret)."""

    id: str
    url: str
    scheme: str
    caller: Caller
    message: str


class SignInDeferred(Exception):
    """The MCP layer answers the call with ``answer`` (an input request to open the link) instead of a result."""

    def __init__(self, answer: Any, link: Link) -> None:
        super().__init__(link.message)
        self.answer = answer
        self.link = link


class SignInNeeded(Exception):
    """The call needs the caller to sign in first (raised inside :class:`~.api.Api`, answered by its caller)."""

    def __init__(self, link: Link) -> None:
        super().__init__(link.message)
        self.link = link


@dataclass(frozen=True, slots=True)
class Flow:
    """A sign-in under way, kept under its OAuth ``state``: which leg, for whom, and its PKCE verifier."""

    leg: str  # "identity" (proving the MCP subject at OAUTH_ISSUER) or "api"
    scheme: str
    caller: Caller
    verifier: str
    nonce: str
    browser: str  # hash of the cookie set on the browser that started it

    def record(self) -> dict[str, Any]:
        """The flow as a store record."""
        return {
            "leg": self.leg,
            "scheme": self.scheme,
            "caller": [self.caller.key, self.caller.label, self.caller.subject],
            "verifier": self.verifier,
            "nonce": self.nonce,
            "browser": self.browser,
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Flow:
        """The flow a store record holds."""
        key, label, subject = record["caller"]
        return cls(
            leg=str(record["leg"]),
            scheme=str(record["scheme"]),
            caller=Caller(key, label, subject),
            verifier=str(record["verifier"]),
            nonce=str(record["nonce"]),
            browser=str(record["browser"]),
        )


def _tokens_key(scheme: str, caller: Caller) -> str:
    return f"{scheme}\0{caller.key}"


class SignIn:
    """Sign-in links, flows and each caller's tokens, for the schemes of ``clients``."""

    def __init__(
        self,
        clients: Mapping[str, SignInClient],
        store: Store,
        *,
        public_url: str,
        api_title: str,
        client_auth: str = "auto",
        observer: Observer | None = None,
    ) -> None:
        self.clients = dict(clients)
        self.store = store
        self.public_url = public_url.rstrip("/")
        self.api_title = api_title
        self._client_auth = client_auth
        self._methods: dict[str, ClientAuth] = {}  # token URL -> how its client authenticates (auto)
        self._locks: dict[str, asyncio.Lock] = {}
        self.observer = observer or Observer()
        # Token endpoints only (the API's own requests go through the Api's client); no cookies kept.
        self.http = httpx.AsyncClient(timeout=httpx.Timeout(15.0), follow_redirects=False, cookies=_NoCookies())

    @property
    def callback_url(self) -> str:
        """The redirect URI every authorization server sends the person back to."""
        return f"{self.public_url}/signin/callback"

    # --- the calls' side -------------------------------------------------------------------------

    async def token(self, caller: Caller, scheme: str) -> str | None:
        """The caller's valid access token for ``scheme``, refreshed when it is about to expire; None: sign in."""
        key = _tokens_key(scheme, caller)
        record = await self.store.get("tokens", key)
        if record is None or _fresh(record):
            return str(record["access_token"]) if record else None
        async with self._locks.setdefault(key, asyncio.Lock()):
            record = await self.store.get("tokens", key)  # another task may have refreshed it meanwhile
            if record is None or _fresh(record):
                return str(record["access_token"]) if record else None
            return await self._refresh(caller, scheme, record)

    async def _refresh(self, caller: Caller, scheme: str, record: dict[str, Any]) -> str | None:
        key = _tokens_key(scheme, caller)
        refresh = str(record.get("refresh_token") or "")
        if not refresh:
            await self.store.delete("tokens", key)
            return None
        client = self.clients[scheme]
        form = {"grant_type": "refresh_token", "refresh_token": refresh}
        try:
            methods = await self._methods_of(client, client.refresh_url)
            grant = await self.grant(client.refresh_url, form, client.client_id, client.client_secret, methods)
        except GrantError as exc:
            if exc.error != "invalid_grant":
                self.observer.refresh(ok=False)
                raise
            # Refused: another replica may have just rotated it; else the person signs in again.
            latest = await self.store.get("tokens", key)
            if latest is not None and latest.get("refresh_token") != refresh and _fresh(latest):
                return str(latest["access_token"])
            await self.store.delete("tokens", key)
            self.observer.refresh(ok=False)
            return None
        await self.keep(caller, scheme, grant, previous_refresh=refresh)
        self.observer.refresh(ok=True)
        return grant.access_token

    async def keep(self, caller: Caller, scheme: str, grant: Grant, *, previous_refresh: str = "") -> None:
        """Store the caller's tokens (a refresh answer without a new refresh token keeps the old one)."""
        refresh = grant.refresh_token or previous_refresh
        lifetime = max(grant.expires_at - time.time(), 0.0)
        record = {
            "access_token": grant.access_token,
            "refresh_token": refresh,
            "expires_at": grant.expires_at,
            "lifetime": lifetime,
        }
        # Without a refresh token the record is useless once the access token expires.
        await self.store.put("tokens", _tokens_key(scheme, caller), record, ttl=None if refresh else lifetime)

    async def link(self, caller: Caller, scheme: str, tool: str) -> Link:
        """A new sign-in link for ``caller`` (single-use, expiring after :data:`LINK_SECONDS`)."""
        link_id = secrets.token_urlsafe(32)
        record = {"caller": [caller.key, caller.label, caller.subject], "scheme": scheme}
        await self.store.put("link", link_id, record, ttl=LINK_SECONDS)
        self.observer.sign_in("started")
        url = f"{self.public_url}/signin/{link_id}"
        message = (
            f"{tool} needs your own {self.api_title} account ({scheme}): sign in at {url} "
            f"(the link works once, for {LINK_SECONDS / 60:.0f} minutes)"
        )
        return Link(id=secrets.token_urlsafe(16), url=url, scheme=scheme, caller=caller, message=message)

    async def wait(self, link: Link, seconds: float) -> bool:
        """Whether the sign-in ``link`` started finished within ``seconds`` (the caller then has a token)."""
        deadline = time.monotonic() + seconds
        while True:
            if await self.store.get("tokens", _tokens_key(link.scheme, link.caller)) is not None:
                return True
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(_POLL_SECONDS)

    # --- the browser's side (signin_web.py) ------------------------------------------------------

    async def pending(self, link_id: str) -> tuple[Caller, str] | None:
        """The caller and scheme of a link still valid (viewing it does not use it)."""
        record = await self.store.get("link", link_id)
        return _link_of(record) if record else None

    async def claim(self, link_id: str) -> tuple[Caller, str] | None:
        """The caller and scheme of a link, which is used up by this: of concurrent claims one succeeds."""
        record = await self.store.take("link", link_id)
        return _link_of(record) if record else None

    async def start(
        self, leg: str, scheme: str, caller: Caller, browser: str, authorize: str, extra: Mapping[str, str]
    ) -> str:
        """Keep a new flow and return the authorization URL that starts it (PKCE S256, a fresh state)."""
        state = secrets.token_urlsafe(32)
        verifier, challenge = pkce_pair()
        flow = Flow(leg, scheme, caller, verifier, secrets.token_urlsafe(16), _digest(browser))
        await self.store.put("flow", state, flow.record(), ttl=LINK_SECONDS)
        query = {
            "response_type": "code",
            "redirect_uri": self.callback_url,
            "state": state,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            **extra,
        }
        if leg == "identity":
            query["nonce"] = flow.nonce
        return authorize + ("&" if "?" in authorize else "?") + urlencode(query)

    async def start_api(self, scheme: str, caller: Caller, browser: str) -> str:
        """The API's authorization URL for ``caller``'s sign-in to ``scheme``."""
        client = self.clients[scheme]
        extra = {"client_id": client.client_id}
        if client.scopes:
            extra["scope"] = " ".join(client.scopes)
        return await self.start("api", scheme, caller, browser, client.authorization_url, extra)

    async def flow(self, state: str, browser: str) -> Flow | None:
        """The flow ``state`` names, used up by this; None when unknown, expired or started in another browser."""
        record = await self.store.take("flow", state)
        if record is None:
            return None
        flow = Flow.from_record(record)
        return flow if secrets.compare_digest(flow.browser, _digest(browser)) else None

    async def finish_api(self, flow: Flow, code: str) -> None:
        """Exchange the API's code for the caller's tokens, and keep them."""
        client = self.clients[flow.scheme]
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": self.callback_url,
            "code_verifier": flow.verifier,
        }
        methods = await self._methods_of(client, client.token_url)
        grant = await self.grant(client.token_url, form, client.client_id, client.client_secret, methods)
        await self.keep(flow.caller, flow.scheme, grant)
        self.observer.sign_in("completed")

    async def grant(
        self,
        url: str,
        form: dict[str, str],
        client_id: str,
        secret: str,
        methods: list[str] | None = None,
    ) -> Grant:
        """A token endpoint's grant, the client authenticated as configured (auto: metadata, else basic, then post)."""
        auth = self._auth_for(url, methods)
        try:
            return await request_token(self.http, url, form, client_id=client_id, client_secret=secret, auth=auth)
        except GrantError as exc:
            guessing = self._client_auth == "auto" and url not in self._methods and secret
            if not (guessing and auth == "basic" and exc.error == "invalid_client"):
                raise
        grant = await request_token(self.http, url, form, client_id=client_id, client_secret=secret, auth="post")
        self._methods[url] = "post"
        return grant

    def _auth_for(self, url: str, methods: list[str] | None) -> ClientAuth:
        if self._client_auth in ("basic", "post"):
            return "post" if self._client_auth == "post" else "basic"
        if url in self._methods:
            return self._methods[url]
        if methods and "client_secret_basic" not in methods and "client_secret_post" in methods:
            self._methods[url] = "post"
        elif methods:
            self._methods[url] = "basic"
        return self._methods.get(url, "basic")

    async def _methods_of(self, client: SignInClient, url: str) -> list[str] | None:
        """The client authentication methods the scheme's metadata lists (auto only, read once per token URL)."""
        if self._client_auth != "auto" or url in self._methods or not client.metadata_url:
            return None
        try:
            response = await self.http.get(client.metadata_url, headers={"Accept": "application/json"})
            metadata = response.json() if response.status_code == 200 else None
        except (httpx.HTTPError, ValueError):
            return None
        found = metadata.get("token_endpoint_auth_methods_supported") if isinstance(metadata, dict) else None
        return [str(m) for m in found] if isinstance(found, list) else None

    async def close(self) -> None:
        """Release the store's and the token endpoints' connections."""
        await self.http.aclose()
        await self.store.close()


class _NoCookies(CookieJar):
    """A cookie jar that keeps nothing."""

    def __init__(self) -> None:
        super().__init__(policy=DefaultCookiePolicy(allowed_domains=[]))


def _fresh(record: Mapping[str, Any]) -> bool:
    margin = min(_REFRESH_MARGIN, float(record.get("lifetime") or 0.0) / 10)
    return float(record.get("expires_at") or 0.0) - margin > time.time()


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()


def _link_of(record: Mapping[str, Any]) -> tuple[Caller, str]:
    key, label, subject = record["caller"]
    return Caller(key, label, subject), str(record["scheme"])
