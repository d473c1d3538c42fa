"""The generated server's settings as one Markdown table, built from the runtime's settings table (docs/server.md)."""

from __future__ import annotations

from mcpforge.runtime.observe.tracing import TRACING_VARIABLES
from mcpforge.runtime.settings.table import SETTINGS

__all__ = ["settings_table", "tracing_table"]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def settings_table() -> str:
    """Every setting of a generated server: variable, flag, default, meaning (credentials are per API: not here)."""
    lines = ["| variable | flag | default | meaning |", "|---|---|---|---|"]
    for setting in SETTINGS:
        flag = f"`{setting.flag}`" if setting.flag else ""
        default = _cell(setting.shown_default())
        secret = " (secret)" if setting.secret else ""
        lines.append(
            f"| `{setting.variable('<PREFIX>')}` | {flag} | {f'`{default}`' if default else ''} | "
            f"{_cell(setting.help)}{secret} |"
        )
    return "\n".join(lines) + "\n"


def tracing_table() -> str:
    """The standard OpenTelemetry variables a generated server acts on (with its tracing extra)."""
    lines = ["| variable | meaning |", "|---|---|"]
    lines += [f"| `{name}` | {_cell(text)} |" for name, text in TRACING_VARIABLES]
    return "\n".join(lines) + "\n"
