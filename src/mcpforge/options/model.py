"""Every option of mcpforge, in one typed model: command-line flags, ``mcpforge.toml`` keys, defaults, docs.

:class:`Options` is the single source: each field is one option (its configuration key and flag
are the field name with dashes, ``--include-tags``), its type decides how it is parsed and checked,
and its metadata holds the help text. The CLI builds its flags from :data:`OPTIONS`, configuration
files are checked against it (:mod:`mcpforge.options.files`), the README's table is :func:`options_table`,
and every stage of the pipeline reads the one frozen :class:`Options` value it is given.
Precedence: command line, then the configuration file, then the default.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import Any

from mcpforge.errors import ConfigError

__all__ = [
    "OPTIONS",
    "DeferredManifests",
    "OptionInfo",
    "Options",
    "Override",
    "ServerMode",
    "ValidationLevel",
    "options_table",
    "range_problem",
]


class ValidationLevel(StrEnum):
    """How thoroughly the document is checked before generation."""

    NONE = "none"
    BASIC = "basic"  # fast structural check with JSON pointers (default)
    FULL = "full"  # openapi-spec-validator (slow on large documents)


class ServerMode(StrEnum):
    """What the generated server lists unless its MODE setting says otherwise."""

    TOOLS = "tools"  # one tool per operation (default)
    SEARCH = "search"  # search, describe and call meta-tools: a listing of constant size
    CODE = "code"  # search the API, and run a short Python program against it in a sandbox


class DeferredManifests(StrEnum):
    """When the manifests that defer every tool to the provider's tool search are written."""

    AUTO = "auto"  # from DEFER_FROM tools
    ALWAYS = "always"
    NEVER = "never"


@dataclass(frozen=True, slots=True)
class Override:
    """Per-operation changes: a tool name, a description, or exclusion."""

    name: str | None = None
    description: str | None = None
    exclude: bool = False


def _about(
    help_text: str, *, shown: str = "", minimum: int | None = None, maximum: int | None = None, only: str = ""
) -> dict[str, Any]:
    """An option's metadata: help, the default as documented, the smallest value, and where it applies."""
    return {"help": help_text, "shown": shown, "minimum": minimum, "maximum": maximum, "only": only}


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    """One run's options; the field order is the documentation's order."""

    spec: Path | None = field(
        default=None,
        metadata=_about(
            "OpenAPI document: a file or an http(s) URL (JSON or YAML; Swagger 2.0, OpenAPI 3.0, 3.1 or 3.2).",
            shown="required",
        ),
    )
    output: Path | None = field(
        default=None,
        metadata=_about("Output directory (empty, or an earlier mcpforge output).", shown="required", only="generate"),
    )
    overlay: tuple[Path, ...] = field(
        default=(),
        metadata=_about(
            "Overlay documents (Overlay Specification 1.0 or 1.1) applied to the spec, in order, before anything "
            "reads it.",
            shown="none",
        ),
    )
    name: str | None = field(
        default=None, metadata=_about("Project name: package `<name>_mcp`, command `<name>-mcp`.", shown="from title")
    )
    validate: ValidationLevel = field(
        default=ValidationLevel.BASIC,
        metadata=_about("basic: fast structural check; full: openapi-spec-validator; none."),
    )
    strict: bool = field(default=False, metadata=_about("Treat validation problems and warnings as fatal errors."))
    allow_remote_refs: bool = field(default=False, metadata=_about("Fetch http(s) `$ref`s (refused by default)."))
    include_tags: tuple[str, ...] = field(
        default=(), metadata=_about("Only operations with one of these tags.", shown="all")
    )
    exclude_tags: tuple[str, ...] = field(
        default=(), metadata=_about("Leave out operations with one of these tags.", shown="none")
    )
    include_operations: tuple[str, ...] = field(
        default=(), metadata=_about("Only operations whose operationId matches one of these globs.", shown="all")
    )
    exclude_operations: tuple[str, ...] = field(
        default=(), metadata=_about("Leave out operations whose operationId matches one of these globs.", shown="none")
    )
    include_paths: tuple[str, ...] = field(
        default=(), metadata=_about("Only operations whose path matches one of these globs (`/repos/*`).", shown="all")
    )
    exclude_paths: tuple[str, ...] = field(
        default=(), metadata=_about("Leave out operations whose path matches one of these globs.", shown="none")
    )
    methods: tuple[str, ...] = field(
        default=(), metadata=_about("Only these HTTP methods (for example `get` for a read-only server).", shown="all")
    )
    include_deprecated: bool = field(default=False, metadata=_about("Also generate deprecated operations."))
    mode: ServerMode = field(
        default=ServerMode.TOOLS,
        metadata=_about(
            "What the server lists by default: tools (one per operation), search (search, describe and call "
            "meta-tools, for large APIs) or code (search the API and run a Python program against it in a "
            "sandbox); the server's MODE setting chooses at run time."
        ),
    )
    dynamic: bool = field(default=False, metadata=_about("The former name of `--mode search`."))
    deferred_manifests: DeferredManifests = field(
        default=DeferredManifests.AUTO,
        metadata=_about(
            "Write anthropic-deferred.json and openai-responses-deferred.json (every tool behind the provider's "
            "tool search): auto from 50 tools, always, or never."
        ),
    )
    changelog: bool = field(
        default=False,
        metadata=_about(
            "Write CHANGELOG.md: an entry for each regeneration that changes the tools, and the package version "
            "raised by semantic versioning (see docs/ci.md)."
        ),
    )
    max_tool_name_length: int = field(
        default=64,
        metadata=_about(
            "Longest tool name, 16 to 64 (lower it when a client adds a prefix; names are shortened by whole words).",
            minimum=16,
            maximum=64,
        ),
    )
    summary_max: int = field(default=150, metadata=_about("Longest summary (tool title).", minimum=1))
    description_max: int = field(default=300, metadata=_about("Longest tool description.", minimum=1))
    argument_description_max: int = field(
        default=300, metadata=_about("Longest argument or schema description.", minimum=1)
    )
    output_schemas: bool = field(default=True, metadata=_about("Declare outputSchema on tools."))
    max_schema_bytes: int = field(
        default=32_000,
        metadata=_about(
            "Budget of one input schema's nested definitions; deeper ones become open objects (0: no limit).",
            minimum=0,
        ),
    )
    max_tools: int = field(default=128, metadata=_about("Warn above this many tools (0: never).", minimum=0))
    max_total_tokens: int = field(
        default=50_000,
        metadata=_about("Warn when tools/list is estimated above this many tokens (0: never).", minimum=0),
    )
    max_tool_tokens: int = field(
        default=4_000, metadata=_about("Warn about tools estimated above this many tokens (0: never).", minimum=0)
    )
    fail_on_warning: bool = field(default=False, metadata=_about("Exit 1 when any warning was reported."))
    overrides: Mapping[str, Override] = field(
        default_factory=lambda: MappingProxyType({}),
        metadata=_about(
            "`name`, `description`, `exclude` for one operation (the spec's `x-mcp` extension takes the same "
            "fields; the configuration wins).",
            shown="none",
            only="file",
        ),
    )

    def __post_init__(self) -> None:
        """Numbers in their ranges whichever way the options were made (CLI, file, or library call)."""
        for options_field in dataclasses.fields(self):
            value, meta = getattr(self, options_field.name), options_field.metadata
            problem = range_problem(value, meta.get("minimum"), meta.get("maximum"))
            if problem:
                raise ConfigError(f"{options_field.name.replace('_', '-')} {problem} (got {value})")

    @property
    def server_mode(self) -> ServerMode:
        """The mode the generated server lists by default (``dynamic`` is the former name of search)."""
        return ServerMode.SEARCH if self.dynamic else self.mode

    def record(self) -> dict[str, Any]:
        """The options that shape the output, as the lock file records them (no paths, no CLI-only switches)."""
        skipped = {"spec", "output", "overlay", "fail_on_warning"}  # overlays: by name and hash in the lock
        values: dict[str, Any] = {}
        for option in OPTIONS:
            if option.attribute in skipped:
                continue
            value = getattr(self, option.attribute)
            if isinstance(value, Mapping):
                value = {k: dataclasses.asdict(v) for k, v in sorted(value.items())}
            elif isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, StrEnum):
                value = value.value
            values[option.key] = value
        return values


