"""The API as mcpforge understands it: a typed, immutable model of an OpenAPI document.

Schemas in this model are already JSON Schema 2020-12 (see :mod:`mcpforge.openapi.convert`);
named schemas are referenced as ``#/$defs/<name>`` and live in :class:`SchemaDefs`, one table
for request direction (readOnly properties removed) and one for responses (writeOnly removed).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from mcpforge.schema import JsonSchema
from mcpforge.text.names import ProjectNames, project_names

__all__ = [
    "QUERY_METHOD",
    "SAFE_METHODS",
    "ApiModel",
    "Dialect",
    "FieldEncoding",
    "HttpMethod",
    "MediaContent",
    "OAuthFlow",
    "Operation",
    "ParamLocation",
    "Parameter",
    "RequestBody",
    "Response",
    "SchemaDefs",
    "SecurityRequirement",
    "SecurityScheme",
    "Server",
    "ServerVariable",
    "Tag",
    "wire_method",
]

# The methods a Path Item names as fields; 3.2 adds "query" and, in additionalOperations, any other method.
HttpMethod = str
HTTP_METHODS: tuple[str, ...] = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
QUERY_METHOD = "query"  # OpenAPI 3.2


def wire_method(method: str) -> str:
    """The method as sent: the Path Item fields (``get`` ... ``query``) upper case, others as written."""
    return method.upper() if method in HTTP_METHODS or method == QUERY_METHOD else method


SAFE_METHODS = frozenset({"get", "head", "options", "query"})
ParamLocation = Literal["path", "query", "querystring", "header", "cookie"]


class Dialect(StrEnum):
    """Which OpenAPI family the document belongs to."""

    SWAGGER_20 = "swagger-2.0"
    OPENAPI_30 = "openapi-3.0"
    OPENAPI_31 = "openapi-3.1"
    OPENAPI_32 = "openapi-3.2"

    @property
    def full_json_schema(self) -> bool:
        """Whether Schema Objects are JSON Schema 2020-12 (3.1 and later), not OpenAPI's subset."""
        return self in (Dialect.OPENAPI_31, Dialect.OPENAPI_32)


@dataclass(frozen=True, slots=True, kw_only=True)
class ServerVariable:
    """A ``{variable}`` in a server URL."""

    name: str
    default: str
    enum: tuple[str, ...] = ()
    description: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Server:
    """A base URL the API is served from."""

    url: str
    description: str | None = None
    variables: tuple[ServerVariable, ...] = ()

    def default_url(self) -> str:
        """The URL with every variable replaced by its default."""
        url = self.url
        for var in self.variables:
            url = url.replace("{" + var.name + "}", var.default)
        return url


@dataclass(frozen=True, slots=True, kw_only=True)
class OAuthFlow:
    """One OAuth2 flow of a security scheme."""

    kind: str  # clientCredentials, authorizationCode, implicit, password
    token_url: str | None = None
    authorization_url: str | None = None
    refresh_url: str | None = None
    scopes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class SecurityScheme:
    """A way of authenticating, from ``components.securitySchemes`` / ``securityDefinitions``."""

    key: str
    type: str  # apiKey, http, oauth2, openIdConnect, mutualTLS
    scheme: str | None = None  # http: bearer, basic, ...
    location: str | None = None  # apiKey: header, query, cookie
    param_name: str | None = None  # apiKey: the header/query/cookie name
    bearer_format: str | None = None
    flows: tuple[OAuthFlow, ...] = ()
    open_id_connect_url: str | None = None
    metadata_url: str | None = None  # oauth2: RFC 8414 authorization server metadata (OpenAPI 3.2)
    description: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SecurityRequirement:
    """One alternative of a ``security`` list: every scheme in it applies together."""

    schemes: tuple[tuple[str, tuple[str, ...]], ...]  # (scheme key, scopes)

    @property
    def is_anonymous(self) -> bool:
        """An empty requirement (``{}``) means the operation can be called without auth."""
        return not self.schemes


