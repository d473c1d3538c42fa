"""The ``tools.json`` contract: what the generator writes and the runtime reads, typed and versioned.

mcpforge writes this file (``mcpforge.targets.runtime``) and the generated server reads it at start.
The format version changes whenever a reader of the previous version would misread a new file;
a server refuses a file of another version with a message saying what to do.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NotRequired, TypedDict

__all__ = [
    "FORMAT_VERSION",
    "MODES",
    "PACKAGE",
    "SEARCH_FILE",
    "SEARCH_FORMAT_VERSION",
    "SEARCH_NESTED",
    "Binding",
    "ContractError",
    "FieldEncoding",
    "SchemeConfig",
    "SearchFile",
    "ServerConfig",
    "SignInFlow",
    "ToolEntry",
    "ToolsFile",
    "load_package_contract",
    "load_package_search",
    "parse_contract",
    "select_tools",
    "toolset_names",
]

FORMAT_VERSION = 4
DATA_FILE = "tools.json"
# What a server lists: one tool per operation, the search meta-tools, or code mode's search and execute.
MODES = ("tools", "search", "code")
SEARCH_FORMAT_VERSION = 1
# In search.json's property names, between a nested object's name and its field's: "mailbox_setting__time_zone".
SEARCH_NESTED = "__"
SEARCH_FILE = "search.json"
# The generated package this runtime was copied into: this module sits at its top, beside tools.json.
PACKAGE = __package__


class FieldEncoding(TypedDict):
    """How one field of a form or multipart body is written."""

    style: str
    explode: bool
    contentType: NotRequired[str]
    file: NotRequired[bool]
    styled: NotRequired[bool]  # style/explode given explicitly: multipart fields are then form-style


# "in" is a Python keyword, so the TypedDicts that carry it use the functional syntax.
Binding = TypedDict(
    "Binding",
    {
        "arg": str,  # the argument's name in the input schema
        "in": Literal["path", "query", "querystring", "header", "cookie", "body"],
        "name": NotRequired[str],  # the wire name, when it differs from the argument's
        "required": NotRequired[bool],
        "style": NotRequired[str],
        "explode": NotRequired[bool],
        "allowReserved": NotRequired[bool],
        "contentType": NotRequired[str],
        "kind": NotRequired[Literal["json", "form", "multipart", "text", "binary", "sequence"]],
        "fields": NotRequired[dict[str, FieldEncoding]],
    },
)
Binding.__doc__ = "Where one tool argument goes in the HTTP request."


class SignInFlow(TypedDict):
    """An OAuth2 authorization code flow, through which each user signs in to the API (see signin.py)."""

    authorizationUrl: str
    tokenUrl: str
    refreshUrl: NotRequired[str]
    scopes: list[str]
    metadataUrl: NotRequired[str]  # RFC 8414 metadata (OpenAPI 3.2 oauth2MetadataUrl): client auth methods


SchemeConfig = TypedDict(
    "SchemeConfig",
    {
        "type": str,  # apiKey, http, oauth2
        "env": dict[str, str],  # credential kind (apiKey, token, username, ...) -> environment variable
        "optionalEnv": NotRequired[dict[str, str]],  # kind -> variable of optional settings (tokenUrl)
        "scheme": NotRequired[str],  # http: basic or bearer
        "in": NotRequired[str],  # apiKey: header, query or cookie
        "name": NotRequired[str],  # apiKey: the header, query or cookie name
        "tokenUrl": NotRequired[str],  # oauth2 client credentials
        "scopes": NotRequired[list[str]],
        "signIn": NotRequired[SignInFlow],  # oauth2 with an authorization code flow: users sign in
    },
)
SchemeConfig.__doc__ = "One security scheme the API uses, with the environment variables of its credentials."


class ServerConfig(TypedDict):
    """The server as a whole: names, base URL, security schemes."""

    name: str  # distribution name, petstore-mcp
    title: str
    version: str
    command: str
    envPrefix: str  # PETSTORE
    baseUrl: str  # the spec's first server URL, variables at their defaults ("" when it has none)
    instructions: str | None
    securitySchemes: dict[str, SchemeConfig]
    mode: str  # tools or search: what the server lists unless its MODE setting says otherwise


class ToolEntry(TypedDict):
    """One tool: its MCP definition and how its call becomes an HTTP request."""

    tool: dict[str, Any]  # the MCP Tool in wire form (name, title, description, inputSchema, ...)
    method: str
    path: str
    tags: list[str]
    toolsets: list[str]
    bindings: list[Binding]
    security: list[list[list[Any]]]  # alternatives of [scheme key, scopes]
    outputWrapped: bool  # structuredContent is {"result": body}: the body is not an object
    select: NotRequired[str]  # the field-selection argument (see select.py), when the success response is JSON
    pageUrl: NotRequired[str]  # the argument carrying a next-page URL the API gave (see pages.py)
    accept: NotRequired[str]  # the Accept header: the declared response media types, JSON preferred


class ToolsFile(TypedDict):
    """The whole file."""

    formatVersion: int
    server: ServerConfig
    tools: list[ToolEntry]


class SearchFile(TypedDict):
    """``search.json``: each tool's words as the search index counts them (:mod:`.modes.documents`)."""

    formatVersion: int
    fields: list[str]
    documents: list[list[str]]  # [tool name, then each field's terms, space-separated]


