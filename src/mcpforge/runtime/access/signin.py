"""Per-user sign-in to the API: each MCP caller connects their own account through OAuth2 authorization code.

Where an operation needs a scheme with an authorization code flow (and the scheme's ``CLIENT_ID``
is set, in HTTP mode), a caller who has not signed in gets a link instead of a result (a URL-mode
elicitation, or the URL-elicitation-required error: ``serving.server``). The link is single-use,
expires after :data:`LINK_SECONDS`, is bound to the caller who asked for it and carries a short
code the caller is shown beside it: its page (:mod:`.signin_pages`) names that caller and repeats
the code before the person goes on, its button works only with a form token bound to the browser
that opened the page, and where the MCP endpoint itself uses OAuth, the person must first prove at
that issuer to be the same subject, so a forwarded or forged link cannot attach someone else's API
account to the caller. The API's authorization server is then asked for a code with PKCE (S256);
its answer is accepted only in the browser that started the flow and from the server it was sent
to (RFC 9207 ``iss``). The tokens are kept in the encrypted :mod:`.store`, keyed by the caller,
refreshed before they expire under a lock every replica shares (a rotating refresh token is spent
once), renewed once when the API refuses them, and never returned, logged or shown.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx

from ..contract import SchemeConfig
from ..observe.observer import Observer
from .grants import Grant, GrantError, TokenEndpoints, pkce_pair
from .identity import Caller
from .store import Store
from .waiting import KeyedLocks, SignInWaits

__all__ = [
    "LINK_SECONDS",
    "Flow",
    "Link",
    "PendingLink",
    "SignIn",
    "SignInClient",
    "SignInDeferred",
    "SignInNeeded",
    "sign_in_schemes",
]

LINK_SECONDS = 600.0  # a sign-in link, and each leg of the sign-in it starts, lasts this long
_REFRESH_MARGIN = 60.0  # seconds before expiry at which a token is refreshed (at most a tenth of its life)
_LOCK_SECONDS = 30.0  # the longest a refresh holds a user's lock (a token request times out after 15 s)
_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud or copied by eye


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
    """A sign-in link made for one caller and scheme; ``id`` names it in the elicitation (it is no secret).

    ``code`` is shown to the caller beside the link, and repeated by its page.
    """

    id: str
    url: str
    scheme: str
    caller: Caller
    message: str
    code: str


@dataclass(frozen=True, slots=True)
class PendingLink:
    """What a sign-in link's page shows: for whom, to connect what, asked by which tool when, and its code."""

    caller: Caller
    scheme: str
    code: str
    tool: str
    asked: float  # Unix time

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> PendingLink:
        """The link a store record holds."""
        return cls(
            Caller.from_record(record["caller"]),
            str(record["scheme"]),
            str(record.get("code", "")),
            str(record.get("tool", "")),
            float(record.get("asked") or 0.0),
        )


class SignInDeferred(Exception):
    """The MCP layer answers the call with ``answer`` (an input request to open the link) instead of a result."""

    def __init__(self, answer: Any, link: Link) -> None:
        super().__init__(link.message)
        self.answer = answer
        self.link = link


class SignInNeeded(Exception):
    """The call needs the caller to sign in first (raised inside ``calling.api``, answered by its caller)."""

    def __init__(self, link: Link) -> None:
        super().__init__(link.message)
        self.link = link


