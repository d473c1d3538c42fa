"""The generated project: a small runtime rendered from templates, and the tools as data.

Spec text reaches generated code only as data: tool definitions, paths and descriptions live in
``tools.json``; templates receive precomputed names (ASCII identifiers) and text that passes
through an escaping filter for the file type (TOML strings, Markdown, Python comments).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import jinja2

from mcpforge.budget import Budget, estimate_tokens
from mcpforge.diagnostics import Diagnostic, Effect
from mcpforge.naming import ProjectNames, credential_env_names, project_names, toolsets_of
from mcpforge.render.files import RenderedFile, dump_compact
from mcpforge.render.python import format_python
from mcpforge.spec.model import SecurityScheme
from mcpforge.targets.mcp import mcp_tool
from mcpforge.text import bounded
from mcpforge.tools.model import ToolSet

__all__ = ["render_project", "server_data"]

_DOCSTRING_VALUES = ("package_doc", "package", "api_title_comment")
_PYTHON_TEMPLATES = (
    "__init__.py",
    "__main__.py",
    "server.py",
    "runtime.py",
    "http.py",
    "redact.py",
    "dynamic.py",
    "agents.py",
    "bridge.py",
)


def _templates_dir() -> Path:
    packaged = Path(str(files("mcpforge"))) / "templates"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / "templates"  # a source checkout


def _md(value: Any) -> str:
    """Text safe inside a Markdown table cell: one line, no HTML, no cell breaks."""
    text = re.sub(r"\s+", " ", str(value)).strip()
    text = text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("`", "'")


def _toml(value: Any) -> str:
    """A TOML basic string."""
    return json.dumps(str(value), ensure_ascii=False).replace("\x7f", "\\u007f")


def _json(value: Any) -> str:
    """A JSON string literal that cannot close a Markdown code fence or an HTML element."""
    return json.dumps(str(value)).replace("`", "\\u0060").replace("<", "\\u003c").replace(">", "\\u003e")


def _comment(value: Any) -> str:
    """Text safe in a Python docstring or comment: printable ASCII letters, digits, simple punctuation."""
    text = re.sub(r"[^A-Za-z0-9 ,.:;()/_+-]+", " ", str(value))
    return bounded(text, 80) or "an API"


@cache
def _environment() -> jinja2.Environment:
    # No HTML autoescaping: the output is Python, TOML and Markdown, each escaped by its own filter.
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_templates_dir())),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,  # noqa: S701
    )
    env.filters.update(md=_md, toml=_toml, comment=_comment, json=_json)
    return env


def _scheme_config(scheme: SecurityScheme, names: ProjectNames, scopes: Sequence[str]) -> dict[str, Any]:
    config: dict[str, Any] = {"type": scheme.type}
    if scheme.type == "apiKey":
        config |= {
            "in": scheme.location or "header",
            "name": scheme.param_name or scheme.key,
            "env": credential_env_names(names.env_prefix, scheme.key, ["apiKey"]),
        }
    elif scheme.type == "http" and scheme.scheme == "basic":
        config |= {
            "scheme": "basic",
            "env": credential_env_names(names.env_prefix, scheme.key, ["username", "password"]),
        }
    elif scheme.type == "oauth2":
        flow = next((f for f in scheme.flows if f.kind == "clientCredentials" and f.token_url), None)
        kinds = ["token", "clientId", "clientSecret"] if flow else ["token"]
        config["env"] = credential_env_names(names.env_prefix, scheme.key, kinds)
        if flow:
            config |= {
                "tokenUrl": flow.token_url,
                "scopes": list(scopes),
                "optionalEnv": credential_env_names(names.env_prefix, scheme.key, ["tokenUrl"]),
            }
    else:
        config |= {
            "scheme": scheme.scheme or "bearer",
            "env": credential_env_names(names.env_prefix, scheme.key, ["token"]),
        }
    return config


_VAR_TEXT = {
    "apiKey": "API key for `{key}` (sent in {where} `{name}`)",
    "username": "user name for `{key}` (HTTP basic)",
    "password": "password for `{key}` (HTTP basic)",
    "token": "access token for `{key}` (sent as a bearer token)",
    "clientId": "OAuth2 client id for `{key}` (client credentials flow)",
    "clientSecret": "OAuth2 client secret for `{key}`",
    "tokenUrl": "override of the OAuth2 token URL for `{key}` (default: `{token_url}`)",
}


def server_data(toolset: ToolSet, names: ProjectNames) -> dict[str, Any]:
    """The generated server's data file: configuration, and every tool with its bindings."""
    api = toolset.api
    used: dict[str, list[str]] = {}
    for tool in toolset.tools:
        for requirement in tool.operation.security:
            for key, scopes in requirement.schemes:
                used.setdefault(key, [])
                used[key].extend(s for s in scopes if s not in used[key])
    schemes = {
        key: _scheme_config(api.security_schemes[key], names, scopes)
        for key, scopes in used.items()
        if key in api.security_schemes
    }
    tools = []
    for tool in toolset.tools:
        op = tool.operation
        tools.append(
            {
                "tool": mcp_tool(tool),
                "method": op.method.upper(),
                "path": op.path,
                "tags": list(op.tags),
                "toolsets": toolsets_of(op.tags),
                "bindings": [b.to_dict() for b in tool.bindings],
                "security": [[[key, list(scopes)] for key, scopes in r.schemes if key in schemes] for r in op.security],
                "outputWrapped": tool.output_wrapped,
            }
        )
    server = {
        "name": names.dist,
        "title": api.title,
        "version": api.version or "0",
        "command": names.command,
        "envPrefix": names.env_prefix,
        "baseUrl": api.servers[0].default_url() if api.servers else "",
        "instructions": bounded(api.description, 1000) if api.description else None,
        "securitySchemes": schemes,
    }
    return {"server": server, "tools": tools}


