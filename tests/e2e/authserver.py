"""A real authorization server for the tests (npm oidc-provider 8.8.1, see authserver.mjs), and crafted tokens.

The test owns the signing key (oidc-provider takes it as configuration), so besides the tokens the
server issues, tests can mint tokens it would never issue (expired, not yet valid, another issuer)
signed with the same key, and tokens signed with other keys.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from conftest import ROOT
from helpers import free_port

PROVIDER = ROOT / ".tools" / "node" / "node_modules" / "oidc-provider" / "lib" / "index.js"
SCRIPT = Path(__file__).with_name("authserver.mjs")


def rsa_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def private_jwk(key: rsa.RSAPrivateKey, kid: str) -> dict[str, Any]:
    jwk: dict[str, Any] = json.loads(RSAAlgorithm.to_jwk(key))
    jwk.pop("key_ops", None)  # oidc-provider would not select a key limited to "sign" for its JWKS
    return {**jwk, "kid": kid, "use": "sig", "alg": "RS256"}


@dataclass
class AuthServer:
    """A running oidc-provider: its issuer, token and introspection endpoints, and its signing key."""

    issuer: str
    key: rsa.RSAPrivateKey
    kid: str
    clients: dict[str, str] = field(default_factory=dict)  # client_id -> secret

    def token(self, client: str, resource: str, scope: str = "tools:call") -> str:
        """An access token from the token endpoint (client credentials with a resource indicator)."""
        response = httpx.post(
            f"{self.issuer}/token",
            data={"grant_type": "client_credentials", "scope": scope, "resource": resource},
            auth=(client, self.clients[client]),
            timeout=10,
        )
        response.raise_for_status()
        token: str = response.json()["access_token"]
        return token

    def mint(
        self, claims: Mapping[str, Any], *, key: Any = None, kid: str | None = None, algorithm: str = "RS256"
    ) -> str:
        """A JWT access token signed with this server's key (or ``key``), as it would never issue it."""
        now = int(time.time())
        payload = {"iss": self.issuer, "iat": now, "exp": now + 300, "client_id": "crafted", **claims}
        headers = {"kid": kid or self.kid, "typ": "at+jwt"}
        return jwt.encode(payload, key if key is not None else self.key, algorithm=algorithm, headers=headers)


@contextlib.contextmanager
def auth_server(
    resources: Mapping[str, Mapping[str, Any]],
    clients: Mapping[str, str],
    workdir: Path,
    *,
    interactive: Mapping[str, Mapping[str, Any]] | None = None,
    port: int | None = None,
    rotate_refresh_tokens: bool = False,
) -> Iterator[AuthServer]:
    """oidc-provider on a free port with ``resources`` (URL -> {scope, format}) and ``clients`` (id -> secret).

    ``interactive`` adds clients of the authorization code grant: id -> {client_secret, redirect_uris,
    scope, auth_method, default_resource} (people sign in through the development pages).
    ``rotate_refresh_tokens``: each refresh spends its refresh token, and a spent one sent again
    revokes the whole grant (as RFC 9700 asks of an authorization server).
    """
    if not PROVIDER.is_file():
        raise RuntimeError(f"missing {PROVIDER}: run ./scripts/test.sh, which installs oidc-provider@8.8.1")
    port = port or free_port()
    key, kid = rsa_key(), "test-key-1"
    config = {
        "issuer": f"http://127.0.0.1:{port}",
        "port": port,
        "jwks": {"keys": [private_jwk(key, kid)]},
        "clients": [
            *({"client_id": c, "client_secret": s, "scope": "tools:call tools:admin"} for c, s in clients.items()),
            *({"client_id": c, **options} for c, options in (interactive or {}).items()),
        ],
        "resources": resources,
        "rotateRefreshTokens": rotate_refresh_tokens,
    }
    path = workdir / f"authserver-{port}.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    log = workdir / f"authserver-{port}.log"
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            ["node", str(SCRIPT), str(path)],
            env={**os.environ, "OIDC_PROVIDER": str(PROVIDER)},
            stdout=subprocess.PIPE,
            stderr=sink,
        )
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline().decode()
            if not line.startswith("listening"):
                raise RuntimeError(f"authorization server did not start: {log.read_text()[-2000:]}")
            secrets = {**clients, **{c: str(o.get("client_secret", "")) for c, o in (interactive or {}).items()}}
            yield AuthServer(issuer=str(config["issuer"]), key=key, kid=kid, clients=secrets)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
            if proc.stdout is not None:
                proc.stdout.close()
