"""Variables with the server's prefix that it does not read: a misspelt setting is a warning, not silence."""

from __future__ import annotations

from collections.abc import Mapping

from ..contract import ServerConfig
from .table import all_settings

__all__ = ["unknown_variables"]


def unknown_variables(config: ServerConfig, env: Mapping[str, str]) -> list[str]:
    """One line for each variable with this server's prefix that it does not read, naming the closest one it does.

    A misspelt setting (``PETSTORE_TIMEOUT_S``, ``GITHUB_TOOLSET``) would otherwise be ignored
    without a word.
    """
    import difflib  # noqa: PLC0415 - only when a variable is unknown

    prefix = config["envPrefix"] + "_"
    known = [setting.variable(config["envPrefix"]) for setting in all_settings(config)]
    lines = []
    for name in sorted(env):
        if not name.startswith(prefix) or name in known:
            continue
        # Compared without the prefix, which every name shares.
        close = difflib.get_close_matches(name[len(prefix) :], [k[len(prefix) :] for k in known], n=1, cutoff=0.6)
        hint = f"did you mean {prefix}{close[0]}?" if close else "run with --help for the settings"
        lines.append(f"{name} is not a setting of this server and is ignored; {hint}")
    return lines
