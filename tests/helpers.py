"""Small helpers shared by tests."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from mcpforge.diagnostics import Diagnostics
from mcpforge.options import BuildOptions
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
    return build_tools(api, options or BuildOptions(), diags), diags


def tool(toolset: ToolSet, name: str) -> Any:
    return next(t for t in toolset.tools if t.name == name)
