"""``mcpforge serve``: a document's MCP server run straight from the document, without writing a project.

It is the generated package's server, not a look-alike: the pipeline makes the same ``tools.json``
a generated package ships, and the same runtime (mcpforge's own copy of it) serves it with the
same settings, flags and environment variables.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import click

from mcpforge.cli import PYTHON_GC_THRESHOLDS
from mcpforge.cli.flags import config_option, option_flags, resolve
from mcpforge.cli.generate import print_diagnostics
from mcpforge.errors import ConfigError

__all__ = ["serve"]


@click.command(epilog="""\b
Examples:
  mcpforge serve openapi.yaml                          (stdio: for an MCP client that starts it)
  mcpforge serve openapi.yaml --include-tags pets -- --transport http --port 8000
  mcpforge serve https://example.com/openapi.json -- --help   (the server's own settings)""")
@option_flags()
@config_option
@click.option("-v", "--verbose", is_flag=True, help="Show every diagnostic, including notes.")
@click.argument("server_args", nargs=-1, type=click.UNPROCESSED, metavar="[-- SERVER OPTIONS...]")
def serve(config_path: Path | None, verbose: bool, server_args: tuple[str, ...], **flags: Any) -> None:
    """Run SPEC's MCP server now: the server `generate` would write, with the same settings.

    Generation options come before `--`; the server's own options (--transport, --port, --toolsets,
    ...) after it, and its environment variables are those of the generated package
    (`<PREFIX>_BASE_URL`, its credentials): `mcpforge serve SPEC -- --help` lists them. Stdio by
    default: diagnostics go to stderr, stdout carries only the protocol.
    """
    from mcpforge.pipeline import contract  # noqa: PLC0415
    from mcpforge.runtime.serving.cli import run  # noqa: PLC0415

    options = resolve(flags, config_path)
    if options.spec is None:
        raise ConfigError("no SPEC given", hint="run `mcpforge serve SPEC`, or set spec in mcpforge.toml")
    data, diagnostics, search = contract(options)
    print_diagnostics(diagnostics, verbose=verbose)
    # The server runs for hours, and its requests do make cycles (exceptions, tasks): Python's own
    # collector settings, as a generated server has, not the generator's (cli.tune_gc).
    gc.set_threshold(*PYTHON_GC_THRESHOLDS)
    run(data, list(server_args), search=search)
