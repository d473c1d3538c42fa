"""Search mode: a question about a person is offered that person's record (one of its many fields answers it)."""

from __future__ import annotations

import pytest

from helpers import search_entry as entry
from helpers import search_names
from mcpforge.runtime.contract import ToolEntry
from mcpforge.runtime.modes.index import SearchIndex, Weights
from mcpforge.runtime.modes.people import asks_of_self
from mcpforge.runtime.modes.records import Records, with_record

# Operations whose words match a phone better than a user record does, as Microsoft Graph's do.
PHONES: list[ToolEntry] = [
    entry(f"list_phone_{thing}", "GET", f"/telephony/phone{thing.title()}", f"List the phone numbers' {thing}")
    for thing in ("methods", "lines", "calls", "settings", "books", "devices", "extensions", "logs", "plans", "queues")
]
ENTRIES: list[ToolEntry] = [
    *PHONES,
    entry("get_device_phone", "GET", "/deviceManagement/managedDevices/{id}", "Get a device's phone number"),
    entry("list_users", "GET", "/users", "List users"),
    entry("get_user_manager", "GET", "/users/{user-id}/manager", "Get a user's manager"),
    entry("get_user", "GET", "/users/{user-id}", "Get a user"),
    entry("get_me", "GET", "/me", "Get the signed-in user"),
    entry("get_mailbox_rules", "GET", "/me/mailFolders/inbox/messageRules", "List the mailbox's rules"),
]


def names(request: str, limit: int = 10, entries: list[ToolEntry] = ENTRIES) -> list[str]:
    return search_names(entries, request, limit=limit)


def asked(entries: list[ToolEntry], request: str, someone: bool = False) -> int | None:
    """The record ``Records`` offers for ``request``, the index's paths and first-person reading given."""
    paths = [[s for s in e["path"].split("/") if s] for e in entries]
    records = Records([e["method"] for e in entries], paths)
    return records.asked(request, someone, asker=not someone and asks_of_self(request))


def test_a_question_about_a_person_is_offered_their_record() -> None:
    found = names("what's Ravi's phone number")
    assert found.index("get_user") == 9 and found[0] != "get_user"
    assert names("what's Ravi's phone number", limit=50).index("get_user") == 9  # the tenth, however many asked
    assert "get_me" in names("what language is my mailbox set to?")


def test_only_a_question_and_only_a_long_enough_list_gets_the_record() -> None:
    assert "get_user" not in names("update Ravi's phone number")  # a change is of what it names
    assert "get_user" not in names("what's Ravi's phone number", limit=3)
    assert "get_me" not in names("list the phone methods of the devices")  # nobody named, nor the asker
    assert not asks_of_self("list the 'my stuff' folders") and asks_of_self("what's in my inbox?")


def test_the_record_is_the_shortest_of_its_kind_and_github_calls_the_asker_user() -> None:
    github = [
        *PHONES,
        entry("get_authenticated", "GET", "/user", "Get the authenticated user"),
        entry("get_by_username", "GET", "/users/{username}", "Get a user"),
        entry("get_org_member", "GET", "/orgs/{org}/members/{username}", "Check organization membership"),
    ]
    assert "get_authenticated" in names("which phone methods do I have?", entries=github)
    assert "get_by_username" in names("what's Mona's phone number?", entries=github)


def test_a_question_about_people_in_general_is_offered_everyones_list() -> None:
    by_name = {e["tool"]["name"]: number for number, e in enumerate(ENTRIES)}
    assert asked(ENTRIES, "who works in marketing?") == by_name["list_users"]
    assert asked(ENTRIES, "which guests never redeemed their invite?") == by_name["list_users"]
    assert asked(ENTRIES, "who is Ravi's manager?", someone=True) == by_name["get_user"]
    assert asked(ENTRIES, "what language is my mailbox set to?") == by_name["get_me"]
    assert asked(ENTRIES, "list the marketing campaigns") is None


def test_a_question_about_a_numbered_thing_is_offered_its_record() -> None:
    github = [
        entry("list_users", "GET", "/users", "List users"),
        entry("get_issue", "GET", "/repos/{owner}/{repo}/issues/{issue_number}", "Get an issue"),
        entry("get_pull", "GET", "/repos/{owner}/{repo}/pulls/{pull_number}", "Get a pull request"),
        entry("list_issue_events", "GET", "/repos/{owner}/{repo}/issues/{issue_number}/events", "List events"),
        entry("get_phone", "GET", "/phones/{phone_id}", "Get a desk phone"),
    ]
    assert asked(github, "who's assigned to issue 300?") == 1  # before "who": the issue's
    assert asked(github, "what labels does PR #42 have?") == 2  # the lexicon's pull request
    assert asked(github, "who has the desk phone 4455?") == 0  # a value someone holds
    assert asked(github, "which issues changed in the last 24 hours?") is None


def test_the_record_takes_the_tenth_place_and_keeps_the_rest_in_order() -> None:
    spread = [(-float(10 - i), i) for i in range(12)]  # (negated score, operation), best first
    placed = with_record(spread, 42, limit=12)
    assert [n for _, n in placed] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 42, 9, 10]
    assert placed[9][0] == placed[8][0]  # at the score of the result before it
    assert with_record(spread, 3, limit=12) == spread  # already among the first ten
    assert [n for _, n in with_record(spread, 11, limit=12)][9] == 11  # moved up, not repeated
    assert with_record(spread[:4], 42, limit=4) == spread[:4]  # too short a list to give a place away


def test_what_the_asker_asks_of_their_own_things_prefers_their_paths() -> None:
    tasks = [
        entry("update_planner_task", "PATCH", "/planner/tasks/{task-id}", "Update a task"),
        entry("update_todo_task", "PATCH", "/me/tasks/{task-id}", "Update a task"),
    ]
    same = [{"name": ["updat", "task"]}, {"name": ["updat", "task"]}]  # the words alike: only the path differs
    index = SearchIndex(tasks, weights=Weights(), analysed=same)
    theirs = {hit.entry["tool"]["name"]: hit.score for hit in index.search("update the passport task")}
    mine = {hit.entry["tool"]["name"]: hit.score for hit in index.search("update my passport task")}
    assert theirs["update_todo_task"] == pytest.approx(theirs["update_planner_task"])
    assert mine["update_todo_task"] == pytest.approx(mine["update_planner_task"] * (1 + Weights().asker))
    assert Weights().asker > 0
