"""The Jinja templates of the generated project: loaded once, rendered from a precomputed context.

Only this module imports Jinja. Compiling the templates costs as much as rendering a 1,000-tool
project's other files, so their bytecode is kept between runs as Python keeps a module's:
in the user's cache folder (:func:`_cache_dir`), checked against the template's source and
the Python version by Jinja, and skipped silently where that folder cannot be written.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from mcpforge.project import PACKAGE_DIR
from mcpforge.project.escape import comment, json_string, markdown, toml_string

__all__ = ["TEMPLATES", "render_templates"]

# (path in the generated project, template); "{package}" is the package's folder.
TEMPLATES = (
    ("pyproject.toml", "pyproject.toml.jinja"),
    ("README.md", "README.md.jinja"),
    (".env.example", "env.example.jinja"),
    ("src/{package}/__init__.py", "package/__init__.py.jinja"),
    ("src/{package}/__main__.py", "package/__main__.py.jinja"),
    ("Dockerfile", "Dockerfile.jinja"),
    ("compose.yaml", "compose.yaml.jinja"),
    ("deploy/nginx.conf", "deploy/nginx.conf.jinja"),
    ("deploy/kubernetes.yaml", "deploy/kubernetes.yaml.jinja"),
)


def _templates_dir() -> Path:
    packaged = PACKAGE_DIR / "templates"  # the loader needs a real folder anyway
    if packaged.is_dir():
        return packaged
    return PACKAGE_DIR.parents[1] / "templates"  # a source checkout


def _cache_dir() -> str | None:
    """``$XDG_CACHE_HOME/mcpforge/templates`` (else ``~/.cache/...``), private to the user, or None."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "mcpforge", "templates")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        found = os.lstat(folder)
    except OSError:
        return None
    # Bytecode is code: load it only from a real folder of this user's that no one else can write.
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid() or found.st_mode & 0o022:
        return None
    return folder


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's file cache, where a failed write (a full disk, a read-only home) only means no cache."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


@cache
def _environment() -> jinja2.Environment:
    # No HTML autoescaping: the output is Python, TOML and Markdown, each escaped by its own filter.
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_templates_dir())),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,  # noqa: S701
        bytecode_cache=_BytecodeCache(folder) if (folder := _cache_dir()) else None,
    )
    env.filters.update(md=markdown, toml=toml_string, comment=comment, json=json_string)
    return env


def render_templates(context: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(path, text)`` of each templated file; ``context["package"]`` names the package's folder."""
    env = _environment()
    return [
        (path.format(package=context["package"]), env.get_template(name).render(context)) for path, name in TEMPLATES
    ]
