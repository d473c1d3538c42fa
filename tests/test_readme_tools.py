"""The generated README lists the tools of a small API, and points a large API's to TOOLS.md."""

from __future__ import annotations

from pathlib import Path

from helpers import case_options, write_spec
from mcpforge.pipeline import generate
from mcpforge.project.project import README_TOOLS_MAX


def _spec(tmp_path: Path, operations: int) -> Path:
    paths = "".join(
        f"  /things{n}:\n    get:\n      operationId: getThing{n}\n      summary: Get thing {n}\n"
        "      responses: {'200': {description: ok}}\n"
        for n in range(operations)
    )
    return write_spec(tmp_path, f"openapi: 3.0.3\ninfo: {{title: Things, version: '1'}}\npaths:\n{paths}")


def _files(tmp_path: Path, operations: int) -> dict[str, str]:
    result = generate(case_options(_spec(tmp_path, operations)))
    return {f.path: f.data.decode() for f in result.files if f.path.endswith(".md")}


def test_a_small_apis_readme_lists_its_tools(tmp_path: Path) -> None:
    files = _files(tmp_path, README_TOOLS_MAX)
    assert "TOOLS.md" not in files
    assert all(f"| `getThing{n}` | `GET /things{n}` |" in files["README.md"] for n in range(README_TOOLS_MAX))


def test_a_large_apis_tools_are_in_their_own_file(tmp_path: Path) -> None:
    files = _files(tmp_path, README_TOOLS_MAX + 1)
    readme, tools = files["README.md"], files["TOOLS.md"]
    assert "| `getThing0`" not in readme and "[TOOLS.md](TOOLS.md)" in readme
    assert f"The {README_TOOLS_MAX + 1} tools" in readme
    assert all(f"| `getThing{n}` | `GET /things{n}` | Get thing {n}. |" in tools for n in range(README_TOOLS_MAX + 1))
    assert tools.startswith("# Things: the MCP server's tools\n")
