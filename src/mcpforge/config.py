"""Every ``mcpforge generate`` option in one table: command line, ``mcpforge.toml`` and ``[tool.mcpforge]``.

The table below is the single authority: the CLI builds its options from it, configuration
files are checked against it, and the README's options table is rendered from it.
Precedence: command line > configuration file > default. Paths in a configuration file are
relative to that file.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcpforge.budget import BudgetLimits
from mcpforge.errors import ConfigError
from mcpforge.generate import GenerateOptions
from mcpforge.options import BuildOptions, Override, Selection, ValidationLevel

__all__ = [
    "OPTIONS",
    "Option",
    "build_options",
    "find_config",
    "generate_options",
    "load_config",
    "options_table",
    "resolve",
]

CONFIG_FILE = "mcpforge.toml"


@dataclass(frozen=True, slots=True)
class Option:
    """One option: its configuration key (the CLI flag is ``--<key>``), type, default and meaning."""

    key: str
    kind: type
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    multiple: bool = False  # a list in TOML; a repeatable or comma-separated flag on the CLI
    shown: str = ""  # the default as the options table reads, when ``default`` does not say it


_B = BuildOptions()
_S = Selection()
_L = BudgetLimits()

OPTIONS: tuple[Option, ...] = (
    Option("spec", Path, None, "OpenAPI document (JSON or YAML; Swagger 2.0, OpenAPI 3.0 or 3.1).", shown="required"),
    Option(
        "output", Path, None, "Output directory (must be empty or hold an earlier mcpforge output).", shown="required"
    ),
    Option("name", str, None, "Project name: package `<name>_mcp`, command `<name>-mcp`.", shown="from title"),
    Option(
        "validate",
        str,
        "basic",
        "basic: fast structural check; full: openapi-spec-validator.",
        ("none", "basic", "full"),
    ),
    Option("strict", bool, False, "Treat validation problems and warnings as fatal errors."),
    Option("allow-remote-refs", bool, False, "Fetch http(s) `$ref`s (refused by default)."),
    Option("include-tags", str, (), "Only operations with one of these tags.", multiple=True, shown="all"),
    Option("exclude-tags", str, (), "Leave out operations with one of these tags.", multiple=True, shown="none"),
    Option(
        "include-operations",
        str,
        (),
        "Only operations whose operationId matches one of these globs.",
        multiple=True,
        shown="all",
    ),
    Option(
        "exclude-operations",
        str,
        (),
        "Leave out operations whose operationId matches one of these globs.",
        multiple=True,
        shown="none",
    ),
    Option(
        "include-paths",
        str,
        (),
        "Only operations whose path matches one of these globs (`/repos/*`).",
        multiple=True,
        shown="all",
    ),
    Option(
        "exclude-paths",
        str,
        (),
        "Leave out operations whose path matches one of these globs.",
        multiple=True,
        shown="none",
    ),
    Option(
        "methods",
        str,
        (),
        "Only these HTTP methods (for example `get` for a read-only server).",
        multiple=True,
        shown="all",
    ),
    Option("include-deprecated", bool, _S.include_deprecated, "Also generate deprecated operations."),
    Option("dynamic", bool, False, "Serve search/describe/call meta-tools by default (the server's --dynamic)."),
    Option(
        "max-tool-name-length",
        int,
        _B.max_tool_name_length,
        "Longest tool name (lower it when a client adds a prefix).",
    ),
    Option("summary-max", int, _B.summary_max, "Longest summary (tool title)."),
    Option("description-max", int, _B.description_max, "Longest tool description."),
    Option("argument-description-max", int, _B.argument_description_max, "Longest argument description."),
    Option("output-schemas", bool, _B.output_schemas, "Declare outputSchema on tools."),
    Option(
        "max-schema-bytes",
        int,
        _B.max_schema_bytes,
        "Budget of one input schema's nested definitions; deeper ones become open objects (0: no limit).",
    ),
    Option("max-tools", int, _L.max_tools, "Warn above this many tools (0: never)."),
    Option(
        "max-total-tokens",
        int,
        _L.max_total_tokens,
        "Warn when tools/list is estimated above this many tokens (0: never).",
    ),
    Option("max-tool-tokens", int, _L.max_tool_tokens, "Warn about tools estimated above this many tokens (0: never)."),
    Option("fail-on-warning", bool, False, "Exit 1 when any warning was reported."),
)
_BY_KEY = {option.key: option for option in OPTIONS}
_OVERRIDE_KEYS = {"name": str, "description": str, "exclude": bool}


def find_config(start: Path) -> Path | None:
    """``mcpforge.toml`` in ``start``, else a ``pyproject.toml`` there with a ``[tool.mcpforge]`` table."""
    candidate = start / CONFIG_FILE
    if candidate.is_file():
        return candidate
    pyproject = start / "pyproject.toml"
    if pyproject.is_file() and "mcpforge" in _read(pyproject).get("tool", {}):
        return pyproject
    return None


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}", hint="fix the file's syntax") from None


def _check(key: str, value: Any, where: str) -> Any:
    option = _BY_KEY.get(key)
    if option is None:
        known = ", ".join(sorted([*_BY_KEY, "overrides"]))
        raise ConfigError(f"unknown option {key!r} in {where}", hint=f"known options: {known}")
    if option.multiple:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{key} in {where} must be a list of strings")
        return tuple(value)
    expected = str if option.kind is Path else option.kind
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        raise ConfigError(f"{key} in {where} must be a {expected.__name__}, not {type(value).__name__}")
    if option.choices and value not in option.choices:
        raise ConfigError(f"{key} in {where} must be one of {', '.join(option.choices)}")
    return value


def _overrides(raw: Any, where: str) -> dict[str, Override]:
    if not isinstance(raw, Mapping):
        raise ConfigError(f"overrides in {where} must be a table of operations")
    result = {}
    for key, fields in raw.items():
        if not isinstance(fields, Mapping):
            raise ConfigError(f"overrides.{key!r} in {where} must be a table (name, description, exclude)")
        for field, value in fields.items():
            kind = _OVERRIDE_KEYS.get(field)
            if kind is None or not isinstance(value, kind):
                raise ConfigError(
                    f"overrides.{key!r}.{field} in {where} is not valid",
                    hint="an override has name (string), description (string) and exclude (boolean)",
                )
        result[str(key)] = Override(**dict(fields))
    return result


def load_config(path: Path) -> dict[str, Any]:
    """The checked options of a configuration file (paths made absolute against its folder)."""
    data = _read(path)
    where = str(path)
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("mcpforge", {})
        where += " [tool.mcpforge]"
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key == "overrides":
            values["overrides"] = _overrides(value, where)
            continue
        values[key] = _check(key, value, where)
        if _BY_KEY[key].kind is Path:
            values[key] = (path.parent / value).resolve()
    return values


def resolve(cli: Mapping[str, Any], config: Mapping[str, Any]) -> dict[str, Any]:
    """Option values: given on the command line, else from the configuration, else the default."""
    values: dict[str, Any] = {}
    for option in OPTIONS:
        given = cli.get(option.key)
        if given is not None and given != ():
            values[option.key] = given
        elif option.key in config:
            values[option.key] = config[option.key]
        else:
            values[option.key] = option.default
    values["overrides"] = config.get("overrides", {})
    return values


def build_options(values: Mapping[str, Any]) -> tuple[BuildOptions, BudgetLimits, ValidationLevel]:
    """The pipeline's option values from resolved option values."""
    selection = Selection(
        include_tags=values["include-tags"],
        exclude_tags=values["exclude-tags"],
        include_operations=values["include-operations"],
        exclude_operations=values["exclude-operations"],
        include_paths=values["include-paths"],
        exclude_paths=values["exclude-paths"],
        methods=values["methods"],
        include_deprecated=values["include-deprecated"],
        overrides=values["overrides"],
    )
    build = BuildOptions(
        max_tool_name_length=values["max-tool-name-length"],
        summary_max=values["summary-max"],
        description_max=values["description-max"],
        argument_description_max=values["argument-description-max"],
        output_schemas=values["output-schemas"],
        max_schema_bytes=values["max-schema-bytes"],
        selection=selection,
    )
    limits = BudgetLimits(
        max_tools=values["max-tools"],
        max_total_tokens=values["max-total-tokens"],
        max_tool_tokens=values["max-tool-tokens"],
    )
    return build, limits, ValidationLevel(values["validate"])


