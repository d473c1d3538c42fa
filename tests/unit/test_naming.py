"""The naming authority: tool names, shortening, collisions, argument names."""

from __future__ import annotations

import random

import pytest

from mcpforge.runtime.settings.table import SETTINGS
from mcpforge.text.names import (
    NAME_RULES,
    PORTABLE_NAME_RULE,
    TOOL_NAME_PATTERN,
    NameCandidate,
    aggregate_tool_names,
    argument_name,
    assign_tool_names,
    credential_env_names,
    name_problem,
    project_names,
    recorded_project_name,
    shorten,
    tool_name_base,
    unique_argument_name,
    unique_valid_names,
)


def test_operation_id_is_sanitised_word_by_word() -> None:
    assert tool_name_base("repos/create-for-authenticated-user", "post", "/user/repos") == (
        "repos_create_for_authenticated_user",
        False,
    )
    assert tool_name_base("admin.tools.list", "get", "/x") == ("admin_tools_list", False)
    assert tool_name_base("Get account", "get", "/account") == ("Get_account", False)
    assert tool_name_base("getPetById", "get", "/pets/{id}") == ("getPetById", True)
    assert tool_name_base("123start", "get", "/x") == ("op_123start", False)


def test_missing_operation_id_uses_method_and_path() -> None:
    assert tool_name_base(None, "get", "/pets/{petId}/photos") == ("get_pets_petId_photos", False)
    assert tool_name_base(None, "get", "/") == ("get_root", False)
    assert tool_name_base("¿?", "delete", "/a/b") == ("delete_a_b", False)


def test_shorten_drops_whole_middle_words() -> None:
    name = "post_v3_mark_events_attendance_for_organization_members_in_bulk_with_notifications"
    short = shorten(name, 40)
    assert len(short) <= 40
    assert short.startswith("post_")
    assert short.endswith("with_notifications")
    assert all(word in name.split("_") for word in short.split("_"))


def test_shorten_splits_long_camel_case_words() -> None:
    name = "getCompaniesCompanyIdMerchantsMerchantIdPaymentMethodSettingsPaymentMethodIdAndMore"
    short = shorten(name, 64)
    assert len(short) <= 64
    assert TOOL_NAME_PATTERN.match(short)
    assert short.startswith("get_") and short.endswith("And_More")


def test_short_names_are_untouched() -> None:
    assert shorten("repos_create_for_authenticated_user", 64) == "repos_create_for_authenticated_user"


def test_collisions_get_suffixes_independent_of_document_order() -> None:
    candidates = [
        NameCandidate("GET /a", "get_item"),
        NameCandidate("GET /b", "get_item", exact=True),
        NameCandidate("GET /c", "get_item"),
        NameCandidate("GET /d", "other"),
    ]
    expected = assign_tool_names(candidates)
    assert expected == {"GET /a": "get_item_2", "GET /b": "get_item", "GET /c": "get_item_3", "GET /d": "other"}
    for seed in range(5):
        shuffled = candidates[:]
        random.Random(seed).shuffle(shuffled)
        assert assign_tool_names(shuffled) == expected


def test_suffix_never_steals_an_existing_plain_name() -> None:
    candidates = [NameCandidate("GET /a", "x"), NameCandidate("GET /b", "x"), NameCandidate("GET /c", "x_2")]
    names = assign_tool_names(candidates)
    assert names["GET /c"] == "x_2"
    assert len(set(names.values())) == 3


def test_collisions_after_shortening_stay_within_the_limit() -> None:
    base = "list_" + "_".join(f"word{i}" for i in range(30))
    candidates = [NameCandidate(f"GET /{i}", base + f"_{i}") for i in range(3)]
    names = assign_tool_names(candidates, max_length=32)
    assert len(set(names.values())) == 3
    assert all(len(n) <= 32 and TOOL_NAME_PATTERN.match(n) for n in names.values())


def test_reserved_names_are_kept_and_newcomers_renamed() -> None:
    candidates = [NameCandidate("GET /new", "thing", exact=True), NameCandidate("GET /old", "thing_old")]
    names = assign_tool_names(candidates, reserved={"GET /old": "thing"})
    assert names == {"GET /old": "thing", "GET /new": "thing_2"}


def test_valid_operation_ids_are_tool_names_as_written() -> None:
    assert tool_name_base("get-stations", "get", "/stations") == ("get-stations", True)
    assert tool_name_base("listPets", "get", "/pets") == ("listPets", True)
    # Invalid for some target: made valid word by word, deterministically.
    assert tool_name_base("repos/create-for-authenticated-user", "post", "/user/repos") == (
        "repos_create_for_authenticated_user",
        False,
    )
    assert tool_name_base("1stThing", "get", "/x") == ("op_1stThing", False)


def test_argument_names_are_portable() -> None:
    assert argument_name("limit") == "limit"
    assert argument_name("X-Request-Id") == "X-Request-Id"
    assert argument_name("filter[status]") == "filter_status"
    assert argument_name("1st") == "p_1st"
    assert argument_name("!!") == "param"
    assert unique_argument_name("id", "query", ["id"]) == "query_id"
    assert unique_argument_name("id", "query", ["id", "query_id"]) == "query_id_2"


