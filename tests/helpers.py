"""Small helpers shared by tests."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from mcpforge.config import generate_options, load_config, resolve
from mcpforge.diagnostics import Diagnostics
from mcpforge.generate import GenerateOptions
from mcpforge.options import BuildOptions, Selection
from mcpforge.spec.load import load_document
from mcpforge.spec.model import ApiSpec
from mcpforge.spec.parse import parse_spec
from mcpforge.tools.build import build_tools
from mcpforge.tools.model import ToolSet


def write_spec(tmp_path: Path, text: str, name: str = "openapi.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def parse(path: Path) -> tuple[ApiSpec, Diagnostics]:
    diags = Diagnostics()
    return parse_spec(load_document(path), diags), diags


def build(path: Path, options: BuildOptions | None = None) -> tuple[ToolSet, Diagnostics]:
    api, diags = parse(path)
    # Unit tests look at every operation, deprecated ones included (their default exclusion has its own tests).
    options = options or BuildOptions(selection=Selection(include_deprecated=True))
    return build_tools(api, options, diags), diags


def tool(toolset: ToolSet, name: str) -> Any:
    return next(t for t in toolset.tools if t.name == name)


def case_options(spec: Path) -> GenerateOptions:
    """Options for a fixture spec: its folder's ``mcpforge.toml`` when there is one, else the defaults."""
    config = spec.parent / "mcpforge.toml"
    values = resolve({"spec": spec}, load_config(config) if config.is_file() else {})
    return generate_options(values)