def _credential_vars(schemes: Mapping[str, Any]) -> list[dict[str, str]]:
    result = []
    for key, scheme in schemes.items():
        for kind, var in [*scheme["env"].items(), *scheme.get("optionalEnv", {}).items()]:
            text = _VAR_TEXT[kind].format(
                key=key,
                where=scheme.get("in", "header"),
                name=scheme.get("name", ""),
                token_url=scheme.get("tokenUrl", ""),
            )
            result.append({"name": var, "comment": text})
    return result


def _toolsets(budget: Budget) -> list[dict[str, Any]]:
    return [
        {"name": name, "tools": count, "bytes": f"{size:,}", "tokens": f"{estimate_tokens(size):,}"}
        for name, (count, size) in budget.by_toolset().items()
    ]


def render_project(
    toolset: ToolSet,
    diagnostics: Sequence[Diagnostic],
    *,
    project_name: str | None = None,
    dynamic: bool = False,
    budget: Budget | None = None,
) -> list[RenderedFile]:
    """Every file of the generated project except the manifests and the lock file.

    The manifests are package data too (``pyproject.toml`` maps ``manifests/`` into the wheel):
    the agent helpers and the OpenAI bridge serve them.
    """
    names = project_names(toolset.api.title, project_name)
    data = server_data(toolset, names)
    data["server"]["dynamic"] = dynamic
    server = data["server"]
    skipped = [
        {"operation": d.operation or d.pointer or "", "message": d.message}
        for d in diagnostics
        if d.effect is Effect.SKIPPED
    ]
    context = {
        "title": toolset.api.title,
        "api_version": toolset.api.version,
        "source_name": toolset.api.source_name,
        "package": names.package,
        "dist_name": names.dist,
        "command": names.command,
        "prefix": names.env_prefix,
        "version": "0.1.0",
        "description": f"MCP server for {_comment(toolset.api.title)}",
        "base_url": server["baseUrl"] or "(none: set it)",
        "base_url_comment": _comment(server["baseUrl"] or "none"),
        "api_title_comment": _comment(toolset.api.title),
        "package_doc": f"MCP server for {_comment(toolset.api.title)}.",
        "credential_vars": _credential_vars(server["securitySchemes"]),
        "tools": [
            {
                "name": t.name,
                "method": t.operation.method.upper(),
                "path": t.operation.path,
                "description": t.description,
            }
            for t in toolset.tools
        ],
        "skipped": skipped,
        "toolsets": _toolsets(budget) if budget else [],
        "total_bytes": f"{budget.total_bytes:,}" if budget else "?",
        "total_tokens": f"{budget.total_tokens:,}" if budget else "?",
        "dynamic": dynamic,
    }
    env = _environment()
    rendered = [
        RenderedFile("pyproject.toml", env.get_template("pyproject.toml.jinja").render(context)),
        RenderedFile("README.md", env.get_template("README.md.jinja").render(context)),
        RenderedFile(".env.example", env.get_template("env.example.jinja").render(context)),
        # Package data, read at every start: compact (the manifests are the human-readable copies).
        RenderedFile(f"src/{names.package}/tools.json", dump_compact(data)),
    ]
    # Python templates use spec-derived values only inside docstrings: they are formatted with
    # placeholders (so black's on-disk cache serves every API) and the values put in afterwards.
    values = {key: str(context[key]) for key in _DOCSTRING_VALUES}
    placeholders = {key: f"MCPFORGE_{key.upper()}_VALUE" for key in _DOCSTRING_VALUES}
    for name in _PYTHON_TEMPLATES:
        source = format_python(env.get_template(f"package/{name}.jinja").render(context | placeholders))
        for key, placeholder in placeholders.items():
            source = source.replace(placeholder, values[key])
        rendered.append(RenderedFile(f"src/{names.package}/{name}", source))
    # One implementation of provider tool-call execution: mcpforge's own client module, copied.
    shared = files("mcpforge.client").joinpath("toolcalls.py").read_text(encoding="utf-8")
    rendered.append(RenderedFile(f"src/{names.package}/toolcalls.py", shared))
    return rendered
