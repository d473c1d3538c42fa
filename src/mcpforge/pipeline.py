"""The pipeline: load -> validate -> parse -> build -> targets -> render (nothing is written here).

Each stage is a function of the previous stage's value and the run's :class:`~mcpforge.options.Options`;
commands that need only part of it (``validate``, ``lint SPEC``, ``budget SPEC``) stop early and read
the stage's values, never bytes parsed back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from mcpforge.diagnostics import Diagnostic, Diagnostics, Effect, Severity
from mcpforge.errors import SpecValidationError
from mcpforge.openapi.load import Document, load_document
from mcpforge.openapi.parse import parse_api
from mcpforge.openapi.validate import basic_problems, full_problems, unresolved_refs
from mcpforge.options.model import Options, ValidationLevel
from mcpforge.project.files import RenderedFile, SharedParts, encode, encode_each, manifest_file
from mcpforge.project.lock import Lock, lock_file
from mcpforge.project.project import project_parts, render_project
from mcpforge.runtime.contract import DATA_FILE, ToolsFile, parse_contract
from mcpforge.targets import MANIFESTS
from mcpforge.targets.budget import Budget, budget_problems, measure
from mcpforge.targets.manifests import provider_manifests
from mcpforge.targets.mcp import mcp_tools
from mcpforge.targets.openai import with_parameters
from mcpforge.text.names import project_names, recorded_project_name
from mcpforge.tools.build import build_tools
from mcpforge.tools.model import ToolSet
from mcpforge.tools.select import operation_key

__all__ = [
    "Built",
    "GenerationResult",
    "Progress",
    "Targets",
    "build",
    "check_strict",
    "generate",
    "targets",
]

Progress = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


@dataclass(frozen=True, slots=True)
class Built:
    """The document and the tools built from it."""

    document: Document
    toolset: ToolSet
    spec_sha256: str


@dataclass(frozen=True, slots=True)
class Targets:
    """The tools in every target format, and what they cost a model's context."""

    mcp: list[dict[str, Any]]
    encoded_mcp: list[bytes]  # each MCP tool as compact JSON, encoded once for the budget and the manifest
    budget: Budget


@dataclass(frozen=True, slots=True, kw_only=True)
class GenerationResult:
    """Rendered files plus what happened along the way."""

    files: tuple[RenderedFile, ...]
    toolset: ToolSet
    diagnostics: tuple[Diagnostic, ...]
    spec_sha256: str
    names: Mapping[str, str]  # METHOD /path -> tool name
    mcp: list[dict[str, Any]] = field(default_factory=list)
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


def _validate(document: Document, options: Options, diags: Diagnostics, *, every_ref: bool) -> None:
    if every_ref:  # `validate` lists broken references even where no tool uses them
        diags.extend(unresolved_refs(document))
    if options.validate is ValidationLevel.NONE:
        return
    diags.extend(basic_problems(document))
    if options.validate is ValidationLevel.FULL and options.spec is not None:
        diags.extend(full_problems(document, options.spec, allow_remote_refs=options.allow_remote_refs))


def check_strict(diags: Diagnostics, options: Options) -> None:
    """Under ``--strict``, the first warning (of any stage) is fatal, with the number of the others."""
    if not options.strict:
        return
    problems = [d for d in diags.freeze() if d.severity is not Severity.INFO]
    if problems:
        first = problems[0]
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        where = " ".join(filter(None, [first.operation, first.pointer])) or None
        raise SpecValidationError(
            f"{first.message}{more}",
            location=where,
            hint="fix the document, or drop --strict to generate with warnings",
        )


def project_name(options: Options, previous: Lock | None) -> str | None:
    """The name option, else the name an earlier run gave the output (a default name never changes under it)."""
    return options.name or (recorded_project_name(previous.files) if previous else None)


def _check_servers(toolset: ToolSet, name: str | None, diags: Diagnostics) -> None:
    """Warn when the server will need its base URL from the environment."""
    url = toolset.api.server_url
    parts = urlsplit(url)
    if parts.scheme in ("http", "https") and parts.netloc:
        return
    prefix = project_names(toolset.api.title, name, url).env_prefix
    found = f"only the relative server URL {url!r}" if url else "no server URL"
    diags.warn(
        "no-server-url",
        f"the document gives {found}: the generated server starts only with {prefix}_BASE_URL set",
        pointer="/servers",
    )


