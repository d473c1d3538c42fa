"""Pure JSON Schema work: bundling ``$defs`` and output shapes.

Nothing here knows about OpenAPI; the modules import only each other and the runtime's shared
``$defs`` follower (:mod:`mcpforge.runtime.defs`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["DATA_KEYWORDS", "NAME_MAPS", "JsonSchema"]

JsonSchema = Mapping[str, Any] | bool

# Keywords whose values map names to subschemas: there "default", "enum" or "$ref" is a name.
NAME_MAPS = frozenset({"properties", "$defs", "patternProperties", "dependentSchemas"})

# Keywords whose values are instances, not schemas: a walk of the schema never looks inside them
# (an enum of objects may hold a "default" key, an example a "$ref" one: both are data).
DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples"})
