"""Document validation: a fast structural check by default, openapi-spec-validator on request.

Both report problems as diagnostics with JSON pointers; the caller decides whether they are
warnings (default: real documents are often slightly invalid) or fatal (``--strict``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from mcpforge.diagnostics import Diagnostic, Diagnostics, Effect, Severity
from mcpforge.errors import RefError
from mcpforge.openapi.load import Document
from mcpforge.openapi.model import Dialect
from mcpforge.openapi.parse import item_operations
from mcpforge.openapi.refs import join_pointer
from mcpforge.options.model import ValidationLevel
from mcpforge.schema.keywords import DATA_KEYWORDS, NAME_MAPS

__all__ = ["basic_problems", "full_problems", "unresolved_refs"]

_LOCATIONS = {"path", "query", "header", "cookie"}
_SWAGGER_LOCATIONS = {"path", "query", "header", "body", "formData"}


def _problem(code: str, message: str, pointer: str) -> Diagnostic:
    return Diagnostic(severity=Severity.WARNING, effect=Effect.NONE, code=code, message=message, pointer=pointer)


def basic_problems(document: Document) -> list[Diagnostic]:
    """Structural problems a generator cares about, each with a JSON pointer (fast)."""
    return list(_basic(document.root, document.dialect))


def _basic(root: Mapping[str, Any], dialect: Dialect) -> Iterator[Diagnostic]:
    info = root.get("info")
    if not isinstance(info, Mapping):
        yield _problem("missing-info", "the document has no 'info' object", "/info")
    else:
        for key in ("title", "version"):
            if key not in info:
                yield _problem("missing-info", f"'info' has no '{key}'", join_pointer("/info", key))
    paths = root.get("paths")
    if paths is None:
        if not dialect.full_json_schema:
            yield _problem("missing-paths", "the document has no 'paths' object", "/paths")
        return
    if not isinstance(paths, Mapping):
        yield _problem("invalid-paths", "'paths' is not an object", "/paths")
        return
    locations = _SWAGGER_LOCATIONS if dialect is Dialect.SWAGGER_20 else _LOCATIONS
    if dialect is Dialect.OPENAPI_32:
        locations = {*locations, "querystring"}
    operation_ids: dict[str, str] = {}
    for path, item in paths.items():
        item_pointer = join_pointer("/paths", path)
        if not str(path).startswith("/"):
            yield _problem("invalid-path", f"path {path!r} does not start with '/'", item_pointer)
        if not isinstance(item, Mapping):
            yield _problem("invalid-path-item", "path item is not an object", item_pointer)
            continue
        for _, op, pointer in item_operations(item, dialect, item_pointer):
            if not isinstance(op, Mapping):
                yield _problem("invalid-operation", "operation is not an object", pointer)
                continue
            op_id = op.get("operationId")
            if isinstance(op_id, str):
                if op_id in operation_ids:
                    yield _problem(
                        "duplicate-operation-id",
                        f"operationId {op_id!r} is also used at " f"{operation_ids[op_id]}",
                        join_pointer(pointer, "operationId"),
                    )
                else:
                    operation_ids[op_id] = pointer
            if "responses" not in op and not dialect.full_json_schema:
                yield _problem("missing-responses", "operation has no 'responses'", pointer)
            for base, params in ((item_pointer, item.get("parameters")), (pointer, op.get("parameters"))):
                if params is None:
                    continue
                if not isinstance(params, list):
                    yield _problem("invalid-parameters", "'parameters' is not a list", join_pointer(base, "parameters"))
                    continue
                for i, param in enumerate(params):  # pointers are spelled only for problems (Graph: 48,000)
                    if not isinstance(param, Mapping):
                        yield _problem("invalid-parameter", "parameter is not an object", _at(base, i))
                    elif "$ref" in param:
                        continue
                    elif not isinstance(param.get("name"), str) or param.get("in") not in locations:
                        message = "parameter needs a string 'name' and a valid 'in'"
                        yield _problem("invalid-parameter", message, _at(base, i))
                    elif param["in"] == "path" and param.get("required") is not True:
                        message = "path parameters must be required"
                        yield _problem("path-parameter-not-required", message, _at(base, i))
            yield from _querystring_rules(item.get("parameters"), op.get("parameters"), pointer)


def _at(base: str, index: int) -> str:
    return join_pointer(base, "parameters", index)


def _querystring_rules(shared: Any, own: Any, pointer: str) -> Iterator[Diagnostic]:
    """OpenAPI 3.2: one ``in: querystring`` parameter at most, and never beside ``in: query`` ones."""
    params = [p for group in (shared, own) if isinstance(group, list) for p in group if isinstance(p, Mapping)]
    places = [p.get("in") for p in params]
    if places.count("querystring") > 1:
        yield _problem("invalid-parameter", "an operation can have only one 'querystring' parameter", pointer)
    if "querystring" in places and "query" in places:
        yield _problem("invalid-parameter", "a 'querystring' parameter cannot be used with 'query' parameters", pointer)


# Keys whose values are data, not document structure: a "$ref" inside them is not a reference. Beside
# JSON Schema's, OpenAPI's: a Schema Object's example, an Example Object's value and dataValue.
_LITERALS = DATA_KEYWORDS | {"example", "value", "dataValue"}
# Keys whose values map names to schemas: there "example" or "default" is a property's name. Beside
# JSON Schema's, OpenAPI's: Swagger 2.0 definitions, components' schemas.
_NAME_MAPS = NAME_MAPS | {"definitions", "schemas"}


def unresolved_refs(document: Document) -> Iterator[Diagnostic]:
    """Every ``$ref`` of the document that does not resolve, each with its JSON pointer.

    Built for 10,000-operation documents: each distinct reference is followed once, and a pointer
    is spelled out only for a reference that fails.
    """
    # (node, index of its parent entry, key in the parent, keys are names); -1: the root
    entries: list[tuple[Any, int, Any, bool]] = [(document.root, -1, "", False)]
    outcome: dict[str, str | None] = {}  # a reference's error, or None when it resolves
    stack = [0]
    while stack:
        index = stack.pop()
        node, _, _, named = entries[index]
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not named:
                if ref not in outcome:
                    outcome[ref] = _follow_error(document, node)
                if outcome[ref] is not None:
                    yield _problem("unresolved-ref", str(outcome[ref]), _spelled(entries, index))
            first = len(entries)
            for key, value in node.items():
                if isinstance(value, dict | list) and (named or (key not in _LITERALS and key[:2] != "x-")):
                    entries.append((value, index, key, key in _NAME_MAPS and not named))
            stack.extend(range(len(entries) - 1, first - 1, -1))  # in document order
        elif isinstance(node, list):
            first = len(entries)
            entries.extend((value, index, i, False) for i, value in enumerate(node) if isinstance(value, dict | list))
            stack.extend(range(len(entries) - 1, first - 1, -1))


def _follow_error(document: Document, node: Mapping[str, Any]) -> str | None:
    try:
        document.resolver.follow(node, "", where="/")
    except RefError as exc:
        return exc.message
    return None


def _spelled(entries: list[tuple[Any, int, Any, bool]], index: int) -> str:
    keys = []
    while index > 0:
        _, index, key, _ = entries[index]
        keys.append(key)
    return join_pointer("", *reversed(keys)) or "/"


def _remote_refs(node: Any) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Mapping):
            ref = current.get("$ref")
            if isinstance(ref, str) and ref.startswith(("http://", "https://", "//")):
                return True
            stack.extend(current.values())
        elif isinstance(current, list):
            stack.extend(current)
    return False


def full_problems(document: Document, *, allow_remote_refs: bool) -> list[Diagnostic]:
    """Every problem openapi-spec-validator finds (slow on large documents)."""
    if not allow_remote_refs and _remote_refs(document.root):
        return [
            _problem(
                "validation-skipped",
                "full validation skipped: the document has remote $refs and " "--allow-remote-refs was not given",
                "/",
            )
        ]
    from jsonschema_path import SchemaPath  # noqa: PLC0415 - heavy, only needed here
    from openapi_spec_validator.shortcuts import get_validator_cls  # noqa: PLC0415

    try:
        cls = get_validator_cls(document.root)
    except Exception:  # noqa: BLE001 - the validator raises various types for unknown versions
        return [_problem("validation-skipped", "openapi-spec-validator does not know this version", "/")]
    schema_path = SchemaPath.from_dict(dict(document.root), base_uri=document.base_uri)
    problems = []
    for error in cls(schema_path).iter_errors():
        pointer = (
            "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in getattr(error, "absolute_path", ()))
            or "/"
        )
        message = str(getattr(error, "message", error)).splitlines()[0]
        problems.append(_problem("invalid-spec", message[:300], pointer))
    return problems


def validate_document(
    document: Document, level: ValidationLevel, diags: Diagnostics, *, allow_remote_refs: bool
) -> None:
    """The problems ``level`` asks for: none, the fast structural check, or openapi-spec-validator's too."""
    if level is ValidationLevel.NONE:
        return
    diags.extend(basic_problems(document))
    if level is ValidationLevel.FULL:
        diags.extend(full_problems(document, allow_remote_refs=allow_remote_refs))
