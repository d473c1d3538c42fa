"""Per-user sign-in, in process: its settings, the contract, the pages' safety, and refreshing a user's token.

The whole flow against a real authorization server, Redis and replicas is in tests/e2e/test_signin.py.
"""

from __future__ import annotations

import contextlib
import logging
import re
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
from helpers import contract_of, redis_server, serve
from mcpforge.runtime.access.endpoint import StaticTokens
from mcpforge.runtime.access.grants import Grant
from mcpforge.runtime.access.identity import Caller
from mcpforge.runtime.access.signin import Flow, SignIn, SignInClient, sign_in_schemes
from mcpforge.runtime.access.signin_pages import sign_in_routes
from mcpforge.runtime.access.store import FolderStore, Sealer, open_store
from mcpforge.runtime.calling.api import Api, http_client
from mcpforge.runtime.redact import Redactor, SecretFilter
from mcpforge.runtime.serving.cli import run
from mcpforge.runtime.serving.server import build_server
from mcpforge.runtime.serving.web import http_app
from mcpforge.runtime.settings.setting import SettingError
from mcpforge.runtime.settings.table import read_settings

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


def form_of(page: Any) -> dict[str, str]:
    """The fields of the page's form, as a browser would submit them."""
    return dict(re.findall(r"<input type=hidden name=(\w+) value='([^']*)'>", page.text))


def test_the_pages_name_the_caller_safely_and_a_link_works_once_in_one_browser(tmp_path: Path) -> None:
    flow = sign_in(tmp_path)
    link = anyio.run(flow.link, HOSTILE, "notesAuth", "whoAmI")
    path = urlsplit(link.url).path.removeprefix("/notes")
    assert link.url.startswith(PUBLIC + "/signin/") and link.id not in link.url
    assert re.fullmatch(r"[A-Z2-9]{3}-[A-Z2-9]{3}", link.code) and link.code in link.message
    app = Starlette(routes=sign_in_routes(flow, None, server_title="Notes MCP"))
    with TestClient(app, base_url="https://mcp.example.com") as browser, TestClient(app) as stranger:
        page = browser.get(path)
        assert page.status_code == 200 and "<script>" not in page.text and "&lt;script&gt;" in page.text
        assert link.code in page.text and "whoAmI" in page.text  # the code the caller was shown, the tool that asked
        assert page.headers["x-frame-options"] == "DENY" and "frame-ancestors 'none'" in page.headers[
            "content-security-policy"]  # fmt: skip
        assert browser.get(path).status_code == 200  # looking does not use it up
        sent = browser.post(path, data=form_of(page), follow_redirects=False)
        assert sent.status_code == 303 and browser.post(path, data=form_of(page)).status_code == 410
        cookie = sent.headers["set-cookie"].lower()
        assert cookie.startswith("__host-mcpforge-signin=") and "domain" not in cookie
        assert all(part in cookie for part in ("httponly", "samesite=lax", "path=/;", "secure"))
        target = urlsplit(sent.headers["location"])
        query = {k: v[0] for k, v in parse_qs(target.query).items()}
        assert target.netloc == "id.example.com" and query["x"] == "1" and query["code_challenge_method"] == "S256"
        assert query["redirect_uri"] == PUBLIC + "/signin/callback" and query["scope"] == "openid notes"
        assert query["client_id"] == "notes-client" and len(query["state"]) >= 32
        # Another browser (no cookie) cannot finish it, nor cancel it: its owner still can (then it is used up).
        finish = f"/signin/callback?state={query['state']}&error=access_denied"
        assert stranger.get(finish).status_code == 400
        done = browser.get(finish)
        assert done.status_code == 200 and "access_denied" in done.text
        assert browser.get(finish).status_code == 400
        assert browser.get("/signin/callback?state=unknown&code=x").status_code == 400


