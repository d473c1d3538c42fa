"""Resolved document -> :class:`ApiModel`: every operation, normalised, with converted schemas.

A problem confined to one operation never stops the run: the operation is skipped or degraded
with a diagnostic naming it and a JSON pointer. Unresolvable or cyclic references are fatal
(:class:`~mcpforge.errors.RefError`), as is a document with no operations.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import urljoin

from mcpforge.diagnostics import Diagnostics, Effect
from mcpforge.errors import NoOperationsError, RefError
from mcpforge.openapi import swagger2
from mcpforge.openapi.bodies import request_body, responses
from mcpforge.openapi.context import Context, OperationSkipped
from mcpforge.openapi.convert import SchemaConverter, SchemaProblem
from mcpforge.openapi.load import Document
from mcpforge.openapi.model import (
    HTTP_METHODS,
    QUERY_METHOD,
    ApiModel,
    Dialect,
    HttpMethod,
    Operation,
    SecurityRequirement,
    SecurityScheme,
    Server,
    ServerVariable,
    Tag,
    wire_method,
)
from mcpforge.openapi.parameters import parameters
from mcpforge.openapi.refs import join_pointer
from mcpforge.openapi.security import security_requirements, security_schemes
from mcpforge.openapi.tags import TagTree
from mcpforge.openapi.values import obj, text
from mcpforge.options.model import Options

__all__ = ["item_operations", "parse_api"]

_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")  # an HTTP method is an RFC 9110 token


def parse_api(document: Document, diags: Diagnostics, options: Options | None = None) -> ApiModel:
    """The typed model of every operation in the document."""
    options = options or Options()
    converter = SchemaConverter(document.resolver, document.dialect, description_max=options.argument_description_max)
    ctx = Context(document, converter, diags)
    root = document.root
    info = obj(root.get("info"))
    if ctx.swagger:  # without a host, Swagger 2.0's is the host serving the document
        servers = tuple(replace(s, url=_located(ctx, s.url, "/basePath")) for s in swagger2.servers(root))
    else:
        servers = _servers(ctx, root.get("servers"), "/servers")
    schemes = swagger2.security_schemes(root) if ctx.swagger else security_schemes(ctx)
    global_security = security_requirements(ctx, root.get("security"), "/security", schemes) or ()
    operations, broken = _operations(ctx, servers, global_security, schemes)
    if not operations:
        if broken:  # nothing is left: the first broken reference is the error, as precise as it was
            first = broken[0]
            more = f" (and {len(broken) - 1} more broken references)" if len(broken) > 1 else ""
            raise RefError(first.message + more, location=first.location, hint=first.hint)
        skipped = [d for d in diags.freeze() if d.effect is Effect.SKIPPED]
        if skipped:
            more = f" ({len(skipped) - 1} more skipped)" if len(skipped) > 1 else ""
            raise NoOperationsError(
                f"every operation was skipped; {skipped[0].operation}: {skipped[0].message}{more}",
                location=skipped[0].pointer,
                hint="fix the document; `mcpforge validate` lists every problem",
            )
        extra = " (it only describes webhooks)" if root.get("webhooks") else ""
        raise NoOperationsError(
            f"{document.source_name} defines no operations{extra}",
            location="/paths",
            hint="mcpforge turns the operations under 'paths' into tools",
        )

    def loosened(problem: SchemaProblem) -> None:
        diags.warn("schema-loosened", problem.message, effect=Effect.DEGRADED, pointer=problem.pointer)

    for problem in converter.problems:
        loosened(problem)
    tags = _tags(root.get("tags"), diags)
    return ApiModel(
        title=text(info.get("title")) or "API",
        version=str(info.get("version", "")),
        description=text(info.get("description")),
        dialect=document.dialect,
        openapi_version=document.openapi_version,
        servers=servers,
        operations=tuple(operations),
        security_schemes=schemes,
        defs=converter.definitions(report=loosened),  # output shapes convert more while tools are built
        source_name=document.source_name,
        tags=tags,
    )


def _tags(raw: Any, diags: Diagnostics) -> tuple[Tag, ...]:
    """The document's tags (3.2: with ``parent`` and ``kind``); a parent that is not a tag, or a cycle, is reported."""
    if not isinstance(raw, list):
        return ()
    tags = tuple(
        Tag(
            name=node["name"],
            parent=text(node.get("parent")),
            kind=text(node.get("kind")),
            summary=text(node.get("summary")),
            description=text(node.get("description")),
        )
        for node in raw
        if isinstance(node, dict) and isinstance(node.get("name"), str)
    )
    tree, known = TagTree(tags), {tag.name for tag in tags}
    for index, tag in enumerate(tags):
        at = join_pointer("/tags", index, "parent")
        if tag.parent is not None and tag.parent not in known:
            diags.warn(
                "unknown-tag-parent", f"tag {tag.name!r} names parent {tag.parent!r}, which is not a tag", pointer=at
            )
        elif tree.own_ancestor(tag.name):
            diags.warn("tag-cycle", f"tag {tag.name!r} is its own ancestor; the hierarchy stops there", pointer=at)
    return tags


