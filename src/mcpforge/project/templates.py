"""The Jinja templates of the generated project: loaded once, rendered from a precomputed context.

Only this module imports Jinja, and only a run that renders imports it. The templates are compiled
in every run (about 0.05 s): a bytecode cache would save that, but ``mcpforge generate`` writes
nothing outside its output folder (docs/server.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from mcpforge.project import PACKAGE_DIR
from mcpforge.project.escape import comment, json_string, markdown, toml_string

__all__ = ["TEMPLATES", "render_templates"]

# (path in the generated project, template, the context key that must be set for it or None); "{package}"
# is the package's folder. TOOLS.md only for an API with more tools than a README should list.
TEMPLATES: tuple[tuple[str, str, str | None], ...] = (
    ("pyproject.toml", "pyproject.toml.jinja", None),
    ("README.md", "README.md.jinja", None),
    ("TOOLS.md", "TOOLS.md.jinja", "tools_file"),
    (".env.example", "env.example.jinja", None),
    ("src/{package}/__init__.py", "package/__init__.py.jinja", None),
    ("src/{package}/__main__.py", "package/__main__.py.jinja", None),
    ("Dockerfile", "Dockerfile.jinja", None),
    ("compose.yaml", "compose.yaml.jinja", None),
    ("deploy/nginx.conf", "deploy/nginx.conf.jinja", None),
    ("deploy/kubernetes.yaml", "deploy/kubernetes.yaml.jinja", None),
)


def _templates_dir() -> Path:
    packaged = PACKAGE_DIR / "templates"  # the loader needs a real folder anyway
    if packaged.is_dir():
        return packaged
    return PACKAGE_DIR.parents[1] / "templates"  # a source checkout


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
    )
    env.filters.update(md=markdown, toml=toml_string, comment=comment, json=json_string)
    return env


def render_templates(context: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(path, text)`` of each templated file; ``context["package"]`` names the package's folder."""
    env = _environment()
    return [
        (path.format(package=context["package"]), env.get_template(name).render(context))
        for path, name, when in TEMPLATES
        if when is None or context[when]
    ]