@dataclass(frozen=True, slots=True)
class Flow:
    """A sign-in under way, kept under its OAuth ``state``: which leg, for whom, its PKCE verifier, and where to.

    ``issuer`` is the authorization server's exact issuer where its metadata names it, else ``""``;
    ``origin`` the scheme and host its authorization endpoint is on. ``issuer_required``: its
    metadata says it always sends ``iss`` with its answer (RFC 9207).
    """

    leg: str  # "identity" (proving the MCP subject at OAUTH_ISSUER) or "api"
    scheme: str
    caller: Caller
    verifier: str
    nonce: str
    browser: str  # hash of the cookie set on the browser that started it
    issuer: str = ""
    origin: str = ""
    issuer_required: bool = False

    def record(self) -> dict[str, Any]:
        """The flow as a store record."""
        values = {field.name: getattr(self, field.name) for field in fields(self)}
        return {**values, "caller": self.caller.record()}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Flow:
        """The flow a store record holds."""
        return cls(
            **{key: value for key, value in record.items() if key != "caller"},
            caller=Caller.from_record(record["caller"]),
        )

    def answered_by(self, iss: str | None) -> bool:
        """Whether an answer carrying ``iss`` (None: none) comes from the server this flow went to (RFC 9207)."""
        if iss is None:
            return not self.issuer_required
        if self.issuer:
            return secrets.compare_digest(iss, self.issuer)
        parts = urlsplit(iss)
        return bool(parts.netloc) and f"{parts.scheme}://{parts.netloc}".lower() == self.origin


def _tokens_key(scheme: str, caller: Caller) -> str:
    return f"{scheme}\0{caller.key}"


def _short_code() -> str:
    letters = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(6))
    return f"{letters[:3]}-{letters[3:]}"


