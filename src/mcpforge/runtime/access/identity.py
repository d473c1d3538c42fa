"""Who calls the MCP endpoint, as sign-in knows them: the key their API tokens are kept under, and a name a person
recognises (the sign-in page shows it).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from mcp.server.auth.middleware.auth_context import get_access_token

__all__ = ["Caller", "current_caller"]


@dataclass(frozen=True, slots=True)
class Caller:
    """Who calls the MCP endpoint: ``key`` keys their API tokens; ``label`` names them on the sign-in page.

    ``subject`` is the OAuth subject the person completing a sign-in must prove to be (the MCP
    endpoint uses OAuth); None when the endpoint cannot tell people apart that way.
    """

    key: str
    label: str
    subject: str | None = None

    def record(self) -> list[str | None]:
        """The caller as a store record's field."""
        return [self.key, self.label, self.subject]

    @classmethod
    def from_record(cls, fields: Any) -> Caller:
        """The caller a store record's field holds."""
        key, label, subject = fields
        return cls(str(key), str(label), None if subject is None else str(subject))


def current_caller(*, protected: bool) -> Caller | None:
    """The caller of the current request; None when a protected endpoint's request names no one (bridge token)."""
    token = get_access_token()
    if token is None:
        # Without protection the endpoint serves loopback only (cli refuses otherwise): one person.
        return None if protected else Caller("local", "the user of this computer")
    claims = token.claims or {}
    if token.subject:
        issuer = str(claims.get("iss", ""))
        # The name a person knows themselves by, where the token carries one; the subject otherwise.
        shown = next((str(claims[k]) for k in ("email", "preferred_username", "name", "username") if claims.get(k)), "")
        where = urlsplit(issuer).netloc or issuer
        label = f"{shown or token.subject} (signed in at {where})" if where else shown or token.subject
        return Caller(f"sub:{issuer}\0{token.subject}", label, token.subject)
    if token.client_id.startswith("static-"):
        # A static token is one person: keyed by the token itself, so a new token starts afresh.
        digest = hashlib.sha256(token.token.encode("utf-8")).hexdigest()
        number = token.client_id.removeprefix("static-")
        holder = claims.get("holder")
        label = f"{holder} (access token {number})" if holder else f"the holder of access token {number}"
        return Caller(f"token:{digest}", label)
    return Caller(f"client:{token.client_id}", f"the client {token.client_id}")