def test_a_forged_confirmation_is_refused_and_leaves_the_link_to_its_page(tmp_path: Path) -> None:
    """Finding 1: the attacker's own link, posted from the victim's browser by the attacker's page."""
    flow = sign_in(tmp_path)
    link = anyio.run(flow.link, Caller("token:attacker", "mallory (access token 2)"), "notesAuth", "whoAmI")
    path = urlsplit(link.url).path.removeprefix("/notes")
    app = Starlette(routes=sign_in_routes(flow, None, server_title="Notes MCP"))
    with (
        TestClient(app, base_url="https://mcp.example.com") as victim,
        TestClient(app, base_url="https://mcp.example.com") as attacker,
    ):
        victim.get("/signin/callback")  # the victim's browser knows the site; it has not opened this link
        stolen = form_of(attacker.get(path))  # the attacker opens their own link: a valid form token, theirs
        forgeries = [
            ({}, {}),  # no form token at all (the old finding: any POST was taken)
            (stolen, {}),  # the attacker's token, in the victim's browser (another cookie)
            (stolen, {"Origin": "https://evil.example"}),
            (stolen, {"Sec-Fetch-Site": "cross-site", "Origin": "null"}),
            ({"form_token": "0" * 64}, {"Origin": "null"}),
        ]
        for data, headers in forgeries:
            refused = victim.post(path, data=data, headers=headers, follow_redirects=False)
            assert refused.status_code == 403 and "refused" in refused.text, (data, headers)
        # Even with the attacker's own cookie and token, another site's request is refused.
        crossed = attacker.post(path, data=stolen, headers={"Sec-Fetch-Site": "cross-site"}, follow_redirects=False)
        assert crossed.status_code == 403
        # The link was not used up by any of it: its page still works for its own browser.
        assert attacker.post(path, data=stolen, headers={"Origin": "null"}, follow_redirects=False).status_code == 303


def test_a_planted_cookie_without_the_host_prefix_counts_for_nothing(tmp_path: Path) -> None:
    """Finding 5: a cookie set from a sibling subdomain or over http cannot carry an attacker's flow."""
    flow = sign_in(tmp_path)
    link = anyio.run(flow.link, Caller("token:attacker", "mallory"), "notesAuth", "whoAmI")
    path = urlsplit(link.url).path.removeprefix("/notes")
    app = Starlette(routes=sign_in_routes(flow, None, server_title="Notes MCP"))
    with (
        TestClient(app, base_url="https://mcp.example.com") as attacker,
        TestClient(app, base_url="https://mcp.example.com") as victim,
    ):
        page = attacker.get(path)
        started = attacker.post(path, data=form_of(page), follow_redirects=False)
        state = parse_qs(urlsplit(started.headers["location"]).query)["state"][0]
        planted = attacker.cookies["__Host-mcpforge-signin"]
        victim.cookies.set("mcpforge-signin", planted)  # what a sibling subdomain can set: no __Host- prefix
        answer = victim.get(f"/signin/callback?state={state}&code=victims-code")
        assert answer.status_code == 400 and "another browser" in answer.text


def test_an_answer_naming_another_authorization_server_is_refused(tmp_path: Path) -> None:
    """RFC 9207: the callback's iss must be the server the flow went to (mix-up attacks)."""
    flow = sign_in(tmp_path)
    link = anyio.run(flow.link, Caller("token:a", "alice"), "notesAuth", "whoAmI")
    path = urlsplit(link.url).path.removeprefix("/notes")
    app = Starlette(routes=sign_in_routes(flow, None, server_title="Notes MCP"))
    with TestClient(app, base_url="https://mcp.example.com") as browser:
        started = browser.post(path, data=form_of(browser.get(path)), follow_redirects=False)
        state = parse_qs(urlsplit(started.headers["location"]).query)["state"][0]
        answer = browser.get(f"/signin/callback?state={state}&code=c&iss=https://evil.example")
        assert answer.status_code == 400 and "another authorization server" in answer.text


def test_the_flow_checks_iss_exactly_where_the_issuer_is_known() -> None:
    caller = Caller("k", "someone")
    known = Flow("api", "s", caller, "v", "n", "b", issuer="https://id.example.com", issuer_required=True)
    assert known.answered_by("https://id.example.com") and not known.answered_by("https://id.example.com/x")
    assert not known.answered_by(None)  # its metadata says it always sends iss
    unknown = Flow("api", "s", caller, "v", "n", "b", origin="https://id.example.com")
    assert unknown.answered_by(None) and unknown.answered_by("https://id.example.com/tenant")
    assert not unknown.answered_by("https://evil.example") and not unknown.answered_by("nonsense")


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
            grants = [await flow.endpoints.grant(url + "/token", {"grant_type": "x"}, "id", "secret") for _ in range(2)]
            await flow.close()
            return [g.access_token for g in grants]

        assert anyio.run(twice) == ["granted", "granted"]
    assert seen == ["basic", "post:id:secret", "post:id:secret"]


