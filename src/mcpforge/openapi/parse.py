"""Resolved document -> :class:`ApiModel`: every operation, normalised, with converted schemas.

A problem confined to one operation never stops the run: the operation is skipped or degraded
with a diagnostic naming it and a JSON pointer. Unresolvable or cyclic references are fatal
(:class:`~mcpforge.errors.RefError`), as is a document with no operations.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcpforge.diagnostics import Diagnostics, Effect
from mcpforge.errors import NoOperationsError
from mcpforge.openapi import swagger2
from mcpforge.openapi.bodies import request_body, responses
from mcpforge.openapi.context import Context, OperationSkipped
from mcpforge.openapi.convert import SchemaConverter
from mcpforge.openapi.load import Document
from mcpforge.openapi.model import (
    HTTP_METHODS,
    ApiModel,
    HttpMethod,
    Operation,
    SecurityRequirement,
    SecurityScheme,
    Server,
    ServerVariable,
)
from mcpforge.openapi.parameters import parameters
from mcpforge.openapi.refs import join_pointer
from mcpforge.openapi.security import security_requirements, security_schemes
from mcpforge.openapi.values import obj, text
from mcpforge.options import Options

__all__ = ["parse_api"]


def parse_api(document: Document, diags: Diagnostics, options: Options | None = None) -> ApiModel:
    """The typed model of every operation in the document."""
    options = options or Options()
    converter = SchemaConverter(document.resolver, document.dialect, description_max=options.argument_description_max)
    ctx = Context(document, converter, diags)
    root = document.root
    info = obj(root.get("info"))
    servers = swagger2.servers(root) if ctx.swagger else _servers(ctx, root.get("servers"), "/servers")
    schemes = swagger2.security_schemes(root) if ctx.swagger else security_schemes(ctx)
    global_security = security_requirements(ctx, root.get("security"), "/security", schemes) or ()
    operations = _operations(ctx, servers, global_security, schemes)
    if not operations:
        extra = " (it only describes webhooks)" if root.get("webhooks") else ""
        raise NoOperationsError(
            f"{document.source_name} defines no operations{extra}",
            location="/paths",
            hint="mcpforge turns the operations under 'paths' into tools",
        )
    for pointer, message in converter.problems:
        diags.warn("schema-loosened", message, effect=Effect.DEGRADED, pointer=pointer)
    return ApiModel(
        title=text(info.get("title")) or "API",
        version=str(info.get("version", "")),
        description=text(info.get("description")),
        dialect=document.dialect,
        openapi_version=document.openapi_version,
        servers=servers,
        operations=tuple(operations),
        security_schemes=schemes,
        defs=converter.definitions(),
        source_name=document.source_name,
    )


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
        result.append(Server(url=node["url"], description=text(node.get("description")), variables=tuple(variables)))
    return tuple(result)


def _operations(
    ctx: Context,
    servers: tuple[Server, ...],
    global_security: tuple[SecurityRequirement, ...],
    schemes: Mapping[str, SecurityScheme],
) -> list[Operation]:
    paths = ctx.root.get("paths")
    if not isinstance(paths, dict):
        return []
    result = []
    for path, raw_item in paths.items():
        item_pointer = join_pointer("/paths", path)
        item, _, _ = ctx.follow(raw_item, item_pointer)
        if not isinstance(item, dict):
            ctx.diags.warn("invalid-path-item", "path item is not an object; ignored", pointer=item_pointer)
            continue
        path_servers = _servers(ctx, item.get("servers"), join_pointer(item_pointer, "servers")) or servers
        for method in HTTP_METHODS:
            if method not in item:
                continue
            pointer = join_pointer(item_pointer, method)
            try:
                result.append(_operation(ctx, str(path), method, item, pointer, path_servers, global_security, schemes))
            except OperationSkipped as skip:
                ctx.diags.warn(
                    skip.code,
                    skip.message,
                    effect=Effect.SKIPPED,
                    operation=f"{method.upper()} {path}",
                    pointer=skip.pointer,
                )
    return result


def _media_list(raw: Any) -> list[str]:
    return [m for m in raw if isinstance(m, str)] if isinstance(raw, list) else []


def _operation(
    ctx: Context,
    path: str,
    method: HttpMethod,
    item: Mapping[str, Any],
    pointer: str,
    servers: tuple[Server, ...],
    global_security: tuple[SecurityRequirement, ...],
    schemes: Mapping[str, SecurityScheme],
) -> Operation:
    node = item[method]
    if not isinstance(node, dict):
        raise OperationSkipped("invalid-operation", "operation is not an object", pointer)
    op_id = node.get("operationId")
    label = f"{method.upper()} {path}" + (f" ({op_id})" if isinstance(op_id, str) and op_id else "")
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
