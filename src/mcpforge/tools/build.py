"""ApiModel -> ToolSet: names, descriptions, input/output schemas and argument bindings.

Input schemas are always ``{"type": "object", "properties": ..., "required": [...]}``.
Parameters become arguments named after them (made portable, collisions prefixed with their
location); the request body is one ``body`` argument: JSON as its schema, form and multipart
bodies as objects of their real fields (file fields as base64 strings), text as a string,
anything else as a base64 string.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from mcpforge.diagnostics import Diagnostics, Effect
from mcpforge.errors import ConfigError
from mcpforge.openapi.model import SAFE_METHODS, ApiModel, MediaContent, Operation, Parameter, RequestBody
from mcpforge.openapi.tags import TagTree
from mcpforge.options.model import Options, Override
from mcpforge.runtime.results.defs import deref
from mcpforge.runtime.results.media import MediaKind, base_media_type, media_kind
from mcpforge.schema import JsonSchema
from mcpforge.schema.bundle import DefinitionIndex, bundle
from mcpforge.schema.memo import IdentityMemo
from mcpforge.schema.shape import Shaper
from mcpforge.text.names import (
    NameCandidate,
    argument_name,
    assign_tool_names,
    page_url_argument,
    selection_argument,
    shorten,
    tool_name_base,
    unique_argument_name,
)
from mcpforge.text.prose import bounded, clean
from mcpforge.tools.describe import tool_description, tool_title
from mcpforge.tools.model import ArgumentBinding, ToolDefinition, ToolSet
from mcpforge.tools.responses import accept_header, pages_by_url
from mcpforge.tools.select import operation_key, select_operations

__all__ = ["build_tools", "operation_key"]

RUNTIME_HEADERS = frozenset({"authorization", "content-type", "accept"})
_BODY_PREFERENCE: Mapping[MediaKind, int] = {
    "json": 0,
    "form": 1,
    "multipart": 2,
    "sequence": 3,
    "text": 4,
    "binary": 5,
}
_LOCATION_ORDER = ("path", "query", "querystring", "header", "cookie")  # who keeps a shared name
OUTPUT_SHAPE_DEPTH = 1  # levels of object properties an output schema shows
# The field-selection argument of every tool with a JSON result (runtime/select.py applies it).
SELECTION_SCHEMA: Mapping[str, Any] = {
    "type": "array",
    "items": {"type": "string"},
    "description": "Only these result fields (dot paths).",
}
# The next-page URL a result of this tool gave (runtime/pages.py); the server accepts only the API's own URLs.
PAGE_URL_SCHEMA: Mapping[str, Any] = {
    "type": "string",
    "description": "A next-page URL a previous result of this tool gave.",
}


def _with_description(schema: JsonSchema, description: str | None, *, deprecated: bool = False) -> JsonSchema:
    if not isinstance(schema, Mapping):
        schema = {} if schema is True else {"not": {}}
    extra: dict[str, Any] = {}
    if description:
        extra["description"] = description  # the parameter's own words win over the schema's
    if deprecated:
        extra["deprecated"] = True
    return {**schema, **extra} if extra else schema


_BASE64 = {"type": "string", "contentEncoding": "base64"}


def noted(description: str | None, note: str, limit: int) -> str:
    """``description`` and a note of ours after it, within ``limit`` characters (the argument description limit).

    The note is kept whole where at least 16 characters of the description fit beside it; else the
    note alone, bounded.
    """
    if description:
        room = limit - len(note) - 3
        if room >= 16:
            return f"{bounded(description, room)} ({note})"
    return bounded(note, limit)


def _file_schema(schema: Any, limit: int) -> JsonSchema:
    note = "File contents, base64-encoded."
    if isinstance(schema, Mapping) and schema.get("type") == "array":
        return {"type": "array", "items": {**_BASE64, "description": bounded(note, limit)}}
    description = schema.get("description") if isinstance(schema, Mapping) else None
    return {**_BASE64, "description": noted(description if isinstance(description, str) else None, note, limit)}


def _items_of(media: MediaContent, defs: Mapping[str, Any]) -> JsonSchema:
    """The schema of one item of a sequential body: ``itemSchema`` (3.2), else the ``items`` of ``schema``."""
    if media.item_schema is not None:
        return media.item_schema
    whole = deref(media.schema, defs) if media.schema is not None else None
    if isinstance(whole, Mapping) and isinstance(whole.get("items"), Mapping | bool):
        items: JsonSchema = whole["items"]
        return items
    return {}


def _events_parsed(item: JsonSchema, defs: Mapping[str, Any]) -> JsonSchema:
    """A server-sent event's schema as the server returns it: JSON ``data`` (3.2 ``contentMediaType``) parsed.

    The runtime parses an event's ``data`` unless the schema types it as a plain string.
    """
    event = deref(item, defs)
    props = event.get("properties") if isinstance(event, Mapping) else None
    if not isinstance(props, Mapping):
        return item
    data = deref(props.get("data"), defs)
    if not (isinstance(data, Mapping) and media_kind(str(data.get("contentMediaType", ""))) == "json"):
        return item
    return {**event, "properties": {**props, "data": data.get("contentSchema", {})}}


class _Builder:
    def __init__(self, api: ApiModel, options: Options, diags: Diagnostics) -> None:
        self.api = api
        self.options = options
        self.diags = diags
        self.request_defs = DefinitionIndex(api.defs.request)
        self.shaper = Shaper(api.defs.response)
        self.tags = TagTree(api.tags)
        # One object per distinct argument: operations repeat their parameters (Graph: 48,000
        # arguments, 2,600 distinct), and every later stage memoizes by identity (scrubbing,
        # Gemini, the lint, encoding), so a shared argument is converted and checked once.
        self.argument_schemas = IdentityMemo[JsonSchema]()
        self.bindings: dict[tuple[Any, ...], ArgumentBinding] = {}
        # One object per distinct input or output schema, for the same reason: tools repeat them whole
        # (Graph: 11,412 tools, 6,830 input schemas; an operation under /me and /users/{id}, a list and
        # its count), and each is then analysed, converted and encoded once.
        self.tool_schemas: dict[bytes, JsonSchema] = {}
        # Our own arguments' descriptions keep to the limit too: one object each, shared by every tool.
        limit = options.argument_description_max
        self.selection_schema = {**SELECTION_SCHEMA, "description": bounded(SELECTION_SCHEMA["description"], limit)}
        self.page_url_schema = {**PAGE_URL_SCHEMA, "description": bounded(PAGE_URL_SCHEMA["description"], limit)}

    def described(self, schema: JsonSchema, description: str | None, *, deprecated: bool = False) -> JsonSchema:
        """``schema`` with an argument's own description: one object per distinct pair (see ``argument_schemas``)."""
        found = self.argument_schemas.get(schema, description, deprecated)
        if found is None:
            found = self.argument_schemas.put(
                schema, _with_description(schema, description, deprecated=deprecated), description, deprecated
            )
        return found

    def choose_body(self, body: RequestBody) -> MediaContent:
        ranked = sorted(enumerate(body.contents), key=lambda p: (_BODY_PREFERENCE[media_kind(p[1].content_type)], p[0]))
        return ranked[0][1]

    def body_argument(self, op: Operation, body: RequestBody) -> tuple[JsonSchema, ArgumentBinding]:
        limit = self.options.argument_description_max
        media = self.choose_body(body)
        kind = media_kind(media.content_type)
        schema: JsonSchema = media.schema if media.schema is not None else {}
        description = body.description
        if kind in ("form", "multipart"):
            target = deref(schema, self.api.defs.request)
            files = {name for name, enc in media.encoding.items() if enc.is_file}
            if isinstance(target, Mapping) and isinstance(target.get("properties"), Mapping) and files:
                props = {
                    name: (_file_schema(deref(sub, self.api.defs.request), limit) if name in files else sub)
                    for name, sub in target["properties"].items()
                }
                schema = {**target, "properties": props}
        elif kind == "sequence":
            schema = {
                "type": "array",
                "items": _items_of(media, self.api.defs.request),
                "description": bounded(f"Request body: the items, sent in order as {media.content_type}.", limit),
            }
        elif kind == "text":
            schema = {"type": "string", "description": bounded(f"Request body as {media.content_type} text.", limit)}
        elif kind == "binary":
            schema = {**_BASE64, "description": bounded(f"Request body ({media.content_type}), base64-encoded.", limit)}
            self.diags.info(
                "binary-body",
                f"request body {media.content_type} is passed as a base64 string",
                operation=op.label,
                pointer=body.pointer,
            )
        if description:
            schema = self.described(schema, clean(description, limit))
        binding = ArgumentBinding(
            arg="body",
            location="body",
            wire_name="",
            required=body.required,
            content_type=media.content_type,
            body_kind=kind,
            fields=dict(media.encoding) if kind in ("form", "multipart") else {},
        )
        return schema, binding

    def parameter_argument(
        self, op: Operation, param: Parameter, taken: list[str]
    ) -> tuple[str, JsonSchema, ArgumentBinding]:
        name = unique_argument_name(argument_name(param.name), param.location, taken)
        limit = self.options.argument_description_max
        description = clean(param.description, limit) if param.description else None
        if name != param.name:
            # The wire name is said once, within the same limit as the parameter's own words.
            where = f"{param.location} parameter '{param.name}'"
            description = noted(description, where, limit) if description else bounded(f"The {where}.", limit)
            self.diags.info(
                "argument-renamed",
                f"{param.location} parameter {param.name!r} is argument {name!r}",
                operation=op.label,
                pointer=param.pointer,
            )
        schema = self.described(param.schema, description, deprecated=param.deprecated)
        key = (
            name,
            param.location,
            param.name,
            param.required,
            param.style,
            param.explode,
            param.allow_reserved,
            param.content_type,
        )
        binding = self.bindings.get(key)
        if binding is None:
            binding = self.bindings[key] = ArgumentBinding(
                arg=name,
                location=param.location,
                wire_name=param.name,
                required=param.required,
                style=param.style,
                explode=param.explode,
                allow_reserved=param.allow_reserved,
                content_type=param.content_type,
            )
        return name, schema, binding

    def input_schema(
        self, op: Operation, *, selectable: bool, success: MediaContent | None
    ) -> tuple[JsonSchema, tuple[ArgumentBinding, ...], str | None, str | None]:
        properties: dict[str, JsonSchema] = {}
        required: list[str] = []
        bindings: list[ArgumentBinding] = []
        taken = ["body"] if op.request_body else []
        ordered = sorted(op.parameters, key=lambda p: _LOCATION_ORDER.index(p.location))
        for param in ordered:
            if param.location == "header" and param.name.lower() in RUNTIME_HEADERS:
                self.diags.info(
                    "runtime-header",
                    f"header {param.name!r} is set by the server, not by the model",
                    operation=op.label,
                    pointer=param.pointer,
                )
                continue
            name, schema, binding = self.parameter_argument(op, param, taken)
            taken.append(name)
            properties[name] = schema
            bindings.append(binding)
            if binding.required:
                required.append(name)
        if op.request_body:
            schema, binding = self.body_argument(op, op.request_body)
            properties["body"] = schema
            bindings.append(binding)
            if binding.required:
                required.append("body")
        select_arg = selection_argument(properties) if selectable else None
        if select_arg is not None:
            properties[select_arg] = self.selection_schema  # never sent upstream: the server applies it
        query = [b.wire_name for b in bindings if b.location == "query"]
        page_url_arg = None
        if success is not None and pages_by_url(success.schema, self.api.defs.response, query):
            page_url_arg = page_url_argument(properties)
            properties[page_url_arg] = self.page_url_schema
        # No "additionalProperties": false at the root: the server refuses an undeclared argument by name
        # (runtime/api.py), so the keyword would only cost every tool's listing bytes.
        root = {"type": "object", "properties": properties, "required": required}
        bundled = bundle(root, self.request_defs, max_bytes=self.options.max_schema_bytes or None)
        if bundled.omitted:
            shown = ", ".join(bundled.omitted[:3]) + (
                f" and {len(bundled.omitted) - 3} more" if len(bundled.omitted) > 3 else ""
            )
            self.diags.info(
                "schema-trimmed",
                f"nested definitions beyond {self.options.max_schema_bytes:,} bytes are open objects: {shown}",
                effect=Effect.DEGRADED,
                operation=op.label,
                pointer=op.pointer,
            )
        return bundled.schema, tuple(bindings), select_arg, page_url_arg

    @staticmethod
    def success_body(op: Operation) -> MediaContent | None:
        """The body of the operation's lowest 2xx response that carries JSON: one value, or a sequence of them."""
        successes = sorted((r for r in op.responses if r.status[:1] == "2"), key=lambda r: r.status)
        for response in successes:
            ranked = sorted(
                (m for m in response.contents if media_kind(m.content_type) in ("json", "sequence")),
                key=lambda m: media_kind(m.content_type) != "json",
            )
            if ranked:
                return ranked[0]
        return None

    def output_schema(self, media: MediaContent | None) -> tuple[JsonSchema | None, bool, bool]:
        """``(outputSchema, wrapped, selectable)``: selectable when the body is a JSON object or list.

        A sequence (JSON Lines, server-sent events) is returned as the list of its items.
        """
        if media is None:
            return None, False, False
        if media_kind(media.content_type) == "sequence":
            item = _items_of(media, self.api.defs.response)
            if base_media_type(media.content_type) == "text/event-stream":
                item = _events_parsed(item, self.api.defs.response)
            item = self.shaper.shape(item, OUTPUT_SHAPE_DEPTH)
            items: JsonSchema = {"type": "array", "items": item}
            return (
                ({"type": "object", "properties": {"result": items}} if self.options.output_schemas else None),
                True,
                True,
            )
        if media.schema is None:
            return None, False, True
        loose = self.shaper.shape(media.schema, OUTPUT_SHAPE_DEPTH)
        kind = loose.get("type") if isinstance(loose, Mapping) else None
        kinds = set(kind) if isinstance(kind, list) else {kind}
        selectable = bool(kinds & {"object", "array", None})
        if not self.options.output_schemas:
            return None, False, selectable
        if isinstance(loose, Mapping) and kind == "object":
            return loose, False, selectable
        # No "required": an empty structuredContent ({}) must stay valid for non-JSON answers.
        return {"type": "object", "properties": {"result": loose}}, True, selectable

    def shared(self, schema: JsonSchema) -> JsonSchema:
        """The one object of every schema equal to ``schema``."""
        try:
            spelled = orjson.dumps(schema)
        except orjson.JSONEncodeError:  # a YAML document's number as a key, an integer beyond 64 bits
            return schema
        return self.tool_schemas.setdefault(spelled, schema)

    def annotations(self, op: Operation) -> dict[str, bool]:
        if op.method in SAFE_METHODS:
            return {"readOnlyHint": True, "openWorldHint": True}
        notes: dict[str, bool] = {"readOnlyHint": False}
        if op.method == "delete":
            notes["destructiveHint"] = True
        if op.method in ("put", "delete"):
            notes["idempotentHint"] = True
        notes["openWorldHint"] = True
        return notes

    def build(self, reserved: Mapping[str, str]) -> ToolSet:
        selected, excluded = select_operations(self.api.operations, self.options, self.diags, self.tags)
        candidates = []
        kept = dict(reserved)
        for op, override in selected:
            base, exact = tool_name_base(override.name or op.operation_id, op.method, op.path)
            if override.name:
                exact = True
                kept.pop(operation_key(op), None)  # an explicit name replaces the locked one
                if base != override.name:
                    self.diags.warn(
                        "override-name-changed",
                        f"tool name {override.name!r} is not valid for every provider; using {base!r}",
                        operation=op.label,
                        pointer=op.pointer,
                    )
            candidates.append(NameCandidate(key=operation_key(op), base=base, exact=exact))
        _check_override_names(selected, candidates, kept, self.options.max_tool_name_length)
        names = assign_tool_names(candidates, max_length=self.options.max_tool_name_length, reserved=kept)
        tools = []
        for op, override in selected:
            name = names[operation_key(op)]
            if op.operation_id is None and not override.name:
                self.diags.info(
                    "no-operation-id", f"no operationId; tool named {name!r}", operation=op.label, pointer=op.pointer
                )
            elif name != (override.name or op.operation_id):
                self.diags.info(
                    "tool-renamed",
                    f"operationId {op.operation_id!r} is tool {name!r}",
                    effect=Effect.RENAMED,
                    operation=op.label,
                    pointer=op.pointer + "/operationId",
                )
            success = self.success_body(op)
            output_schema, wrapped, selectable = self.output_schema(success)
            input_schema, bindings, select_arg, page_url_arg = self.input_schema(
                op, selectable=selectable, success=success
            )
            input_schema = self.shared(input_schema)
            output_schema = None if output_schema is None else self.shared(output_schema)
            tools.append(
                ToolDefinition(
                    name=name,
                    title=tool_title(op, limit=self.options.summary_max),
                    description=(
                        bounded(clean(override.description, 10_000), self.options.description_max)
                        if override.description
                        else tool_description(
                            op,
                            self.api.security_schemes,
                            summary_limit=self.options.summary_max,
                            total_limit=self.options.description_max,
                        )
                    ),
                    input_schema=input_schema,
                    output_schema=output_schema,
                    output_wrapped=wrapped,
                    select_arg=select_arg,
                    page_url_arg=page_url_arg,
                    accept=accept_header(op),
                    annotations=self.annotations(op),
                    bindings=bindings,
                    operation=op,
                    toolsets=self.tags.toolsets(op.tags),
                )
            )
        return ToolSet(api=self.api, tools=tuple(tools), excluded=tuple(excluded))