def build(
    options: Options,
    diags: Diagnostics,
    *,
    previous: Lock | None = None,
    progress: Progress = _quiet,
    every_ref: bool = False,
) -> Built:
    """Load, validate, parse and build the tool set; an earlier run's lock (``previous``) keeps its names.

    A broken ``$ref`` skips the operations that use it (a diagnostic each); ``every_ref`` also
    reports those no operation uses (a walk of the whole document: ``mcpforge validate``).
    """
    if options.spec is None:
        raise ValueError("options.spec is required")
    progress("loading")
    document = load_document(
        options.spec, allow_remote_refs=options.allow_remote_refs, overlays=options.overlay, diags=diags
    )
    if not document.known_version:
        diags.warn(
            "unknown-openapi-version",
            f"OpenAPI {document.openapi_version} is newer than mcpforge knows; it is read as OpenAPI 3.2, "
            "so anything new in it is ignored",
            pointer="/openapi",
        )
    progress("validating")
    _validate(document, options, diags, every_ref=every_ref)
    progress("parsing")
    api = parse_api(document, diags, options)
    progress("building tools")
    toolset = build_tools(api, options, diags, reserved=previous.names if previous else None)
    if not toolset.tools and toolset.excluded:
        diags.warn(
            "no-tools",
            f"all {len(toolset.excluded)} operations were excluded (deprecated, filtered or x-mcp): "
            "the server has no tools; see include-deprecated and the selection options",
            pointer="/paths",
        )
    _check_servers(toolset, project_name(options, previous), diags)
    return Built(document, toolset, document.digest)


def targets(toolset: ToolSet, options: Options, diags: Diagnostics) -> Targets:
    """The MCP tools and what they cost a model's context (the provider manifests follow, one at a time)."""
    tools = mcp_tools(toolset)
    encoded = encode_each(tools)
    budget = measure(tools, [list(t.toolsets) for t in toolset.tools], [len(e) for e in encoded])
    for code, message in budget_problems(budget, options):
        diags.warn(code, message)
    return Targets(tools, encoded, budget)


def _manifest_files(tools: list[dict[str, Any]], diags: Diagnostics) -> tuple[list[RenderedFile], int]:
    """Every provider manifest's file, and how many tools are strict in OpenAI's strict manifests."""
    # Each manifest's objects go as soon as it is encoded: they and its bytes never all coexist. Chat
    # and Responses share each tool's parameters (one form plain, one strict): encoded once per form,
    # and a form's encodings go once its two manifests are written.
    strict_of = {m.name: m.strict for m in MANIFESTS}
    shared, sharing = SharedParts(), False
    files, strict_capable = [], 0
    for name, manifest in provider_manifests(tools, diags):
        if strict_of[name] != sharing:
            shared, sharing = SharedParts(), strict_of[name]
        if name == "openai-chat-strict":
            strict_capable = sum(1 for tool in manifest if tool["function"]["strict"])
        files.append(manifest_file(f"manifests/{name}.json", (encode(with_parameters(t, shared)) for t in manifest)))
    return files, strict_capable


def contract(options: Options) -> tuple[ToolsFile, tuple[Diagnostic, ...]]:
    """The runtime's contract (the ``tools.json`` a generated package ships) and the run's diagnostics: ``serve``."""
    diags = Diagnostics()
    toolset = build(options, diags).toolset
    check_strict(diags, options)
    made = targets(toolset, options, diags)
    parts = project_parts(
        toolset,
        diags.freeze(),
        project_name=options.name,
        dynamic=options.dynamic,
        budget=made.budget,
        encoded_tools=made.encoded_mcp,
    )
    data = next(f.data for f in parts.files if f.path.endswith(f"/{DATA_FILE}"))
    return parse_contract(data), diags.freeze()


def generate(options: Options, *, previous: Lock | None = None, progress: Progress = _quiet) -> GenerationResult:
    """Run the whole pipeline in memory and return the files to write; ``previous``: the output's lock file."""
    diags = Diagnostics()
    built = build(options, diags, previous=previous, progress=progress)
    check_strict(diags, options)
    toolset, spec_sha256 = built.toolset, built.spec_sha256
    source_name, overlays = built.document.source_name, built.document.overlays
    del built  # the parsed document is not needed past here: its memory can serve the manifests
    made = targets(toolset, options, diags)
    progress("rendering")
    project = project_parts(
        toolset,
        diags.freeze(),  # what the project lists (skipped operations) is known before the manifests
        project_name=project_name(options, previous),
        dynamic=options.dynamic,
        budget=made.budget,
        encoded_tools=made.encoded_mcp,
    )
    files = [*render_project(project), manifest_file("manifests/mcp-tools.json", made.encoded_mcp)]
    progress("provider manifests")
    manifest_files, strict_capable = _manifest_files(made.mcp, diags)
    files += manifest_files
    names = {operation_key(tool.operation): tool.name for tool in toolset.tools}
    files.append(
        lock_file(
            source_name=source_name,
            spec_sha256=spec_sha256,
            overlays=overlays,
            options=options.record(),
            names=names,
            files=[f.path for f in files],
        )
    )
    files.sort(key=lambda f: f.path)
    return GenerationResult(
        files=tuple(files),
        toolset=toolset,
        diagnostics=diags.freeze(),
        spec_sha256=spec_sha256,
        names=names,
        mcp=made.mcp,
        strict_capable=strict_capable,
        budget=made.budget,
    )
