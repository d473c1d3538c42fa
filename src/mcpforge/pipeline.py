"""The pipeline: load -> validate -> parse -> build -> targets -> render (nothing is written here).

Each stage is a function of the previous stage's value and the run's :class:`~mcpforge.options.Options`;
commands that need only part of it (``validate``, ``lint SPEC``, ``budget SPEC``) stop early and read
the stage's values, never bytes parsed back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from mcpforge.diagnostics import Diagnostic, Diagnostics, Effect, Severity
from mcpforge.errors import SpecValidationError
from mcpforge.handover import Blob, Blobs
from mcpforge.naming import project_names
from mcpforge.openapi.load import Document, load_document
from mcpforge.openapi.parse import parse_api
from mcpforge.openapi.validate import basic_problems, full_problems, unresolved_refs
from mcpforge.options import Options, ValidationLevel
from mcpforge.render.files import RenderedFile, SharedParts, encode_each, manifest_chunks, manifest_file
from mcpforge.render.lock import lock_file
from mcpforge.render.project import project_parts
from mcpforge.render.renderer import TemplateRenderer, template_renderer
from mcpforge.targets.budget import Budget, budget_problems, measure
from mcpforge.targets.manifests import (
    Manifests,
    openai_plain_manifests,
    openai_strict_manifests,
    other_manifests,
    provider_manifests,
)
from mcpforge.targets.mcp import mcp_tools
from mcpforge.targets.openai import with_parameters
from mcpforge.tools.build import build_tools
from mcpforge.tools.model import ToolSet
from mcpforge.tools.select import operation_key
from mcpforge.worker import WorkerError, worker

__all__ = [
    "FORK_MIN_TOOLS",
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
    providers: dict[str, list[dict[str, Any]]]
    budget: Budget
    strict_capable: int


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


def _check_servers(toolset: ToolSet, options: Options, diags: Diagnostics) -> None:
    """Warn when the server will need its base URL from the environment."""
    servers = toolset.api.servers
    url = servers[0].default_url() if servers else ""
    parts = urlsplit(url)
    if parts.scheme in ("http", "https") and parts.netloc:
        return
    prefix = project_names(toolset.api.title, options.name).env_prefix
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
    reserved: Mapping[str, str] | None = None,
    progress: Progress = _quiet,
    every_ref: bool = False,
) -> Built:
    """Load, validate, parse and build the tool set; ``reserved`` names come from a lock file.

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
    toolset = build_tools(api, options, diags, reserved=reserved)
    if not toolset.tools and toolset.excluded:
        diags.warn(
            "no-tools",
            f"all {len(toolset.excluded)} operations were excluded (deprecated, filtered or x-mcp): "
            "the server has no tools; see include-deprecated and the selection options",
            pointer="/paths",
        )
    _check_servers(toolset, options, diags)
    return Built(document, toolset, document.digest)


def targets(
    toolset: ToolSet, options: Options, diags: Diagnostics, *, providers: bool = True, progress: Progress = _quiet
) -> Targets:
    """The MCP tools, their context budget, and (with ``providers``) every provider manifest, linted."""
    tools = mcp_tools(toolset)
    encoded = encode_each(tools)
    sizes = [len(e) for e in encoded]
    budget = measure(tools, [list(t.toolsets) for t in toolset.tools], sizes)
    for code, message in budget_problems(budget, options):
        diags.warn(code, message)
    if not providers:
        return Targets(tools, encoded, {}, budget, 0)
    progress("provider manifests")
    manifests, strict_capable = provider_manifests(tools, diags)
    return Targets(tools, encoded, manifests, budget, strict_capable)


@dataclass(frozen=True, slots=True)
class _Encoded:
    """Provider manifests with each tool encoded, and the diagnostics of making them."""

    manifests: dict[str, Blob]  # name -> the file's content
    diagnostics: tuple[Diagnostic, ...]
    strict_capable: int = 0


