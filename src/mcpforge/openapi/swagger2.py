"""Swagger 2.0 normalisation: turn 2.0 constructs into the OpenAPI 3 shapes the parser reads.

Handled explicitly: ``in: body`` (the body schema, one media type per ``consumes``),
``in: formData`` (an object body, multipart when a ``type: file`` field or ``consumes`` asks for
it, else form-urlencoded), inline parameter schemas, ``collectionFormat`` (as style/explode),
``x-nullable``, ``produces``, ``host``/``basePath``/``schemes`` and ``securityDefinitions``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mcpforge.openapi.model import OAuthFlow, SecurityScheme, Server
from mcpforge.openapi.values import obj

__all__ = [
    "COLLECTION_FORMATS",
    "FORM",
    "MULTIPART",
    "body_media_types",
    "form_media_type",
    "inline_schema",
    "security_schemes",
    "servers",
]

FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"
# collectionFormat -> (style, explode); "tsv" has no OpenAPI 3 style, the runtime knows it.
COLLECTION_FORMATS: Mapping[str, tuple[str, bool]] = {
    "csv": ("form", False),
    "ssv": ("spaceDelimited", False),
    "tsv": ("tabDelimited", False),
    "pipes": ("pipeDelimited", False),
    "multi": ("form", True),
}
_SCHEMA_FIELDS = (
    "type",
    "format",
    "items",
    "enum",
    "default",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "multipleOf",
    "x-nullable",
    "description",
    "example",
    "x-example",
)


def inline_schema(param: Mapping[str, Any]) -> dict[str, Any]:
    """The schema a non-body 2.0 parameter describes with its own fields."""
    schema: dict[str, Any] = {}
    for key in _SCHEMA_FIELDS:
        if key in param:
            value = param[key]
            if key == "items" and isinstance(value, Mapping):
                value = inline_schema(value)
            schema["example" if key == "x-example" else key] = value
    return schema


def body_media_types(consumes: Sequence[str]) -> list[str]:
    """Media types of an ``in: body`` parameter (JSON when the document does not say)."""
    return [c for c in consumes if c not in (FORM, MULTIPART)] or ["application/json"]


def form_media_type(consumes: Sequence[str], *, has_file: bool) -> str:
    """multipart when a file field or ``consumes`` asks for it, else form-urlencoded."""
    if has_file or (MULTIPART in consumes and FORM not in consumes):
        return MULTIPART
    return FORM


def servers(root: Mapping[str, Any]) -> tuple[Server, ...]:
    """``schemes`` + ``host`` + ``basePath`` as OpenAPI 3 servers (https preferred)."""
    host = root.get("host")
    base_path = root.get("basePath") if isinstance(root.get("basePath"), str) else ""
    if not isinstance(host, str) or not host:
        return (Server(url=base_path or "/"),) if base_path else ()
    schemes = [s for s in root.get("schemes") or [] if s in ("https", "http")] or ["https"]
    ordered = sorted(schemes, key=lambda s: s != "https")
    return tuple(Server(url=f"{scheme}://{host}{base_path}") for scheme in ordered)


_FLOW_NAMES = {
    "application": "clientCredentials",
    "accessCode": "authorizationCode",
    "implicit": "implicit",
    "password": "password",
}


def security_schemes(root: Mapping[str, Any]) -> dict[str, SecurityScheme]:
    """``securityDefinitions`` as OpenAPI 3 security schemes."""
    result: dict[str, SecurityScheme] = {}
    definitions = root.get("securityDefinitions")
    if not isinstance(definitions, Mapping):
        return result
    for key, raw in definitions.items():
        if not isinstance(raw, Mapping):
            continue
        kind = raw.get("type")
        description = raw.get("description") if isinstance(raw.get("description"), str) else None
        if kind == "basic":
            result[key] = SecurityScheme(key=key, type="http", scheme="basic", description=description)
        elif kind == "apiKey":
            result[key] = SecurityScheme(
                key=key,
                type="apiKey",
                location=str(raw.get("in", "header")),
                param_name=str(raw.get("name", "")),
                description=description,
            )
        elif kind == "oauth2":
            scopes = obj(raw.get("scopes"))
            flow = OAuthFlow(
                kind=_FLOW_NAMES.get(str(raw.get("flow")), str(raw.get("flow"))),
                token_url=raw.get("tokenUrl") if isinstance(raw.get("tokenUrl"), str) else None,
                authorization_url=raw.get("authorizationUrl") if isinstance(raw.get("authorizationUrl"), str) else None,
                scopes=tuple(str(s) for s in scopes),
            )
            result[key] = SecurityScheme(key=key, type="oauth2", flows=(flow,), description=description)
    return result
