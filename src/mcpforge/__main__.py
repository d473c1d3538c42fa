"""``python -m mcpforge``."""

from mcpforge.cli import main

main()
