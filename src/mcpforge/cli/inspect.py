"""``mcpforge validate``, ``lint`` and ``budget``: look at a spec's tools (or saved ones) without writing anything.

For a spec, every option comes from the flags and ``mcpforge.toml`` exactly as for ``generate``,
and the commands read the pipeline's values (tools, manifests, budget) directly.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from mcpforge.cli.flags import config_option, option_flags, resolve
from mcpforge.cli.generate import print_diagnostics
from mcpforge.diagnostics import Diagnostics, Severity
from mcpforge.errors import ConfigError, SpecError
from mcpforge.targets import FORMATS

__all__ = ["budget", "lint", "validate"]

_FORMATS = ["auto", *FORMATS]


@click.command(epilog="""\b
Examples:
  mcpforge validate openapi.yaml
  mcpforge validate https://example.com/openapi.json --validate full --strict""")
@option_flags()
@config_option
@click.option("-v", "--verbose", is_flag=True, help="Show every diagnostic, including notes.")
def validate(config_path: Path | None, verbose: bool, **flags: Any) -> None:
    """Check SPEC and report every problem, without writing anything (exit 1 under --strict when any)."""
    from mcpforge.pipeline import build  # noqa: PLC0415

    options = resolve(flags, config_path)
    if options.spec is None:
        raise ConfigError("no SPEC given", hint="run `mcpforge validate SPEC`, or set spec in mcpforge.toml")
    diags = Diagnostics()
    try:
        built = build(options, diags, every_ref=True)
    except SpecError:
        print_diagnostics(diags.freeze(), verbose=True)  # every problem found before the fatal one
        raise
    frozen = diags.freeze()
    print_diagnostics(frozen, verbose=True)
    warnings = sum(1 for d in frozen if d.severity is not Severity.INFO)
    click.echo(f"{len(built.toolset.tools):,} tools; {warnings:,} warning(s)")
    if warnings and (options.strict or options.fail_on_warning):
        sys.exit(1)


