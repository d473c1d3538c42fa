"""Generation options: one frozen value, defaults in one place."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

__all__ = ["BuildOptions", "Override", "Selection", "ValidationLevel"]


class ValidationLevel(StrEnum):
    """How thoroughly the document is checked before generation."""

    NONE = "none"
    BASIC = "basic"  # fast structural check with JSON pointers (default)
    FULL = "full"  # openapi-spec-validator (slow on large documents)


@dataclass(frozen=True, slots=True)
class Override:
    """Per-operation changes: a tool name, a description, or exclusion."""

    name: str | None = None
    description: str | None = None
    exclude: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Selection:
    """Filters and overrides; the defaults select every operation that is not deprecated."""

    include_tags: tuple[str, ...] = ()
    exclude_tags: tuple[str, ...] = ()
    include_operations: tuple[str, ...] = ()  # operationId globs
    exclude_operations: tuple[str, ...] = ()
    include_paths: tuple[str, ...] = ()  # path globs, e.g. /repos/*/issues*
    exclude_paths: tuple[str, ...] = ()
    methods: tuple[str, ...] = ()  # e.g. ("get",) for a read-only server
    include_deprecated: bool = False
    overrides: Mapping[str, Override] = field(default_factory=dict)  # operationId or "METHOD /path"


@dataclass(frozen=True, slots=True, kw_only=True)
class BuildOptions:
    """How operations become tools."""

    max_tool_name_length: int = 64
    summary_max: int = 150
    description_max: int = 300
    argument_description_max: int = 300
    output_schemas: bool = True
    output_schema_depth: int = 1
    max_schema_bytes: int = 32_000  # nested definitions of one input schema; deeper ones become open objects
    selection: Selection = field(default_factory=Selection)