class ContractError(ValueError):
    """``tools.json`` is missing, unreadable or of another format version; the message says what to do."""


def parse_contract(text: str | bytes, *, source: str = DATA_FILE) -> ToolsFile:
    """The checked contents of a ``tools.json`` text."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ContractError(f"{source} is not valid JSON ({exc}); regenerate the project with mcpforge") from None
    version = data.get("formatVersion") if isinstance(data, dict) else None
    if version != FORMAT_VERSION:
        raise ContractError(
            f"{source} has format version {version!r}, but this server's runtime reads version {FORMAT_VERSION}; "
            "regenerate the project with the mcpforge version that wrote the runtime"
        )
    if not isinstance(data.get("server"), dict) or not isinstance(data.get("tools"), list):
        raise ContractError(f"{source} lacks 'server' or 'tools'; regenerate the project with mcpforge")
    contract: ToolsFile = data
    return contract


def load_package_contract(package: str | None = PACKAGE) -> ToolsFile:
    """The ``tools.json`` shipped inside ``package`` (default: the generated package this runtime was copied into)."""
    if not package:
        raise ContractError("the server runtime must run inside a generated package (no package name)")
    from importlib.resources import files  # noqa: PLC0415 - the server's start only, not the generator's

    try:
        text = files(package).joinpath(DATA_FILE).read_bytes()
    except (OSError, ModuleNotFoundError) as exc:
        raise ContractError(
            f"no {DATA_FILE} in package {package!r} ({exc}); this runtime runs inside a package generated by mcpforge"
        ) from None
    return parse_contract(text, source=f"{package}/{DATA_FILE}")


def load_package_search(package: str | None = PACKAGE) -> SearchFile | None:
    """The ``search.json`` shipped inside ``package``, or None where there is none (the index reads ``tools.json``)."""
    if not package:
        return None
    from importlib.resources import files  # noqa: PLC0415 - search and code modes only

    source = f"{package}/{SEARCH_FILE}"
    try:
        text = files(package).joinpath(SEARCH_FILE).read_bytes()
    except (OSError, ModuleNotFoundError):
        return None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ContractError(f"{source} is not valid JSON ({exc}); regenerate the project with mcpforge") from None
    version = data.get("formatVersion") if isinstance(data, dict) else None
    if version != SEARCH_FORMAT_VERSION or not isinstance(data.get("documents"), list):
        raise ContractError(
            f"{source} has format version {version!r}, but this server's runtime reads version "
            f"{SEARCH_FORMAT_VERSION}; regenerate the project with the mcpforge version that wrote the runtime"
        )
    found: SearchFile = data
    return found


def toolset_names(tools: Sequence[ToolEntry]) -> list[str]:
    """Every toolset (one per tag) in document order."""
    seen: dict[str, None] = {}
    for entry in tools:
        seen.update(dict.fromkeys(entry["toolsets"]))
    return list(seen)


def select_tools(tools: Sequence[ToolEntry], toolsets: Sequence[str] | None) -> list[ToolEntry]:
    """The tool entries of ``toolsets`` (all of them when none or ``all`` is given).

    Raises ``ValueError`` naming the available toolsets when one is unknown.
    """
    wanted = {t.strip() for t in toolsets or () if t.strip()}
    if not wanted or "all" in wanted:
        return list(tools)
    known = toolset_names(tools)
    unknown = sorted(wanted - set(known))
    if unknown:
        raise ValueError(f"unknown toolset(s): {', '.join(unknown)}; available: all, {', '.join(known)}")
    return [entry for entry in tools if wanted.intersection(entry["toolsets"])]


def entries_by_name(tools: Sequence[ToolEntry]) -> Mapping[str, ToolEntry]:
    """Tool name -> entry."""
    return {entry["tool"]["name"]: entry for entry in tools}
