"""The settings table: every variable parsed and checked, one clear line per bad value, and the docs agree."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES
from helpers import contract_of, write_project
from mcpforge.runtime.serving.cli import build_parser, run
from mcpforge.runtime.settings.table import SETTINGS, SettingError, all_settings, read_settings

PETSTORE = FIXTURES / "golden" / "petstore_30" / "openapi.yaml"
SECRET = "sk-live-0123456789abcdef"


@pytest.fixture(scope="module")
def data() -> Any:
    return contract_of(PETSTORE)


def settings_of(data: Any, **env: str) -> Any:
    return read_settings(data["server"], {f"PETSTORE_{k}": v for k, v in env.items()})


BAD_VALUES = [
    ("MAX_RESPONSE_BYTES", "abc"),
    ("MAX_RESPONSE_BYTES", "1e6"),
    ("MAX_RESPONSE_BYTES", "0"),
    ("MAX_RESPONSE_BYTES", "-5"),
    ("MAX_RESPONSE_BYTES", "99999999999999999999"),
    ("TIMEOUT", "abc"),
    ("TIMEOUT", "-5"),
    ("TIMEOUT", "0"),
    ("TIMEOUT", "nan"),
    ("TIMEOUT", "inf"),
    ("TIMEOUT", "1e9"),
    ("PORT", "abc"),
    ("PORT", "99999"),
    ("PORT", "0"),
    ("PORT", "80.5"),
    ("PAGE_SIZE", "abc"),
    ("PAGE_SIZE", "-1"),
    ("LOG_LEVEL", "bogus"),
    ("TRANSPORT", "sse"),
    ("TRANSPORT", "std io"),
    ("BRIDGE_MAX_BODY", "abc"),
    ("DYNAMIC", "maybe"),
    ("STATELESS", "2"),
    ("BASE_URL", "ftp://x"),
    ("BASE_URL", "/api"),
    ("BASE_URL", "api.example.com"),
    ("BASE_URL", "http://"),
    ("BASE_URL", "https://h/#frag"),
    ("BASE_URL", "https://user:pw@h/"),
    ("BASE_URL", "https://h:99999/"),
    ("BRIDGE_TOKEN", "short"),
    ("TOOLSETS", "nope"),
    ("RETRIES", "11"),
    ("RETRY_MAX_WAIT", "soon"),
    ("OAUTH_LEEWAY", "-1"),
]


@pytest.mark.parametrize(("name", "value"), BAD_VALUES, ids=[f"{n}={v}" for n, v in BAD_VALUES])
def test_a_bad_value_is_one_line_naming_the_variable_and_exit_2(
    data: Any, name: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    env = {"PETSTORE_" + name: value}
    with pytest.raises(SystemExit) as stop:
        run(data, [], env)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"PETSTORE_{name}" in err and "Traceback" not in err
    setting = next(s for s in SETTINGS if s.name == name)
    if not setting.secret:
        assert value.strip() in err or (name == "BASE_URL" and "credentials" in err)


def test_command_line_values_are_checked_like_variables(data: Any, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        run(data, ["--port", "abc"], {})
    assert stop.value.code == 2 and "--port='abc' is not valid: expected a whole number from 1 to 65,535" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("env", "field", "expected"),
    [
        ({"TRANSPORT": "STDIO"}, "transport", "stdio"),
        ({"TRANSPORT": " Http "}, "transport", "http"),
        ({"LOG_LEVEL": "debug"}, "log_level", "DEBUG"),
        ({"TIMEOUT": "2.5"}, "timeout", 2.5),
        ({"MAX_RESPONSE_BYTES": "1_000_000"}, "max_response_bytes", 1_000_000),
        ({"PAGE_SIZE": "0"}, "page_size", 0),
        ({"DYNAMIC": "Yes"}, "dynamic", True),
        ({"TOOLSETS": " pets , store ,"}, "toolsets", ("pets", "store")),
        ({"TIMEOUT": ""}, "timeout", 30.0),  # empty means the default
    ],
)
def test_good_values_in_any_case_and_spacing(data: Any, env: dict[str, str], field: str, expected: Any) -> None:
    assert getattr(settings_of(data, **env), field) == expected


def test_base_url_defaults_to_the_spec_and_must_be_absolute(data: Any) -> None:
    assert settings_of(data).base_url == "https://eu.petstore.example/v1"
    assert settings_of(data, BASE_URL="http://127.0.0.1:9/api?k=1").base_url == "http://127.0.0.1:9/api?k=1"
    relative: Any = {**data["server"], "baseUrl": "/api"}
    with pytest.raises(SettingError, match=r"PETSTORE_BASE_URL is not set .* only the relative server URL '/api'"):
        read_settings(relative, {})
    missing: Any = {**data["server"], "baseUrl": ""}
    with pytest.raises(SettingError, match="PETSTORE_BASE_URL is not set and the API description gives no server URL"):
        read_settings(missing, {})


def test_credentials_are_stripped_and_control_characters_refused(data: Any) -> None:
    assert settings_of(data, BEARERAUTH_TOKEN=f"  {SECRET}\n").credentials == {"PETSTORE_BEARERAUTH_TOKEN": SECRET}
    for bad in (f"{SECRET[:5]}\n{SECRET[5:]}", f"{SECRET}\x00x", f"a\x1b[31m{SECRET}"):
        with pytest.raises(SettingError) as problem:
            settings_of(data, BEARERAUTH_TOKEN=bad)
        assert "PETSTORE_BEARERAUTH_TOKEN" in str(problem.value) and SECRET not in str(problem.value)
    with pytest.raises(SettingError, match="PETSTORE_BEARERAUTH_TOKEN holds a non-ASCII character"):
        settings_of(data, BEARERAUTH_TOKEN="tökén-0123456789")


def test_help_readme_and_env_example_list_every_variable(data: Any, tmp_path: Path) -> None:
    variables = [s.variable("PETSTORE") for s in all_settings(data["server"])]
    assert "PETSTORE_BEARERAUTH_TOKEN" in variables and len(variables) == len(SETTINGS) + 1
    help_text = build_parser(data).format_help()
    package = write_project(PETSTORE, tmp_path)
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    example = (tmp_path / ".env.example").read_text(encoding="utf-8")
    assert package == "petstore_mcp"
    in_example = re.findall(r"^(PETSTORE_[A-Z_]+)=$", example, flags=re.MULTILINE)
    in_readme = re.findall(r"^\| `(PETSTORE_[A-Z_]+)` \|", readme, flags=re.MULTILINE)
    in_help = re.findall(r"^  (PETSTORE_[A-Z_]+)$", help_text, flags=re.MULTILINE)
    assert in_example == in_readme == in_help == variables
    for setting in SETTINGS:
        if setting.flag:
            assert setting.flag in help_text
        if setting.shown_default() and setting.name != "BASE_URL":
            assert f"| `PETSTORE_{setting.name}` | {setting.shown_default()} |" in readme
    assert "Default: https://eu.petstore.example/v1" in help_text.replace("\n      ", " ")


def test_a_misspelt_setting_is_named_before_the_error_it_leads_to(
    data: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    env = {"PETSTORE_AUTH_TOKEN_FILE": "/run/secrets/tokens"}  # for PETSTORE_AUTH_TOKENS_FILE
    with pytest.raises(SystemExit) as stop:
        run(data, ["--transport", "http", "--host", "0.0.0.0"], env)
    assert stop.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2 and "did you mean PETSTORE_AUTH_TOKENS_FILE?" in lines[0]
    assert lines[1].startswith("petstore-mcp: error: refusing to serve 0.0.0.0 without protection")


@pytest.mark.e2e  # a generated server as a process: seconds each, with the end-to-end tier
def test_an_unknown_variable_with_the_prefix_is_one_warning_naming_the_closest_setting(
    data: Any, tmp_path: Path
) -> None:
    """A misspelt setting is said once on stderr at start; stdout (the stdio transport) stays clean JSON-RPC."""
    package = write_project(PETSTORE, tmp_path / "out")
    env = {
        "PYTHONPATH": str(tmp_path / "out" / "src"),
        "PATH": "/usr/bin",
        "PETSTORE_TIMEOUT_S": "5",
        "PETSTORE_TOOLSET": "pets",
        "PETSTORE_ZZZ": "1",
        "PETSTORE_TIMEOUT": "5",  # a real one: no word about it
    }
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
    answer = subprocess.run(
        [sys.executable, "-m", package], input=json.dumps(initialize) + "\n", env=env, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert json.loads(answer.stdout.splitlines()[0])["id"] == 1  # the answer, and nothing before it
    warnings = [line for line in answer.stderr.splitlines() if "warning" in line]
    assert warnings == [
        "petstore-mcp: warning: PETSTORE_TIMEOUT_S is not a setting of this server and is ignored; "
        "did you mean PETSTORE_TIMEOUT?",
        "petstore-mcp: warning: PETSTORE_TOOLSET is not a setting of this server and is ignored; "
        "did you mean PETSTORE_TOOLSETS?",
        "petstore-mcp: warning: PETSTORE_ZZZ is not a setting of this server and is ignored; "
        "run with --help for the settings",
    ]
