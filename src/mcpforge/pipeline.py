"""The pipeline: load -> validate -> parse -> build -> targets -> render (nothing is written here).

Each stage is a function of the previous stage's value and the run's :class:`~mcpforge.options.Options`;
commands that need only part of it (``validate``, ``lint SPEC``, ``budget SPEC``) stop early and read
the stage's values, never bytes parsed back.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcpforge.diagnostics import Diagnostic, Diagnostics, Effect, strict_failure
from mcpforge.errors import SpecValidationError
from mcpforge.openapi.load import Document, load_document
from mcpforge.openapi.parse import parse_api
from mcpforge.openapi.validate import unresolved_refs, validate_document
from mcpforge.options.model import Options
from mcpforge.project.files import RenderedFile, dump_compact, encode_each, manifest_file
from mcpforge.project.lock import FIRST_VERSION, Lock, lock_file
from mcpforge.project.project import manifest_files, project_parts, render_project
from mcpforge.runtime.contract import SearchFile, ToolsFile, parse_contract
from mcpforge.targets.budget import Budget, budget_problems, measure
from mcpforge.targets.deferred import deferred_namespaces
from mcpforge.targets.mcp import mcp_tools
from mcpforge.targets.runtime import runtime_contract
from mcpforge.targets.search import search_file
from mcpforge.tools.build import build_tools
from mcpforge.tools.checks import toolset_problems
from mcpforge.tools.model import ToolSet
from mcpforge.tools.select import operation_key

if TYPE_CHECKING:
    from mcpforge.project.changelog import History

__all__ = [
    "Built",
    "GenerationResult",
    "Progress",
    "Surface",
    "Targets",
    "build",
    "check_strict",
    "generate",
    "surface",
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


def check_strict(diags: Diagnostics, options: Options) -> None:
    """Under ``--strict``, the first warning (of any stage) is fatal, with the number of the others."""
    failure = strict_failure(diags.freeze()) if options.strict else None
    if failure is not None:
        message, where = failure
        raise SpecValidationError(
            message, location=where, hint="fix the document, or drop --strict to generate with warnings"
        )


def _project_name(options: Options, previous: Lock | None) -> str | None:
    # The name option, else the one an earlier run gave the output: a default name never changes under it.
    return options.name or (previous.project_name if previous else None)


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
    if every_ref:  # `validate` lists broken references even where no tool uses them
        diags.extend(unresolved_refs(document))
    validate_document(document, options.validate, diags, allow_remote_refs=options.allow_remote_refs)
    progress("parsing")
    api = parse_api(document, diags, options)
    progress("building tools")
    toolset = build_tools(api, options, diags, reserved=previous.names if previous else None)
    toolset_problems(toolset, _project_name(options, previous), diags)
    return Built(document, toolset, document.digest)


def targets(toolset: ToolSet, options: Options, diags: Diagnostics) -> Targets:
    """The MCP tools and what they cost a model's context (the provider manifests follow, one at a time)."""
    tools = mcp_tools(toolset)
    encoded = encode_each(tools)
    budget = measure(tools, [list(t.toolsets) for t in toolset.tools], [len(e) for e in encoded])
    for code, message in budget_problems(budget, options):
        diags.warn(code, message)
    return Targets(tools, encoded, budget)


def contract(options: Options) -> tuple[ToolsFile, tuple[Diagnostic, ...], Callable[[], SearchFile]]:
    """For ``serve``: the runtime's contract (a generated package's ``tools.json``), the run's diagnostics,
    and what makes ``search.json`` (only search mode needs it)."""
    diags = Diagnostics()
    toolset = build(options, diags).toolset
    check_strict(diags, options)
    targets(toolset, options, diags)  # the context-budget warnings, as generate gives them
    made = runtime_contract(toolset, toolset.api.project_names(options.name), mode=options.server_mode)
    # Through its own bytes, as the runtime reads a package's: the same checks, the same values.
    return parse_contract(dump_compact(made)), diags.freeze(), functools.partial(search_file, toolset)


@dataclass(frozen=True, slots=True)
class Surface:
    """What models and clients meet of one generated tool set: its contract's tools and their operationIds."""

    tools: tuple[Any, ...]  # the tools.json entries (ToolEntry)
    operation_ids: Mapping[str, str | None]  # tool name -> operationId


def surface(options: Options, *, previous: Lock | None = None) -> Surface:
    """For ``diff``: the tools ``generate`` would write for ``options`` (``previous``: the lock keeping names)."""
    diags = Diagnostics()
    toolset = build(options, diags, previous=previous).toolset
    check_strict(diags, options)
    names = toolset.api.project_names(_project_name(options, previous))
    made = runtime_contract(toolset, names, mode=options.server_mode)
    ids = {tool.name: tool.operation.operation_id for tool in toolset.tools}
    return Surface(tuple(made["tools"]), ids)


def generate(
    options: Options,
    *,
    previous: Lock | None = None,
    history: History | None = None,
    progress: Progress = _quiet,
) -> GenerationResult:
    """Run the whole pipeline in memory and return the files to write.

    ``previous``: the output's lock file; ``history``: the output's version, tools and changelog
    (the ``changelog`` option writes the next entry from them).
    """
    diags = Diagnostics()
    built = build(options, diags, previous=previous, progress=progress)
    check_strict(diags, options)
    toolset, spec_sha256 = built.toolset, built.spec_sha256
    source_name, overlays = built.document.source_name, built.document.overlays
    del built  # the parsed document is not needed past here: its memory can serve the manifests
    made = targets(toolset, options, diags)
    mcp, encoded, budget = made.mcp, made.encoded_mcp, made.budget
    del made  # the encoded tools go once they are in tools.json and mcp-tools.json (Graph: 30 MB)
    released: tuple[str, RenderedFile] | None = None
    if options.changelog:
        from mcpforge.project.changelog import release  # noqa: PLC0415 - only --changelog compares versions

        contract_tools = runtime_contract(toolset, toolset.api.project_names(None))["tools"]
        about = f"{toolset.api.title} {toolset.api.version} ({source_name})"
        released = release(history, contract_tools, about)
    progress("rendering")
    project = project_parts(
        toolset,
        diags.freeze(),  # what the project lists (skipped operations) is known before the manifests
        project_name=_project_name(options, previous),
        mode=options.server_mode,
        budget=budget,
        encoded_tools=encoded,
        version=released[0] if released else FIRST_VERSION,
    )
    files = [*render_project(project), manifest_file("manifests/mcp-tools.json", encoded)]
    del project, encoded
    if released:
        files.append(released[1])
    progress("provider manifests")
    manifests, strict_capable = manifest_files(
        mcp,
        diags,
        description_max=options.argument_description_max,
        namespaces=deferred_namespaces(toolset, options.deferred_manifests),
    )
    files += manifests
    names = {operation_key(tool.operation): tool.name for tool in toolset.tools}
    files.append(
        lock_file(
            source_name=source_name,
            spec_sha256=spec_sha256,
            overlays=overlays,
            options=options.record(),
            names=names,
            files=[f.path for f in files],
            package_version=released[0] if released else None,
        )
    )
    files.sort(key=lambda f: f.path)
    return GenerationResult(
        files=tuple(files),
        toolset=toolset,
        diagnostics=diags.freeze(),
        spec_sha256=spec_sha256,
        names=names,
        mcp=mcp,
        strict_capable=strict_capable,
        budget=budget,
    )