def range_problem(value: Any, minimum: int | None, maximum: int | None) -> str | None:
    """``must be at least N`` (or at most) when an integer ``value`` is out of range, else None."""
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    if minimum is not None and value < minimum:
        return f"must be at least {minimum}"
    if maximum is not None and value > maximum:
        return f"must be at most {maximum}"
    return None


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """One option as the CLI, the configuration file and the docs see it."""

    attribute: str  # the field of Options
    key: str  # the configuration key; the flag is --<key>
    kind: type  # str, int, bool, Path, ValidationLevel, or Mapping for overrides
    multiple: bool  # a list in TOML; repeatable or comma-separated on the command line
    default: Any
    help: str
    shown: str
    minimum: int | None
    maximum: int | None
    only: str  # "generate": that command only; "file": configuration files only

    @property
    def choices(self) -> tuple[str, ...]:
        """Accepted values of an enumeration option."""
        return (
            tuple(v.value for v in self.kind) if isinstance(self.kind, type) and issubclass(self.kind, StrEnum) else ()
        )

    def shown_default(self) -> str:
        """The default as the options table shows it."""
        if self.shown:
            return self.shown
        if isinstance(self.default, bool):
            return str(self.default).lower()
        return str(self.default.value if isinstance(self.default, StrEnum) else self.default)


def _info(options_field: dataclasses.Field[Any], hint: Any) -> OptionInfo:
    origin = typing.get_origin(hint)
    arguments = [a for a in typing.get_args(hint) if a is not type(None)]
    multiple = origin is tuple
    if origin is tuple or (origin is not None and origin is not Mapping and arguments):
        kind = arguments[0]
    elif origin is Mapping or hint is Mapping:
        kind = Mapping
    else:
        kind = hint
    factory = options_field.default_factory
    default = options_field.default if factory is dataclasses.MISSING else factory()
    meta = options_field.metadata
    return OptionInfo(
        attribute=options_field.name,
        key=options_field.name.replace("_", "-"),
        kind=kind,
        multiple=multiple,
        default=default,
        help=meta["help"],
        shown=meta["shown"],
        minimum=meta["minimum"],
        maximum=meta["maximum"],
        only=meta["only"],
    )


def _table() -> tuple[OptionInfo, ...]:
    hints = typing.get_type_hints(Options)
    return tuple(_info(f, hints[f.name]) for f in dataclasses.fields(Options))


OPTIONS: tuple[OptionInfo, ...] = _table()


def options_table() -> str:
    """The Markdown table of every option (the README embeds it)."""
    lines = ["| option (`mcpforge.toml` key, CLI `--<key>`) | default | meaning |", "|---|---|---|"]
    for option in OPTIONS:
        key = '[overrides."<operationId or METHOD /path>"]' if option.key == "overrides" else option.key
        lines.append(f"| `{key}` | {option.shown_default()} | {option.help} |")
    return "\n".join(lines) + "\n"
