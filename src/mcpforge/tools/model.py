"""Tool definitions: what each operation becomes, and how its arguments travel back to HTTP."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from mcpforge.openapi.model import ApiModel, FieldEncoding, Operation
from mcpforge.runtime.contract import Binding
from mcpforge.runtime.contract import FieldEncoding as ContractFieldEncoding
from mcpforge.runtime.results.media import MediaKind
from mcpforge.schema import JsonSchema

__all__ = ["ArgumentBinding", "BindingLocation", "ToolDefinition", "ToolSet"]

BindingLocation = Literal["path", "query", "querystring", "header", "cookie", "body"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ArgumentBinding:
    """Where one tool argument goes in the HTTP request."""

    arg: str  # property name in the input schema
    location: BindingLocation
    wire_name: str  # parameter name on the wire ("" for the body)
    required: bool
    style: str = ""
    explode: bool = False
    allow_reserved: bool = False
    content_type: str | None = None  # body media type, or a content-described parameter's
    body_kind: MediaKind | None = None
    fields: Mapping[str, FieldEncoding] = field(default_factory=dict)  # form/multipart fields

    def to_contract(self) -> Binding:
        """The binding as ``tools.json`` carries it (defaults omitted)."""
        data: Binding = {"arg": self.arg, "in": self.location}
        if self.wire_name and self.wire_name != self.arg:
            data["name"] = self.wire_name
        if self.required:
            data["required"] = True
        if self.location != "body":
            data["style"] = self.style
            data["explode"] = self.explode
        if self.allow_reserved:
            data["allowReserved"] = True
        if self.content_type:
            data["contentType"] = self.content_type
        if self.body_kind:
            data["kind"] = self.body_kind
        if self.fields:
            data["fields"] = {name: _field_dict(enc) for name, enc in self.fields.items()}
        return data


def _field_dict(enc: FieldEncoding) -> ContractFieldEncoding:
    data: ContractFieldEncoding = {"style": enc.style, "explode": enc.explode}
    if enc.content_type:
        data["contentType"] = enc.content_type
    if enc.is_file:
        data["file"] = True
    if enc.styled:
        data["styled"] = True
    return data


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolDefinition:
    """One MCP tool, built from one operation."""

    name: str
    title: str | None
    description: str
    input_schema: JsonSchema
    output_schema: JsonSchema | None
    output_wrapped: bool  # structuredContent is {"result": body} because the body is not an object
    select_arg: str | None  # the field-selection argument (the response is a JSON object or list)
    page_url_arg: str | None = None  # the argument carrying a next-page URL the API hands back
    accept: str = ""  # the Accept header: the operation's declared response media types, JSON first
    annotations: Mapping[str, bool]
    bindings: tuple[ArgumentBinding, ...]
    operation: Operation
    toolsets: tuple[str, ...]  # its navigation tags and their ancestors (``untagged`` without)


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolSet:
    """The API's metadata and its tools, in document order."""

    api: ApiModel
    tools: tuple[ToolDefinition, ...]
    excluded: tuple[Operation, ...] = ()  # operations left out by selection, overrides or deprecation
