"""The sign-in pages a person's browser visits: the link's page, the step to the authorization server, the callback.

``GET /signin/{id}`` names the MCP caller the link was made for, the tool that asked and when, and
the short code the caller was shown; it changes nothing (a link preview or a reload does not use
it up). It sets the cookie that binds the sign-in to this browser and puts a form token bound to
the link and that cookie in its form. ``POST /signin/{id}`` accepts only that token, from this
site (a cross-site ``Origin`` or ``Sec-Fetch-Site`` is refused), uses the link up, and sends the
person to the authorization server: first the MCP endpoint's own issuer when it uses OAuth (the
person must prove to be the caller's subject), then the API's. ``GET /signin/callback`` finishes
each leg, in the browser that started it only, from the server it went to only (RFC 9207 ``iss``).
Every page is ``no-store``, sends no referrer (the link is a secret) and cannot be framed.

Over https the cookie is ``__Host-`` prefixed (``Secure``, ``Path=/``, no ``Domain``), so no
sibling subdomain and no plain-http page can plant one.
"""

from __future__ import annotations

import html
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from .grants import GrantError
from .identity import Caller
from .signin import LINK_SECONDS, PendingLink, SignIn
from .store import StoreError

if TYPE_CHECKING:
    from .oauth import OAuthVerifier

__all__ = ["Identity", "cookie_name", "sign_in_routes"]

logger = logging.getLogger(__name__)
_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    # No form-action: browsers that apply it to the redirect after the form would block the way on.
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
}
_FORM_FIELD = "form_token"


@dataclass(frozen=True, slots=True)
class Identity:
    """The MCP endpoint's issuer, where a person proves to be the caller's subject (OpenID Connect)."""

    verifier: OAuthVerifier
    client_id: str
    client_secret: str


def cookie_name(public_url: str) -> str:
    """The browser-binding cookie's name: ``__Host-`` prefixed over https, where browsers enforce what that means."""
    return "__Host-mcpforge-signin" if urlsplit(public_url).scheme == "https" else "mcpforge-signin"


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    document = (
        "<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width'>"
        f"<title>{html.escape(title)}</title><body style='font:16px/1.5 system-ui;max-width:36em;margin:3em auto'>"
        f"<h1 style='font-size:1.4em'>{html.escape(title)}</h1>{body}</body></html>"
    )
    return HTMLResponse(document, status_code=status, headers=_HEADERS)


def _expired() -> HTMLResponse:
    return _page(
        "This sign-in link cannot be used",
        "<p>It has expired, or it was already used. Ask your assistant to run the tool again for a new link.</p>",
        410,
    )


def _refused(reason: str) -> HTMLResponse:
    body = f"<p>{html.escape(reason)} Nothing was connected, and the link still works from its own page.</p>"
    return _page("This confirmation was refused", body, 403)


def _asked(pending: PendingLink) -> str:
    when = time.strftime("%H:%M UTC", time.gmtime(pending.asked)) if pending.asked else "recently"
    tool = f" when it ran <strong>{html.escape(pending.tool)}</strong>" if pending.tool else ""
    return f"asked for this at {when}{tool}"