class RotatingTokenEndpoint:
    """An authorization server's token endpoint that rotates refresh tokens and revokes the grant on reuse."""

    def __init__(self) -> None:
        self.live = {"r0"}  # refresh tokens not yet spent
        self.spent: set[str] = set()
        self.revoked = False
        self.refreshes = 0

    async def token(self, request: Request) -> JSONResponse:
        form = await request.form()
        given = str(form.get("refresh_token"))
        await anyio.sleep(0.05)  # a real endpoint takes a while: concurrent refreshes overlap
        if given in self.spent:  # reuse: RFC 9700 says treat as theft, revoke the grant
            self.revoked = True
        if self.revoked or given not in self.live:
            return JSONResponse({"error": "invalid_grant"}, status_code=400)
        self.live.discard(given)
        self.spent.add(given)
        self.refreshes += 1
        fresh = f"r{self.refreshes}"
        self.live.add(fresh)
        return JSONResponse({"access_token": f"a{self.refreshes}", "refresh_token": fresh, "expires_in": 600})


@pytest.mark.parametrize("kind", ["folder", "redis"])
def test_two_replicas_refreshing_at_once_spend_the_refresh_token_once(kind: str, tmp_path: Path) -> None:
    """Finding 2: the refresh lock is shared through the store; the others read the record again."""
    endpoint = RotatingTokenEndpoint()
    caller = Caller("token:abc", "someone")
    with contextlib.ExitStack() as stack:
        redis_url = stack.enter_context(redis_server(tmp_path)) if kind == "redis" else ""
        url = stack.enter_context(serve(Starlette(routes=[Route("/token", endpoint.token, methods=["POST"])])))

        def replica() -> SignIn:
            client = SignInClient("notesAuth", "NOTES_NOTESAUTH_TOKEN", "https://id.example.com/auth",
                                  url + "/token", url + "/token", ("notes",), "notes-client", "s")  # fmt: skip
            store = open_store(redis_url=redis_url, folder=str(tmp_path / "tokens"), keys=KEY, prefix="NOTES")
            return SignIn({"notesAuth": client}, store, public_url=PUBLIC, api_title="Notes")

        async def scenario() -> list[str | None]:
            first, second = replica(), replica()
            await first.keep(caller, "notesAuth", Grant("a0", time.time() - 1, refresh_token="r0"))
            seen: list[str | None] = []

            async def call(flow: SignIn) -> None:
                seen.append(await flow.token(caller, "notesAuth"))

            async with anyio.create_task_group() as group:
                for index in range(10):
                    group.start_soon(call, (first, second)[index % 2])
            # A 401 for that new token on one replica: renewed once there, the other just reads it.
            renewed = await first.renew(caller, "notesAuth", "a1")
            seen += [renewed, await second.renew(caller, "notesAuth", "a1")]
            for flow in (first, second):
                await flow.close()
            return seen

        seen = anyio.run(scenario)
    assert seen[:10] == ["a1"] * 10 and seen[10:] == ["a2", "a2"]
    assert endpoint.refreshes == 2 and not endpoint.revoked


def test_a_refresh_refused_as_invalid_grant_drops_the_record(tmp_path: Path) -> None:
    endpoint = RotatingTokenEndpoint()
    endpoint.revoked = True  # the user revoked the app at the API
    caller = Caller("token:abc", "someone")
    with serve(Starlette(routes=[Route("/token", endpoint.token, methods=["POST"])])) as url:
        flow = sign_in(tmp_path, url + "/token")

        async def scenario() -> list[Any]:
            await flow.keep(caller, "notesAuth", Grant("a0", time.time() + 600, refresh_token="r0"))
            renewed = await flow.renew(caller, "notesAuth", "a0")
            kept = await flow.store.get("tokens", "notesAuth\0token:abc")
            await flow.close()
            return [renewed, kept]

        assert anyio.run(scenario) == [None, None]


def test_a_call_waiting_for_a_sign_in_stops_waiting_in_time_and_reads_the_store_at_a_bounded_rate(
    tmp_path: Path,
) -> None:
    """Finding 6: 20 calls waiting 3 s make a few reads each round, not one a second each."""
    flow = sign_in(tmp_path)
    reads: list[float] = []
    real_get = flow.store.get

    async def counted_get(kind: str, key: str) -> Any:
        reads.append(time.monotonic())
        return await real_get(kind, key)

    flow.store.get = counted_get  # type: ignore[method-assign]

    async def scenario() -> list[bool]:
        links = [await flow.link(Caller(f"token:{n}", f"person {n}"), "notesAuth", "whoAmI") for n in range(20)]
        results: list[bool] = []

        async def wait(link: Any) -> None:
            results.append(await flow.wait(link, 3.0))

        async with anyio.create_task_group() as group:
            for link in links:
                group.start_soon(wait, link)
        return results

    began = time.monotonic()
    assert anyio.run(scenario) == [False] * 20
    assert time.monotonic() - began < 4.5
    assert len(reads) <= 20 * 2  # two rounds in 3 s (one round every 2 s), not one read a second per call


