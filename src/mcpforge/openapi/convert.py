"""OpenAPI Schema Objects (Swagger 2.0, OpenAPI 3.0, 3.1, 3.2) to JSON Schema 2020-12.

The one home of schema conversion (provider-rules.md §7):

* ``nullable`` / ``x-nullable`` -> a ``"null"`` type (and ``null`` in ``enum``); beside
  ``$ref``/``allOf``/``oneOf`` without ``type`` -> ``anyOf: [schema, {"type": "null"}]``;
* boolean ``exclusiveMinimum``/``exclusiveMaximum`` -> numeric bounds;
* ``example`` -> ``examples``; ``format: byte`` -> ``contentEncoding: base64``;
  Swagger ``type: file`` -> a base64 string;
* ``readOnly`` properties removed from request schemas, ``writeOnly`` ones from responses;
* ``discriminator`` dropped after tagging each ``$ref`` branch with its discriminator value;
* ``$ref`` siblings ignored in 3.0 and Swagger (except ``nullable``), kept in 3.1;
* boolean subschemas kept in 3.1; keywords outside JSON Schema (``xml``, ``x-*``...) dropped.

Referenced schemas become ``#/$defs/<name>`` entries, converted once per direction from a work
queue (never by recursion), so circular and very deep reference graphs terminate.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping
from enum import StrEnum
from typing import Any, NamedTuple

import orjson

from mcpforge.openapi.discriminator import tag_branches
from mcpforge.openapi.model import Dialect, SchemaDefs
from mcpforge.openapi.refs import RefResolver, Resolved, join_pointer
from mcpforge.runtime.results.defs import REF_PREFIX
from mcpforge.schema import JsonSchema
from mcpforge.schema.keywords import (
    ANNOTATIONS,
    ANY_VALUE_KEYWORDS,
    NUMBER_KEYWORDS,
    SCHEMA_LISTS,
    SCHEMA_MAPS,
    SINGLE_SUBSCHEMA,
    STRING_KEYWORDS,
    SUBSCHEMA_KEYS,
)
from mcpforge.text.names import definition_name
from mcpforge.text.prose import clean

__all__ = ["Direction", "SchemaConverter", "SchemaProblem"]


class Direction(StrEnum):
    """Which side of the API a schema describes: it decides readOnly/writeOnly removal."""

    REQUEST = "request"
    RESPONSE = "response"


_HIDDEN_FLAG = {Direction.REQUEST: "readOnly", Direction.RESPONSE: "writeOnly"}
_CANONICAL_PARENTS = (("components", "schemas"), ("definitions",))


class SchemaProblem(NamedTuple):
    """A schema that had to be loosened: where, and what was done."""

    pointer: str
    message: str


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _pointer_tokens(pointer: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")] if pointer else []


class _LazyDefinitions(Mapping[str, JsonSchema]):
    """Response definitions, each converted the first time it is looked up (then cached)."""

    def __init__(self, converter: SchemaConverter) -> None:
        self._converter = converter

    def __getitem__(self, name: str) -> JsonSchema:
        try:
            return self._converter.response_definition(name)
        except KeyError:
            raise KeyError(name) from None

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._converter.response_names()

    def __iter__(self) -> Iterator[str]:
        return iter(self._converter.response_names())

    def __len__(self) -> int:
        return len(self._converter.response_names())


def _content_key(node: Any, doc: str, direction: Direction) -> tuple[Direction, str, bytes] | None:
    if not isinstance(node, dict):
        return None
    try:
        return direction, doc, orjson.dumps(node)
    except (orjson.JSONEncodeError, TypeError):  # integers beyond 64 bits: converted each time
        return None


class SchemaConverter:
    """Converts schemas of one document; collects named definitions per direction."""

    def __init__(
        self, resolver: RefResolver, dialect: Dialect, *, max_depth: int = 64, description_max: int = 300
    ) -> None:
        self._resolver = resolver
        self._dialect = dialect
        self._max_depth = max_depth
        self._description_max = description_max
        self._defs: dict[Direction, dict[str, JsonSchema]] = {d: {} for d in Direction}
        self._names: dict[str, str] = {}
        self._owners: dict[str, str] = {}
        self._queue: deque[tuple[str, Resolved, Direction]] = deque()
        self._pending_responses: dict[str, Resolved] = {}
        self.problems: list[SchemaProblem] = []
        self._converted: dict[tuple[Direction, str, bytes], JsonSchema] = {}
        self._report: Callable[[SchemaProblem], None] | None = None

    # -- public API -------------------------------------------------------------------------

    def convert(self, node: Any, *, doc: str, pointer: str, direction: Direction) -> JsonSchema:
        """Convert one schema; referenced definitions are converted before this returns.

        A schema converted without a problem is remembered by its content: operations repeat their
        parameter and response schemas (Graph: 48,000 conversions, a third of them distinct). The
        result is shared: never mutate it.
        """
        key = _content_key(node, doc, direction)
        found = self._converted.get(key) if key is not None else None
        if found is not None:
            return found
        problems = len(self.problems)
        result = self._convert(node, doc, pointer, direction, 0)
        self._drain()
        if key is not None and len(self.problems) == problems:
            self._converted[key] = result
        return result

    def definitions(self, report: Callable[[SchemaProblem], None]) -> SchemaDefs:
        """Request definitions (all converted), and response definitions converted on first lookup.

        Response schemas only feed bounded output shapes, so most of a large API's response graph
        (GitHub: 573 definitions) is never needed. The problems of a definition converted from now
        on go to ``report`` (those found so far are in :attr:`problems`).
        """
        self._report = report
        return SchemaDefs(request=dict(self._defs[Direction.REQUEST]), response=_LazyDefinitions(self))

    def response_definition(self, name: str) -> JsonSchema:
        """One response definition, converted now if it has not been yet."""
        converted = self._defs[Direction.RESPONSE].get(name)
        if converted is None:
            target = self._pending_responses.pop(name)
            found = len(self.problems)
            converted = self._convert(target.value, target.doc, target.pointer, Direction.RESPONSE, 0)
            self._defs[Direction.RESPONSE][name] = converted
            if self._report is not None:
                for problem in self.problems[found:]:
                    self._report(problem)
        return converted

    def response_names(self) -> list[str]:
        """Names of every response definition referenced so far."""
        return [*self._defs[Direction.RESPONSE], *self._pending_responses]

    def flag(self, node: Any, *, doc: str, pointer: str, name: str) -> bool:
        """Whether ``node`` (following references) carries ``name: true`` (readOnly, writeOnly...)."""
        if isinstance(node, dict) and node.get(name) is True:
            return True
        if not (isinstance(node, dict) and "$ref" in node):
            return False
        target, _, _ = self._resolver.follow(node, doc, where=pointer)
        return isinstance(target, dict) and target.get(name) is True

    # -- references ---------------------------------------------------------------------------

    def _definition(self, ref: Any, doc: str, pointer: str, direction: Direction) -> str:
        # Fail fast on a pure reference loop (A -> B -> A): it describes nothing.
        self._resolver.follow({"$ref": ref}, doc, where=pointer)
        target = self._resolver.resolve(ref, doc, where=pointer)
        name = self._names.get(target.uri)
        if name is None:
            tokens = _pointer_tokens(target.pointer)
            canonical = (
                target.doc == ""
                and len(tokens) == 3 - (tokens[:1] == ["definitions"])
                and tuple(tokens[:-1]) in _CANONICAL_PARENTS
            )
            name = definition_name(tokens, uri=target.uri, canonical=canonical)
            if self._owners.get(name, target.uri) != target.uri:
                name = definition_name(tokens, uri=target.uri, canonical=False)
            self._names[target.uri] = name
            self._owners[name] = target.uri
        if direction is Direction.RESPONSE:
            if name not in self._defs[direction]:
                self._pending_responses.setdefault(name, target)
        elif name not in self._defs[direction]:
            self._defs[direction][name] = {}  # placeholder: marks it queued
            self._queue.append((name, target, direction))
        return name

    def _drain(self) -> None:
        while self._queue:
            name, target, direction = self._queue.popleft()
            self._defs[direction][name] = self._convert(target.value, target.doc, target.pointer, direction, 0)

    # -- conversion ---------------------------------------------------------------------------

    def _convert(self, node: Any, doc: str, pointer: str, direction: Direction, depth: int) -> JsonSchema:
        if isinstance(node, bool):
            if self._dialect.full_json_schema:
                return node
            return {} if node else {"not": {}}
        if not isinstance(node, dict):
            self.problems.append(
                SchemaProblem(pointer, f"schema is a {type(node).__name__}, not an object; " "any value is accepted")
            )
            return {}
        if depth > self._max_depth:
            self.problems.append(
                SchemaProblem(
                    pointer, f"schema nests deeper than {self._max_depth} levels; the deeper part accepts any value"
                )
            )
            return {}
        if "$ref" in node:
            return self._convert_ref(node, doc, pointer, direction, depth)
        return self._convert_object(node, doc, pointer, direction, depth)

    def _nullable(self, node: Mapping[str, Any]) -> bool:
        return node.get("nullable") is True or node.get("x-nullable") is True

    def _convert_ref(
        self, node: Mapping[str, Any], doc: str, pointer: str, direction: Direction, depth: int
    ) -> JsonSchema:
        ref: dict[str, Any] = {"$ref": REF_PREFIX + self._definition(node["$ref"], doc, pointer, direction)}
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        schema: dict[str, Any] = ref
        if self._dialect.full_json_schema and siblings:
            plain = {k: v for k, v in siblings.items() if k not in ("nullable", "x-nullable")}
            rest = self._convert_object(plain, doc, pointer, direction, depth)
            if isinstance(rest, dict):
                schema = {**ref, **rest}
        return self._make_nullable(schema) if self._nullable(siblings) else schema

    def _convert_object(
        self, node: Mapping[str, Any], doc: str, pointer: str, direction: Direction, depth: int
    ) -> JsonSchema:
        out: dict[str, Any] = {}
        hidden: set[str] = set()
        nested = depth + 1
        for key, value in node.items():
            # Pointers are only built for subschemas: most keys are plain keywords.
            at = join_pointer(pointer, key) if key in SUBSCHEMA_KEYS else pointer
            if key == "type":
                converted_type = self._type(value, out)
                if converted_type is not None:
                    out["type"] = converted_type
            elif key == "properties" and isinstance(value, dict):
                props: dict[str, Any] = {}
                for prop, sub in value.items():
                    sub_at = join_pointer(at, prop)
                    if self.flag(sub, doc=doc, pointer=sub_at, name=_HIDDEN_FLAG[direction]):
                        hidden.add(prop)
                        continue
                    props[prop] = self._convert(sub, doc, sub_at, direction, nested)
                out["properties"] = props
            elif key == "items":
                if isinstance(value, list):  # draft-4 tuple validation
                    out["prefixItems"] = [
                        self._convert(s, doc, join_pointer(at, i), direction, nested) for i, s in enumerate(value)
                    ]
                else:
                    out["items"] = self._convert(value, doc, at, direction, nested)
            elif key == "additionalProperties" and isinstance(value, bool):
                out[key] = value  # a boolean is valid here in every dialect, 3.0 included
            elif key in SINGLE_SUBSCHEMA:
                if isinstance(value, (dict, bool)):
                    out[key] = self._convert(value, doc, at, direction, nested)
            elif key in SCHEMA_MAPS:
                if isinstance(value, dict):
                    out[key] = {
                        k: self._convert(v, doc, join_pointer(at, k), direction, nested) for k, v in value.items()
                    }
            elif key in SCHEMA_LISTS:
                if isinstance(value, list) and value:
                    out[key] = [
                        self._convert(s, doc, join_pointer(at, i), direction, nested) for i, s in enumerate(value)
                    ]
            elif key in ("exclusiveMinimum", "exclusiveMaximum"):
                self._exclusive(key, value, node, out)
            elif key in ("minimum", "maximum"):
                exclusive = node.get("exclusiveMinimum" if key == "minimum" else "exclusiveMaximum")
                if _is_number(value) and exclusive is not True:
                    out[key] = value
            elif key in NUMBER_KEYWORDS:
                if _is_number(value):
                    out[key] = value
            elif key in STRING_KEYWORDS:
                if isinstance(value, str):
                    out[key] = clean(value, self._description_max) if key == "description" else value
                    if key == "format" and value == "byte":
                        out.setdefault("contentEncoding", "base64")
            elif key == "required":
                if isinstance(value, list):
                    out["required"] = [r for r in dict.fromkeys(value) if isinstance(r, str)]
            elif key == "enum":
                if isinstance(value, list):
                    out["enum"] = list(value)
            elif key in ANY_VALUE_KEYWORDS:
                out[key] = value
            elif key == "example":
                if "examples" not in node:
                    out["examples"] = [value]
            elif key == "examples":
                if isinstance(value, list):
                    out["examples"] = list(value)
            elif key == "deprecated":
                if isinstance(value, bool):
                    out["deprecated"] = value
            elif key == "dependentRequired" and isinstance(value, dict):
                out[key] = {k: list(v) for k, v in value.items() if isinstance(v, list)}
            # anything else (xml, externalDocs, discriminator, nullable, readOnly, x-*, $id...) is dropped
        if hidden and "required" in out:
            out["required"] = [r for r in out["required"] if r not in hidden]
        if "required" in out and not out["required"]:
            del out["required"]
        kind = out.get("type")
        is_array = kind == "array" or (isinstance(kind, list) and "array" in kind)
        if is_array and "items" not in out and "prefixItems" not in out:
            out["items"] = {}
        discriminator = node.get("discriminator")
        if isinstance(discriminator, dict):
            for where, message in tag_branches(self._resolver, node, discriminator, out, doc, pointer):
                self.problems.append(SchemaProblem(where, message))
        if self._nullable(node):
            return self._make_nullable(out)
        return out

    def _type(self, value: Any, out: dict[str, Any]) -> Any:
        if isinstance(value, str):
            if value == "file":  # Swagger 2.0 upload
                out.setdefault("contentEncoding", "base64")
                return "string"
            return value
        if isinstance(value, list):
            types = ["string" if t == "file" else t for t in value if isinstance(t, str)]
            return list(dict.fromkeys(types)) or None
        return None

    @staticmethod
    def _exclusive(key: str, value: Any, node: Mapping[str, Any], out: dict[str, Any]) -> None:
        bound = "minimum" if key == "exclusiveMinimum" else "maximum"
        if value is True and _is_number(node.get(bound)):
            out[key] = node[bound]
        elif _is_number(value):
            out[key] = value

    @staticmethod
    def _make_nullable(out: dict[str, Any]) -> JsonSchema:
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind] if kind == "null" else [kind, "null"]
        elif isinstance(kind, list):
            if "null" not in kind:
                out["type"] = [*kind, "null"]
        elif any(k in out for k in ("allOf", "anyOf", "oneOf", "$ref")):
            inner = {k: v for k, v in out.items() if k not in ANNOTATIONS}
            outer = {k: v for k, v in out.items() if k in ANNOTATIONS}
            return {**outer, "anyOf": [inner, {"type": "null"}]}
        elif "enum" not in out and "const" not in out:
            return out  # no type: already accepts null
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return out