def sign_in_routes(sign_in: SignIn, identity: Identity | None, *, server_title: str) -> list[BaseRoute]:
    """The sign-in routes (outside the MCP endpoint's protection: a browser has no MCP token)."""
    public = urlsplit(sign_in.public_url)
    secure = public.scheme == "https"
    own_origin = f"{public.scheme}://{public.netloc}".lower()
    cookie = cookie_name(sign_in.public_url)

    def bind(response: Response, browser: str) -> Response:
        response.set_cookie(
            cookie, browser, max_age=int(LINK_SECONDS), path="/", secure=secure, httponly=True, samesite="lax"
        )
        return response

    async def show(request: Request) -> Response:
        link_id = request.path_params["link"]
        pending = await sign_in.pending(link_id)
        if pending is None:
            return _expired()
        browser = request.cookies.get(cookie) or secrets.token_urlsafe(24)
        check = (
            "<p>You will first sign in to confirm you are that user.</p>"
            if identity is not None
            else "<p>Continue only if you asked for this yourself, just now.</p>"
        )
        token = html.escape(sign_in.form_token(link_id, browser))
        body = (
            f"<p><strong>{html.escape(server_title)}</strong> asks to use your "
            f"<strong>{html.escape(sign_in.api_title)}</strong> account ({html.escape(pending.scheme)}) for "
            f"<strong>{html.escape(pending.caller.label)}</strong>, whose assistant {_asked(pending)}.</p>"
            f"<p>Your assistant showed this link with a code: continue only if it is "
            f"<strong style='font-family:monospace;font-size:1.2em'>{html.escape(pending.code)}</strong>.</p>"
            "<p>The account you sign in with next is connected to that MCP user only: their assistant will act "
            f"as you on {html.escape(sign_in.api_title)} until you revoke it there.</p>{check}"
            f"<form method=post><input type=hidden name={_FORM_FIELD} value='{token}'>"
            "<button type=submit style='font-size:1em;padding:.5em 1em'>Continue to sign in</button></form>"
        )
        return bind(_page(f"Connect your {sign_in.api_title} account", body), browser)

    def cross_site(request: Request) -> str | None:
        """Why a POST did not come from this site's own page (a second guard; the form token is the first)."""
        fetch_site = request.headers.get("sec-fetch-site", "")
        if fetch_site in ("cross-site", "same-site"):
            return f"It was sent from another site ({fetch_site})."
        origin = request.headers.get("origin")
        # The page's own form sends Origin: null under Referrer-Policy: no-referrer; so can another
        # site's page, which the form token stops.
        if origin is not None and origin != "null" and origin.lower() != own_origin:
            return "It was sent from another site."
        return None

    async def go(request: Request) -> Response:
        link_id = request.path_params["link"]
        reason = cross_site(request)
        browser = request.cookies.get(cookie, "")
        if reason is None:
            form = await request.form()
            given = form.get(_FORM_FIELD)
            if not sign_in.form_ok(link_id, browser, given if isinstance(given, str) else ""):
                reason = "It did not come from this link's page in this browser."
        if reason is not None:
            sign_in.observer.sign_in("refused")
            logger.warning("sign-in confirmation refused: %s", reason)
            return _refused(reason)
        pending = await sign_in.claim(link_id)
        if pending is None:
            return _expired()
        try:
            target = await _first_leg(sign_in, identity, pending.scheme, pending.caller, browser)
        except (GrantError, ValueError) as exc:
            sign_in.observer.sign_in("failed")
            logger.warning("sign-in could not start: %s", exc)
            return _page("Sign-in could not start", f"<p>{html.escape(str(exc))}</p>", 502)
        return bind(RedirectResponse(target, status_code=303, headers=_HEADERS), browser)

    async def callback(request: Request) -> Response:
        state = request.query_params.get("state", "")
        browser = request.cookies.get(cookie, "")
        flow = await sign_in.flow(state, browser) if state and browser else None
        if flow is None:
            return _page(
                "This sign-in cannot be finished here",
                "<p>It expired, was already finished, or was started in another browser. Ask your assistant to "
                "run the tool again for a new link, and open it in this browser.</p>",
                400,
            )
        if not flow.answered_by(request.query_params.get("iss")):
            sign_in.observer.sign_in("refused")
            logger.warning("sign-in refused: the answer names another authorization server than the one asked")
            return _page(
                "Sign-in was not completed",
                "<p>The answer came from another authorization server than the one this sign-in went to. "
                "Nothing was connected.</p>",
                400,
            )
        if "error" in request.query_params or "code" not in request.query_params:
            sign_in.observer.sign_in("failed")
            reason = request.query_params.get("error", "no code")[:64]
            return _page(
                "Sign-in was not completed", f"<p>The authorization server answered: {html.escape(reason)}.</p>"
            )
        code = request.query_params["code"]
        try:
            if flow.leg == "identity":
                assert identity is not None  # an identity leg exists only with an OAuth-protected endpoint
                subject = await _confirm(identity, sign_in, code, flow.verifier, flow.nonce)
                if subject != flow.caller.subject:
                    sign_in.observer.sign_in("refused")
                    logger.warning(
                        "sign-in refused: the link was completed by another user than the one it was made for"
                    )
                    return _page(
                        "This link was made for someone else",
                        f"<p>It connects an account to <strong>{html.escape(flow.caller.label)}</strong>, and you "
                        "signed in as another user. Nothing was connected.</p>",
                        403,
                    )
                target = await sign_in.start_api(flow.scheme, flow.caller, browser)
                return RedirectResponse(target, status_code=303, headers=_HEADERS)
            await sign_in.finish_api(flow, code)
        except GrantError as exc:
            sign_in.observer.sign_in("failed")
            logger.warning("sign-in failed: %s", exc)
            return _page("Sign-in failed", f"<p>{html.escape(str(exc))}</p>", 502)
        body = f"<p>Your {html.escape(sign_in.api_title)} account is connected. Go back to your assistant.</p>"
        response = _page("Signed in", body)
        response.delete_cookie(cookie, path="/", secure=secure, httponly=True, samesite="lax")
        return response

    def guarded(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def page(request: Request) -> Response:
            try:
                return await handler(request)
            except StoreError as exc:
                logger.error("sign-in page: %s", exc)
                return _page("Sign-in is unavailable", "<p>Try again in a minute.</p>", 503)

        return page

    return [
        Route("/signin/callback", guarded(callback), methods=["GET"]),
        Route("/signin/{link}", guarded(show), methods=["GET"]),
        Route("/signin/{link}", guarded(go), methods=["POST"]),
    ]


async def _first_leg(sign_in: SignIn, identity: Identity | None, scheme: str, caller: Caller, browser: str) -> str:
    """Where the person goes first: the MCP issuer to prove who they are (OAuth endpoint), else the API."""
    if identity is None:
        return await sign_in.start_api(scheme, caller, browser)
    if caller.subject is None:
        raise ValueError("the MCP access token that asked for this link names no user, so no one can complete it")
    metadata = await identity.verifier.metadata()
    endpoint = metadata.get("authorization_endpoint")
    if not isinstance(endpoint, str):
        raise ValueError("the MCP endpoint's authorization server publishes no authorization_endpoint")
    extra = {"client_id": identity.client_id, "scope": "openid"}
    # The issuer the endpoint trusts, whatever its metadata says: an answer must name exactly it.
    flow = sign_in.new_flow("identity", scheme, caller, browser, {**metadata, "issuer": identity.verifier.issuer})
    return await sign_in.start(flow, endpoint, extra)


async def _confirm(identity: Identity, sign_in: SignIn, code: str, verifier: str, nonce: str) -> str | None:
    """The subject the person proved to be at the MCP endpoint's issuer (None: no valid ID token)."""
    metadata = await identity.verifier.metadata()
    token_url = metadata.get("token_endpoint")
    if not isinstance(token_url, str):
        raise GrantError("the MCP endpoint's authorization server publishes no token_endpoint")
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": sign_in.callback_url}
    form["code_verifier"] = verifier
    methods = metadata.get("token_endpoint_auth_methods_supported")
    grant = await sign_in.endpoints.grant(
        token_url, form, identity.client_id, identity.client_secret, methods if isinstance(methods, list) else None
    )
    if not grant.id_token:
        return None
    return await identity.verifier.identity(grant.id_token, client_id=identity.client_id, nonce=nonce)
