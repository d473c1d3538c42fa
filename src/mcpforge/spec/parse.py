"""Resolved document -> :class:`ApiSpec`: every operation, normalised, with converted schemas.

A problem confined to one operation never stops the run: the operation is skipped or degraded
with a diagnostic naming it and a JSON pointer. Unresolvable or cyclic references are fatal
(:class:`~mcpforge.errors.RefError`), as is a document with no operations.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from mcpforge.diagnostics import Diagnostics, Effect
from mcpforge.errors import NoOperationsError
from mcpforge.schema.openapi import Direction, SchemaConverter
from mcpforge.spec import swagger2
from mcpforge.spec.bodies import BodyParser
from mcpforge.spec.common import Skip, obj, text
from mcpforge.spec.load import SpecDocument
from mcpforge.spec.model import (
    HTTP_METHODS,
    ApiSpec,
    Dialect,
    HttpMethod,
    JsonSchema,
    OAuthFlow,
    Operation,
    Parameter,
    RequestBody,
    SecurityRequirement,
    SecurityScheme,
    Server,
    ServerVariable,
)
from mcpforge.spec.refs import join_pointer

__all__ = ["parse_spec"]

_LOCATIONS = ("path", "query", "header", "cookie")
_TEMPLATE_VAR = re.compile(r"{([^{}/]+)}")
_DEFAULT_STYLE = {"path": "simple", "header": "simple", "query": "form", "cookie": "form"}


class _Parser(BodyParser):
    def __init__(self, document: SpecDocument, diags: Diagnostics) -> None:
        self.doc = document
        self.root = document.root
        self.resolver = document.resolver
        self.dialect = document.dialect
        self.diags = diags
        self.schemas = SchemaConverter(document.resolver, document.dialect)
        self.swagger = document.dialect is Dialect.SWAGGER_20

    # -- helpers ------------------------------------------------------------------------------

    def follow(self, node: Any, pointer: str) -> tuple[Any, str, str]:
        return self.resolver.follow(node, "", where=pointer)

    def schema(self, node: Any, doc: str, pointer: str, direction: Direction) -> JsonSchema:
        return self.schemas.convert(node, doc=doc, pointer=pointer, direction=direction)

    # -- document level -----------------------------------------------------------------------

    def parse(self) -> ApiSpec:
        info = obj(self.root.get("info"))
        servers = swagger2.servers(self.root) if self.swagger else self.servers(self.root.get("servers"), "/servers")
        schemes = swagger2.security_schemes(self.root) if self.swagger else self.security_schemes()
        global_security = self.security(self.root.get("security"), "/security", schemes) or ()
        operations = self.operations(servers, global_security, schemes)
        if not operations:
            extra = " (it only describes webhooks)" if self.root.get("webhooks") else ""
            raise NoOperationsError(
                f"{self.doc.source_name} defines no operations{extra}",
                location="/paths",
                hint="mcpforge turns the operations under 'paths' into tools",
            )
        for pointer, message in self.schemas.problems:
            self.diags.warn("schema-loosened", message, effect=Effect.DEGRADED, pointer=pointer)
        return ApiSpec(
            title=text(info.get("title")) or "API",
            version=str(info.get("version", "")),
            description=text(info.get("description")),
            dialect=self.dialect,
            spec_version=self.doc.spec_version,
            servers=servers,
            operations=tuple(operations),
            security_schemes=schemes,
            defs=self.schemas.definitions(),
            source_name=self.doc.source_name,
        )

    def servers(self, raw: Any, pointer: str) -> tuple[Server, ...]:
        if not isinstance(raw, list):
            return ()
        result = []
        for i, node in enumerate(raw):
            if not isinstance(node, dict) or not isinstance(node.get("url"), str):
                self.diags.warn(
                    "invalid-server", "server entry without a 'url' ignored", pointer=join_pointer(pointer, i)
                )
                continue
            variables = []
            raw_vars = obj(node.get("variables"))
            for name, var in raw_vars.items():
                if isinstance(var, dict):
                    enum = tuple(str(v) for v in var.get("enum") or [] if v is not None)
                    default = var.get("default", enum[0] if enum else "")
                    variables.append(
                        ServerVariable(
                            name=str(name), default=str(default), enum=enum, description=text(var.get("description"))
                        )
                    )
            result.append(
                Server(url=node["url"], description=text(node.get("description")), variables=tuple(variables))
            )
        return tuple(result)

    def security_schemes(self) -> dict[str, SecurityScheme]:
        components = obj(self.root.get("components"))
        raw = obj(components.get("securitySchemes"))
        result: dict[str, SecurityScheme] = {}
        for key, raw_node in raw.items():
            pointer = join_pointer("/components/securitySchemes", key)
            node, _, _ = self.follow(raw_node, pointer)
            if not isinstance(node, dict) or not isinstance(node.get("type"), str):
                self.diags.warn(
                    "invalid-security-scheme", f"security scheme {key!r} has no type; ignored", pointer=pointer
                )
                continue
            flows = []
            raw_flows = obj(node.get("flows"))
            for kind, flow in raw_flows.items():
                if isinstance(flow, dict):
                    scopes = obj(flow.get("scopes"))
                    flows.append(
                        OAuthFlow(
                            kind=str(kind),
                            token_url=text(flow.get("tokenUrl")),
                            authorization_url=text(flow.get("authorizationUrl")),
                            refresh_url=text(flow.get("refreshUrl")),
                            scopes=tuple(str(s) for s in scopes),
                        )
                    )
            scheme = node.get("scheme")
            result[key] = SecurityScheme(
                key=key,
                type=node["type"],
                scheme=scheme.lower() if isinstance(scheme, str) else None,
                location=text(node.get("in")),
                param_name=text(node.get("name")),
                bearer_format=text(node.get("bearerFormat")),
                flows=tuple(flows),
                open_id_connect_url=text(node.get("openIdConnectUrl")),
                description=text(node.get("description")),
            )
        return result

    def security(
        self, raw: Any, pointer: str, schemes: Mapping[str, SecurityScheme], label: str | None = None
    ) -> tuple[SecurityRequirement, ...] | None:
        if not isinstance(raw, list):
            return None
        result = []
        for i, requirement in enumerate(raw):
            if not isinstance(requirement, dict):
                continue
            entries = []
            for key, scopes in requirement.items():
                if key not in schemes:
                    self.diags.warn(
                        "unknown-security-scheme",
                        f"security requirement names unknown scheme {key!r}",
                        operation=label,
                        pointer=join_pointer(pointer, i),
                    )
                    continue
                entries.append((str(key), tuple(str(s) for s in scopes or [] if isinstance(s, str))))
            result.append(SecurityRequirement(schemes=tuple(entries)))
        return tuple(result)

    # -- operations ---------------------------------------------------------------------------

    def operations(
        self,
        servers: tuple[Server, ...],
        global_security: tuple[SecurityRequirement, ...],
        schemes: Mapping[str, SecurityScheme],
    ) -> list[Operation]:
        paths = self.root.get("paths")
        if not isinstance(paths, dict):
            return []
        result = []
        for path, raw_item in paths.items():
            item_pointer = join_pointer("/paths", path)
            item, _, _ = self.follow(raw_item, item_pointer)
            if not isinstance(item, dict):
                self.diags.warn("invalid-path-item", "path item is not an object; ignored", pointer=item_pointer)
                continue
            path_servers = self.servers(item.get("servers"), join_pointer(item_pointer, "servers")) or servers
            for method in HTTP_METHODS:
                if method not in item:
                    continue
                pointer = join_pointer(item_pointer, method)
                label = f"{method.upper()} {path}"
                try:
                    result.append(
                        self.operation(str(path), method, item, pointer, path_servers, global_security, schemes)
                    )
                except Skip as skip:
                    self.diags.warn(
                        skip.code, skip.message, effect=Effect.SKIPPED, operation=label, pointer=skip.pointer
                    )
        return result

    def operation(
        self,
        path: str,
        method: HttpMethod,
        item: Mapping[str, Any],
        pointer: str,
        servers: tuple[Server, ...],
        global_security: tuple[SecurityRequirement, ...],
        schemes: Mapping[str, SecurityScheme],
    ) -> Operation:
        node = item[method]
        if not isinstance(node, dict):
            raise Skip("invalid-operation", "operation is not an object", pointer)
        op_id = node.get("operationId")
        label = f"{method.upper()} {path}" + (f" ({op_id})" if isinstance(op_id, str) and op_id else "")
        if op_id is not None and not (isinstance(op_id, str) and op_id.strip()):
            self.diags.warn(
                "invalid-operation-id",
                "operationId is not a non-empty string; named from the path",
                operation=label,
                pointer=join_pointer(pointer, "operationId"),
            )
            op_id = None
        consumes = self._media_list(node.get("consumes", self.root.get("consumes")))
        produces = self._media_list(node.get("produces", self.root.get("produces")))
        parameters, body = self.parameters(path, item, node, pointer, label, consumes)
        if not self.swagger:
            body = self.request_body(node.get("requestBody"), join_pointer(pointer, "requestBody"), label)
        security = self.security(node.get("security"), join_pointer(pointer, "security"), schemes, label)
        tags = (
            tuple(t for t in node.get("tags") or [] if isinstance(t, str)) if isinstance(node.get("tags"), list) else ()
        )
        op_servers = self.servers(node.get("servers"), join_pointer(pointer, "servers")) or servers
        return Operation(
            method=method,
            path=path,
            operation_id=op_id,
            summary=text(node.get("summary")),
            description=text(node.get("description")),
            tags=tags,
            deprecated=node.get("deprecated") is True,
            parameters=parameters,
            request_body=body,
            responses=self.responses(node.get("responses"), join_pointer(pointer, "responses"), produces),
            security=security if security is not None else global_security,
            servers=op_servers,
            pointer=pointer,
            extensions={k: v for k, v in node.items() if isinstance(k, str) and k == "x-mcp"},
        )

    @staticmethod
    def _media_list(raw: Any) -> list[str]:
        return [m for m in raw if isinstance(m, str)] if isinstance(raw, list) else []

    def parameters(
        self, path: str, item: Mapping[str, Any], node: Mapping[str, Any], pointer: str, label: str, consumes: list[str]
    ) -> tuple[tuple[Parameter, ...], RequestBody | None]:
        merged: dict[tuple[str, str], tuple[Mapping[str, Any], str, str]] = {}
        item_pointer = pointer.rsplit("/", 1)[0]
        for raw_list, base in ((item.get("parameters"), item_pointer), (node.get("parameters"), pointer)):
            if not isinstance(raw_list, list):
                continue
            for i, raw in enumerate(raw_list):
                at = join_pointer(base, "parameters", i)
                param, doc, target = self.follow(raw, at)
                if (
                    not isinstance(param, dict)
                    or not isinstance(param.get("name"), str)
                    or param.get("in") not in (*_LOCATIONS, "body", "formData")
                ):
                    self.diags.warn(
                        "invalid-parameter",
                        "parameter without a valid 'name' and 'in' ignored",
                        effect=Effect.DEGRADED,
                        operation=label,
                        pointer=at,
                    )
                    continue
                merged[(param["name"], param["in"])] = (param, doc, at if target == at else target)
        params: list[Parameter] = []
        body_params: list[tuple[Mapping[str, Any], str, str]] = []
        form_params: list[tuple[Mapping[str, Any], str, str]] = []
        for (_, location), (param, doc, at) in merged.items():
            if location == "body":
                body_params.append((param, doc, at))
            elif location == "formData":
                form_params.append((param, doc, at))
            else:
                params.append(self.parameter(param, doc, at, label))
        declared = {p.name for p in params if p.location == "path"}
        for name in dict.fromkeys(_TEMPLATE_VAR.findall(path)):
            if name not in declared:
                self.diags.warn(
                    "undeclared-path-parameter",
                    f"path parameter {{{name}}} is not declared; it is " "accepted as a string",
                    effect=Effect.DEGRADED,
                    operation=label,
                    pointer=pointer,
                )
                params.append(
                    Parameter(name=name, location="path", required=True, schema={"type": "string"}, pointer=pointer)
                )
        body = self._swagger_body(body_params, form_params, consumes, label, pointer) if self.swagger else None
        return tuple(params), body

    def parameter(self, param: Mapping[str, Any], doc: str, at: str, label: str) -> Parameter:
        location = param["in"]
        style = str(param["style"]) if isinstance(param.get("style"), str) else _DEFAULT_STYLE[location]
        explode = param["explode"] if isinstance(param.get("explode"), bool) else style == "form"
        content_type = None
        if self.swagger:
            raw_schema: Any = swagger2.inline_schema(param)
            fmt = param.get("collectionFormat", "csv")
            if param.get("type") == "array":
                style, explode = swagger2.COLLECTION_FORMATS.get(str(fmt), ("form", False))
            schema = self.schema(raw_schema, doc, at, Direction.REQUEST)
        elif "schema" in param:
            schema = self.schema(param["schema"], doc, join_pointer(at, "schema"), Direction.REQUEST)
        elif isinstance(param.get("content"), Mapping) and param["content"]:
            content_type, media = next(iter(param["content"].items()))
            media_schema = media.get("schema", {}) if isinstance(media, dict) else {}
            schema = self.schema(
                media_schema, doc, join_pointer(at, "content", content_type, "schema"), Direction.REQUEST
            )
        else:
            self.diags.warn(
                "parameter-without-schema",
                f"parameter {param['name']!r} has no schema; any string " "is accepted",
                effect=Effect.DEGRADED,
                operation=label,
                pointer=at,
            )
            schema = {"type": "string"}
        description = text(param.get("description"))
        return Parameter(
            name=param["name"],
            location=location,
            required=location == "path" or param.get("required") is True,
            schema=schema,
            description=description,
            style=style,
            explode=explode,
            allow_reserved=param.get("allowReserved") is True,
            deprecated=param.get("deprecated") is True,
            content_type=content_type,
            pointer=at,
        )


def parse_spec(document: SpecDocument, diags: Diagnostics) -> ApiSpec:
    """Build the typed model of every operation in the document."""
    return _Parser(document, diags).parse()
