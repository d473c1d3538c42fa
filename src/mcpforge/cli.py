"""The ``mcpforge`` command line: options in, files and a short report out, clear exit codes.

Exit codes: 0 success; 1 a fatal error, or warnings with ``--fail-on-warning``; 2 bad usage.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from mcpforge import __version__
from mcpforge.cli_errors import fatal_errors
from mcpforge.diagnostics import Diagnostic, Diagnostics, Severity
from mcpforge.options import ValidationLevel

__all__ = ["main"]

F = TypeVar("F", bound=Callable[..., Any])
_SHOWN = 20


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


def _config_options(func: F) -> F:
    """One click option per entry of the options table (``mcpforge.config.OPTIONS``)."""
    from mcpforge.config import OPTIONS  # noqa: PLC0415

    for option in reversed(OPTIONS):
        if option.key == "spec":
            func = click.argument("spec", required=False, type=click.Path(path_type=Path, dir_okay=False))(func)
            continue
        flag = f"--{option.key}"
        extra: dict[str, Any] = {"default": None, "help": option.help}
        if option.key == "output":
            func = click.option("-o", flag, type=click.Path(path_type=Path, file_okay=False), **extra)(func)
        elif option.multiple:
            func = click.option(flag, multiple=True, metavar="A,B", **extra)(func)
        elif option.kind is bool:
            func = click.option(f"{flag}/--no-{option.key}", **extra)(func)
        elif option.choices:
            func = click.option(flag, type=click.Choice(option.choices), **extra)(func)
        else:
            func = click.option(flag, type=click.IntRange(0) if option.kind is int else option.kind, **extra)(func)
    return func


def _split(values: Any) -> Any:
    if isinstance(values, tuple):
        return tuple(v.strip() for value in values for v in value.split(",") if v.strip())
    return values


def _with_fewer_gc_pauses(work: Callable[[], Any]) -> Any:
    """Run ``work`` with the cyclic GC triggered less often.

    Generation allocates millions of short-lived, acyclic dicts; with the default thresholds the
    collector rescans them repeatedly (a quarter of the run time on GitHub's spec).
    """
    import gc  # noqa: PLC0415

    thresholds = gc.get_threshold()
    gc.set_threshold(100_000, 50, 100)
    try:
        return work()
    finally:
        gc.set_threshold(*thresholds)


def _summary_table(result: Any) -> str:
    budget = result.budget
    size = f"{budget.total_bytes / 1024:,.0f} KB (~{budget.total_tokens:,} tokens)"
    header = ("operations", "tools", "skipped", "excluded", "degraded", "strict-capable", "tools/list")
    row = (
        f"{result.operation_count:,}",
        f"{len(result.toolset.tools):,}",
        f"{result.skipped:,}",
        f"{result.excluded:,}",
        f"{result.degraded:,}",
        f"{result.strict_capable:,}",
        size,
    )
    widths = [max(len(h), len(v)) for h, v in zip(header, row, strict=True)]
    return "\n".join("  ".join(c.rjust(w) for c, w in zip(line, widths, strict=True)) for line in (header, row))


def _register() -> None:
    from mcpforge.cli_tools import budget, convert, tools  # noqa: PLC0415

    for command in (tools, convert, budget):
        main.add_command(command)


@main.command()
@_config_options
@click.option(
    "--config",
    "config_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Configuration file " "(default: ./mcpforge.toml, else [tool.mcpforge] in ./pyproject.toml).",
)
@click.option("--check", is_flag=True, help="Write nothing; exit 1 when OUTPUT is not what this run would write.")
@click.option("--force", is_flag=True, help="Replace the output directory even if it holds other files.")
@click.option("-v", "--verbose", is_flag=True, help="Show every diagnostic, including notes, and progress.")
@fatal_errors
def generate(config_path: Path | None, check: bool, force: bool, verbose: bool, **cli: Any) -> None:
    """Generate the MCP server and provider manifests from SPEC into OUTPUT.

    With no arguments, SPEC, OUTPUT and every other option come from mcpforge.toml (or
    [tool.mcpforge] in pyproject.toml) in the current directory. An existing lock file in OUTPUT
    keeps every tool's earlier name.
    """
    import time  # noqa: PLC0415

    from mcpforge.check import check_output, locked_names  # noqa: PLC0415
    from mcpforge.config import find_config, generate_options, load_config, resolve  # noqa: PLC0415
    from mcpforge.errors import ConfigError  # noqa: PLC0415
    from mcpforge.generate import generate as run  # noqa: PLC0415
    from mcpforge.render.write import write_tree  # noqa: PLC0415

    path = config_path or find_config(Path.cwd())
    config = load_config(path) if path else {}
    values = resolve({key.replace("_", "-"): _split(value) for key, value in cli.items()}, config)
    if values["output"] is None:
        raise ConfigError(
            "no output directory given", hint="run `mcpforge generate SPEC -o OUTPUT`, or set output in mcpforge.toml"
        )
    output: Path = values["output"]
    options = generate_options(values, locked_names(output))
    started = time.perf_counter()
    interactive = verbose or sys.stderr.isatty()

    def progress(stage: str) -> None:
        # Every stage on a terminal; in CI logs only once a run has taken a second (a large API).
        elapsed = time.perf_counter() - started
        if interactive or elapsed >= 1.0:
            click.echo(f"[{elapsed:6.2f}s] {stage}...", err=True)

    result = _with_fewer_gc_pauses(lambda: run(options, progress))
    _print_diagnostics(result.diagnostics, verbose=verbose)
    if check:
        report = check_output(result.files, output)
        for line in report.lines():
            click.echo(line)
        if not report.current:
            click.echo(f"{output} is out of date: run `mcpforge generate` and commit the result", err=True)
            sys.exit(1)
        click.echo(f"{output} is up to date")
        return
    progress("writing")
    write_tree(result.files, output, force=force)
    click.echo(_summary_table(result))
    click.echo(f"Wrote {output} in {time.perf_counter() - started:.2f} s")
    warnings = sum(1 for d in result.diagnostics if d.severity is not Severity.INFO)
    if values["fail-on-warning"] and warnings:
        click.echo(f"{warnings} warning(s) and --fail-on-warning was given", err=True)
        sys.exit(1)


@main.command()
@click.argument("spec", type=click.Path(path_type=Path, dir_okay=False))
@_spec_options
@click.option("-v", "--verbose", is_flag=True, help="Show every diagnostic, including notes.")
@fatal_errors
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
@fatal_errors
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


_register()