def _servers(ctx: Context, raw: Any, pointer: str) -> tuple[Server, ...]:
    if not isinstance(raw, list):
        return ()
    result = []
    for i, node in enumerate(raw):
        if not isinstance(node, dict) or not isinstance(node.get("url"), str):
            ctx.diags.warn("invalid-server", "server entry without a 'url' ignored", pointer=join_pointer(pointer, i))
            continue
        variables = []
        for name, var in obj(node.get("variables")).items():
            if isinstance(var, dict):
                enum = tuple(str(v) for v in var.get("enum") or [] if v is not None)
                default = var.get("default", enum[0] if enum else "")
                variables.append(
                    ServerVariable(
                        name=str(name), default=str(default), enum=enum, description=text(var.get("description"))
                    )
                )
        url = _located(ctx, node["url"], join_pointer(join_pointer(pointer, i), "url"))
        result.append(Server(url=url, description=text(node.get("description")), variables=tuple(variables)))
    return tuple(result)


def _located(ctx: Context, url: str, pointer: str) -> str:
    """A server URL made absolute where the document says where it is (a relative one stays relative)."""
    base = ctx.document.base_uri
    if not url or "://" in url or url.startswith("{"):  # absolute, or its scheme is a server variable's
        return url
    if base.startswith(("https://", "http://")):
        # Relative to where the document was fetched from (OpenAPI's rule): /v1 of https://h/openapi.json
        located = urljoin(base, url)
        ctx.diags.info(
            "server-url-resolved", f"server URL {url!r} is {located!r}, beside the document", pointer=pointer
        )
        return located
    if url.startswith("//"):
        # A network-path reference ("//app.example.com/v1") takes the scheme the document was fetched
        # with, which a file does not have: HTTPS, as Swagger 2.0's missing `schemes` are read.
        ctx.diags.info(
            "server-scheme-assumed", f"server URL {url!r} has no scheme; 'https:{url}' is used", pointer=pointer
        )
        return "https:" + url
    return url


def _operations(
    ctx: Context,
    servers: tuple[Server, ...],
    global_security: tuple[SecurityRequirement, ...],
    schemes: Mapping[str, SecurityScheme],
) -> tuple[list[Operation], list[RefError]]:
    """The operations that can become tools, and the broken ``$ref`` errors that skipped others."""
    paths = ctx.root.get("paths")
    if not isinstance(paths, dict):
        return [], []
    result: list[Operation] = []
    broken: list[RefError] = []

    def skipped(code: str, message: str, operation: str, pointer: str) -> None:
        ctx.diags.warn(code, message, effect=Effect.SKIPPED, operation=operation, pointer=pointer)

    for path, raw_item in paths.items():
        item_pointer = join_pointer("/paths", path)
        try:
            item, _, _ = ctx.follow(raw_item, item_pointer)
        except RefError as exc:  # a broken $ref loses these operations, not the run
            broken.append(exc)
            skipped("unresolved-ref", _ref_message(exc), str(path), exc.location or item_pointer)
            continue
        if not isinstance(item, dict):
            ctx.diags.warn("invalid-path-item", "path item is not an object; ignored", pointer=item_pointer)
            continue
        path_servers = _servers(ctx, item.get("servers"), join_pointer(item_pointer, "servers")) or servers
        for method, node, pointer in item_operations(item, ctx.document.dialect, item_pointer, ctx.diags):
            label = f"{wire_method(method)} {path}"
            try:
                result.append(
                    _operation(ctx, str(path), method, node, item, pointer, path_servers, global_security, schemes)
                )
            except OperationSkipped as skip:
                skipped(skip.code, skip.message, label, skip.pointer)
            except RefError as exc:
                broken.append(exc)
                skipped("unresolved-ref", _ref_message(exc), label, exc.location or pointer)
    return result, broken


