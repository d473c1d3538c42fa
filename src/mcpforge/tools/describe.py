"""Tool titles and descriptions: bounded, marked when deprecated, naming the auth they need."""

from __future__ import annotations

from collections.abc import Mapping

from mcpforge.openapi.model import Operation, SecurityRequirement, SecurityScheme
from mcpforge.text.prose import bounded, clean

__all__ = ["auth_summary", "tool_description", "tool_title"]


def _scheme_label(scheme: SecurityScheme) -> str:
    if scheme.type == "apiKey":
        return f"API key in {scheme.location or 'header'} '{scheme.param_name or scheme.key}'"
    if scheme.type == "http":
        return {"bearer": "bearer token", "basic": "HTTP basic"}.get(scheme.scheme or "", f"HTTP {scheme.scheme}")
    if scheme.type == "oauth2":
        return "OAuth2"
    if scheme.type == "openIdConnect":
        return "OpenID Connect"
    return scheme.type


def auth_summary(security: tuple[SecurityRequirement, ...], schemes: Mapping[str, SecurityScheme]) -> str | None:
    """``Auth: bearer token or API key in header 'X-Key'.`` (None when no auth is needed)."""
    alternatives: list[str] = []
    optional = False
    for requirement in security:
        if requirement.is_anonymous:
            optional = True
            continue
        labels = [_scheme_label(schemes[key]) for key, _ in requirement.schemes if key in schemes]
        label = " + ".join(dict.fromkeys(labels))
        if label and label not in alternatives:
            alternatives.append(label)
    if not alternatives:
        return None
    prefix = "Auth (optional)" if optional else "Auth"
    return f"{prefix}: {' or '.join(alternatives)}."


def tool_title(operation: Operation, *, limit: int) -> str | None:
    """The summary, bounded; None when the operation has none."""
    return clean(operation.summary, limit) if operation.summary else None


def tool_description(
    operation: Operation, schemes: Mapping[str, SecurityScheme], *, summary_limit: int, total_limit: int
) -> str:
    """Summary, then as much of the description as fits, then the auth line."""
    summary = clean(operation.summary, summary_limit) if operation.summary else ""
    auth = auth_summary(operation.security, schemes) or ""
    prefix = "[Deprecated] " if operation.deprecated else ""
    head = prefix + (summary or f"{operation.http_method} {operation.path}")
    if summary and not summary.endswith((".", "!", "?", "…")):
        head += "."
    parts = [head]
    detail = clean(operation.description or "", 10_000)
    if detail and summary and detail.rstrip(".").startswith(summary.rstrip(".").rstrip("…")):
        detail = detail[len(summary.rstrip(".").rstrip("…")) :].lstrip(" .")
    budget = total_limit - len(head) - (len(auth) + 1 if auth else 0) - 1
    if detail and budget >= 24:
        parts.append(bounded(detail, budget))
    if auth:
        parts.append(auth)
    text = " ".join(parts)
    return bounded(text, total_limit) if len(text) > total_limit else text
