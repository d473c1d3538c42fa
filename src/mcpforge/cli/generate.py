"""``mcpforge generate``: the whole pipeline, written atomically, or compared with ``--check``."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from mcpforge.cli.flags import config_option, option_flags, resolve
from mcpforge.diagnostics import Diagnostic, Severity
from mcpforge.errors import ConfigError

__all__ = ["generate", "print_diagnostics"]

_SHOWN = 20


def print_diagnostics(diagnostics: Sequence[Diagnostic], *, verbose: bool) -> None:
    """Warnings (and with ``verbose`` every note) on stderr, at most 20 unless ``verbose``."""
    shown = [d for d in diagnostics if verbose or d.severity is not Severity.INFO]
    limit = len(shown) if verbose else _SHOWN
    for diagnostic in shown[:limit]:
        click.echo(diagnostic.render(), err=True)
    if len(shown) > limit:
        click.echo(f"... and {len(shown) - limit} more (use --verbose to see all)", err=True)


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


def _modes(budget: Any, options: Any) -> str:
    """What a model pays up front in each mode, and the mode to serve when the API is large."""
    from mcpforge.targets.budget import mode_costs, recommendation  # noqa: PLC0415

    costs = mode_costs(budget)
    line = "up front: " + ", ".join(f"{cost.mode} mode ~{cost.tokens:,} tokens" for cost in costs)
    advice = recommendation(budget, costs, max_tools=options.max_tools, max_total_tokens=options.max_total_tokens)
    return f"{line}\n{advice}" if advice else line


@click.command(epilog="""\b
Examples:
  mcpforge generate openapi.yaml -o out/
  mcpforge generate https://example.com/openapi.json -o out/ --include-tags pets
  mcpforge generate --check          (spec and output from mcpforge.toml; exit 1 when out of date)""")
@option_flags(generate=True)
@config_option
@click.option("--check", is_flag=True, help="Write nothing; exit 1 when OUTPUT is not what this run would write.")
@click.option(
    "--force",
    is_flag=True,
    help="Write even if OUTPUT holds files mcpforge did not write (they stay; files at generated paths are replaced).",
)
@click.option("-v", "--verbose", is_flag=True, help="Show every diagnostic, including notes, and progress.")
def generate(config_path: Path | None, check: bool, force: bool, verbose: bool, **flags: Any) -> None:
    """Generate the MCP server and provider manifests from SPEC into OUTPUT.

    With no arguments, SPEC, OUTPUT and every other option come from mcpforge.toml (or
    [tool.mcpforge] in pyproject.toml) in the current directory. An existing lock file in OUTPUT
    keeps every tool's earlier name.
    """
    from mcpforge.options.files import find_config  # noqa: PLC0415
    from mcpforge.output.write import OutputFolder, write_tree  # noqa: PLC0415
    from mcpforge.pipeline import generate as run  # noqa: PLC0415

    options = resolve(flags, config_path)
    if options.spec is None:
        raise ConfigError("no SPEC given", hint="run `mcpforge generate SPEC -o OUTPUT`, or set spec in mcpforge.toml")
    if options.output is None:
        raise ConfigError(
            "no output directory given", hint="run `mcpforge generate SPEC -o OUTPUT`, or set output in mcpforge.toml"
        )
    output = options.output
    folder = OutputFolder(output, writing=not check)
    started = time.perf_counter()
    interactive = verbose or sys.stderr.isatty()

    def progress(stage: str) -> None:
        # Every stage on a terminal; in CI logs only once a run has taken a second (a large API).
        elapsed = time.perf_counter() - started
        if interactive or elapsed >= 1.0:
            click.echo(f"[{elapsed:6.2f}s] {stage}...", err=True)

    history = None
    if options.changelog:
        from mcpforge.project.changelog import read_history  # noqa: PLC0415 - only --changelog reads the history

        history = read_history(output, folder.lock)
    result = run(options, previous=folder.lock, history=history, progress=progress)
    print_diagnostics(result.diagnostics, verbose=verbose)
    if check:
        from mcpforge.output.check import check_output  # noqa: PLC0415

        report = check_output(result.files, folder)
        for line in report.lines():
            click.echo(line)
        if not report.current:
            click.echo(f"{output} is out of date: run `mcpforge generate` and commit the result", err=True)
            sys.exit(1)
        click.echo(f"{output} is up to date")
        return
    progress("writing")
    config_file = config_path or find_config(Path.cwd())
    inputs = [options.spec, *options.overlay, *([config_file] if config_file else [])]
    written = write_tree(result.files, folder, force=force, inputs=inputs)
    if written.recovered:
        click.echo(f"note: {written.recovered}", err=True)
    click.echo(_summary_table(result))
    click.echo(_modes(result.budget, options))
    changes = f"{len(written.written)} file(s) written, {written.unchanged} unchanged"
    if written.removed:
        changes += f", {len(written.removed)} no longer generated removed"
    click.echo(f"Wrote {output} in {time.perf_counter() - started:.2f} s ({changes})")
    warnings = sum(1 for d in result.diagnostics if d.severity is not Severity.INFO)
    if options.fail_on_warning and warnings:
        click.echo(f"{warnings} warning(s) and --fail-on-warning was given", err=True)
        sys.exit(1)
