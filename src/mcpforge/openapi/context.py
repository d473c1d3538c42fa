"""What every part of the parser reads: the document, its references, the schema converter, the diagnostics."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mcpforge.diagnostics import Diagnostics
from mcpforge.openapi.convert import Direction, SchemaConverter
from mcpforge.openapi.load import Document
from mcpforge.openapi.model import Dialect, Parameter, Response
from mcpforge.schema import JsonSchema

__all__ = ["Context", "OperationSkipped"]


class OperationSkipped(Exception):
    """An operation cannot become a tool: the parser records this diagnostic and goes on."""

    def __init__(self, code: str, message: str, pointer: str) -> None:
        super().__init__(message)
        self.code, self.message, self.pointer = code, message, pointer


@dataclass(frozen=True, slots=True)
class Context:
    """The parse of one document."""

    document: Document
    converter: SchemaConverter
    diags: Diagnostics
    # Parameters declared once (components) and referenced by many operations, by (document, pointer).
    shared_parameters: dict[tuple[str, str], Parameter] = field(default_factory=dict)
    # Responses declared once and referenced by many operations (Graph: its error responses, on
    # 11,000 operations), by (status, document, pointer, media types of a Swagger 2.0 operation).
    shared_responses: dict[tuple[str, str, str, tuple[str, ...]], Response] = field(default_factory=dict)

    @property
    def swagger(self) -> bool:
        """Whether the document is Swagger 2.0."""
        return self.document.dialect is Dialect.SWAGGER_20

    @property
    def root(self) -> Any:
        """The root of the document."""
        return self.document.root

    def follow(self, node: Any, pointer: str, doc: str = "") -> tuple[Any, str, str]:
        """``node`` with its ``$ref`` chain followed: (value, document, JSON pointer)."""
        return self.document.resolver.follow(node, doc, where=pointer)

    def schema(self, node: Any, doc: str, pointer: str, direction: Direction) -> JsonSchema:
        """One Schema Object converted to JSON Schema."""
        return self.converter.convert(node, doc=doc, pointer=pointer, direction=direction)
