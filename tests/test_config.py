"""Configuration files, the options table, and selection through the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT
from mcpforge.cli import main
from mcpforge.options.model import OPTIONS, options_table
from mcpforge.project.reference import settings_table, tracing_table

SPEC = """
openapi: 3.0.3
info: {title: Zoo, version: "1"}
paths:
  /animals:
    get:
      operationId: listAnimals
      tags: [Animals]
      responses: {"200": {description: ok}}
    post:
      operationId: addAnimal
      tags: [Animals]
      responses: {"200": {description: ok}}
  /animals/{id}:
    delete:
      operationId: removeAnimal
      tags: [Animals]
      x-mcp: {exclude: true}
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses: {"200": {description: ok}}
  /keepers:
    get:
      operationId: listKeepers
      tags: [Staff]
      x-mcp: {name: keepers, description: "Everyone who keeps animals."}
      responses: {"200": {description: ok}}
  /old:
    get:
      operationId: oldThing
      deprecated: true
      tags: [Staff]
      responses: {"200": {description: ok}}
"""


def invoke(cwd: Path, *args: str) -> tuple[int, str]:
    runner = CliRunner()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd)
        result = runner.invoke(main, list(args))
    return result.exit_code, result.stdout + result.stderr


def tool_names(out: Path) -> list[str]:
    return [t["name"] for t in json.loads((out / "manifests" / "mcp-tools.json").read_text())]


def test_generate_without_arguments_reads_mcpforge_toml(tmp_path: Path) -> None:
    (tmp_path / "zoo.yaml").write_text(SPEC)
    (tmp_path / "mcpforge.toml").write_text(
        'spec = "zoo.yaml"\noutput = "gen"\nname = "zoo"\nmethods = ["get"]\n'
        '[overrides.listAnimals]\nname = "animals"\n[overrides."GET /keepers"]\ndescription = "Staff list."\n'
    )
    code, text = invoke(tmp_path, "generate")
    assert code == 0, text
    out = tmp_path / "gen"
    assert tool_names(out) == ["animals", "keepers"]  # x-mcp name kept; config description wins
    keepers = json.loads((out / "manifests" / "mcp-tools.json").read_text())[1]
    assert keepers["description"] == "Staff list."
    assert (out / "src" / "zoo_mcp" / "serving" / "server.py").is_file()
    # The command line wins over the file.
    assert invoke(tmp_path, "generate", "--methods", "get,post", "--include-deprecated")[0] == 0
    assert tool_names(out) == ["animals", "addAnimal", "keepers", "oldThing"]


def test_pyproject_tool_table_and_selection_flags(tmp_path: Path) -> None:
    (tmp_path / "zoo.yaml").write_text(SPEC)
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n[tool.mcpforge]\nspec = "zoo.yaml"\noutput = "out"\nexclude-tags = ["staff"]\n'
    )
    assert invoke(tmp_path, "generate")[0] == 0
    assert tool_names(tmp_path / "out") == ["listAnimals", "addAnimal"]
    assert invoke(tmp_path, "generate", "--exclude-tags", "none", "--include-operations", "list*")[0] == 0
    assert tool_names(tmp_path / "out") == ["listAnimals", "keepers"]
    assert invoke(tmp_path, "generate", "--exclude-tags", "none", "--include-paths", "/animals/*")[0] == 0
    assert tool_names(tmp_path / "out") == []  # the only match is excluded by x-mcp


def test_config_errors_name_the_file_and_key(tmp_path: Path) -> None:
    (tmp_path / "mcpforge.toml").write_text('spec = "zoo.yaml"\noutptu = "gen"\n')
    code, text = invoke(tmp_path, "generate")
    assert code == 1 and "unknown option 'outptu'" in text and "mcpforge.toml" in text and "Traceback" not in text
    (tmp_path / "mcpforge.toml").write_text('spec = "zoo.yaml"\nmax-tools = "many"\n')
    code, text = invoke(tmp_path, "generate")
    assert code == 1 and "max-tools" in text and "must be a int" in text
    (tmp_path / "mcpforge.toml").write_text("spec = [\n")
    code, text = invoke(tmp_path, "generate")
    assert code == 1 and "not valid TOML" in text
    (tmp_path / "mcpforge.toml").write_text('[overrides.x]\nrename = "y"\n')
    code, text = invoke(tmp_path, "generate")
    assert code == 1 and "overrides.'x'.rename" in text
    (tmp_path / "mcpforge.toml").unlink()
    code, text = invoke(tmp_path, "generate")
    assert code == 1 and "no SPEC given" in text


def test_unknown_override_and_invalid_x_mcp_are_warnings(tmp_path: Path) -> None:
    (tmp_path / "zoo.yaml").write_text(SPEC.replace("x-mcp: {exclude: true}", "x-mcp: {exclude: maybe}"))
    (tmp_path / "mcpforge.toml").write_text('spec = "zoo.yaml"\noutput = "o"\n[overrides.nothing]\nexclude = true\n')
    code, text = invoke(tmp_path, "generate")
    assert code == 0
    assert "override 'nothing' matches no operation" in text and "x-mcp.exclude must be a bool" in text
    assert "removeAnimal" in tool_names(tmp_path / "o")


def test_the_configuration_reference_is_the_options_model() -> None:
    reference = (ROOT / "docs" / "configuration.md").read_text()
    assert options_table() in reference, "docs/configuration.md is stale: paste mcpforge.options.model.options_table()"
    assert all(f"`{option.key}`" in reference for option in OPTIONS if option.key != "overrides")
    assert '`[overrides."<operationId or METHOD /path>"]`' in reference


def test_the_server_settings_reference_is_the_settings_table() -> None:
    reference = (ROOT / "docs" / "server.md").read_text()
    assert settings_table() in reference, "docs/server.md is stale: paste mcpforge.project.reference.settings_table()"
    assert tracing_table() in reference, "docs/server.md is stale: paste mcpforge.project.reference.tracing_table()"
    assert "`<PREFIX>_BASE_URL`" in reference and "`--transport`" in reference


def test_the_readme_is_a_front_door_whose_links_resolve() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 300
    for page in ("configuration", "server", "deployment", "benchmarks", "architecture", "contributing", "cli"):
        assert f"docs/{page}.md" in readme
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme):
        if "://" not in target:
            assert (ROOT / target).exists(), target


def test_every_option_is_a_flag_of_every_command_that_reads_a_spec() -> None:
    for command in ("generate", "validate", "lint", "budget"):
        result = CliRunner().invoke(main, [command, "--help"], terminal_width=200)
        assert result.exit_code == 0
        for option in OPTIONS:
            if option.only == "file" or (option.only == "generate" and command != "generate"):
                continue
            expected = "SPEC" if option.key == "spec" and command in ("generate", "validate") else f"--{option.key}"
            if option.key == "spec" and command in ("lint", "budget"):
                expected = "TARGET"
            assert expected in result.output, (command, option.key)


def test_budget_thresholds_warn(tmp_path: Path) -> None:
    (tmp_path / "zoo.yaml").write_text(SPEC)
    code, text = invoke(tmp_path, "generate", "zoo.yaml", "-o", "o", "--max-tools", "2", "--max-total-tokens", "10")
    assert code == 0
    assert "3 tools exceed 2" in text and "over the budget of 10 tokens" in text
    code, text = invoke(tmp_path, "budget", "o")
    assert code == 0 and text.startswith("3 tools; tools/list ") and "animals" in text


def test_excluding_every_operation_is_a_warning(tmp_path: Path) -> None:
    (tmp_path / "zoo.yaml").write_text(SPEC)
    code, text = invoke(tmp_path, "generate", "zoo.yaml", "-o", "o", "--methods", "head")
    assert code == 0 and "warning[no-tools]" in text and "all 5 operations were excluded" in text
    assert tool_names(tmp_path / "o") == []


def test_budget_of_a_spec_uses_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "zoo.yaml").write_text(SPEC)
    (tmp_path / "mcpforge.toml").write_text('methods = ["get"]\n')
    code, text = invoke(tmp_path, "budget", "zoo.yaml")
    assert code == 0 and text.startswith("2 tools; tools/list ")
