"""The pipeline in one call: load -> validate -> parse -> build -> render (nothing is written here)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mcpforge import __version__
from mcpforge.budget import Budget, BudgetLimits, budget_problems, measure
from mcpforge.convert import chat_to_responses, to_anthropic, to_gemini
from mcpforge.diagnostics import Diagnostic, Diagnostics, Effect, Severity
from mcpforge.errors import SpecValidationError
from mcpforge.naming import project_names, toolsets_of
from mcpforge.options import BuildOptions, ValidationLevel
from mcpforge.render.files import RenderedFile, encode_each, json_file, manifest_file
from mcpforge.render.project import render_project
from mcpforge.render.write import LOCK_FILE
from mcpforge.spec.load import SpecDocument, load_document
from mcpforge.spec.parse import parse_spec
from mcpforge.spec.validate import basic_problems, full_problems
from mcpforge.targets.lint import MANIFEST_FILES, lint_manifest
from mcpforge.targets.mcp import mcp_tools
from mcpforge.targets.openai import chat_tool_pair
from mcpforge.tools.build import build_tools
from mcpforge.tools.model import ToolSet
from mcpforge.tools.select import operation_key

__all__ = ["GenerateOptions", "GenerationResult", "Progress", "generate", "load_and_build"]

Progress = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class GenerateOptions:
    """Everything one ``mcpforge generate`` run needs."""

    spec: Path
    build: BuildOptions = field(default_factory=BuildOptions)
    validation: ValidationLevel = ValidationLevel.BASIC
    strict: bool = False
    allow_remote_refs: bool = False
    project_name: str | None = None
    dynamic: bool = False
    budget: BudgetLimits = field(default_factory=BudgetLimits)
    reserved_names: Mapping[str, str] = field(default_factory=dict)  # METHOD /path -> name (the lock file)

    def record(self) -> dict[str, Any]:
        """The options that shape the output, as the lock file records them (no paths)."""
        return {
            "build": asdict(self.build),
            "validation": self.validation.value,
            "strict": self.strict,
            "allow_remote_refs": self.allow_remote_refs,
            "project_name": self.project_name,
            "dynamic": self.dynamic,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class GenerationResult:
    """Rendered files plus what happened along the way."""

    files: tuple[RenderedFile, ...]
    toolset: ToolSet
    diagnostics: tuple[Diagnostic, ...]
    spec_sha256: str
    strict_capable: int = 0
    budget: Budget = field(default_factory=lambda: Budget(()))

    @property
    def excluded(self) -> int:
        """Operations left out by selection, overrides or deprecation."""
        return len(self.toolset.excluded)

    @property
    def operation_count(self) -> int:
        """Operations in the document (tools, skipped and excluded operations)."""
        return len(self.toolset.tools) + self.skipped + self.excluded

    @property
    def skipped(self) -> int:
        """Operations that produced no tool."""
        return sum(1 for d in self.diagnostics if d.effect is Effect.SKIPPED)

    @property
    def degraded(self) -> int:
        """Distinct operations generated with something loosened or dropped."""
        return len({d.operation or d.pointer for d in self.diagnostics if d.effect is Effect.DEGRADED})

    @property
    def renamed(self) -> int:
        """Tools whose name differs from their operationId."""
        return sum(1 for d in self.diagnostics if d.effect is Effect.RENAMED)


def _validate(document: SpecDocument, options: GenerateOptions, diags: Diagnostics) -> None:
    if options.validation is ValidationLevel.NONE:
        return
    problems = basic_problems(document)
    if options.validation is ValidationLevel.FULL:
        problems += full_problems(document, options.spec, allow_remote_refs=options.allow_remote_refs)
    if options.strict and problems:
        first = problems[0]
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        raise SpecValidationError(
            f"{first.message}{more}",
            location=first.pointer,
            hint="fix the document, or drop --strict to generate with warnings",
        )
    diags.extend(problems)


def load_and_build(
    options: GenerateOptions, diags: Diagnostics, progress: Progress = _quiet
) -> tuple[SpecDocument, ToolSet]:
    """Load, validate, parse and build the tool set."""
    progress("loading")
    document = load_document(options.spec, allow_remote_refs=options.allow_remote_refs)
    progress("validating")
    _validate(document, options, diags)
    progress("parsing")
    api = parse_spec(document, diags)
    progress("building tools")
    return document, build_tools(api, options.build, diags, reserved=options.reserved_names)


def generate(options: GenerateOptions, progress: Progress = _quiet) -> GenerationResult:
    """Run the whole pipeline in memory and return the files to write."""
    diags = Diagnostics()
    document, toolset = load_and_build(options, diags, progress)
    if options.strict:
        errors = [d for d in diags if d.severity is not Severity.INFO]
        if errors:
            raise SpecValidationError(errors[0].render(), hint="drop --strict to generate with warnings")
    spec_hash = hashlib.sha256(document.raw_bytes).hexdigest()
    if not toolset.tools and toolset.excluded:
        diags.warn(
            "no-tools",
            f"all {len(toolset.excluded)} operations were excluded (deprecated, filtered or x-mcp): "
            "the server has no tools; see include-deprecated and the selection options",
            pointer="/paths",
        )
    _check_servers(toolset, options, diags)
    tools = mcp_tools(toolset)
    encoded_tools = encode_each(tools)  # once: the budget's sizes and the MCP manifest's lines
    budget = measure(tools, [toolsets_of(t.operation.tags) for t in toolset.tools], [len(e) for e in encoded_tools])
    for code, message in budget_problems(budget, options.budget):
        diags.warn(code, message)
    progress("provider manifests")
    manifests, strict_capable = _provider_manifests(tools, diags)
    frozen = diags.freeze()
    progress("rendering")
    files = [
        *render_project(
            toolset,
            frozen,
            project_name=options.project_name,
            dynamic=options.dynamic,
            budget=budget,
        ),
        manifest_file("manifests/mcp-tools.json", encoded_tools),
        *(manifest_file(f"manifests/{name}.json", encode_each(data)) for name, data in manifests.items()),
    ]
    lock = {
        "generator": "mcpforge",
        "version": __version__,
        "spec": {"name": document.source_name, "sha256": spec_hash},
        "options": options.record(),
        "tools": {operation_key(tool.operation): tool.name for tool in toolset.tools},
        "files": sorted([f.path for f in files] + [LOCK_FILE]),  # every file, so a rerun may replace them
    }
    files.append(json_file(LOCK_FILE, lock))
    files.sort(key=lambda f: f.path)
    return GenerationResult(
        files=tuple(files),
        toolset=toolset,
        diagnostics=frozen,
        spec_sha256=spec_hash,
        strict_capable=strict_capable,
        budget=budget,
    )


def _check_servers(toolset: ToolSet, options: GenerateOptions, diags: Diagnostics) -> None:
    """Warn when the server will need its base URL from the environment."""
    servers = toolset.api.servers
    url = servers[0].default_url() if servers else ""
    parts = urlsplit(url)
    if parts.scheme in ("http", "https") and parts.netloc:
        return
    prefix = project_names(toolset.api.title, options.project_name).env_prefix
    found = f"only the relative server URL {url!r}" if url else "no server URL"
    diags.warn(
        "no-server-url",
        f"the document gives {found}: the generated server starts only with {prefix}_BASE_URL set",
        pointer="/servers",
    )


def _provider_manifests(tools: list[dict[str, Any]], diags: Diagnostics) -> tuple[dict[str, list[dict[str, Any]]], int]:
    """OpenAI (Chat and Responses, plain and strict), Anthropic and Gemini manifests."""
    chat: list[dict[str, Any]] = []
    chat_strict: list[dict[str, Any]] = []
    notes = 0
    for tool in tools:
        plain, strict, why = chat_tool_pair(tool)
        chat.append(plain)
        chat_strict.append(strict)
        if why:
            notes += 1
            diags.info("not-strict", f"tool {tool['name']!r} is emitted with strict: false: {why}")
    manifests: dict[str, list[dict[str, Any]]] = {
        "openai-chat": chat,
        "openai-chat-strict": chat_strict,
        # Responses tools are the Chat ones flattened (same parameters, strict kept as decided).
        "openai-responses": chat_to_responses(chat)[0],
        "openai-responses-strict": chat_to_responses(chat_strict)[0],
        "anthropic": to_anthropic(tools)[0],
        "gemini": to_gemini(tools),
    }
    # The strict Chat manifest holds every tool (strict or not) with the parameters the other OpenAI
    # manifests share, and Anthropic's non-strict schemas are the same MCP schemas with roots folded
    # as for OpenAI (and the same name rule): linting it and Gemini's covers all six.
    counts: dict[str, int] = {}
    for name in ("openai-chat-strict", "gemini"):
        for finding in lint_manifest(manifests[name], MANIFEST_FILES[name]):
            if finding.severity == "error":
                diags.warn(
                    f"lint-{finding.code}",
                    f"{name}: {finding.message} (fix: {finding.hint})",
                    operation=finding.tool,
                    pointer=finding.path,
                )
            else:
                counts[f"{name}: {finding.code}"] = counts.get(f"{name}: {finding.code}", 0) + 1
    for key, count in counts.items():
        diags.info("lint-warnings", f"{key}: {count:,} finding(s); run `mcpforge lint` for details")
    return manifests, len(tools) - notes
