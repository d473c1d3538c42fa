"""The runtime target: ``tools.json``, the typed contract the generated server reads (:mod:`mcpforge.runtime.contract`).

This is the one place that derives, from the tool set, what the server needs at run time: the
security schemes the tools use with the environment variables of their credentials, and each
tool's MCP definition, HTTP method and path, toolsets and argument bindings.
"""

from __future__ import annotations

from collections.abc import Sequence

from mcpforge.openapi.model import SecurityScheme
from mcpforge.runtime.contract import (
    FORMAT_VERSION,
    Binding,
    SchemeConfig,
    ServerConfig,
    SignInFlow,
    ToolEntry,
    ToolsFile,
)
from mcpforge.targets.mcp import mcp_tool
from mcpforge.text.names import ProjectNames, credential_env_names
from mcpforge.text.prose import bounded
from mcpforge.tools.model import ToolSet

__all__ = ["runtime_contract"]


def _scheme_config(scheme: SecurityScheme, prefix: str, scopes: Sequence[str]) -> SchemeConfig:
    if scheme.type == "apiKey":
        return {
            "type": "apiKey",
            "in": scheme.location or "header",
            "name": scheme.param_name or scheme.key,
            "env": credential_env_names(prefix, scheme.key, ["apiKey"]),
        }
    if scheme.type == "http" and scheme.scheme == "basic":
        return {
            "type": "http",
            "scheme": "basic",
            "env": credential_env_names(prefix, scheme.key, ["username", "password"]),
        }
    if scheme.type == "oauth2":
        config: SchemeConfig = {"type": "oauth2", "env": credential_env_names(prefix, scheme.key, ["token"])}
        optional: list[str] = []
        client = next((f for f in scheme.flows if f.kind == "clientCredentials" and f.token_url), None)
        if client is not None and client.token_url is not None:
            config["tokenUrl"] = client.token_url
            config["scopes"] = list(scopes)
            optional.append("tokenUrl")
        code = next((f for f in scheme.flows if f.kind == "authorizationCode" and f.token_url), None)
        if code is not None and code.token_url is not None and code.authorization_url:
            flow: SignInFlow = {
                "authorizationUrl": code.authorization_url,
                "tokenUrl": code.token_url,
                "scopes": list(scopes),
            }
            if code.refresh_url:
                flow["refreshUrl"] = code.refresh_url
            if scheme.metadata_url:
                flow["metadataUrl"] = scheme.metadata_url
            config["signIn"] = flow
            optional[:0] = ["authorizationUrl"] if "tokenUrl" in optional else ["authorizationUrl", "tokenUrl"]
        if optional:
            # One call for every variable: a collision with a server setting renames them all alike.
            kinds = ["token", "clientId", "clientSecret"]
            names = credential_env_names(prefix, scheme.key, [*kinds, *optional])
            config["env"] = {kind: names[kind] for kind in kinds}
            config["optionalEnv"] = {kind: names[kind] for kind in optional}
        return config
    # http bearer (and other http schemes), openIdConnect: a bearer token from the environment
    return {
        "type": scheme.type,
        "scheme": scheme.scheme or "bearer",
        "env": credential_env_names(prefix, scheme.key, ["token"]),
    }


def runtime_contract(toolset: ToolSet, names: ProjectNames, *, mode: str = "tools") -> ToolsFile:
    """The generated server's data file: configuration, and every tool with its bindings."""
    api = toolset.api
    used: dict[str, list[str]] = {}
    for tool in toolset.tools:
        for requirement in tool.operation.security:
            for key, scopes in requirement.schemes:
                used.setdefault(key, [])
                used[key].extend(s for s in scopes if s not in used[key])
    schemes = {
        key: _scheme_config(api.security_schemes[key], names.env_prefix, scopes)
        for key, scopes in used.items()
        if key in api.security_schemes
    }
    tools: list[ToolEntry] = []
    for tool in toolset.tools:
        op = tool.operation
        bindings: list[Binding] = [binding.to_contract() for binding in tool.bindings]
        entry: ToolEntry = {
            "tool": mcp_tool(tool),
            "method": op.http_method,
            "path": op.path,
            "tags": list(op.tags),
            "toolsets": list(tool.toolsets),
            "bindings": bindings,
            "security": [[[key, list(scopes)] for key, scopes in r.schemes if key in schemes] for r in op.security],
            "outputWrapped": tool.output_wrapped,
        }
        if tool.select_arg is not None:
            entry["select"] = tool.select_arg
        if tool.page_url_arg is not None:
            entry["pageUrl"] = tool.page_url_arg
        if tool.accept:
            entry["accept"] = tool.accept
        tools.append(entry)
    server: ServerConfig = {
        "name": names.dist,
        "title": api.title,
        "version": api.version or "0",
        "command": names.command,
        "envPrefix": names.env_prefix,
        "baseUrl": api.servers[0].default_url() if api.servers else "",
        "instructions": bounded(api.description, 1000) if api.description else None,
        "securitySchemes": schemes,
        "mode": mode,
    }
    return {"formatVersion": FORMAT_VERSION, "server": server, "tools": tools}
