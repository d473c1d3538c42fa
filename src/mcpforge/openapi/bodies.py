"""Request bodies and responses of one operation (OpenAPI 3 ``content``, Swagger 2.0 body and form parameters)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcpforge.diagnostics import Effect
from mcpforge.openapi import swagger2
from mcpforge.openapi.context import Context
from mcpforge.openapi.convert import Direction
from mcpforge.openapi.model import FieldEncoding, MediaContent, RequestBody, Response
from mcpforge.openapi.refs import join_pointer
from mcpforge.openapi.values import obj, text
from mcpforge.runtime.results.media import media_kind
from mcpforge.schema import JsonSchema

__all__ = ["request_body", "responses", "swagger_body"]


def swagger_body(
    ctx: Context,
    body_params: list[tuple[Mapping[str, Any], str, str]],
    form_params: list[tuple[Mapping[str, Any], str, str]],
    consumes: list[str],
    label: str,
    pointer: str,
) -> RequestBody | None:
    if body_params:
        param, doc, at = body_params[0]
        schema = ctx.schema(param.get("schema", {}), doc, join_pointer(at, "schema"), Direction.REQUEST)
        contents = tuple(MediaContent(content_type=m, schema=schema) for m in swagger2.body_media_types(consumes))
        if form_params:
            ctx.diags.warn(
                "body-and-form",
                "operation has both 'body' and 'formData' parameters; the form " "fields are ignored",
                effect=Effect.DEGRADED,
                operation=label,
                pointer=pointer,
            )
        return RequestBody(
            required=param.get("required") is True,
            contents=contents,
            description=text(param.get("description")),
            pointer=at,
        )
    if not form_params:
        return None
    properties: dict[str, Any] = {}
    required: list[str] = []
    encoding: dict[str, FieldEncoding] = {}
    has_file = False
    for param, _, _ in form_params:
        name = param["name"]
        field = swagger2.inline_schema(param)
        is_file = param.get("type") == "file"
        has_file = has_file or is_file
        properties[name] = field
        if param.get("required") is True:
            required.append(name)
        style, explode = swagger2.COLLECTION_FORMATS.get(str(param.get("collectionFormat", "csv")), ("form", False))
        encoding[name] = FieldEncoding(style=style, explode=explode, is_file=is_file)
    raw = {"type": "object", "properties": properties, **({"required": required} if required else {})}
    doc, at = form_params[0][1], pointer
    schema = ctx.schema(raw, doc, join_pointer(at, "parameters"), Direction.REQUEST)
    media = swagger2.form_media_type(consumes, has_file=has_file)
    return RequestBody(
        required=bool(required),
        contents=(MediaContent(content_type=media, schema=schema, encoding=encoding),),
        pointer=pointer,
    )


def request_body(ctx: Context, raw: Any, pointer: str, label: str) -> RequestBody | None:
    if raw is None:
        return None
    node, doc, at = ctx.follow(raw, pointer)
    if not isinstance(node, dict) or not isinstance(node.get("content"), Mapping):
        ctx.diags.warn(
            "invalid-request-body",
            "requestBody has no 'content'; ignored",
            effect=Effect.DEGRADED,
            operation=label,
            pointer=pointer,
        )
        return None
    contents = []
    for media_type, raw_media in node["content"].items():
        media, mdoc, media_at = ctx.follow(raw_media, join_pointer(at, "content", media_type), doc)
        if not isinstance(media, dict):
            continue
        raw_schema = media.get("schema", {})
        schema = ctx.schema(raw_schema, mdoc, join_pointer(media_at, "schema"), Direction.REQUEST)
        contents.append(
            MediaContent(
                content_type=str(media_type),
                schema=schema,
                encoding=_encoding(ctx, media, raw_schema, mdoc, media_at),
                item_schema=_item_schema(ctx, media, mdoc, media_at, Direction.REQUEST),
            )
        )
    if not contents:
        return None
    return RequestBody(
        required=node.get("required") is True,
        contents=tuple(contents),
        description=text(node.get("description")),
        pointer=at,
    )


def _encoding(ctx: Context, media: Mapping[str, Any], raw_schema: Any, doc: str, at: str) -> dict[str, FieldEncoding]:
    """Per-field encoding of form and multipart bodies; detects binary (file) fields."""
    target, tdoc, tat = ctx.follow(raw_schema, join_pointer(at, "schema"), doc)
    props = target.get("properties") if isinstance(target, dict) else None
    explicit = obj(media.get("encoding"))
    result: dict[str, FieldEncoding] = {}
    if not isinstance(props, dict):
        return result
    for name, prop in props.items():
        enc = obj(explicit.get(name))
        style = str(enc["style"]) if isinstance(enc.get("style"), str) else "form"
        explode = enc["explode"] if isinstance(enc.get("explode"), bool) else style == "form"
        result[str(name)] = FieldEncoding(
            content_type=text(enc.get("contentType")),
            style=style,
            explode=explode,
            is_file=_is_binary(ctx, prop, tdoc, tat),
            styled="style" in enc or "explode" in enc,
        )
    return result


def _is_binary(ctx: Context, node: Any, doc: str, at: str) -> bool:
    target, tdoc, tat = ctx.follow(node, at, doc)
    if not isinstance(target, dict):
        return False
    if target.get("type") == "array":
        return _is_binary(ctx, target.get("items"), tdoc, tat)
    return (
        target.get("format") == "binary"
        or target.get("type") == "file"
        or ("contentMediaType" in target and "contentEncoding" not in target)
    )


def responses(ctx: Context, raw: Any, pointer: str, produces: list[str]) -> tuple[Response, ...]:
    if not isinstance(raw, dict):
        return ()
    result = []
    for status, node in raw.items():
        at = join_pointer(pointer, status)
        resolved, doc, target = ctx.follow(node, at)
        if not isinstance(resolved, dict):
            continue
        status_text = str(status)
        key = (status_text, doc, target, tuple(produces))
        shared = ctx.shared_responses.get(key) if target != at else None
        if shared is not None:  # a referenced response reads the same for every operation
            result.append(shared)
            continue
        success = status_text.startswith("2")
        contents: list[MediaContent] = []
        if ctx.swagger and "schema" in resolved:
            schema = (
                ctx.schema(resolved["schema"], doc, join_pointer(target, "schema"), Direction.RESPONSE)
                if success
                else None
            )
            contents = [MediaContent(content_type=m, schema=schema) for m in produces or ["application/json"]]
        elif isinstance(resolved.get("content"), Mapping):
            for media_type, raw_media in resolved["content"].items():
                media_at = join_pointer(target, "content", media_type)
                media, mdoc, media_at = ctx.follow(raw_media, media_at, doc)
                contents.append(_response_content(ctx, str(media_type), media, mdoc, media_at, wanted=success))
        response = Response(status=status_text, description=text(resolved.get("description")), contents=tuple(contents))
        if target != at:
            ctx.shared_responses[key] = response
        result.append(response)
    return tuple(result)


def _response_content(ctx: Context, media_type: str, media: Any, doc: str, at: str, *, wanted: bool) -> MediaContent:
    """One media type of a response; schemas are converted only where a tool's output uses them."""
    if not wanted or not isinstance(media, dict):
        return MediaContent(content_type=media_type, schema=None)
    kind = media_kind(media_type)
    schema = None
    if kind in ("json", "sequence") and "schema" in media:
        schema = ctx.schema(media["schema"], doc, join_pointer(at, "schema"), Direction.RESPONSE)
    item_schema = _item_schema(ctx, media, doc, at, Direction.RESPONSE) if kind == "sequence" else None
    return MediaContent(content_type=media_type, schema=schema, item_schema=item_schema)


def _item_schema(ctx: Context, media: Mapping[str, Any], doc: str, at: str, direction: Direction) -> JsonSchema | None:
    """OpenAPI 3.2 ``itemSchema``: the schema of each item of a sequential media type."""
    if "itemSchema" not in media:
        return None
    return ctx.schema(media["itemSchema"], doc, join_pointer(at, "itemSchema"), direction)
