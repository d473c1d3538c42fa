"""Per-user sign-in, in process: its settings, the contract, the pages' safety, and refreshing a user's token.

The whole flow against a real authorization server, Redis and replicas is in tests/e2e/test_signin.py.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import anyio
import pytest
from cryptography.fernet import Fernet
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from conftest import FIXTURES
from helpers import contract_of, serve
from mcpforge.runtime.cli import run
from mcpforge.runtime.grants import Grant
from mcpforge.runtime.redact import Redactor, SecretFilter
from mcpforge.runtime.signin import Caller, SignIn, SignInClient, sign_in_schemes
from mcpforge.runtime.signin_web import sign_in_routes
from mcpforge.runtime.store import FolderStore, Sealer

KEY = Fernet.generate_key().decode()
PUBLIC = "https://mcp.example.com/notes"
HOSTILE = Caller("sub:x\0<script>alert(1)</script>", "<script>alert(1)</script>", None)


@pytest.fixture(scope="module")
def data() -> Any:
    return contract_of(FIXTURES / "specs" / "signin.yaml")


def test_an_authorization_code_scheme_gets_a_sign_in_flow_and_its_client_variables(data: Any) -> None:
    scheme = data["server"]["securitySchemes"]["notesAuth"]
    assert scheme["signIn"] == {
        "authorizationUrl": "https://auth.notes.example.com/authorize",
        "tokenUrl": "https://auth.notes.example.com/token",
        "scopes": ["openid", "notes"],
    }
    assert scheme["env"] == {
        "token": "NOTES_NOTESAUTH_TOKEN",
        "clientId": "NOTES_NOTESAUTH_CLIENT_ID",
        "clientSecret": "NOTES_NOTESAUTH_CLIENT_SECRET",
    }
    assert scheme["optionalEnv"] == {
        "authorizationUrl": "NOTES_NOTESAUTH_AUTHORIZATION_URL",
        "tokenUrl": "NOTES_NOTESAUTH_TOKEN_URL",
    }
    # The overrides replace the document's URLs; without a client id there is no sign-in.
    values = {"NOTES_NOTESAUTH_CLIENT_ID": "c", "NOTES_NOTESAUTH_TOKEN_URL": "http://127.0.0.1:1/t"}
    (client,) = sign_in_schemes(data["server"]["securitySchemes"], values).values()
    assert (client.token_url, client.refresh_url, client.client_secret) == ("http://127.0.0.1:1/t",) * 2 + ("",)
    assert sign_in_schemes(data["server"]["securitySchemes"], {}) == {}


def test_a_scheme_named_oauth_keeps_every_variable_clear_of_the_servers_own(tmp_path: Path) -> None:
    spec = (FIXTURES / "specs" / "signin.yaml").read_text().replace("notesAuth", "OAuth")
    (tmp_path / "openapi.yaml").write_text(spec)
    scheme = contract_of(tmp_path / "openapi.yaml")["server"]["securitySchemes"]["OAuth"]
    variables = [*scheme["env"].values(), *scheme["optionalEnv"].values()]
    assert all(v.startswith("NOTES_OAUTH_SCHEME_") for v in variables), variables


BASE = {"NOTES_NOTESAUTH_CLIENT_ID": "notes-client", "NOTES_TOKEN_KEY": KEY}
REFUSED = [
    ({}, [], "NOTES_TRANSPORT=http"),  # stdio: no callback to come back to
    ({"NOTES_TOKEN_KEY": ""}, ["--transport", "http"], "NOTES_TOKEN_KEY"),
    ({"NOTES_TOKEN_KEY": "not-a-key"}, ["--transport", "http"], "NOTES_TOKEN_KEY"),
    ({"NOTES_REDIS_URL": "http://cache:6379"}, ["--transport", "http"], "NOTES_REDIS_URL"),
    ({}, ["--transport", "http", "--host", "0.0.0.0", "--allow-unauthenticated"], "NOTES_AUTH_TOKENS"),
    ({"NOTES_AUTH_TOKENS": "t" * 20}, ["--transport", "http", "--host", "0.0.0.0"], "NOTES_PUBLIC_URL"),
    (
        {"NOTES_OAUTH_ISSUER": "https://id.example.com", "NOTES_OAUTH_RESOURCE": "https://mcp.example.com/mcp"},
        ["--transport", "http"],
        "NOTES_OAUTH_CLIENT_ID",
    ),
]


@pytest.mark.parametrize(("env", "argv", "named"), REFUSED, ids=[r[2] for r in REFUSED])
def test_a_sign_in_that_cannot_work_stops_the_server_with_one_line(
    data: Any, env: dict[str, str], argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        run(data, argv, {**BASE, "NOTES_BASE_URL": "http://127.0.0.1:9", **env})
    err = capsys.readouterr().err.strip()
    assert stop.value.code == 2 and len(err.splitlines()) == 1 and named in err, err
    assert "cache:6379" not in err and KEY not in err


def sign_in(folder: Path, token_url: str = "http://127.0.0.1:9/token") -> SignIn:
    client = SignInClient(
        key="notesAuth", token_variable="NOTES_NOTESAUTH_TOKEN", authorization_url="https://id.example.com/auth?x=1",
        token_url=token_url, refresh_url=token_url, scopes=("openid", "notes"), client_id="notes-client",
        client_secret="notes-secret",
    )  # fmt: skip
    return SignIn({"notesAuth": client}, FolderStore(str(folder), Sealer(KEY, "KEY")), public_url=PUBLIC + "/",
                  api_title="Notes <API>")  # fmt: skip


def test_the_pages_name_the_caller_safely_and_a_link_works_once_in_one_browser(tmp_path: Path) -> None:
    flow = sign_in(tmp_path)
    link = anyio.run(flow.link, HOSTILE, "notesAuth", "whoAmI")
    path = urlsplit(link.url).path.removeprefix("/notes")
    assert link.url.startswith(PUBLIC + "/signin/") and link.id not in link.url
    app = Starlette(routes=sign_in_routes(flow, None, server_title="Notes MCP"))
    with TestClient(app, base_url="https://mcp.example.com") as browser, TestClient(app) as stranger:
        page = browser.get(path)
        assert page.status_code == 200 and "<script>" not in page.text and "&lt;script&gt;" in page.text
        assert page.headers["x-frame-options"] == "DENY" and "frame-ancestors 'none'" in page.headers[
            "content-security-policy"]  # fmt: skip
        assert browser.get(path).status_code == 200  # looking does not use it up
        sent = browser.post(path, follow_redirects=False)
        assert sent.status_code == 303 and browser.post(path).status_code == 410
        cookie = sent.headers["set-cookie"].lower()
        assert all(part in cookie for part in ("httponly", "samesite=lax", "path=/notes/signin", "secure"))
        target = urlsplit(sent.headers["location"])
        query = {k: v[0] for k, v in parse_qs(target.query).items()}
        assert target.netloc == "id.example.com" and query["x"] == "1" and query["code_challenge_method"] == "S256"
        assert query["redirect_uri"] == PUBLIC + "/signin/callback" and query["scope"] == "openid notes"
        assert query["client_id"] == "notes-client" and len(query["state"]) >= 32
        # Another browser (no cookie) cannot finish it, and that used the state up.
        finish = f"/signin/callback?state={query['state']}&code=abc"
        assert stranger.get(finish).status_code == 400
        assert browser.get(finish).status_code == 400
        assert browser.get("/signin/callback?state=unknown&code=x").status_code == 400


def test_a_token_is_refreshed_before_it_expires_and_a_refused_refresh_means_signing_in_again(tmp_path: Path) -> None:
    answers: list[dict[str, Any]] = []
    forms: list[dict[str, str]] = []

    async def token(request: Request) -> JSONResponse:
        forms.append({k: str(v) for k, v in (await request.form()).items()})
        answer = answers.pop(0)
        return JSONResponse(answer, status_code=400 if "error" in answer else 200)

    caller = Caller("token:abc", "someone")
    with serve(Starlette(routes=[Route("/token", token, methods=["POST"])])) as url:
        flow = sign_in(tmp_path, url + "/token")

        async def scenario() -> list[str | None]:
            await flow.keep(caller, "notesAuth", Grant("first", time.time() + 30, refresh_token="r1"))
            fresh = await flow.token(caller, "notesAuth")
            await flow.keep(caller, "notesAuth", Grant("old", time.time() - 1, refresh_token="r1"))
            answers.append({"access_token": "second", "expires_in": 600})  # no new refresh token: r1 stays
            refreshed = await flow.token(caller, "notesAuth")
            kept = await flow.store.get("tokens", "notesAuth\0token:abc")
            await flow.keep(caller, "notesAuth", Grant("old", time.time() - 1, refresh_token="r1"))
            answers.append({"error": "invalid_grant"})
            refused = await flow.token(caller, "notesAuth")
            await flow.close()
            return [fresh, refreshed, str(kept["refresh_token"]) if kept else None, refused]

        assert anyio.run(scenario) == ["first", "second", "r1", None]
    assert [f["grant_type"] for f in forms] == ["refresh_token", "refresh_token"]
    assert all(f["refresh_token"] == "r1" for f in forms)


def test_a_sign_in_link_never_reaches_a_log(caplog: pytest.LogCaptureFixture) -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0, '%s - "%s %s" %d', (
        "127.0.0.1:5", "GET", "/signin/Xk2v9q_-AbCdEfGhIjKlMnOpQrStUv?x=1", 200), None)  # fmt: skip
    SecretFilter(Redactor([])).filter(record)
    assert "Xk2v9q" not in record.getMessage() and "/signin/***" in record.getMessage()
    callback = logging.LogRecord("uvicorn.access", logging.INFO, "", 0, "GET /signin/callback?state=s&code=c0de", (),
                                 None)  # fmt: skip
    SecretFilter(Redactor([])).filter(callback)
    assert "c0de" not in callback.getMessage() and "/signin/callback" in callback.getMessage()


def test_auto_client_authentication_falls_back_to_the_form_once_and_remembers(tmp_path: Path) -> None:
    seen: list[str] = []

    async def token(request: Request) -> JSONResponse:
        form = await request.form()
        if "authorization" in request.headers:  # registered for client_secret_post: basic is refused
            seen.append("basic")
            return JSONResponse({"error": "invalid_client"}, status_code=401)
        seen.append(f"post:{form.get('client_id')}:{form.get('client_secret')}")
        return JSONResponse({"access_token": "granted", "expires_in": 60})

    with serve(Starlette(routes=[Route("/token", token, methods=["POST"])])) as url:
        flow = sign_in(tmp_path, url + "/token")

        async def twice() -> list[str]:
            grants = [await flow.grant(url + "/token", {"grant_type": "x"}, "id", "secret") for _ in range(2)]
            await flow.close()
            return [g.access_token for g in grants]

        assert anyio.run(twice) == ["granted", "granted"]
    assert seen == ["basic", "post:id:secret", "post:id:secret"]
