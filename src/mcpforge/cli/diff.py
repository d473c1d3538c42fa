"""``mcpforge diff OLD NEW``: what changed for models and clients between two versions of an API's document."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from mcpforge.cli.flags import config_option, option_flags, resolve

__all__ = ["BREAKING_EXIT", "diff"]

# The exit status when a change the run fails on was found: distinct from errors (1) and usage (2).
BREAKING_EXIT = 3


@click.command(epilog="""\\b
Examples:
  mcpforge diff old/openapi.yaml openapi.yaml
  mcpforge diff https://api.example.com/v1.json api.json --format markdown > changes.md
  mcpforge diff v1.yaml v2.yaml --fail-on any --format json""")
@click.argument("old", type=click.Path(path_type=Path))
@click.argument("new", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    show_default=True,
    help="text for people, json for programs (docs/ci.md), markdown for a pull request comment.",
)
@click.option(
    "--fail-on",
    type=click.Choice(["none", "breaking", "any"]),
    default="breaking",
    show_default=True,
    help=f"Exit {BREAKING_EXIT} when a change of this kind is found.",
)
@click.option(
    "--from-version",
    default=None,
    help="The package's current version (X.Y.Z): also print the version the regenerated package should have.",
)
@option_flags(spec_argument=False, generate=True)
@config_option
def diff(
    old: Path, new: Path, fmt: str, fail_on: str, from_version: str | None, config_path: Path | None, **flags: Any
) -> None:
    """Compare the tools OLD and NEW generate: tools, arguments, types, enums, defaults, results, annotations.

    OLD and NEW are files or URLs; the options and configuration file are generate's, so selection,
    toolsets, overlays and the lock of OUTPUT (when it holds one) apply to both. Each change is
    breaking or compatible for a client that calls the tool (docs/ci.md). Exit 0 when nothing
    fails the run, 3 when --fail-on's changes are found, 1 on an error, 2 on bad usage.
    """
    from mcpforge.changes.compare import compare  # noqa: PLC0415
    from mcpforge.changes.report import as_json, as_markdown, as_text, bump_of, next_version  # noqa: PLC0415
    from mcpforge.output.write import OutputFolder  # noqa: PLC0415
    from mcpforge.pipeline import surface  # noqa: PLC0415

    before_options = resolve({**flags, "spec": old}, config_path)
    after_options = resolve({**flags, "spec": new}, config_path)
    output = after_options.output
    lock = OutputFolder(output, writing=False).lock if output is not None and output.is_dir() else None
    before, after = surface(before_options, previous=lock), surface(after_options, previous=lock)
    changes = compare(before.tools, after.tools, old_ids=before.operation_ids, new_ids=after.operation_ids)
    bump = bump_of(changes)
    if fmt == "json":
        report = as_json(changes)
        if from_version:
            report["version"]["next"] = next_version(from_version, bump)
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        click.echo(as_markdown(changes) if fmt == "markdown" else as_text(changes), nl=fmt != "markdown")
        if from_version:
            click.echo(f"next version: {next_version(from_version, bump)}", err=fmt == "markdown")
    failed = any(change.breaking for change in changes) if fail_on == "breaking" else fail_on == "any" and changes
    if failed:
        sys.exit(BREAKING_EXIT)
