"""Security schemes (``components.securitySchemes``) and the requirements operations name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcpforge.openapi.context import Context
from mcpforge.openapi.model import OAuthFlow, SecurityRequirement, SecurityScheme
from mcpforge.openapi.refs import join_pointer
from mcpforge.openapi.values import obj, text

__all__ = ["security_requirements", "security_schemes"]


def security_schemes(ctx: Context) -> dict[str, SecurityScheme]:
    """The OpenAPI 3 security schemes, by key (a scheme without a type is reported and ignored)."""
    raw = obj(obj(ctx.root.get("components")).get("securitySchemes"))
    result: dict[str, SecurityScheme] = {}
    for key, raw_node in raw.items():
        pointer = join_pointer("/components/securitySchemes", key)
        node, _, _ = ctx.follow(raw_node, pointer)
        if not isinstance(node, dict) or not isinstance(node.get("type"), str):
            ctx.diags.warn("invalid-security-scheme", f"security scheme {key!r} has no type; ignored", pointer=pointer)
            continue
        flows = [
            OAuthFlow(
                kind=str(kind),
                token_url=text(flow.get("tokenUrl")),
                authorization_url=text(flow.get("authorizationUrl")),
                refresh_url=text(flow.get("refreshUrl")),
                scopes=tuple(str(s) for s in obj(flow.get("scopes"))),
            )
            for kind, flow in obj(node.get("flows")).items()
            if isinstance(flow, dict)
        ]
        scheme = node.get("scheme")
        result[key] = SecurityScheme(
            key=key,
            type=node["type"],
            scheme=scheme.lower() if isinstance(scheme, str) else None,
            location=text(node.get("in")),
            param_name=text(node.get("name")),
            bearer_format=text(node.get("bearerFormat")),
            flows=tuple(flows),
            open_id_connect_url=text(node.get("openIdConnectUrl")),
            metadata_url=text(node.get("oauth2MetadataUrl")),
            description=text(node.get("description")),
        )
    return result


def security_requirements(
    ctx: Context, raw: Any, pointer: str, schemes: Mapping[str, SecurityScheme], label: str | None = None
) -> tuple[SecurityRequirement, ...] | None:
    """A ``security`` list as alternatives (None when absent: the document-level list applies)."""
    if not isinstance(raw, list):
        return None
    result = []
    for i, requirement in enumerate(raw):
        if not isinstance(requirement, dict):
            continue
        entries = []
        for key, scopes in requirement.items():
            if key not in schemes:
                ctx.diags.warn(
                    "unknown-security-scheme",
                    f"security requirement names unknown scheme {key!r}",
                    operation=label,
                    pointer=join_pointer(pointer, i),
                )
                continue
            entries.append((str(key), tuple(str(s) for s in scopes or [] if isinstance(s, str))))
        result.append(SecurityRequirement(schemes=tuple(entries)))
    return tuple(result)