def test_a_sign_in_finished_in_this_process_wakes_its_waiting_call_at_once(tmp_path: Path) -> None:
    flow = sign_in(tmp_path)
    caller = Caller("token:abc", "someone")

    async def scenario() -> tuple[bool, float]:
        link = await flow.link(caller, "notesAuth", "whoAmI")
        began = time.monotonic()
        async with anyio.create_task_group() as group:
            done: list[bool] = []

            async def wait() -> None:
                done.append(await flow.wait(link, 30))

            group.start_soon(wait)
            await anyio.sleep(0.3)
            await flow.keep(caller, "notesAuth", Grant("a", time.time() + 600))
            flow._waiting.done("notesAuth\0token:abc")
        return done[0], time.monotonic() - began

    finished, took = anyio.run(scenario)
    assert finished and took < 2


UNSHARED = [
    # Finding 3: no protection, a public address: every caller would be the same user.
    ({"NOTES_PUBLIC_URL": "https://mcp.example.com"}, ["--transport", "http"], "NOTES_AUTH_TOKENS"),
    # An http:// public address off loopback: links, cookie and code in clear.
    ({"NOTES_AUTH_TOKENS": "t" * 20, "NOTES_PUBLIC_URL": "http://mcp.example.com"}, ["--transport", "http"],
     "https"),
    ({"NOTES_OAUTH_ISSUER": "https://id.example.com", "NOTES_OAUTH_RESOURCE": "http://mcp.example.com/mcp",
      "NOTES_OAUTH_CLIENT_ID": "c"}, ["--transport", "http"], "NOTES_PUBLIC_URL"),
]  # fmt: skip


