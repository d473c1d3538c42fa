"""The generated project: mcpforge's runtime copied, the tools as data, and templates for what varies.

Spec text reaches generated code only as data: tool definitions, paths and descriptions live in
``tools.json``; templates receive precomputed names (ASCII identifiers) and text that passes
through an escaping filter for the file type (TOML strings, Markdown, Python comments). The
templates themselves are rendered by :mod:`mcpforge.project.templates` from :func:`project_parts`'s
context.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import urlsplit

import orjson

from mcpforge.diagnostics import Diagnostic, Diagnostics, Effect
from mcpforge.project import PACKAGE_DIR
from mcpforge.project.escape import comment
from mcpforge.project.files import RenderedFile, SharedParts, dump_compact, encode, manifest_file
from mcpforge.runtime.contract import SEARCH_FILE, ServerConfig, ToolsFile
from mcpforge.runtime.observe.tracing import TRACING_VARIABLES
from mcpforge.runtime.results.tokens import estimate_tokens
from mcpforge.runtime.settings.schemes import per_user_headers
from mcpforge.runtime.settings.table import documented
from mcpforge.targets import MANIFESTS
from mcpforge.targets.budget import Budget
from mcpforge.targets.deferred import Namespace
from mcpforge.targets.manifests import provider_manifests
from mcpforge.targets.openai import with_parameters
from mcpforge.targets.runtime import runtime_contract
from mcpforge.targets.search import search_file
from mcpforge.tools.model import ToolSet

__all__ = [
    "README_TOOLS_MAX",
    "ProjectParts",
    "manifest_files",
    "project_parts",
    "render_project",
    "runtime_files",
    "runtime_sources",
]


# Past this many tools the README points to TOOLS.md for their table: a front page, not a catalogue
# (Microsoft Graph's 11,412 rows made a README of 2.7 MB and 12,000 lines).
README_TOOLS_MAX = 300


def _toolsets(budget: Budget) -> list[dict[str, Any]]:
    return [
        {"name": name, "tools": count, "bytes": f"{size:,}", "tokens": f"{estimate_tokens(size):,}"}
        for name, (count, size) in budget.by_toolset().items()
    ]


def runtime_files(package: str) -> list[RenderedFile]:
    """mcpforge's runtime modules, copied byte for byte into the generated package."""
    return [RenderedFile.of_text(f"src/{package}/{name}", source) for name, source in runtime_sources()]


@cache
def runtime_sources() -> tuple[tuple[str, str], ...]:
    """``(path, source)`` of every runtime module that is copied, its folders kept (all but the top ``__init__.py``)."""
    root = PACKAGE_DIR / "runtime"
    paths = sorted(entry.relative_to(root).as_posix() for entry in root.rglob("*.py"))
    return tuple((path, (root / path).read_text(encoding="utf-8")) for path in paths if path != "__init__.py")


def _settings_rows(config: ServerConfig) -> list[dict[str, Any]]:
    return [
        {"variable": variable, "default": default, "help": text, "secret": secret}
        for variable, default, text, secret in documented(config)
    ]


def _contract_data(contract: ToolsFile, encoded_tools: Sequence[bytes] | None) -> bytes:
    if encoded_tools is None:
        return dump_compact(contract)
    tools = [
        {**entry, "tool": orjson.Fragment(line)} for entry, line in zip(contract["tools"], encoded_tools, strict=True)
    ]
    return dump_compact({**contract, "tools": tools})


@dataclass(frozen=True, slots=True)
class ProjectParts:
    """The generated project but its templated files: their context, and the files made without templates."""

    context: dict[str, Any]  # what the templates are rendered from (:mod:`mcpforge.project.templates`)
    files: list[RenderedFile]  # tools.json and the runtime's modules


