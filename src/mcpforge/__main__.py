"""``python -m mcpforge``."""

from mcpforge.cli import run

run()
