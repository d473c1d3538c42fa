"""``mcpforge tools`` and ``convert``: the tool lists of live MCP servers, and of saved lists, in any format."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import click

from mcpforge.errors import ConfigError
from mcpforge.targets import FORMATS

__all__ = ["convert", "tools"]


def _write(data: Any, output: Path | None) -> None:
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write {output}: {exc.strerror or exc}") from None


def _headers(values: tuple[str, ...]) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """``Key: Value`` for every HTTP server, or ``NAME=Key: Value`` for one."""
    common: dict[str, str] = {}
    scoped: dict[str, dict[str, str]] = {}
    for raw in values:
        key, sep, value = raw.partition(":")
        if not sep or not key.strip():
            raise click.BadParameter(f"{raw!r} is not 'Name: value'", param_hint="--header")
        server, eq, key = key.partition("=") if "=" in key else ("", "", key)
        target = scoped.setdefault(server, {}) if eq else common
        target[key.strip()] = value.strip()
    return common, scoped


_NAMED = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)=(.+)$", re.DOTALL)


def _per_server(values: tuple[str, ...]) -> tuple[str | None, dict[str, str]]:
    """``VALUE`` for every server, or ``NAME=VALUE`` for one: (the common value, per-server values)."""
    common, scoped = None, {}
    for raw in values:
        match = _NAMED.match(raw)
        if match:
            scoped[match.group(1)] = match.group(2)
        else:
            common = raw
    return common, scoped


def _client_credentials(
    name: str,
    ids: tuple[str | None, dict[str, str]],
    issuers: tuple[str | None, dict[str, str]],
    scopes: tuple[str | None, dict[str, str]],
) -> Any:
    """OAuth client credentials for server ``name``; the secret comes from the environment, never the command line."""
    from mcpforge.client.hub import ClientCredentials  # noqa: PLC0415

    client_id = ids[1].get(name, ids[0])
    if client_id is None:
        return None
    variables = [
        f"MCPFORGE_OAUTH_CLIENT_SECRET_{re.sub(r'[^A-Za-z0-9]', '_', name).upper()}",
        "MCPFORGE_OAUTH_CLIENT_SECRET",
    ]
    secret = next((os.environ[v] for v in variables if os.environ.get(v)), None)
    if secret is None:
        raise click.UsageError(f"--oauth-client-id for {name}: set {variables[1]} (or {variables[0]}) to its secret")
    return ClientCredentials(
        client_id=client_id,
        client_secret=secret.strip(),
        issuer=issuers[1].get(name, issuers[0]),
        scope=scopes[1].get(name, scopes[0]),
    )


@click.command(epilog="""\b
Examples:
  mcpforge tools --stdio "petstore-mcp" --format openai-chat -o tools.json
  mcpforge tools --http github=https://mcp.example.com/mcp -H 'github=Authorization: Bearer ...'""")
