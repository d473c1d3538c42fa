"""The generated project: every file it holds, rendered in memory (nothing is written here)."""

from pathlib import Path

__all__ = ["PACKAGE_DIR"]

# Where mcpforge is installed: its runtime sources and templates are read from there (not through
# importlib.resources, whose import alone cost a tenth of a small document's run).
PACKAGE_DIR = Path(__file__).resolve().parents[1]
