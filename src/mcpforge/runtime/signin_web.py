"""The sign-in pages a person's browser visits: the link's page, the step to the authorization server, the callback.

``GET /signin/{id}`` names the MCP caller the link was made for and what it connects, and changes
nothing (a link preview or a reload does not use it up). Its button posts to the same address,
which uses the link up, sets a cookie binding the sign-in to this browser, and sends the person to
the authorization server: first the MCP endpoint's own issuer when it uses OAuth (the person must
prove to be the caller's subject), then the API's. ``GET /signin/callback`` finishes each leg.
Every page is ``no-store``, sends no referrer (the link is a secret) and cannot be framed.
"""

from __future__ import annotations

import html
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from .grants import GrantError
from .signin import LINK_SECONDS, Caller, SignIn
from .store import StoreError

if TYPE_CHECKING:
    from .oauth import OAuthVerifier

__all__ = ["Identity", "sign_in_routes"]

logger = logging.getLogger(__name__)
_COOKIE = "mcpforge_signin"
_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    # No form-action: browsers that apply it to the redirect after the form would block the way on.
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
}


@dataclass(frozen=True, slots=True)
class Identity:
    """The MCP endpoint's issuer, where a person proves to be the caller's subject (OpenID Connect)."""

    verifier: OAuthVerifier
    client_id: str
    client_secret: str


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


def sign_in_routes(sign_in: SignIn, identity: Identity | None, *, server_title: str) -> list[BaseRoute]:
    """The sign-in routes (outside the MCP endpoint's protection: a browser has no MCP token)."""
    secure = urlsplit(sign_in.public_url).scheme == "https"
    cookie_path = (urlsplit(sign_in.public_url).path.rstrip("/") or "") + "/signin"

    async def show(request: Request) -> Response:
        found = await sign_in.pending(request.path_params["link"])
        if found is None:
            return _expired()
        caller, scheme = found
        check = (
            "<p>You will first sign in to confirm you are that user.</p>"
            if identity is not None
            else "<p>Continue only if you asked for this yourself, just now.</p>"
        )
        body = (
            f"<p><strong>{html.escape(server_title)}</strong> asks to use your "
            f"<strong>{html.escape(sign_in.api_title)}</strong> account ({html.escape(scheme)}) for "
            f"<strong>{html.escape(caller.label)}</strong>.</p>"
            "<p>The account you sign in with next is connected to that MCP user only: their assistant will act "
            f"as you on {html.escape(sign_in.api_title)} until you revoke it there.</p>{check}"
            "<form method=post><button type=submit style='font-size:1em;padding:.5em 1em'>Continue to sign in"
            "</button></form>"
        )
        return _page(f"Connect your {sign_in.api_title} account", body)

    async def go(request: Request) -> Response:
        found = await sign_in.claim(request.path_params["link"])
        if found is None:
            return _expired()
        caller, scheme = found
        browser = secrets.token_urlsafe(24)
        try:
            target = await _first_leg(sign_in, identity, scheme, caller, browser)
        except (GrantError, ValueError) as exc:
            sign_in.observer.sign_in("failed")
            logger.warning("sign-in could not start: %s", exc)
            return _page("Sign-in could not start", f"<p>{html.escape(str(exc))}</p>", 502)
        response = RedirectResponse(target, status_code=303, headers=_HEADERS)
        response.set_cookie(
            _COOKIE, browser, max_age=int(LINK_SECONDS), path=cookie_path, secure=secure, httponly=True, samesite="lax"
        )
        return response

    async def callback(request: Request) -> Response:
        state = request.query_params.get("state", "")
        flow = await sign_in.flow(state, request.cookies.get(_COOKIE, "")) if state else None
        if flow is None:
            return _page(
                "This sign-in cannot be finished here",
                "<p>It expired, was already finished, or was started in another browser. Ask your assistant to "
                "run the tool again for a new link, and open it in this browser.</p>",
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
                target = await sign_in.start_api(flow.scheme, flow.caller, request.cookies.get(_COOKIE, ""))
                return RedirectResponse(target, status_code=303, headers=_HEADERS)
            await sign_in.finish_api(flow, code)
        except GrantError as exc:
            sign_in.observer.sign_in("failed")
            logger.warning("sign-in failed: %s", exc)
            return _page("Sign-in failed", f"<p>{html.escape(str(exc))}</p>", 502)
        body = f"<p>Your {html.escape(sign_in.api_title)} account is connected. Go back to your assistant.</p>"
        response = _page("Signed in", body)
        response.delete_cookie(_COOKIE, path=cookie_path, secure=secure, httponly=True, samesite="lax")
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
    endpoint = (await identity.verifier.metadata()).get("authorization_endpoint")
    if not isinstance(endpoint, str):
        raise ValueError("the MCP endpoint's authorization server publishes no authorization_endpoint")
    extra = {"client_id": identity.client_id, "scope": "openid"}
    return await sign_in.start("identity", scheme, caller, browser, endpoint, extra)


async def _confirm(identity: Identity, sign_in: SignIn, code: str, verifier: str, nonce: str) -> str | None:
    """The subject the person proved to be at the MCP endpoint's issuer (None: no valid ID token)."""
    metadata = await identity.verifier.metadata()
    token_url = metadata.get("token_endpoint")
    if not isinstance(token_url, str):
        raise GrantError("the MCP endpoint's authorization server publishes no token_endpoint")
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": sign_in.callback_url}
    form["code_verifier"] = verifier
    methods = metadata.get("token_endpoint_auth_methods_supported")
    grant = await sign_in.grant(
        token_url, form, identity.client_id, identity.client_secret, methods if isinstance(methods, list) else None
    )
    if not grant.id_token:
        return None
    return await identity.verifier.identity(grant.id_token, client_id=identity.client_id, nonce=nonce)