def test_shortening_never_cuts_a_word() -> None:
    words = "post_v3_mark_events_attendance_for_organization_members_in_bulk"
    for limit in range(16, 65):
        short = shorten(words, limit)
        assert len(short) <= limit and set(short.split("_")) <= set(words.split("_"))
    assert shorten("getUserRepositories", 16) == "get_Repositories"
    # Only a single word longer than the limit is cut, and marked as such by a hash of the whole name.
    long_word = shorten("supercalifragilisticexpialidocious", 16)
    assert len(long_word) == 16 and long_word.startswith("supercali_")


def test_names_made_valid_for_each_format_keep_valid_names_first() -> None:
    names = ["files.read", "files_read", "github/create_issue", "n\u00e4me", "x" * 90, "1st", "ok-name"]
    openai = unique_valid_names(names, NAME_RULES["openai-chat"])
    assert openai[:2] == ["files_read_2", "files_read"]  # the real files_read keeps its name
    assert openai[2:4] == ["github_create_issue", "name"]
    assert len(openai[4]) == 64 and openai[5:] == ["1st", "ok-name"]
    assert all(name_problem(n, NAME_RULES["openai-chat"]) is None for n in openai)
    gemini = unique_valid_names(names, NAME_RULES["gemini"])
    assert gemini[0] == "files.read" and gemini[5] == "tool_1st"  # dots are fine; a digit cannot lead
    assert unique_valid_names(names, NAME_RULES["mcp"])[:3] == ["files.read", "files_read", "github_create_issue"]


def test_aggregated_names_are_portable_and_sanitised_ones_never_displace_real_ones() -> None:
    listed = [("fs", "files.read"), ("fs", "files_read"), ("gh", "search"), ("jira", "search"), ("gh", "9lives")]
    names = aggregate_tool_names(listed)
    assert names == ["fs_files_read", "files_read", "gh_search", "jira_search", "tool_9lives"]
    assert all(PORTABLE_NAME_RULE.pattern.match(n) and len(n) <= 64 for n in names)


@pytest.mark.parametrize(
    ("title", "server", "package", "prefix"),
    [
        ("GitHub's official OpenAPI spec + Octokit", "https://api.github.com", "github_octokit_mcp", "GITHUB_OCTOKIT"),
        ("Listen API: Podcast Search, Directory, and Insights API", "", "listen_podcast_mcp", "LISTEN_PODCAST"),
        ("Train Travel API", "", "train_travel_mcp", "TRAIN_TRAVEL"),
        ("DataFactoryManagementClient", "", "data_factory_mcp", "DATA_FACTORY"),
        ("OData Service for namespace microsoft.graph", "", "microsoft_graph_mcp", "MICROSOFT_GRAPH"),
        ("Swagger Petstore - OpenAPI 3.0", "", "petstore_mcp", "PETSTORE"),
        ("REST API v2", "https://api.acme-corp.io/v2", "acme_corp_mcp", "ACME_CORP"),
        ("OpenAPI", "", "api_mcp", "API"),
        ("1Password Connect", "", "api_1password_connect_mcp", "API_1PASSWORD_CONNECT"),
        ("Zoë's Café", "", "zoe_cafe_mcp", "ZOE_CAFE"),
    ],
)
def test_default_names_are_short_and_readable(title: str, server: str, package: str, prefix: str) -> None:
    names = project_names(title, None, server)
    assert (names.package, names.env_prefix) == (package, prefix)
    assert len(names.package.removesuffix("_mcp")) <= 25


def test_a_given_name_keeps_every_word_and_a_recorded_name_is_found_in_the_lock_files() -> None:
    assert project_names("Anything", "My Official API").package == "my_official_api_mcp"
    files = ["README.md", "src/shop_spec_mcp/tools.json", "src/shop_spec_mcp/server.py"]
    assert recorded_project_name(files) == "shop_spec"
    assert project_names("Other", recorded_project_name(files)).package == "shop_spec_mcp"
    assert recorded_project_name(["README.md"]) is None


def test_credential_variables_never_take_a_server_settings_name() -> None:
    oauth = credential_env_names("GH", "OAuth", ["clientId", "clientSecret", "token"])
    assert oauth == {
        "clientId": "GH_OAUTH_SCHEME_CLIENT_ID",  # GH_OAUTH_CLIENT_ID is the endpoint's introspection client
        "clientSecret": "GH_OAUTH_SCHEME_CLIENT_SECRET",
        "token": "GH_OAUTH_SCHEME_TOKEN",
    }
    assert credential_env_names("GH", "bearerAuth", ["token"]) == {"token": "GH_BEARERAUTH_TOKEN"}
    server = {f"GH_{s.name}" for s in SETTINGS}
    for scheme in ("OAuth", "auth", "Allowed", "log", "base", "Audit"):
        names = credential_env_names("GH", scheme, ["token", "clientId", "clientSecret", "tokens", "log"])
        assert not set(names.values()) & server, scheme