@pytest.mark.parametrize(("env", "argv", "named"), UNSHARED, ids=["unprotected-public", "http-public", "http-resource"])
def test_sign_in_refuses_shared_accounts_and_cleartext_at_start(
    data: Any, env: dict[str, str], argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        run(data, argv, {**BASE, "NOTES_BASE_URL": "http://127.0.0.1:9", **env})
    err = capsys.readouterr().err.strip()
    assert stop.value.code == 2 and len(err.splitlines()) == 1 and named in err, err


def test_a_named_static_token_names_its_holder_on_the_page(tmp_path: Path) -> None:
    entries = ["alice:alice-token-0123456789", "bob-token-0123456789"]
    verifier = StaticTokens(entries)
    alice, unnamed = (anyio.run(verifier.verify_token, t) for t in ("alice-token-0123456789", "bob-token-0123456789"))
    assert alice is not None and alice.claims == {"holder": "alice"} and unnamed is not None and not unnamed.claims
    assert anyio.run(verifier.verify_token, "alice:alice-token-0123456789") is None  # the name is not the token
    with pytest.raises(SettingError, match="at least 16"):
        StaticTokens(["carol:short"])


def test_an_api_401_for_a_signed_in_token_renews_it_once_then_asks_to_sign_in_again(data: Any, tmp_path: Path) -> None:
    """Finding 2's second half: a token the API refuses (revoked, rotated) is not used until it expires."""
    endpoint = RotatingTokenEndpoint()
    refused = {"a0"}  # the API's own view: which access tokens it no longer takes
    seen: list[str] = []

    async def me(request: Request) -> JSONResponse:
        token = request.headers.get("authorization", "").removeprefix("Bearer ")
        seen.append(token)
        if token in refused:
            return JSONResponse({"message": "Invalid access token"}, status_code=401)
        return JSONResponse({"subject": "local", "token": token})

    app = Starlette(routes=[Route("/token", endpoint.token, methods=["POST"]), Route("/me", me)])
    with serve(app) as url:
        env = {"NOTES_BASE_URL": url, "NOTES_NOTESAUTH_CLIENT_ID": "notes-client", "NOTES_TRANSPORT": "http"}
        settings = read_settings(data["server"], env)
        flow = sign_in(tmp_path, url + "/token")

        async def scenario() -> list[Any]:
            caller = Caller("local", "the user of this computer")  # an unprotected loopback server's one caller
            await flow.keep(caller, "notesAuth", Grant("a0", time.time() + 600, refresh_token="r0"))
            async with http_client(settings, data["server"]) as client:
                api = Api(data, settings, client, sign_in=flow)
                renewed = await api.call("whoAmI", {})
                refused.add("a1")  # the user revokes the app: even a refreshed token is refused...
                endpoint.revoked = True  # ...and so is the refresh token
                again = await api.call("whoAmI", {})
                kept = await flow.store.get("tokens", "notesAuth\0local")
            await flow.close()
            return [renewed, again, kept]

        renewed, again, kept = anyio.run(scenario)
    assert not renewed.is_error and renewed.structured_content == {"subject": "local", "token": "a1"}
    assert seen[:2] == ["a0", "a1"] and endpoint.refreshes == 1
    # The record is dropped and the caller gets a new link (no prompt: a link in the error result).
    assert again.is_error and "/signin/" in again.content[0].text and "then call whoAmI again" in again.content[0].text
    assert kept is None and seen[2:] == ["a1"]


def test_readiness_is_503_while_the_token_store_does_not_answer(data: Any, tmp_path: Path) -> None:
    """Finding 6: a load balancer must stop sending signed-in users to a replica whose Redis is down."""
    settings = read_settings(data["server"], {"NOTES_BASE_URL": "http://127.0.0.1:9", "NOTES_TRANSPORT": "http"})
    with contextlib.ExitStack() as redis_running:
        redis_url = redis_running.enter_context(redis_server(tmp_path))
        store = open_store(redis_url=redis_url, folder="", keys=KEY, prefix="NOTES")
        flow = SignIn({}, store, public_url="http://127.0.0.1:8000", api_title="Notes")
        app, _ = http_app(build_server(data, settings, sign_in=flow), data, settings, None, sign_in=flow)
        with TestClient(app, base_url="http://127.0.0.1") as client:
            assert client.get("/readyz").status_code == 200
            redis_running.close()  # Redis stops
            down = client.get("/readyz")
            assert down.status_code == 503 and "token store" in down.json()["reason"]
            assert client.get("/healthz").status_code == 200  # alive: restarting it would not help


def test_a_program_in_code_mode_is_asked_to_sign_in_and_then_calls_as_the_user(data: Any, tmp_path: Path) -> None:
    """Code mode's calls take the tools' path: a call that needs the caller signed in asks, as a tool call does."""
    from mcpforge.runtime.access.signin import Link
    from mcpforge.runtime.modes.code import CodeMode

    seen: list[str] = []

    async def me(request: Request) -> JSONResponse:
        seen.append(request.headers.get("authorization", ""))
        return JSONResponse({"subject": "local"})

    app = Starlette(routes=[Route("/me", me)])
    with serve(app) as url:
        settings = read_settings(data["server"], {"NOTES_BASE_URL": url, "NOTES_NOTESAUTH_CLIENT_ID": "notes-client"})
        flow = sign_in(tmp_path, url + "/token")
        asked: list[Link] = []

        async def prompt(link: Link) -> bool:  # the person opens the link and signs in meanwhile
            asked.append(link)
            caller = Caller("local", "the user of this computer")
            await flow.keep(caller, "notesAuth", Grant("user-token", time.time() + 600))
            return True

        async def scenario() -> list[Any]:
            code = CodeMode(data["tools"], None, settings, "NOTES")
            program = "[api.whoAmI()['subject'] for _ in range(2)]"
            try:
                async with http_client(settings, data["server"]) as client:
                    api = Api(data, settings, client, sign_in=flow)
                    first = await code.call(api, "execute", {"code": program}, prompt=prompt)
                    await flow.store.delete("tokens", "notesAuth\0local")  # signed out: no prompt, a link to follow
                    second = await code.call(api, "execute", {"code": "api.whoAmI()"})
            finally:
                await code.sandbox.close()
                await flow.close()
            return [first, second]

        first, second = anyio.run(scenario)
    assert not first.is_error and first.content[0].text == '["local","local"]'
    assert len(asked) == 1 and seen == ["Bearer user-token", "Bearer user-token"]
    assert second.is_error and "OSError" in second.content[0].text and "/signin/" in second.content[0].text
