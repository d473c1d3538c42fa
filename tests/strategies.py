"""Hypothesis strategies: random valid OpenAPI 3.0 / 3.1 documents (hostile text included)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

IDENT = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)
# Free text reaches names, descriptions and the README: quotes, braces, newlines, non-ASCII, markup.
_PIECES = [*"abcXYZ019 _-./'\"`{}<>$\\\n\t|#*é漢🙂", "\u2028", "\x00", "{{", "}}", "'''", "${x}", "</script>"]
TEXT = st.lists(st.sampled_from(_PIECES), max_size=20).map("".join)

SCALARS: list[dict[str, Any]] = [
    {"type": "string"},
    {"type": "string", "maxLength": 12},
    {"type": "string", "format": "date-time"},
    {"type": "string", "format": "uuid"},
    {"type": "integer"},
    {"type": "integer", "minimum": 0, "maximum": 100},
    {"type": "number"},
    {"type": "boolean"},
]


# Strategies are made once, here: hypothesis describes each lambda by reading its source, which is
# slow, and a strategy made anew inside a draw is described anew (most of this module's cost once).
_ENUMS = st.lists(IDENT, min_size=1, max_size=4, unique=True).map(lambda e: {"type": "string", "enum": e})
SCALAR = st.one_of(st.sampled_from(SCALARS), _ENUMS)
_QUERY_SCHEMA = st.one_of(SCALAR, SCALAR.map(lambda s: {"type": "array", "items": s}))
_PATH_SCHEMA = st.sampled_from(SCALARS[:2] + SCALARS[4:6])
_OPERATION_ID = st.one_of(IDENT, TEXT.filter(lambda t: t.strip() != ""))
_NAMED = TEXT.filter(str.strip)


def _object(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        properties = draw(st.dictionaries(IDENT, children, min_size=1, max_size=4))
        required = draw(st.lists(st.sampled_from(sorted(properties)), unique=True, max_size=len(properties)))
        schema: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            schema["required"] = required
        if draw(st.booleans()):
            schema["description"] = draw(TEXT)
        return schema

    return build()


def _array_of(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return children.map(lambda c: {"type": "array", "items": c})


SCHEMAS = st.recursive(SCALAR, lambda children: st.one_of(_object(children), _array_of(children)), max_leaves=8)
BODIES = _object(SCHEMAS)


def schemas() -> st.SearchStrategy[dict[str, Any]]:
    """Nested objects and arrays of scalars and enums."""
    return SCHEMAS


def _nullable(schema: dict[str, Any], version: str) -> dict[str, Any]:
    if "type" not in schema or not isinstance(schema["type"], str):
        return schema
    if version.startswith("3.0"):
        return {**schema, "nullable": True}
    return {**schema, "type": [schema["type"], "null"]}


@st.composite
def operations(draw: st.DrawFn, path_params: list[str], method: str, version: str, tags: list[str]) -> dict[str, Any]:
    operation: dict[str, Any] = {"responses": {"200": {"description": draw(TEXT) or "ok"}}}
    if draw(st.booleans()):
        operation["operationId"] = draw(_OPERATION_ID)
    if draw(st.booleans()):
        operation["summary"] = draw(TEXT)
    if draw(st.booleans()):
        operation["description"] = draw(TEXT)
    tagged = draw(st.booleans())
    if tags and tagged:
        operation["tags"] = draw(st.lists(st.sampled_from(tags), min_size=1, max_size=2, unique=True))
    parameters: list[dict[str, Any]] = [
        {"name": name, "in": "path", "required": True, "schema": draw(_PATH_SCHEMA)} for name in path_params
    ]
    for name in draw(st.lists(IDENT, max_size=3, unique=True)):
        schema = draw(_QUERY_SCHEMA)
        if draw(st.booleans()):
            schema = _nullable(schema, version)
        parameters.append({"name": f"q_{name}", "in": "query", "required": draw(st.booleans()), "schema": schema})
    if draw(st.booleans()):
        parameters.append({"name": "X-Trace-Id", "in": "header", "schema": {"type": "string", "maxLength": 20}})
    if parameters:
        operation["parameters"] = parameters
    if method in ("post", "put", "patch") and draw(st.booleans()):
        body = draw(BODIES)
        operation["requestBody"] = {"required": draw(st.booleans()), "content": {"application/json": {"schema": body}}}
    if draw(st.booleans()):
        response = draw(SCHEMAS)
        operation["responses"]["200"]["content"] = {"application/json": {"schema": response}}
    return operation


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    """A valid OpenAPI document with 1-5 paths."""
    version = draw(st.sampled_from(["3.0.3", "3.1.0"]))
    tags = draw(st.lists(st.one_of(IDENT, _NAMED), max_size=3, unique=True))
    paths: dict[str, Any] = {}
    operation_ids: set[str] = set()
    for index in range(draw(st.integers(1, 5))):
        raw = draw(st.lists(st.one_of(IDENT, IDENT.map(lambda n: "{" + n + "}")), min_size=1, max_size=3))
        params: list[str] = []
        segments = []
        for segment in raw:
            name = segment.strip("{}")
            if segment.startswith("{") and name not in params:
                params.append(name)
                segments.append(segment)
            else:
                segments.append(name)  # a repeated template name becomes a literal segment
        path = f"/r{index}/" + "/".join(segments)
        methods = draw(
            st.lists(st.sampled_from(["get", "post", "put", "patch", "delete"]), min_size=1, max_size=3, unique=True)
        )
        item = {}
        for method in methods:
            operation = draw(operations(params, method, version, tags))
            if operation.get("operationId") in operation_ids:
                del operation["operationId"]  # operationIds are unique in a valid document
            operation_ids.add(operation.get("operationId", ""))
            item[method] = operation
        paths[path] = item
    document: dict[str, Any] = {
        "openapi": version,
        "info": {"title": draw(_NAMED) or "t", "version": "1", "description": draw(TEXT)},
        "paths": paths,
    }
    if tags:
        document["tags"] = [{"name": t, "description": draw(TEXT)} for t in tags]
    return document