class SignIn:
    """Sign-in links, flows and each caller's tokens, for the schemes of ``clients``.

    ``keep_days``: how long a user's tokens are kept after their last refresh when the
    authorization server does not say how long its refresh tokens live.
    """

    def __init__(
        self,
        clients: Mapping[str, SignInClient],
        store: Store,
        *,
        public_url: str,
        api_title: str,
        client_auth: str = "auto",
        observer: Observer | None = None,
        keep_days: float = 30.0,
    ) -> None:
        self.clients = dict(clients)
        self.store = store
        self.public_url = public_url.rstrip("/")
        self.api_title = api_title
        self.observer = observer or Observer()
        self._keep_seconds = keep_days * 86400
        self._locks = KeyedLocks()
        self._waiting = SignInWaits(store)
        self._metadata: dict[str, dict[str, Any]] = {}  # metadata URL -> the authorization server's metadata
        # Token endpoints only (the API's own requests go through the Api's client); no cookies kept.
        http = httpx.AsyncClient(timeout=httpx.Timeout(15.0), follow_redirects=False, cookies=_NoCookies())
        self.endpoints = TokenEndpoints(http, client_auth)

    @property
    def callback_url(self) -> str:
        """The redirect URI every authorization server sends the person back to."""
        return f"{self.public_url}/signin/callback"

    # --- the calls' side -------------------------------------------------------------------------

    async def token(self, caller: Caller, scheme: str) -> str | None:
        """The caller's valid access token for ``scheme``, refreshed when it is about to expire; None: sign in."""
        record = await self.store.get("tokens", _tokens_key(scheme, caller))
        if record is None or _fresh(record):
            return str(record["access_token"]) if record else None
        return await self._replace(caller, scheme, str(record["access_token"]))

    async def renew(self, caller: Caller, scheme: str, refused: str) -> str | None:
        """A new token after the API refused ``refused`` (401): another replica's, or refreshed; None: sign in."""
        return await self._replace(caller, scheme, refused)

    async def forget(self, caller: Caller, scheme: str) -> None:
        """Drop the caller's tokens for ``scheme`` (the API refuses even a renewed one)."""
        await self.store.delete("tokens", _tokens_key(scheme, caller))

    async def _replace(self, caller: Caller, scheme: str, used: str) -> str | None:
        """Refresh the token ``used`` unless another task or replica already has: one refresh among them all.

        Waiters on other replicas wait for the store's lock, then read the record again, so a
        rotating refresh token is sent once (an authorization server that sees one twice revokes the
        grant, as RFC 9700 asks).
        """
        key = _tokens_key(scheme, caller)
        async with self._locks.hold(key), self.store.lock("tokens", key, _LOCK_SECONDS):
            record = await self.store.get("tokens", key)
            if record is None:
                return None
            if record["access_token"] != used and _fresh(record):
                return str(record["access_token"])
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
            methods = (await self.metadata(client)).get("token_endpoint_auth_methods_supported")
            grant = await self.endpoints.grant(
                client.refresh_url, form, client.client_id, client.client_secret, _strings(methods)
            )
        except GrantError as exc:
            self.observer.refresh(ok=False)
            if exc.error != "invalid_grant":
                raise
            await self.store.delete("tokens", key)  # revoked, expired or spent: the person signs in again
            return None
        await self.keep(caller, scheme, grant, previous_refresh=refresh)
        self.observer.refresh(ok=True)
        return grant.access_token

    async def keep(self, caller: Caller, scheme: str, grant: Grant, *, previous_refresh: str = "") -> None:
        """Store the caller's tokens (a refresh answer without a new refresh token keeps the old one).

        They are kept as long as the refresh token lives (where the answer says; else ``keep_days``),
        or, without one, as long as the access token.
        """
        refresh = grant.refresh_token or previous_refresh
        now = time.time()
        lifetime = max(grant.expires_at - now, 0.0)
        if not refresh:
            kept = lifetime
        elif grant.refresh_expires_at is not None:
            kept = max(grant.refresh_expires_at - now, lifetime)
        else:
            kept = max(self._keep_seconds, lifetime)
        record = {"access_token": grant.access_token, "refresh_token": refresh, "expires_at": grant.expires_at}
        await self.store.put("tokens", _tokens_key(scheme, caller), {**record, "lifetime": lifetime}, ttl=kept)

    async def link(self, caller: Caller, scheme: str, tool: str) -> Link:
        """A new sign-in link for ``caller`` (single-use, expiring after :data:`LINK_SECONDS`)."""
        link_id, code = secrets.token_urlsafe(32), _short_code()
        record = {"caller": caller.record(), "scheme": scheme, "code": code, "tool": tool, "asked": time.time()}
        await self.store.put("link", link_id, record, ttl=LINK_SECONDS)
        self.observer.sign_in("started")
        url = f"{self.public_url}/signin/{link_id}"
        message = (
            f"{tool} needs your own {self.api_title} account ({scheme}): sign in at {url} and check that the page "
            f"shows the code {code} (the link works once, for {LINK_SECONDS / 60:.0f} minutes)"
        )
        return Link(id=secrets.token_urlsafe(16), url=url, scheme=scheme, caller=caller, message=message, code=code)

    async def wait(self, link: Link, seconds: float) -> bool:
        """Whether the sign-in ``link`` started finished within ``seconds`` (the caller then has a token)."""
        return await self._waiting.wait(_tokens_key(link.scheme, link.caller), seconds)

    # --- the browser's side (signin_pages.py) ----------------------------------------------------

    async def pending(self, link_id: str) -> PendingLink | None:
        """The link, while it is valid (viewing it does not use it)."""
        record = await self.store.get("link", link_id)
        return PendingLink.from_record(record) if record else None

    async def claim(self, link_id: str) -> PendingLink | None:
        """The link, used up by this: of concurrent claims one succeeds."""
        record = await self.store.take("link", link_id)
        return PendingLink.from_record(record) if record else None

    def form_token(self, link_id: str, browser: str) -> str:
        """The token the link's page puts in its form: bound to the link and to the browser's cookie."""
        return self.store.sealer.sign(f"form\0{link_id}\0{browser}")

    def form_ok(self, link_id: str, browser: str, token: str) -> bool:
        """Whether a posted form token is the one this link's page gave this browser."""
        return bool(browser and token) and self.store.sealer.verify(f"form\0{link_id}\0{browser}", token)

    async def start(self, flow: Flow, authorize: str, extra: Mapping[str, str]) -> str:
        """Keep ``flow`` under a fresh state and return the authorization URL that starts it (PKCE S256)."""
        state = secrets.token_urlsafe(32)
        verifier, challenge = pkce_pair()
        parts = urlsplit(authorize)
        kept = replace(flow, verifier=verifier, origin=f"{parts.scheme}://{parts.netloc}".lower())
        await self.store.put("flow", state, kept.record(), ttl=LINK_SECONDS)
        query = {
            "response_type": "code",
            "redirect_uri": self.callback_url,
            "state": state,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            **extra,
        }
        if flow.leg == "identity":
            query["nonce"] = flow.nonce
        return authorize + ("&" if "?" in authorize else "?") + urlencode(query)

    def new_flow(self, leg: str, scheme: str, caller: Caller, browser: str, metadata: Mapping[str, Any]) -> Flow:
        """A flow of ``leg`` for ``caller``'s browser, expecting the issuer that ``metadata`` (RFC 8414) names."""
        return Flow(
            leg=leg,
            scheme=scheme,
            caller=caller,
            verifier="",
            nonce=secrets.token_urlsafe(16),
            browser=_digest(browser),
            issuer=str(metadata.get("issuer") or ""),
            issuer_required=metadata.get("authorization_response_iss_parameter_supported") is True,
        )

    async def start_api(self, scheme: str, caller: Caller, browser: str) -> str:
        """The API's authorization URL for ``caller``'s sign-in to ``scheme``."""
        client = self.clients[scheme]
        extra = {"client_id": client.client_id}
        if client.scopes:
            extra["scope"] = " ".join(client.scopes)
        flow = self.new_flow("api", scheme, caller, browser, await self.metadata(client))
        return await self.start(flow, client.authorization_url, extra)

    async def flow(self, state: str, browser: str) -> Flow | None:
        """The flow ``state`` names, used up by this only in the browser that started it.

        None when unknown, expired, or started in another browser; a stranger's request leaves the
        flow as it was (compare first, then delete), so it cannot cancel a person's sign-in.
        """
        record = await self.store.get("flow", state)
        if record is None:
            return None
        flow = Flow.from_record(record)
        if not secrets.compare_digest(flow.browser, _digest(browser)):
            return None
        return flow if await self.store.take("flow", state) is not None else None

    async def finish_api(self, flow: Flow, code: str) -> None:
        """Exchange the API's code for the caller's tokens, and keep them."""
        client = self.clients[flow.scheme]
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": self.callback_url,
            "code_verifier": flow.verifier,
        }
        methods = (await self.metadata(client)).get("token_endpoint_auth_methods_supported")
        grant = await self.endpoints.grant(
            client.token_url, form, client.client_id, client.client_secret, _strings(methods)
        )
        await self.keep(flow.caller, flow.scheme, grant)
        self._waiting.done(_tokens_key(flow.scheme, flow.caller))
        self.observer.sign_in("completed")

    async def metadata(self, client: SignInClient) -> dict[str, Any]:
        """The scheme's authorization server metadata (OpenAPI 3.2 ``oauth2MetadataUrl``), read once; {} without."""
        url = client.metadata_url
        if not url:
            return {}
        if url not in self._metadata:
            try:
                response = await self.endpoints.http.get(url, headers={"Accept": "application/json"})
                found = response.json() if response.status_code == 200 else None
            except (httpx.HTTPError, ValueError):
                return {}  # not remembered: read again next time
            self._metadata[url] = found if isinstance(found, dict) else {}
        return self._metadata[url]

    async def close(self) -> None:
        """Release the store's and the token endpoints' connections."""
        await self.endpoints.http.aclose()
        await self.store.close()


class _NoCookies(CookieJar):
    """A cookie jar that keeps nothing."""

    def __init__(self) -> None:
        super().__init__(policy=DefaultCookiePolicy(allowed_domains=[]))


def _strings(value: Any) -> list[str] | None:
    return [str(item) for item in value] if isinstance(value, list) else None


def _fresh(record: Mapping[str, Any]) -> bool:
    margin = min(_REFRESH_MARGIN, float(record.get("lifetime") or 0.0) / 10)
    return float(record.get("expires_at") or 0.0) - margin > time.time()


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()
