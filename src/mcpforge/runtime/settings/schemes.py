"""The settings of the API's own credentials: one secret variable per credential of each security scheme.

``tools.json`` names the variables (``PETSTORE_BEARERAUTH_TOKEN``); this module turns them into
:class:`~.setting.Setting` rows (help, kind, default) and names the request headers that carry them
per user (``PER_USER_CREDENTIALS``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..contract import SchemeConfig
from .setting import Setting

__all__ = ["credential_settings", "header_borne", "label", "per_user_headers", "user_header"]


_CREDENTIAL_HELP = {
    "apiKey": "API key for `{key}` (sent in {where} `{name}`)",
    "username": "user name for `{key}` (HTTP basic)",
    "password": "password for `{key}` (HTTP basic)",
    "token": "access token for `{key}` (sent as a bearer token)",
    "clientId": "OAuth2 client id for `{key}` (client credentials flow)",
    "clientSecret": "OAuth2 client secret for `{key}`",
    "tokenUrl": "override of the OAuth2 token URL for `{key}`",
    "authorizationUrl": "override of the OAuth2 authorization URL for `{key}`",
}
# A scheme users sign in to (authorization code): its client is this server's registration.
_SIGN_IN_HELP = {
    "clientId": "OAuth2 client id for `{key}`: users sign in with it (HTTP mode; register PUBLIC_URL/signin/callback "
    "as its redirect URI)",
    "clientSecret": "OAuth2 client secret of that client (none for a public client)",
}


def label(text: str, limit: int = 60) -> str:
    """Spec text shown in help and comments: printable, without backticks, bounded."""
    return "".join(ch for ch in text if ch.isprintable() and ch != "`")[:limit]


def credential_settings(schemes: Mapping[str, SchemeConfig], prefix: str) -> list[Setting]:
    """One setting per credential variable of the API's security schemes (all secret, except URLs)."""
    result: list[Setting] = []
    for key, scheme in schemes.items():
        kinds = [*scheme["env"].items(), *scheme.get("optionalEnv", {}).items()]
        for kind, variable in kinds:
            helps = {**_CREDENTIAL_HELP, **_SIGN_IN_HELP} if "signIn" in scheme else _CREDENTIAL_HELP
            text = helps.get(kind, "credential for `{key}`").format(
                key=label(key), where=label(scheme.get("in", "header")), name=label(scheme.get("name", ""))
            )
            name = variable.removeprefix(f"{prefix}_")
            if kind in ("tokenUrl", "authorizationUrl"):
                default = scheme.get(kind) or scheme.get("signIn", {}).get(kind)
                result.append(Setting(name, "url", default, text[:1].upper() + text[1:] + "."))
            else:
                result.append(Setting(name, "secret", None, text[:1].upper() + text[1:] + "."))
    return result


def user_header(variable: str) -> str:
    """The request header that carries ``variable``'s value per user: PETSTORE_API_KEY -> X-Petstore-Api-Key."""
    return "X-" + "-".join(part.capitalize() for part in variable.split("_") if part)


def per_user_headers(schemes: Mapping[str, SchemeConfig], chosen: Sequence[str]) -> dict[str, str]:
    """Variable -> header for the credentials of the schemes taken per user (``all``: every scheme)."""
    keys = list(schemes) if "all" in chosen else [key for key in schemes if key in chosen]
    return {var: user_header(var) for key in keys for var in schemes[key]["env"].values()}


def header_borne(scheme: SchemeConfig) -> list[str]:
    """The variables of ``scheme`` whose values travel in an HTTP header as they are (they must be ASCII)."""
    env = scheme["env"]
    if scheme["type"] == "apiKey":
        return [env["apiKey"]] if scheme.get("in", "header") == "header" else []
    if scheme["type"] == "http" and scheme.get("scheme") == "basic":
        return []  # base64-encoded: any character is fine
    return [var for kind, var in env.items() if kind in ("token", "clientId", "clientSecret")]