@dataclass(frozen=True, slots=True, kw_only=True)
class Parameter:
    """A path, query, header or cookie parameter (path-level and operation-level merged)."""

    name: str
    location: ParamLocation
    required: bool
    schema: JsonSchema
    description: str | None = None
    style: str = "simple"
    explode: bool = False
    allow_reserved: bool = False
    deprecated: bool = False
    content_type: str | None = None  # set when described with ``content`` instead of ``schema``
    pointer: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class FieldEncoding:
    """How one field of a form or multipart body is written."""

    content_type: str | None = None
    style: str = "form"
    explode: bool = True
    is_file: bool = False
    styled: bool = False  # style/explode given explicitly: multipart fields are then serialised form-style


@dataclass(frozen=True, slots=True, kw_only=True)
class MediaContent:
    """A schema for one media type of a request or response body.

    ``item_schema`` (OpenAPI 3.2 ``itemSchema``) describes each item of a sequential media type
    (JSON Lines, JSON text sequences, server-sent events).
    """

    content_type: str
    schema: JsonSchema | None
    encoding: Mapping[str, FieldEncoding] = field(default_factory=dict)
    item_schema: JsonSchema | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestBody:
    """The request body: one entry per media type, in document order."""

    required: bool
    contents: tuple[MediaContent, ...]
    description: str | None = None
    pointer: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Response:
    """One response of an operation (``200``, ``2XX``, ``default``...)."""

    status: str
    description: str | None
    contents: tuple[MediaContent, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Tag:
    """A tag of the document (OpenAPI 3.2 adds ``parent`` and ``kind``: nav, badge, audience...)."""

    name: str
    parent: str | None = None
    kind: str | None = None
    summary: str | None = None
    description: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Operation:
    """One HTTP operation, normalised across Swagger 2.0 and OpenAPI 3.x.

    ``method`` is lower case for the methods a Path Item names (get ... query); an operation from
    OpenAPI 3.2's ``additionalOperations`` keeps its method exactly as written (``LINK``).
    """

    method: HttpMethod
    path: str
    operation_id: str | None
    summary: str | None
    description: str | None
    tags: tuple[str, ...]
    deprecated: bool
    parameters: tuple[Parameter, ...]
    request_body: RequestBody | None
    responses: tuple[Response, ...]
    security: tuple[SecurityRequirement, ...]  # alternatives; () means no auth needed
    servers: tuple[Server, ...]
    pointer: str
    extensions: Mapping[str, Any] = field(default_factory=dict)
    # Derived once (read for every parameter and diagnostic: 130,000 times on Graph).
    http_method: str = field(init=False)  # the method as sent on the wire
    label: str = field(init=False)  # ``GET /pets/{id} (getPet)``: how diagnostics name the operation

    def __post_init__(self) -> None:
        http_method = wire_method(self.method)
        base = f"{http_method} {self.path}"
        object.__setattr__(self, "http_method", http_method)
        object.__setattr__(self, "label", f"{base} ({self.operation_id})" if self.operation_id else base)


@dataclass(frozen=True, slots=True, kw_only=True)
class SchemaDefs:
    """Named schemas referenced as ``#/$defs/<name>``, per direction."""

    request: Mapping[str, JsonSchema]
    response: Mapping[str, JsonSchema]


@dataclass(frozen=True, slots=True, kw_only=True)
class ApiModel:
    """Everything mcpforge needs from the document, with no reference back to the raw dict."""

    title: str
    version: str
    description: str | None
    dialect: Dialect
    openapi_version: str
    servers: tuple[Server, ...]
    operations: tuple[Operation, ...]
    security_schemes: Mapping[str, SecurityScheme]
    defs: SchemaDefs
    source_name: str
    tags: tuple[Tag, ...] = ()

    @property
    def server_url(self) -> str:
        """The first server's URL with its variables' defaults (empty without servers)."""
        return self.servers[0].default_url() if self.servers else ""

    def project_names(self, name: str | None) -> ProjectNames:
        """The generated project's names: from ``name`` when given, else from the title or the server's host."""
        return project_names(self.title, name, self.server_url)