def generate_options(values: Mapping[str, Any], reserved_names: Mapping[str, str] | None = None) -> GenerateOptions:
    """The options of one run from resolved values (``spec`` must be set)."""
    if values["spec"] is None:
        raise ConfigError("no SPEC given", hint="run `mcpforge generate SPEC -o OUTPUT`, or set spec in mcpforge.toml")
    build, limits, validation = build_options(values)
    return GenerateOptions(
        spec=Path(values["spec"]),
        build=build,
        validation=validation,
        strict=values["strict"],
        allow_remote_refs=values["allow-remote-refs"],
        project_name=values["name"],
        dynamic=values["dynamic"],
        budget=limits,
        reserved_names=dict(reserved_names or {}),
    )


def options_table() -> str:
    """The Markdown table of every option (the README embeds it)."""
    lines = ["| option (`mcpforge.toml` key, CLI `--<key>`) | default | meaning |", "|---|---|---|"]
    for option in OPTIONS:
        shown = option.shown or (str(option.default).lower() if option.kind is bool else str(option.default))
        lines.append(f"| `{option.key}` | {shown} | {option.help} |")
    lines.append(
        '| `[overrides."<operationId or METHOD /path>"]` | none | `name`, `description`, `exclude` for one '
        "operation (the spec's `x-mcp` extension takes the same fields; the configuration wins). |"
    )
    return "\n".join(lines) + "\n"