@click.option("--stdio", "stdio", multiple=True, metavar="[NAME=]COMMAND", help="A server started as a command.")
@click.option("--http", "http", multiple=True, metavar="[NAME=]URL", help="A streamable HTTP server endpoint.")
@click.option(
    "-H", "--header", multiple=True, metavar="[NAME=]KEY: VALUE", help="HTTP header (for one server with NAME=)."
)
@click.option("-e", "--env", multiple=True, metavar="NAME=VALUE", help="Environment variable for --stdio servers.")
@click.option(
    "--oauth-client-id",
    multiple=True,
    metavar="[NAME=]ID",
    help="OAuth client credentials for a protected --http server; the secret comes from "
    "$MCPFORGE_OAUTH_CLIENT_SECRET (or $MCPFORGE_OAUTH_CLIENT_SECRET_<NAME>).",
)
@click.option("--oauth-issuer", multiple=True, metavar="[NAME=]URL", help="The authorization server those belong to.")
@click.option("--oauth-scope", multiple=True, metavar="[NAME=]SCOPES", help="Scopes to ask for (space-separated).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="mcp", show_default=True)
@click.option("--strict", is_flag=True, help="OpenAI/Anthropic strict mode where a tool allows it.")
@click.option("--max-name-length", type=click.IntRange(8, 128), default=64, show_default=True)
@click.option("-o", "--output", type=click.Path(path_type=Path), help="File (default: stdout).")
@click.option("--mapping", type=click.Path(path_type=Path), help="Write exposed name -> server, tool.")
@click.option(
    "--timeout",
    type=click.FloatRange(min=0),
    default=30.0,
    show_default=True,
    help="Seconds a server may take to start and answer (0: wait forever).",
)
def tools(
    stdio: tuple[str, ...],
    http: tuple[str, ...],
    header: tuple[str, ...],
    env: tuple[str, ...],
    oauth_client_id: tuple[str, ...],
    oauth_issuer: tuple[str, ...],
    oauth_scope: tuple[str, ...],
    fmt: str,
    strict: bool,
    max_name_length: int,
    output: Path | None,
    mapping: Path | None,
    timeout: float,
) -> None:
    """List the tools of MCP servers (every page) and write them in a provider's format.

    Several servers are aggregated; a name found on more than one server is prefixed with the
    server's name (NAME, else the command's or host's name).
    """
    import anyio  # noqa: PLC0415

    from mcpforge.client.hub import ServerTarget, ToolHub, first_error  # noqa: PLC0415

    if not stdio and not http:
        raise click.UsageError("give at least one --stdio COMMAND or --http URL")
    common, scoped = _headers(header)
    variables = {}
    for item in env:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{item!r} is not NAME=VALUE", param_hint="--env")
        variables[key] = value
    try:
        servers = [ServerTarget.parse(s, http=False, env=variables or None) for s in stdio]
        ids, issuers, scopes = _per_server(oauth_client_id), _per_server(oauth_issuer), _per_server(oauth_scope)
        for text in http:
            parsed = ServerTarget.parse(text, http=True)
            credentials = _client_credentials(parsed.name, ids, issuers, scopes)
            headers = common | scoped.get(parsed.name, {})
            servers.append(ServerTarget.http(parsed.url or "", name=parsed.name, headers=headers, oauth=credentials))
        hub = ToolHub(servers, max_name_length=max_name_length, connect_timeout=timeout or None)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    unknown = set(scoped) - {s.name for s in servers}
    if unknown:
        raise click.UsageError(f"--header names unknown server(s): {', '.join(sorted(unknown))}")

    caught: list[int] = []

    async def collect() -> tuple[list[dict[str, Any]], dict[str, Any], int] | None:
        # A signal cancels the work, so the hub stops every server process it started before exiting.
        async with anyio.create_task_group() as group:
            group.start_soon(_cancel_on_signal, group.cancel_scope, caught)
            async with hub:
                renamed = sum(1 for t in hub.tools if t.name != t.original)
                found = hub.manifest(fmt, strict=strict), hub.mapping, renamed
            group.cancel_scope.cancel()
            return found
        return None

    try:
        collected = anyio.run(collect)
    except Exception as exc:  # noqa: BLE001 - an unreachable server, or one that speaks no MCP: one clear line
        first, text = first_error(exc)
        click.echo(f"error: cannot list tools: {text or type(first).__name__}", err=True)
        sys.exit(1)
    if caught or collected is None:
        signum = caught[0] if caught else 2
        click.echo(f"interrupted by {signal.Signals(signum).name}; every server process was stopped", err=True)
        sys.exit(128 + signum)
    manifest, names, renamed = collected
    _write(manifest, output)
    if mapping is not None:
        _write(names, mapping)
    click.echo(f"{len(manifest)} tools from {len(servers)} server(s); {renamed} renamed to stay unique", err=True)


async def _cancel_on_signal(scope: Any, caught: list[int]) -> None:
    import anyio  # noqa: PLC0415

    from mcpforge.output.interrupts import SIGNALS  # noqa: PLC0415

    with anyio.open_signal_receiver(*SIGNALS) as received:
        async for signum in received:
            caught.append(int(signum))
            scope.cancel()
            return


@click.command(epilog="""\b
Examples:
  mcpforge convert out/manifests/mcp-tools.json --to gemini -o gemini.json
  mcpforge convert tools-list.json --to openai-responses --strict --mapping names.json""")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--to", "fmt", type=click.Choice(FORMATS), required=True)
@click.option("--strict", is_flag=True, help="OpenAI/Anthropic strict mode where a tool allows it.")
@click.option("-o", "--output", type=click.Path(path_type=Path), help="File (default: stdout).")
@click.option(
    "--mapping",
    type=click.Path(path_type=Path),
    help="Write {converted name: MCP name} for every renamed tool to this JSON file.",
)
def convert(file: Path, fmt: str, strict: bool, output: Path | None, mapping: Path | None) -> None:
    """Convert a saved MCP tool list (a list of tools, or a tools/list result) to another format.

    Names the format does not accept (OpenAI rejects files.read) are made valid; each rename is
    reported, and --mapping saves the way back to the MCP names for running calls.
    """
    from mcpforge.targets.convert import convert_tools  # noqa: PLC0415

    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ConfigError(f"{file} is not a readable JSON file: {exc}") from None
    listed = data.get("tools") if isinstance(data, dict) else data
    if not isinstance(listed, list) or not all(
        isinstance(t, dict) and isinstance(t.get("name"), str) and isinstance(t.get("inputSchema"), dict)
        for t in listed
    ):
        raise ConfigError(
            f"{file} is not an MCP tool list",
            hint='expected a list of tools with name and inputSchema, or {"tools": [...]} from tools/list',
        )
    result = convert_tools(listed, fmt, strict=strict)
    _write(result.tools, output)
    if mapping is not None:
        _write(result.renamed, mapping)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    for note in result.notes:
        click.echo(note, err=True)
    if result.renamed and mapping is None:
        click.echo(
            f"{len(result.renamed)} tool(s) renamed for {fmt}; pass --mapping FILE to save the way back", err=True
        )
