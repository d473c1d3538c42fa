"""Generation options: one frozen value, defaults in one place."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["BuildOptions", "ValidationLevel"]


class ValidationLevel(StrEnum):
    """How thoroughly the document is checked before generation."""

    NONE = "none"
    BASIC = "basic"  # fast structural check with JSON pointers (default)
    FULL = "full"  # openapi-spec-validator (slow on large documents)


@dataclass(frozen=True, slots=True, kw_only=True)
class BuildOptions:
    """How operations become tools."""

    max_tool_name_length: int = 64
    summary_max: int = 150
    description_max: int = 300
    argument_description_max: int = 300
    output_schemas: bool = True
    output_schema_depth: int = 1
