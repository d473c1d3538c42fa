"""Document validation: a fast structural check by default, openapi-spec-validator on request.

Both report problems as diagnostics with JSON pointers; the caller decides whether they are
warnings (default: real documents are often slightly invalid) or fatal (``--strict``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from mcpforge.diagnostics import Diagnostic, Effect, Severity
from mcpforge.openapi.load import Document
from mcpforge.openapi.model import HTTP_METHODS, Dialect
from mcpforge.openapi.refs import join_pointer

__all__ = ["basic_problems", "full_problems"]

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
        if dialect is not Dialect.OPENAPI_31:
            yield _problem("missing-paths", "the document has no 'paths' object", "/paths")
        return
    if not isinstance(paths, Mapping):
        yield _problem("invalid-paths", "'paths' is not an object", "/paths")
        return
    locations = _SWAGGER_LOCATIONS if dialect is Dialect.SWAGGER_20 else _LOCATIONS
    operation_ids: dict[str, str] = {}
    for path, item in paths.items():
        item_pointer = join_pointer("/paths", path)
        if not str(path).startswith("/"):
            yield _problem("invalid-path", f"path {path!r} does not start with '/'", item_pointer)
        if not isinstance(item, Mapping):
            yield _problem("invalid-path-item", "path item is not an object", item_pointer)
            continue
        for method in HTTP_METHODS:
            op = item.get(method)
            if op is None:
                continue
            pointer = join_pointer(item_pointer, method)
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
            if "responses" not in op and dialect is not Dialect.OPENAPI_31:
                yield _problem("missing-responses", "operation has no 'responses'", pointer)
            for base, params in ((item_pointer, item.get("parameters")), (pointer, op.get("parameters"))):
                if params is None:
                    continue
                if not isinstance(params, list):
                    yield _problem("invalid-parameters", "'parameters' is not a list", join_pointer(base, "parameters"))
                    continue
                for i, param in enumerate(params):
                    at = join_pointer(base, "parameters", i)
                    if not isinstance(param, Mapping):
                        yield _problem("invalid-parameter", "parameter is not an object", at)
                    elif "$ref" in param:
                        continue
                    elif not isinstance(param.get("name"), str) or param.get("in") not in locations:
                        yield _problem("invalid-parameter", "parameter needs a string 'name' and a valid 'in'", at)
                    elif param["in"] == "path" and param.get("required") is not True:
                        yield _problem("path-parameter-not-required", "path parameters must be required", at)


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


def full_problems(document: Document, spec_path: Path, *, allow_remote_refs: bool) -> list[Diagnostic]:
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
    schema_path = SchemaPath.from_dict(dict(document.root), base_uri=spec_path.resolve().as_uri())
    problems = []
    for error in cls(schema_path).iter_errors():
        pointer = (
            "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in getattr(error, "absolute_path", ()))
            or "/"
        )
        message = str(getattr(error, "message", error)).splitlines()[0]
        problems.append(_problem("invalid-spec", message[:300], pointer))
    return problems
