"""The ``mcpforge`` command line: options in, files and a short report out, clear exit codes.

Exit codes: 0 success; 1 a fatal error, or warnings with ``--fail-on-warning``; 2 bad usage.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from mcpforge import __version__
from mcpforge.diagnostics import Diagnostic, Diagnostics, Severity
from mcpforge.errors import MCPForgeError
from mcpforge.options import BuildOptions, ValidationLevel

__all__ = ["main"]

F = TypeVar("F", bound=Callable[..., Any])
_SHOWN = 20


def _fatal_errors(func: F) -> F:
    """Turn fatal errors into one message and exit code 1 (never a traceback)."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except MCPForgeError as exc:
            click.echo(exc.render(), err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def _print_diagnostics(diagnostics: Sequence[Diagnostic], *, verbose: bool) -> None:
    shown = [d for d in diagnostics if verbose or d.severity is not Severity.INFO]
    limit = len(shown) if verbose else _SHOWN
    for diagnostic in shown[:limit]:
        click.echo(diagnostic.render(), err=True)
    if len(shown) > limit:
        click.echo(f"... and {len(shown) - limit} more (use --verbose to see all)", err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="mcpforge")
def main() -> None:
    """Turn an OpenAPI document (Swagger 2.0, OpenAPI 3.0/3.1) into MCP tools and a runnable server."""


def _spec_options(func: F) -> F:
    options = [
        click.option(
            "--validate",
            "validation",
            type=click.Choice([v.value for v in ValidationLevel]),
            default=ValidationLevel.BASIC.value,
            show_default=True,
            help="basic: fast structural check; full: openapi-spec-validator (slow on big specs).",
        ),
        click.option("--strict", is_flag=True, help="Treat validation problems and warnings as fatal errors."),
        click.option("--allow-remote-refs", is_flag=True, help="Fetch http(s) $refs (refused by default)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@main.command()
@click.argument("spec", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, file_okay=False),
    required=True,
    help="Output directory (created; must be empty or hold an earlier mcpforge output).",
)
@_spec_options
@click.option(
    "--max-tool-name-length",
    type=click.IntRange(8, 128),
    default=64,
    show_default=True,
    help="Longest tool name; lower it when a client adds a prefix (Claude Code: mcp__<server>__).",
)
@click.option(
    "--summary-max",
    type=click.IntRange(20, 4000),
    default=150,
    show_default=True,
    help="Longest summary (and title) in tool descriptions.",
)
@click.option(
    "--description-max",
    type=click.IntRange(40, 10000),
    default=300,
    show_default=True,
    help="Longest tool description.",
)
@click.option("--no-output-schemas", is_flag=True, help="Do not declare outputSchema on tools.")
@click.option("--force", is_flag=True, help="Replace the output directory even if it holds other files.")
@click.option("--fail-on-warning", is_flag=True, help="Exit 1 when any warning was reported.")
@click.option("-v", "--verbose", is_flag=True, help="Show every diagnostic, including notes.")
@_fatal_errors
def generate(
    spec: Path,
    output: Path,
    validation: str,
    strict: bool,
    allow_remote_refs: bool,
    max_tool_name_length: int,
    summary_max: int,
    description_max: int,
    no_output_schemas: bool,
    force: bool,
    fail_on_warning: bool,
    verbose: bool,
) -> None:
    """Generate MCP tool manifests (and the server) from SPEC into OUTPUT."""
    from mcpforge.generate import GenerateOptions  # noqa: PLC0415 - keep `--help` fast
    from mcpforge.generate import generate as run  # noqa: PLC0415
    from mcpforge.render.write import write_tree  # noqa: PLC0415

    options = GenerateOptions(
        spec=spec,
        validation=ValidationLevel(validation),
        strict=strict,
        allow_remote_refs=allow_remote_refs,
        build=BuildOptions(
            max_tool_name_length=max_tool_name_length,
            summary_max=summary_max,
            description_max=description_max,
            output_schemas=not no_output_schemas,
        ),
    )
    result = run(options)
    _print_diagnostics(result.diagnostics, verbose=verbose)
    write_tree(result.files, output, force=force)
    tools = len(result.toolset.tools)
    click.echo(
        f"{result.operation_count:,} operations → {tools:,} tools; {result.skipped:,} skipped; "
        f"{result.degraded:,} degraded; {result.renamed:,} renamed; {result.strict_capable:,} OpenAI strict-capable. "
        f"Wrote {output}"
    )
    warnings = sum(1 for d in result.diagnostics if d.severity is not Severity.INFO)
    if fail_on_warning and warnings:
        click.echo(f"{warnings} warning(s) and --fail-on-warning was given", err=True)
        sys.exit(1)


@main.command()
@click.argument("spec", type=click.Path(path_type=Path, dir_okay=False))
@_spec_options
@click.option("-v", "--verbose", is_flag=True, help="Show every diagnostic, including notes.")
@_fatal_errors
def validate(spec: Path, validation: str, strict: bool, allow_remote_refs: bool, verbose: bool) -> None:
    """Check SPEC and report every problem, without writing anything."""
    from mcpforge.generate import GenerateOptions, load_and_build  # noqa: PLC0415

    diags = Diagnostics()
    options = GenerateOptions(
        spec=spec, validation=ValidationLevel(validation), strict=strict, allow_remote_refs=allow_remote_refs
    )
    _, toolset = load_and_build(options, diags)
    frozen = diags.freeze()
    _print_diagnostics(frozen, verbose=True if verbose else len(frozen) <= _SHOWN)
    warnings = sum(1 for d in frozen if d.severity is not Severity.INFO)
    click.echo(f"{len(toolset.tools):,} tools; {warnings:,} warning(s)")
    if strict and warnings:
        sys.exit(1)


@main.command()
@click.argument("target", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", "mcp", "openai-chat", "openai-responses", "anthropic", "gemini"]),
    default="auto",
    show_default=True,
    help="Format of a manifest TARGET (auto: detected from its shape). Ignored for specs.",
)
@click.option("--client-prefix", default="", help="Prefix a client adds to tool names, e.g. 'mcp__myserver__'.")
@click.option("--max-name-length", type=click.IntRange(1, 256), default=64, show_default=True)
@_fatal_errors
def lint(target: Path, fmt: str, client_prefix: str, max_name_length: int) -> None:
    """Check a spec's tools, or a saved manifest, against every provider's rules.

    TARGET is an OpenAPI document (every provider manifest is built in memory and checked) or a JSON
    manifest. Exit 1 when any error is found.
    """
    import json  # noqa: PLC0415

    from mcpforge.targets.lint import detect_format, lint_manifest, summarize  # noqa: PLC0415

    findings = []
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None  # not a JSON manifest: treat it as a spec (its own errors are reported there)
    if isinstance(data, list) or (isinstance(data, dict) and "tools" in data and "openapi" not in data):
        kind = detect_format(data) if fmt == "auto" else fmt
        findings = lint_manifest(data, kind, client_prefix=client_prefix, max_name=max_name_length)  # type: ignore[arg-type]
    else:
        from mcpforge.generate import GenerateOptions  # noqa: PLC0415
        from mcpforge.generate import generate as run  # noqa: PLC0415

        result = run(GenerateOptions(spec=target))
        for file in result.files:
            if file.path.startswith("manifests/"):
                manifest = json.loads(file.content)
                findings += lint_manifest(
                    manifest,
                    detect_format(manifest) if "strict" not in file.path else None,
                    client_prefix=client_prefix,
                    max_name=max_name_length,
                )
    for finding in findings:
        click.echo(finding.render())
    errors, warnings = summarize(findings)
    click.echo(f"{errors} error(s), {warnings} warning(s)")
    if errors:
        sys.exit(1)