def _encode(manifests: Manifests, blobs: Blobs) -> dict[str, Blob]:
    # Each manifest's objects go as soon as it is encoded: they and its bytes never all coexist. The
    # four OpenAI manifests share each tool's parameters (two forms: plain, strict): encoded once.
    shared = SharedParts()
    return {
        name: blobs.write(manifest_chunks(with_parameters(t, shared) for t in manifests.pop(name)))
        for name in list(manifests)
    }


def _strict_encoded(toolset: ToolSet, blobs: Blobs) -> _Encoded:
    # The MCP tools made again here (a dict per tool, sharing the schemas) let the worker start
    # before this process has encoded them and measured their budget.
    diags = Diagnostics()
    manifests, strict_capable = openai_strict_manifests(mcp_tools(toolset), diags)
    return _Encoded(_encode(manifests, blobs), diags.freeze(), strict_capable)


def _rest_encoded(tools: list[dict[str, Any]]) -> _Encoded:
    """The manifests the strict worker does not make: OpenAI's plain ones, Anthropic's and Gemini's."""
    diags = Diagnostics()
    return _Encoded(
        _encode({**openai_plain_manifests(tools), **other_manifests(tools, diags)}, Blobs()), diags.freeze()
    )


# Below this many tools, the strict OpenAI manifests take less time than forking a worker for them.
FORK_MIN_TOOLS = 100


def generate(
    options: Options,
    *,
    reserved: Mapping[str, str] | None = None,
    progress: Progress = _quiet,
    parallel: bool = True,
    templates: TemplateRenderer | None = None,
) -> GenerationResult:
    """Run the whole pipeline in memory and return the files to write.

    With ``parallel``, the second core renders the templates (a worker started as early as
    possible: ``templates``, else one started here) and makes the strict OpenAI manifests while
    this process makes the others; the files are the same either way.
    """
    if templates is None:
        with template_renderer(fork=parallel) as started:
            return generate(options, reserved=reserved, progress=progress, parallel=parallel, templates=started)
    diags = Diagnostics()
    built = build(options, diags, reserved=reserved, progress=progress)
    check_strict(diags, options)
    toolset, spec_sha256 = built.toolset, built.spec_sha256
    source_name, overlays = built.document.source_name, built.document.overlays
    del built  # the parsed document is not needed past here: its memory can serve the manifests
    progress("provider manifests")
    fork = parallel and len(toolset.tools) >= FORK_MIN_TOOLS
    with worker(partial(_strict_encoded, toolset), fork=fork) as strict:
        made = targets(toolset, options, diags, providers=False)
        mcp, encoded_mcp, budget = made.mcp, made.encoded_mcp, made.budget
        del made
        of_toolset = diags.freeze()  # what render lists (skipped operations) is known before the manifests
        progress("rendering")
        project = project_parts(
            toolset,
            of_toolset,
            project_name=options.name,
            dynamic=options.dynamic,
            budget=budget,
            encoded_tools=encoded_mcp,
        )
        templates.render(project.context)
        rest_part = _rest_encoded(mcp)
        files = [*project.files, manifest_file("manifests/mcp-tools.json", encoded_mcp)]
        del encoded_mcp  # joined into the manifest and tools.json: each tool's bytes can go
        try:
            strict_part = strict.result()
        except WorkerError as exc:  # killed (out of memory?) before it finished: the same work, here
            diags.info("worker-failed", f"{exc}; the strict OpenAI manifests were made in this process instead")
            strict_part = _strict_encoded(toolset, Blobs())
    try:
        rendered = templates.result()
    except WorkerError as exc:
        diags.info("worker-failed", f"{exc}; the templates were rendered in this process instead")
        rendered = templates.rendered_here()
    files.extend(RenderedFile(path, text) for path, text in rendered)
    for part in (strict_part, rest_part):
        diags.extend(part.diagnostics)
        files.extend(RenderedFile(f"manifests/{name}.json", blob.content) for name, blob in part.manifests.items())
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
        mcp=mcp,
        strict_capable=strict_part.strict_capable,
        budget=budget,
    )
