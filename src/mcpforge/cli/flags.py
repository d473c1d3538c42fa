"""Command-line flags from the options model, and the run's options from flags plus ``mcpforge.toml``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

import click

from mcpforge.options.model import OPTIONS, OptionInfo, Options

__all__ = ["config_option", "option_flags", "resolve"]

F = TypeVar("F", bound=Callable[..., Any])


def _split(values: Any) -> Any:
    """Repeated and comma-separated values of a multiple option as one tuple (paths are never split)."""
    if isinstance(values, tuple) and all(isinstance(v, str) for v in values):
        return tuple(v.strip() for value in values for v in value.split(",") if v.strip())
    return values


def _flag(option: OptionInfo) -> Callable[[F], F]:
    flag = f"--{option.key}"
    # The flag's own default is None ("not given": the configuration file may set it); help shows the real one.
    shown = option.shown_default()
    extra: dict[str, Any] = {
        "default": None,
        "help": option.help.replace("`", "'"),
        "show_default": shown if shown != "required" else False,
    }
    # Paths are checked where they are read: a missing or wrong one is an input error (exit 1), not usage.
    if option.attribute == "spec":
        return click.argument("spec", required=False, type=click.Path(path_type=Path))
    if option.attribute == "output":
        return click.option("-o", flag, type=click.Path(path_type=Path), **extra)
    if option.multiple:
        if option.kind is Path:
            return click.option(flag, multiple=True, metavar="FILE", type=click.Path(path_type=Path), **extra)
        return click.option(flag, multiple=True, metavar="A,B", **extra)
    if option.kind is bool:
        return click.option(f"{flag}/--no-{option.key}", **extra)
    if issubclass(option.kind, StrEnum):
        kind = option.kind  # the option's value is the enum member, as a configuration file gives it

        def member(_: click.Context, __: click.Parameter, value: str | None) -> StrEnum | None:
            return None if value is None else kind(value)

        return click.option(flag, type=click.Choice(option.choices), callback=member, **extra)
    if option.kind is int:
        return click.option(flag, type=click.IntRange(min=option.minimum, max=option.maximum), **extra)
    return click.option(flag, type=option.kind, **extra)


def option_flags(*, generate: bool = False, spec_argument: bool = True) -> Callable[[F], F]:
    """One click parameter per option (``output`` only for ``generate``; SPEC unless the command has a TARGET)."""

    def decorate(func: F) -> F:
        for option in reversed(OPTIONS):
            if option.only == "file" or (option.only == "generate" and not generate):
                continue
            if option.attribute == "spec" and not spec_argument:
                continue
            func = _flag(option)(func)
        return func

    return decorate


def config_option(func: F) -> F:
    """``--config FILE`` (default: ./mcpforge.toml, else [tool.mcpforge] in ./pyproject.toml)."""
    return click.option(
        "--config",
        "config_path",
        type=click.Path(path_type=Path),
        help="Configuration file (default: ./mcpforge.toml, else [tool.mcpforge] in ./pyproject.toml).",
    )(func)


def resolve(flags: Mapping[str, Any], config_path: Path | None) -> Options:
    """The run's options: the flags given, else the configuration file's values, else the defaults."""
    from mcpforge.options.files import find_config, load_config, resolve_options  # noqa: PLC0415

    path = config_path or find_config(Path.cwd())
    config = load_config(path) if path else {}
    return resolve_options({key: _split(value) for key, value in flags.items()}, config)