def _ref_message(exc: RefError) -> str:
    return f"{exc.message}; operation skipped" + (f" ({exc.hint})" if exc.hint else "")


def item_operations(
    item: Mapping[str, Any], dialect: Dialect, item_pointer: str, diags: Diagnostics | None = None
) -> list[tuple[str, Any, str]]:
    """``(method, operation node, JSON pointer)`` of every operation of a Path Item (fixed fields first).

    OpenAPI 3.2 adds the ``query`` field and ``additionalOperations`` (other methods, written as sent).
    """
    fixed = (*HTTP_METHODS, QUERY_METHOD) if dialect is Dialect.OPENAPI_32 else HTTP_METHODS
    found = [(method, item[method], join_pointer(item_pointer, method)) for method in fixed if method in item]
    extra = item.get("additionalOperations") if dialect is Dialect.OPENAPI_32 else None
    if isinstance(extra, Mapping):
        for method, node in extra.items():
            at = join_pointer(item_pointer, "additionalOperations", method)
            if str(method).lower() in fixed or not _TOKEN.match(str(method)):
                if diags is not None:
                    diags.warn(
                        "invalid-additional-operation",
                        f"additionalOperations cannot hold {method!r}: use the {str(method).lower()!r} field, "
                        "or an HTTP method name",
                        pointer=at,
                    )
                continue
            found.append((str(method), node, at))
    elif dialect is not Dialect.OPENAPI_32 and diags is not None:
        for key in (QUERY_METHOD, "additionalOperations"):
            if key in item:
                diags.warn(
                    "openapi-3.2-field",
                    f"'{key}' is an OpenAPI 3.2 field, ignored in a {dialect.value} document (set openapi: 3.2.0)",
                    pointer=join_pointer(item_pointer, key),
                )
    return found


def _media_list(raw: Any) -> list[str]:
    return [m for m in raw if isinstance(m, str)] if isinstance(raw, list) else []


def _operation(
    ctx: Context,
    path: str,
    method: HttpMethod,
    node: Any,
    item: Mapping[str, Any],
    pointer: str,
    servers: tuple[Server, ...],
    global_security: tuple[SecurityRequirement, ...],
    schemes: Mapping[str, SecurityScheme],
) -> Operation:
    if not isinstance(node, dict):
        raise OperationSkipped("invalid-operation", "operation is not an object", pointer)
    op_id = node.get("operationId")
    wire = wire_method(method)
    label = f"{wire} {path}" + (f" ({op_id})" if isinstance(op_id, str) and op_id else "")
    if op_id is not None and not (isinstance(op_id, str) and op_id.strip()):
        ctx.diags.warn(
            "invalid-operation-id",
            "operationId is not a non-empty string; named from the path",
            operation=label,
            pointer=join_pointer(pointer, "operationId"),
        )
        op_id = None
    consumes = _media_list(node.get("consumes", ctx.root.get("consumes")))
    produces = _media_list(node.get("produces", ctx.root.get("produces")))
    params, body = parameters(ctx, path, item, node, pointer, label, consumes)
    if not ctx.swagger:
        body = request_body(ctx, node.get("requestBody"), join_pointer(pointer, "requestBody"), label)
    security = security_requirements(ctx, node.get("security"), join_pointer(pointer, "security"), schemes, label)
    raw_tags = node.get("tags")
    tags = tuple(t for t in raw_tags if isinstance(t, str)) if isinstance(raw_tags, list) else ()
    op_servers = _servers(ctx, node.get("servers"), join_pointer(pointer, "servers")) or servers
    return Operation(
        method=method,
        path=path,
        operation_id=op_id,
        summary=text(node.get("summary")),
        description=text(node.get("description")),
        tags=tags,
        deprecated=node.get("deprecated") is True,
        parameters=params,
        request_body=body,
        responses=responses(ctx, node.get("responses"), join_pointer(pointer, "responses"), produces),
        security=security if security is not None else global_security,
        servers=op_servers,
        pointer=pointer,
        extensions={k: v for k, v in node.items() if isinstance(k, str) and k == "x-mcp"},
    )