def _check_override_names(
    selected: Sequence[tuple[Operation, Override]],
    candidates: Sequence[NameCandidate],
    kept: Mapping[str, str],
    max_length: int,
) -> None:
    """An override's name must not be another tool's name: silently renaming that tool would surprise."""
    labels = {operation_key(op): op.label for op, _ in selected}
    claims: dict[str, list[str]] = {}  # name -> keys of the operations that would have it
    for cand in candidates:
        claims.setdefault(kept.get(cand.key) or shorten(cand.base, max_length), []).append(cand.key)
    for op, override in selected:
        if not override.name:
            continue
        name = shorten(tool_name_base(override.name, op.method, op.path)[0], max_length)
        others = [key for key in claims.get(name, []) if key != operation_key(op)]
        if others:
            raise ConfigError(
                f"the override name {name!r} of {op.label} is also the name of {labels[others[0]]}",
                hint=f"choose another name, or give {labels[others[0]]} a new name with its own override",
            )


def build_tools(
    api: ApiModel, options: Options, diags: Diagnostics, *, reserved: Mapping[str, str] | None = None
) -> ToolSet:
    """One tool per selected operation, in document order.

    ``reserved`` maps ``METHOD /path`` to names an earlier run gave (the lock file): they are kept.
    """
    return _Builder(api, options, diags).build(reserved or {})
