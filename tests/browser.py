"""A scripted browser for sign-in tests: keeps cookies, follows redirects, and submits the pages' forms.

Pages with a form are submitted as a person would (a login form gets this person's name and a
password, other fields keep their values) until a page without a form is reached, or a redirect
to ``stop_at`` (a client's redirect URI that nothing serves) is returned instead of followed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin

import httpx


@dataclass
class _Form:
    action: str
    method: str
    fields: dict[str, str] = field(default_factory=dict)


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[_Form] = []
        self._open = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append(_Form(values.get("action", ""), values.get("method", "get").lower()))
            self._open = True
        elif tag == "input" and self._open and values.get("name"):
            self.forms[-1].fields[values["name"]] = values.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._open = False


@dataclass
class Browser:
    """One person's browser: ``login`` is the name they sign in with at the authorization server."""

    login: str
    client: httpx.Client = field(default_factory=lambda: httpx.Client(timeout=15))
    pages: list[str] = field(default_factory=list)  # every URL visited, in order

    def open(self, url: str, *, stop_at: str = "", steps: int = 20) -> httpx.Response:
        """Visit ``url`` and go on through redirects and forms; the last page (or the redirect to ``stop_at``)."""
        response = self._get(url)
        for _ in range(steps):
            if response.is_redirect:
                target = urljoin(str(response.url), response.headers["location"])
                if stop_at and target.startswith(stop_at):
                    return response
                response = self._get(target)
                continue
            parser = _Forms()
            parser.feed(response.text if "html" in response.headers.get("content-type", "") else "")
            if not parser.forms:
                return response
            form = parser.forms[0]
            values = dict(form.fields)
            if "login" in values:
                values.update(login=self.login, password="any password")
            action = urljoin(str(response.url), form.action or str(response.url))
            self.pages.append(action)
            if form.method == "post":
                response = self.client.post(action, data=values, follow_redirects=False)
            else:
                response = self.client.get(action, params=values, follow_redirects=False)
        raise AssertionError(f"{self.login}'s browser went round in circles: {self.pages[-5:]}")

    def _get(self, url: str) -> httpx.Response:
        self.pages.append(url)
        return self.client.get(url, follow_redirects=False)

    def close(self) -> None:
        """Forget the cookies."""
        self.client.close()
