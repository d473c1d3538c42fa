"""The ``mcpforge`` command line: one click group, and the one place fatal errors become messages.

Rule: each module here holds commands of one kind (``generate``; ``inspect``: validate, lint,
budget; ``servers``: tools, convert) and imports the pipeline only inside its commands, so
``mcpforge --help`` stays fast. Commands raise :class:`~mcpforge.errors.MCPForgeError` (and click's
own usage errors); :class:`Group` turns the former into one message and exit code 1.

Exit codes: 0 success; 1 a fatal error, or warnings with ``--fail-on-warning``; 2 bad usage.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import os
import sys
from typing import IO, Any

import click

from mcpforge import __version__
from mcpforge.errors import MCPForgeError

__all__ = ["PYTHON_GC_THRESHOLDS", "Fatal", "Group", "main", "run", "tune_gc"]

# Each command: its module, and the first paragraph of its help (what `mcpforge --help` lists, so
# that listing the commands imports none of them; tests/test_cli.py holds the two to the same text).
_COMMANDS = {
    "generate": ("mcpforge.cli.generate", "Generate the MCP server and provider manifests from SPEC into OUTPUT."),
    "serve": (
        "mcpforge.cli.serve",
        "Run SPEC's MCP server now: the server `generate` would write, with the same settings.",
    ),
    "diff": (
        "mcpforge.cli.diff",
        "Compare the tools OLD and NEW generate: tools, arguments, types, enums, defaults, results, annotations.",
    ),
    "validate": (
        "mcpforge.cli.inspect",
        "Check SPEC and report every problem, without writing anything (exit 1 under --strict when any).",
    ),
    "lint": ("mcpforge.cli.inspect", "Check a spec's tools, or a saved manifest, against every provider's rules."),
    "budget": (
        "mcpforge.cli.inspect",
        "Context budget of a spec's tools, or of a generated output directory: per tool, per toolset, total.",
    ),
    "tools": (
        "mcpforge.cli.servers",
        "List the tools of MCP servers (every page) and write them in a provider's format.",
    ),
    "convert": (
        "mcpforge.cli.servers",
        "Convert a saved MCP tool list (a list of tools, or a tools/list result) to another format.",
    ),
}


class Fatal(click.ClickException):
    """An mcpforge error as click reports it: its own rendering, exit code 1."""

    exit_code = 1

    def __init__(self, error: MCPForgeError) -> None:
        super().__init__(error.message)
        self.error = error

    def show(self, file: IO[Any] | None = None) -> None:
        """One line (plus a hint line) on stderr."""
        click.echo(self.error.render(), err=True)


class Group(click.Group):
    """Commands loaded when used (``--help`` imports no pipeline); mcpforge errors turned into :class:`Fatal`."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command, in the order of the help."""
        return list(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command called ``cmd_name``, importing its module."""
        found = _COMMANDS.get(cmd_name)
        if found is None:
            return None
        command: click.Command = getattr(importlib.import_module(found[0]), cmd_name)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their short help, as click lists them, without importing a command's module."""
        limit = formatter.width - 6 - max(len(name) for name in _COMMANDS)
        # A stand-in command per row: click's own shortening of the help, through its public API.
        rows = [
            (name, click.Command(name, help=text).get_short_help_str(limit)) for name, (_, text) in _COMMANDS.items()
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a fatal mcpforge error becomes one message and exit code 1."""
        try:
            return super().invoke(ctx)
        except MCPForgeError as exc:
            if exc.exit_status != Fatal.exit_code:  # interrupted: 128 + the signal's number, as shells expect
                click.echo(exc.render(), err=True)
                ctx.exit(exc.exit_status)
            raise Fatal(exc) from None


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="mcpforge")
def main() -> None:
    """Turn an OpenAPI document (Swagger 2.0, OpenAPI 3.0, 3.1, 3.2) into MCP tools and a runnable server."""


PYTHON_GC_THRESHOLDS = gc.get_threshold()  # before tune_gc: what a long-running command restores


def tune_gc() -> None:
    """Run the cyclic garbage collector rarely (mypy's setting, for the same reason, with a larger first step).

    Generation builds millions of objects that live until the run ends (Microsoft Graph's heap
    grows to 600 MB); with Python's default thresholds the collector traverses them again and again
    and takes a third of the run (Graph 14.1 s -> 8.1 s, GitHub 1.54 s -> 1.23 s with mypy's
    200,000; see docs/benchmarks.md). Generation makes no reference cycles (tests/unit/test_no_cycles.py),
    so a collection finds nothing to free: at 1,000,000 neither GitHub nor Graph is collected once,
    and Graph's peak memory is lower, not higher. A command that does make cycles still has them
    collected, later, in fewer, larger collections.

    Nor does the collector run at exit: the process is ending and the OS takes its memory back at
    once, while the interpreter's last collections walk every object left (a Graph run's heap; the
    MCP SDK's types, for ``serve``): 0.1 to 0.5 s of every run.
    """
    gc.set_threshold(1_000_000, 30, 30)
    atexit.register(gc.freeze)


def run() -> None:
    """The ``mcpforge`` program (the console script's entry point): :func:`main`, and a reader gone away is status 1."""
    tune_gc()
    try:
        main()
    finally:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            # `mcpforge tools ... | head`: Python's own flush at exit would print a traceback instead.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