def project_parts(
    toolset: ToolSet,
    diagnostics: Sequence[Diagnostic],
    *,
    project_name: str | None = None,
    mode: str = "tools",
    budget: Budget | None = None,
    encoded_tools: Sequence[bytes] | None = None,
    version: str = "0.1.0",
) -> ProjectParts:
    """The templates' context, and the project's files made without templates (not the manifests, not the lock).

    ``encoded_tools`` (each MCP tool as compact JSON, in the tool set's order) go into ``tools.json``
    as they are, instead of being encoded a second time.

    The manifests are package data too (``pyproject.toml`` maps ``manifests/`` into the wheel):
    the agent helpers and the OpenAI bridge serve them.
    """
    names = toolset.api.project_names(project_name)
    contract = runtime_contract(toolset, names, mode=mode)
    config = contract["server"]
    skipped = [
        {"operation": d.operation or d.pointer or "", "message": d.message}
        for d in diagnostics
        if d.effect is Effect.SKIPPED
    ]
    absolute = _absolute(config["baseUrl"])
    context = {
        "title": toolset.api.title,
        "api_version": toolset.api.version,
        "source_name": toolset.api.source_name,
        "package": names.package,
        "dist_name": names.dist,
        "command": names.command,
        "prefix": names.env_prefix,
        "version": version,
        "description": f"MCP server for {comment(toolset.api.title)}",
        "base_url": config["baseUrl"] if absolute else "https://api.example.com",
        "base_url_absolute": absolute,
        "title_comment": comment(toolset.api.title),
        "source_comment": comment(toolset.api.source_name),
        "settings": _settings_rows(config),
        "tracing_variables": [{"variable": name, "help": text} for name, text in TRACING_VARIABLES],
        "user_headers": [
            {"variable": variable, "header": header}
            for variable, header in per_user_headers(config["securitySchemes"], ["all"]).items()
        ],
        # Schemes users sign in to (authorization code): the README explains how to turn it on.
        "sign_in": [
            {"scheme": comment(key), "client_id": scheme["env"]["clientId"], "secret": scheme["env"]["clientSecret"]}
            for key, scheme in config["securitySchemes"].items()
            if "signIn" in scheme
        ],
        "tools": [
            {
                "name": t.name,
                "method": t.operation.http_method,
                "path": t.operation.path,
                "description": t.description,
            }
            for t in toolset.tools
        ],
        "tools_file": "TOOLS.md" if len(toolset.tools) > README_TOOLS_MAX else "",
        "skipped": skipped,
        "toolsets": _toolsets(budget) if budget else [],
        "total_bytes": f"{budget.total_bytes:,}" if budget else "?",
        "total_tokens": f"{budget.total_tokens:,}" if budget else "?",
        "mode": mode,
    }
    package = f"src/{names.package}"
    return ProjectParts(
        context,
        [
            # Package data, read at every start: compact (the manifests are the human-readable copies).
            RenderedFile(f"{package}/tools.json", _contract_data(contract, encoded_tools)),
            RenderedFile(f"{package}/{SEARCH_FILE}", dump_compact(search_file(toolset))),
            *runtime_files(names.package),
        ],
    )


def render_project(parts: ProjectParts) -> list[RenderedFile]:
    """The project's files (see :func:`project_parts`), its templates rendered here.

    Python rendered from templates is black-clean by construction (its only per-API values are
    comment-filtered ASCII words); tests/unit/test_render.py checks it with black.
    """
    from mcpforge.project.templates import render_templates  # noqa: PLC0415 - Jinja only where it renders

    return [*(RenderedFile.of_text(path, text) for path, text in render_templates(parts.context)), *parts.files]


def _absolute(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def manifest_files(
    tools: list[dict[str, Any]],
    diags: Diagnostics,
    *,
    description_max: int | None = None,
    namespaces: Sequence[Namespace] | None = None,
) -> tuple[list[RenderedFile], int]:
    """Every provider manifest's file, and how many tools are strict in OpenAI's strict manifests.

    ``description_max``: the argument description limit, which notes a format adds keep to;
    ``namespaces``: the tools by toolset, when the deferred manifests are written.
    """
    # Each manifest's objects go as soon as it is encoded: they and its bytes never all coexist. Chat
    # and Responses share each tool's parameters (one form plain, one strict): encoded once per form,
    # and a form's encodings go once its two manifests are written.
    strict_of = {m.name: m.strict for m in MANIFESTS}
    shared, sharing = SharedParts(), False
    files, strict_capable = [], 0
    for name, manifest in provider_manifests(tools, diags, description_max=description_max, namespaces=namespaces):
        if strict_of[name] != sharing:
            shared, sharing = SharedParts(), strict_of[name]
        if name == "openai-chat-strict":
            strict_capable = sum(1 for tool in manifest if tool["function"]["strict"])
        files.append(manifest_file(f"manifests/{name}.json", (encode(with_parameters(t, shared)) for t in manifest)))
    return files, strict_capable
