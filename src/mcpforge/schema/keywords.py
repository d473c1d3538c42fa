"""JSON Schema keyword lists: the one home of every list of keywords a walk of a schema needs.

Provider dialects (what OpenAI's strict mode or Gemini accepts) stay in their provider's module
under :mod:`mcpforge.targets`; these lists are JSON Schema's own.
"""

from __future__ import annotations

__all__ = [
    "ANNOTATIONS",
    "ANY_VALUE_KEYWORDS",
    "DATA_KEYWORDS",
    "NAME_MAPS",
    "NUMBER_KEYWORDS",
    "SCHEMA_LISTS",
    "SCHEMA_MAPS",
    "SINGLE_SUBSCHEMA",
    "STRING_KEYWORDS",
    "SUBSCHEMA_KEYS",
]

# Keywords whose values map names to subschemas: there "default", "enum" or "$ref" is a name.
NAME_MAPS = frozenset({"properties", "$defs", "patternProperties", "dependentSchemas"})

# Keywords whose values are instances, not schemas: a walk of the schema never looks inside them
# (an enum of objects may hold a "default" key, an example a "$ref" one: both are data).
DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples"})

# Keywords that describe without constraining: kept beside a $ref, merged freely.
ANNOTATIONS = ("title", "description", "default", "examples", "deprecated")

# Keywords whose value is one subschema, a map of them, or a list of them.
SINGLE_SUBSCHEMA = (
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
)
SCHEMA_MAPS = ("patternProperties", "dependentSchemas")
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
SUBSCHEMA_KEYS = frozenset(("properties", "items", *SINGLE_SUBSCHEMA, *SCHEMA_MAPS, *SCHEMA_LISTS))

# Keywords whose value must be a number, a string, or may be anything.
NUMBER_KEYWORDS = (
    "minimum",
    "maximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minContains",
    "maxContains",
)
STRING_KEYWORDS = ("title", "description", "pattern", "format", "contentEncoding", "contentMediaType")
ANY_VALUE_KEYWORDS = ("default", "const")