def _read_json(target: Path) -> Any:
    try:
        return json.loads(target.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None  # not a JSON manifest: a spec (its own problems are reported by the pipeline)


def _is_spec(data: Any) -> bool:
    return data is None or (isinstance(data, dict) and ("openapi" in data or "swagger" in data))


@click.command(epilog="""\b
Examples:
  mcpforge lint openapi.yaml --max-name-length 48
  mcpforge lint out/manifests/openai-chat-strict.json""")
@click.argument("target", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(_FORMATS),
    default="auto",
    show_default=True,
    help="Format of a manifest TARGET (auto: detected from its shape). Ignored for specs.",
)
@click.option("--client-prefix", default="", help="Prefix a client adds to tool names, e.g. 'mcp__myserver__'.")
@click.option("--max-name-length", type=click.IntRange(1, 256), default=64, show_default=True)
@option_flags(spec_argument=False)
@config_option
def lint(
    target: Path, fmt: str, client_prefix: str, max_name_length: int, config_path: Path | None, **flags: Any
) -> None:
    """Check a spec's tools, or a saved manifest, against every provider's rules.

    TARGET is an OpenAPI document (every provider manifest is built in memory and checked) or a JSON
    manifest (a list of tools, or a tools/list result). Exit 1 when any error is found.
    """
    from mcpforge.targets.lint import MANIFEST_FILES, detect_format, lint_manifest, summarize  # noqa: PLC0415

    data = _read_json(target)
    findings = []
    if not _is_spec(data):
        if not _is_tool_list(data):
            raise ConfigError(
                f"{target} is neither an OpenAPI document nor a tool list",
                hint="lint takes a spec, a JSON array of tools in a provider's format, or a tools/list result",
            )
        kind = detect_format(data) if fmt == "auto" else fmt
        findings = lint_manifest(data, kind, client_prefix=client_prefix, max_name=max_name_length)  # type: ignore[arg-type]
    else:
        from mcpforge.options.model import DeferredManifests  # noqa: PLC0415
        from mcpforge.pipeline import build, targets  # noqa: PLC0415
        from mcpforge.targets.deferred import deferred_namespaces  # noqa: PLC0415
        from mcpforge.targets.manifests import provider_manifests  # noqa: PLC0415

        options = resolve({**flags, "spec": target}, config_path)
        diags = Diagnostics()
        toolset = build(options, diags).toolset
        mcp = targets(toolset, options, diags).mcp
        namespaces = deferred_namespaces(toolset, DeferredManifests.ALWAYS)
        for name, manifest in [("mcp-tools", mcp), *provider_manifests(mcp, diags, namespaces=namespaces)]:
            findings += lint_manifest(
                manifest, MANIFEST_FILES[name], client_prefix=client_prefix, max_name=max_name_length
            )
    for finding in findings:
        click.echo(finding.render())
    errors, warnings = summarize(findings)
    click.echo(f"{errors} error(s), {warnings} warning(s)")
    if errors:
        sys.exit(1)


def _is_tool_list(data: Any) -> bool:
    tools = data.get("tools") if isinstance(data, dict) else data
    return (
        isinstance(tools, list)
        and all(isinstance(t, dict) and isinstance(t.get("name", ""), str) for t in tools)
        and (not tools or all(_has_name(t) for t in tools))
    )


def _has_name(tool: dict[str, Any]) -> bool:
    function = tool.get("function")
    hosted = str(tool.get("type") or "").startswith("tool_search")  # a provider's own tool search
    return (
        hosted
        or isinstance(tool.get("name"), str)
        or (isinstance(function, dict) and isinstance(function.get("name"), str))
    )


@click.command(epilog="""\b
Examples:
  mcpforge budget openapi.yaml --include-tags issues --top 5
  mcpforge budget out/ --json""")
@click.argument("target", type=click.Path(path_type=Path))
@click.option("--top", type=click.IntRange(0), default=15, show_default=True, help="Largest tools to show.")
@click.option("--json", "as_json", is_flag=True, help="Every tool's bytes and tokens as JSON.")
@option_flags(spec_argument=False)
@config_option
def budget(target: Path, top: int, as_json: bool, config_path: Path | None, **flags: Any) -> None:
    """Context budget of a spec's tools, or of a generated output directory: per tool, per toolset, total.

    For a spec, the selection and schema options come from the flags and the configuration file, as
    for generate.
    """
    from mcpforge.targets.budget import Budget, measure, mode_costs, recommendation  # noqa: PLC0415

    result: Budget
    limits: dict[str, int] = {}
    if target.is_dir():
        result = _output_budget(target, measure)
    else:
        from mcpforge.pipeline import build, targets  # noqa: PLC0415

        options = resolve({**flags, "spec": target}, config_path)
        diags = Diagnostics()
        result = targets(build(options, diags).toolset, options, diags).budget
        limits = {"max_tools": options.max_tools, "max_total_tokens": options.max_total_tokens}
    costs = mode_costs(result)
    advice = recommendation(result, costs, **limits)
    if as_json:
        payload = {
            "modes": {cost.mode: {"tools": cost.tools, "tokens": cost.tokens} for cost in costs},
            "recommendation": advice,
            "totalBytes": result.total_bytes,
            "totalTokens": result.total_tokens,
            "tools": [{"name": t.name, "bytes": t.bytes, "tokens": t.tokens} for t in result.tools],
            "toolsets": {k: {"tools": c, "bytes": b} for k, (c, b) in result.by_toolset().items()},
        }
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    click.echo(
        f"{len(result.tools):,} tools; tools/list {result.total_bytes:,} bytes, about {result.total_tokens:,} tokens"
    )
    click.echo("\nup front, by mode (MODE setting):")
    for mode in costs:
        click.echo(f"  {mode.mode:<7} {mode.tools:>6,} tools  about {mode.tokens:>9,} tokens")
    if advice:
        click.echo(advice)
    if top:
        click.echo(f"\nlargest {min(top, len(result.tools))} tools:")
        for cost in sorted(result.tools, key=lambda t: (-t.bytes, t.name))[:top]:
            click.echo(f"  {cost.bytes:>9,} B  {cost.tokens:>7,} tok  {cost.name}")
    click.echo("\ntoolsets:")
    for name, (count, size) in sorted(result.by_toolset().items(), key=lambda item: -item[1][1]):
        click.echo(f"  {size:>9,} B  {count:>5} tools  {name}")


def _output_budget(target: Path, measure: Any) -> Any:
    manifest = target / "manifests" / "mcp-tools.json"
    tools = _read_json(manifest)
    if not isinstance(tools, list):
        raise ConfigError(f"{target} is not an mcpforge output directory (no readable {manifest})")
    data_files = sorted((target / "src").glob("*/tools.json"))
    data = _read_json(data_files[0]) if data_files else None
    entries = data.get("tools", []) if isinstance(data, dict) else []
    by_name = {e["tool"]["name"]: e.get("toolsets", []) for e in entries if isinstance(e, dict) and "tool" in e}
    return measure(tools, [list(by_name.get(t.get("name"), [])) for t in tools])
