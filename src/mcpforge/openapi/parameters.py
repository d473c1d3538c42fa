"""The parameters of one operation: path-level and operation-level merged, each with its schema and style.

Swagger 2.0 ``in: body`` and ``in: formData`` parameters are handed to :mod:`.bodies`, which makes
them the request body.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from mcpforge.diagnostics import Effect
from mcpforge.openapi import swagger2
from mcpforge.openapi.bodies import swagger_body
from mcpforge.openapi.context import Context
from mcpforge.openapi.convert import Direction
from mcpforge.openapi.model import Dialect, Parameter, RequestBody
from mcpforge.openapi.refs import join_pointer
from mcpforge.openapi.values import text

__all__ = ["parameters"]

# Where a parameter may be (Swagger 2.0's body and formData ones become the request body).
_LOCATIONS = ("path", "query", "header", "cookie", "body", "formData")
_LOCATIONS_32 = (*_LOCATIONS, "querystring")
_TEMPLATE_VAR = re.compile(r"{([^{}/]+)}")
_DEFAULT_STYLE = {"path": "simple", "header": "simple", "query": "form", "cookie": "form", "querystring": "form"}


def parameters(
    ctx: Context,
    path: str,
    item: Mapping[str, Any],
    node: Mapping[str, Any],
    pointer: str,
    label: str,
    consumes: list[str],
) -> tuple[tuple[Parameter, ...], RequestBody | None]:
    merged: dict[tuple[str, str], tuple[Mapping[str, Any], str, str, bool]] = {}
    item_pointer = pointer.rsplit("/", 1)[0]
    for raw_list, base in ((item.get("parameters"), item_pointer), (node.get("parameters"), pointer)):
        if not isinstance(raw_list, list):
            continue
        for i, raw in enumerate(raw_list):
            at = join_pointer(base, "parameters", i)
            param, doc, target = ctx.follow(raw, at)
            locations = _LOCATIONS_32 if ctx.document.dialect is Dialect.OPENAPI_32 else _LOCATIONS
            if (
                not isinstance(param, dict)
                or not isinstance(param.get("name"), str)
                or param.get("in") not in locations
            ):
                ctx.diags.warn(
                    "invalid-parameter",
                    "parameter without a valid 'name' and 'in' ignored",
                    effect=Effect.DEGRADED,
                    operation=label,
                    pointer=at,
                )
                continue
            merged[(param["name"], param["in"])] = (param, doc, target, target != at)
    params: list[Parameter] = []
    body_params: list[tuple[Mapping[str, Any], str, str]] = []
    form_params: list[tuple[Mapping[str, Any], str, str]] = []
    for (_, location), (param, doc, at, shared) in merged.items():
        if location == "body":
            body_params.append((param, doc, at))
        elif location == "formData":
            form_params.append((param, doc, at))
        elif shared:
            params.append(_shared_parameter(ctx, param, doc, at, label))
        else:
            params.append(_parameter(ctx, param, doc, at, label))
    declared = {p.name for p in params if p.location == "path"}
    for name in dict.fromkeys(_TEMPLATE_VAR.findall(path)):
        if name not in declared:
            ctx.diags.warn(
                "undeclared-path-parameter",
                f"path parameter {{{name}}} is not declared; it is " "accepted as a string",
                effect=Effect.DEGRADED,
                operation=label,
                pointer=pointer,
            )
            params.append(
                Parameter(name=name, location="path", required=True, schema={"type": "string"}, pointer=pointer)
            )
    body = swagger_body(ctx, body_params, form_params, consumes, label, pointer) if ctx.swagger else None
    return tuple(params), body


def _shared_parameter(ctx: Context, param: Mapping[str, Any], doc: str, at: str, label: str) -> Parameter:
    """A referenced parameter, converted once for every operation that uses it (GitHub: 3,153 uses of 180)."""
    found = ctx.shared_parameters.get((doc, at))
    if found is None:
        found = _parameter(ctx, param, doc, at, label)
        content = param.get("content")
        if ctx.swagger or "schema" in param or (isinstance(content, Mapping) and content):
            ctx.shared_parameters[(doc, at)] = found  # else a warning names each operation: not cached
    return found


def _parameter(ctx: Context, param: Mapping[str, Any], doc: str, at: str, label: str) -> Parameter:
    location = param["in"]
    style = str(param["style"]) if isinstance(param.get("style"), str) else _DEFAULT_STYLE[location]
    explode = param["explode"] if isinstance(param.get("explode"), bool) else style == "form"
    content_type = None
    if ctx.swagger:
        raw_schema: Any = swagger2.inline_schema(param)
        fmt = param.get("collectionFormat", "csv")
        if param.get("type") == "array":
            style, explode = swagger2.COLLECTION_FORMATS.get(str(fmt), ("form", False))
        schema = ctx.schema(raw_schema, doc, at, Direction.REQUEST)
    elif "schema" in param:
        schema = ctx.schema(param["schema"], doc, join_pointer(at, "schema"), Direction.REQUEST)
    elif isinstance(param.get("content"), Mapping) and param["content"]:
        content_type, raw_media = next(iter(param["content"].items()))
        media, media_doc, media_at = ctx.follow(raw_media, join_pointer(at, "content", content_type), doc)
        media_schema = media.get("schema", {}) if isinstance(media, dict) else {}
        schema = ctx.schema(media_schema, media_doc, join_pointer(media_at, "schema"), Direction.REQUEST)
    else:
        ctx.diags.warn(
            "parameter-without-schema",
            f"parameter {param['name']!r} has no schema; any string " "is accepted",
            effect=Effect.DEGRADED,
            operation=label,
            pointer=at,
        )
        schema = {"type": "string"}
    description = text(param.get("description"))
    return Parameter(
        name=param["name"],
        location=location,
        required=location == "path" or param.get("required") is True,
        schema=schema,
        description=description,
        style=style,
        explode=explode,
        allow_reserved=param.get("allowReserved") is True,
        deprecated=param.get("deprecated") is True,
        content_type=content_type,
        pointer=at,
    )
