"""Configuration files: ``mcpforge.toml`` or ``[tool.mcpforge]`` in ``pyproject.toml``, checked against the options.

Every key is an option of :mod:`mcpforge.options.model` (plus ``[overrides."<operation>"]`` tables); an
unknown key, a wrong type or a value out of range is a :class:`~mcpforge.errors.ConfigError` naming
the file and the key. Paths in a file are relative to that file.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any

from mcpforge.errors import ConfigError
from mcpforge.options.model import OPTIONS, OptionInfo, Options, Override, range_problem

__all__ = ["CONFIG_FILE", "find_config", "load_config", "resolve_options"]

CONFIG_FILE = "mcpforge.toml"
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
    import tomllib  # noqa: PLC0415 - only when there is a file to read: most runs have none

    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}", hint="fix the file's syntax") from None


def check_value(option: OptionInfo, value: Any, where: str) -> Any:
    """``value`` for ``option`` as the configuration file gives it, checked and converted."""
    if option.multiple:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{option.key} in {where} must be a list of strings")
        return tuple(value)
    if issubclass(option.kind, StrEnum):
        if value not in option.choices:
            raise ConfigError(f"{option.key} in {where} must be one of {', '.join(option.choices)}")
        return option.kind(value)
    expected = str if option.kind is Path else option.kind
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        raise ConfigError(f"{option.key} in {where} must be a {expected.__name__}, not {type(value).__name__}")
    problem = range_problem(value, option.minimum, option.maximum)
    if problem:
        raise ConfigError(f"{option.key} in {where} {problem}")
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
    """The checked option values of a configuration file, by attribute (paths made absolute)."""
    data = _read(path)
    where = str(path)
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("mcpforge", {})
        where += " [tool.mcpforge]"
    values: dict[str, Any] = {}
    for key, value in data.items():
        option = _BY_KEY.get(key)
        if option is None:
            raise ConfigError(f"unknown option {key!r} in {where}", hint=f"known options: {', '.join(sorted(_BY_KEY))}")
        if option.kind is Mapping:
            values[option.attribute] = _overrides(value, where)
            continue
        checked = check_value(option, value, where)
        if option.kind is Path:
            checked = (
                tuple((path.parent / v).resolve() for v in checked)
                if option.multiple
                else (path.parent / checked).resolve()
            )
        values[option.attribute] = checked
    return values


def resolve_options(given: Mapping[str, Any], config: Mapping[str, Any]) -> Options:
    """The run's options: ``given`` (by attribute; None or () when not given), else the file's, else the default."""
    values: dict[str, Any] = {}
    for option in OPTIONS:
        value = given.get(option.attribute)
        if value is not None and value != ():
            values[option.attribute] = value
        elif option.attribute in config:
            values[option.attribute] = config[option.attribute]
    return Options(**values)
