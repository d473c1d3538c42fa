"""Whose API credentials one call uses: the server's, the request's own headers, or the caller's sign-in.

The server's credentials serve every call, except that a scheme users sign in to (:mod:`.signin`)
lends no one its token or its client. Per-user credentials (``PER_USER_CREDENTIALS``) come from
the request's headers, and a signed-in caller's token from the store; either is built into a
:class:`~.credentials.Credentials` of that call alone, with a redactor that knows its values. When
the API refuses a signed-in caller's token, :meth:`CallerCredentials.renew` gets a new one once;
when it refuses that too, :meth:`CallerCredentials.refused` drops it and offers a new link.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NoReturn

from ..contract import ToolEntry, ToolsFile
from ..redact import Redactor
from ..settings.table import Settings
from .credentials import (
    CredentialError,
    Credentials,
    TokenCache,
    credential_secrets,
    per_user_headers,
    redaction_secrets,
    user_credentials,
)
from .grants import GrantError
from .identity import Caller, current_caller
from .signin import SignIn, SignInNeeded
from .store import StoreError

__all__ = ["CallContext", "CallerCredentials"]


@dataclass(frozen=True, slots=True)
class CallContext:
    """What one call uses: its credentials, its redaction, (per user) variable -> header names, and the
    signed-in schemes whose tokens it carries (scheme -> token)."""

    credentials: Credentials
    redact: Redactor
    headers: Mapping[str, str]
    signed_in: Mapping[str, str] = field(default_factory=dict)


class CallerCredentials:
    """Makes each call's :class:`CallContext` (``protected``: the MCP endpoint names its callers)."""

    def __init__(
        self, data: ToolsFile, settings: Settings, tokens: TokenCache, sign_in: SignIn | None, *, protected: bool
    ) -> None:
        self._schemes = data["server"]["securitySchemes"]
        self._fallback = settings.per_user_fallback
        self._tokens = tokens
        self._sign_in = sign_in
        self._protected = protected
        self._secrets = redaction_secrets(self._schemes, settings)
        self.redact = Redactor(self._secrets)
        self._values = dict(settings.credentials)
        for client in sign_in.clients.values() if sign_in else ():
            env = self._schemes[client.key]["env"]
            for kind in ("clientId", "clientSecret", *(() if self._fallback else ("token",))):
                self._values.pop(env.get(kind, ""), None)
        self._shared = CallContext(Credentials(self._schemes, self._values, tokens), self.redact, {})
        self._per_user = per_user_headers(self._schemes, settings.per_user_credentials)

    async def context(self, entry: ToolEntry, headers: Mapping[str, str] | None) -> CallContext:
        """The credentials and redaction of one call (a bad header or unreadable sign-in: :class:`CredentialError`)."""
        given = user_credentials(headers, self._per_user) if headers is not None and self._per_user else {}
        signed_in = await self._signed_in(entry, given)
        return self._context(given, signed_in, headers is not None)

    def _context(self, given: Mapping[str, str], signed_in: Mapping[str, str], per_user: bool) -> CallContext:
        user = {**{self._variable(scheme): token for scheme, token in signed_in.items()}, **given}
        names = self._per_user if per_user else {}
        if not user and not names:
            return self._shared
        values = {k: v for k, v in self._values.items() if self._fallback or k not in self._per_user}
        values.update(user)
        redact = Redactor([*self._secrets, *credential_secrets(self._schemes, user)]) if user else self.redact
        return CallContext(Credentials(self._schemes, values, self._tokens), redact, names, dict(signed_in))

    def _variable(self, scheme: str) -> str:
        assert self._sign_in is not None  # only sign-in schemes have signed-in tokens
        return self._sign_in.clients[scheme].token_variable

    def _caller(self) -> Caller | None:
        return current_caller(protected=self._protected) if self._sign_in is not None else None

    async def _signed_in(self, entry: ToolEntry, given: Mapping[str, str]) -> dict[str, str]:
        """The caller's tokens for the sign-in schemes this operation uses (scheme -> token)."""
        caller = self._caller()
        if self._sign_in is None or caller is None:
            return {}
        found = {}
        for key in dict.fromkeys(key for alternative in entry["security"] for key, _ in alternative):
            client = self._sign_in.clients.get(key)
            if client is None or client.token_variable in given:
                continue
            try:
                token = await self._sign_in.token(caller, key)
            except GrantError as exc:
                raise CredentialError(f"refreshing your {key} sign-in failed: {exc}") from None
            except StoreError as exc:
                raise CredentialError(f"your {key} sign-in cannot be read: {exc}") from None
            if token:
                found[key] = token
        return found

    async def renew(self, entry: ToolEntry, context: CallContext, headers: Mapping[str, str] | None) -> CallContext:
        """The context with new tokens after the API refused the signed-in ones (HTTP 401).

        Each is another replica's newer token, or refreshed once; one that cannot be renewed is
        dropped and :class:`SignInNeeded` raised with a new link.
        """
        caller = self._caller()
        assert self._sign_in is not None and caller is not None  # signed-in tokens come with both
        renewed = {}
        for scheme, used in context.signed_in.items():
            try:
                token = await self._sign_in.renew(caller, scheme, used)
            except GrantError as exc:
                raise CredentialError(f"refreshing your {scheme} sign-in failed: {exc}") from None
            except StoreError as exc:
                raise CredentialError(f"your {scheme} sign-in cannot be read: {exc}") from None
            if token is None:
                await self._link(entry, scheme, caller)
            renewed[scheme] = str(token)
        given = user_credentials(headers, self._per_user) if headers is not None and self._per_user else {}
        return self._context(given, renewed, headers is not None)

    async def refused(self, entry: ToolEntry, context: CallContext) -> NoReturn:
        """The API refused even renewed tokens: drop them, and raise :class:`SignInNeeded` with a new link."""
        caller = self._caller()
        assert self._sign_in is not None and caller is not None
        try:
            for scheme in context.signed_in:
                await self._sign_in.forget(caller, scheme)
        except StoreError as exc:
            raise CredentialError(f"your sign-in cannot be updated: {exc}") from None
        await self._link(entry, next(iter(context.signed_in)), caller)

    async def _link(self, entry: ToolEntry, scheme: str, caller: Caller) -> NoReturn:
        assert self._sign_in is not None
        try:
            link = await self._sign_in.link(caller, scheme, entry["tool"]["name"])
        except StoreError as exc:
            raise CredentialError(f"This operation needs your {scheme} sign-in, and {exc}") from None
        raise SignInNeeded(link)

    async def offer_sign_in(self, entry: ToolEntry, context: CallContext) -> str | None:
        """When signing in would let this operation run: raise :class:`SignInNeeded` with a new link.

        Returns why no link can be given (the request names no user, the store fails); None when
        signing in would not help.
        """
        scheme = self._sign_in_scheme(entry, context)
        if scheme is None or self._sign_in is None:
            return None
        caller = current_caller(protected=self._protected)
        if caller is None:
            return (
                f"This operation needs the caller's own {scheme} sign-in, and this request names no user "
                "(the OpenAI bridge's own token); call it with an MCP access token"
            )
        try:
            await self._link(entry, scheme, caller)
        except CredentialError as exc:
            return str(exc)

    def _sign_in_scheme(self, entry: ToolEntry, context: CallContext) -> str | None:
        """The first sign-in scheme of an alternative whose other schemes are all available."""
        if self._sign_in is None:
            return None
        for alternative in entry["security"]:
            keys = [key for key, _ in alternative]
            waiting = [key for key in keys if key in self._sign_in.clients]
            if waiting and not context.credentials.missing([[[k, []] for k in keys if k not in waiting]]):
                return str(waiting[0])
        return None
