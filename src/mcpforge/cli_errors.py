"""How every command reports a fatal error: one message, exit code 1, never a traceback."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from mcpforge.errors import MCPForgeError

__all__ = ["fatal_errors"]

F = TypeVar("F", bound=Callable[..., Any])


def fatal_errors(func: F) -> F:
    """Turn fatal errors into one message and exit code 1."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except MCPForgeError as exc:
            click.echo(exc.render(), err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]
