"""Search mode: requests in the English of people who write it as a second language, said to an assistant, or
reported as a problem before what to do about it."""

from __future__ import annotations

from mcpforge.runtime.modes.asks import query_terms
from mcpforge.runtime.modes.intents import CREATE, READ
from mcpforge.runtime.modes.sentences import intent, meant, what_for, what_happened
from mcpforge.runtime.modes.words import stem, words


def test_whom_a_message_is_said_to_and_please_to_are_not_the_request() -> None:
    assert meant("hey assistant, schedule a call with Tom") == "schedule a call with Tom"
    assert meant("hi team, can someone archive the old site") == "archive the old site"
    assert intent("please to give me list of all groups") == READ
    assert meant("hey, delete it") == "delete it"


def test_what_to_do_after_a_problem_is_read_without_its_courtesy() -> None:
    happened, to_do = what_happened("I cannot see the shared calendar of the boardroom, can you give me access")
    assert happened.startswith("I cannot see") and to_do == "give me access"
    assert intent("I cannot see the shared calendar of the boardroom, can you give me access") != READ


def test_what_someone_is_an_owner_of_is_owned_by_them() -> None:
    assert meant("list of all groups where I am owner") == "list of all groups owned by me"
    assert meant("teams Ana is an owner of") == "teams owned by Ana"
    assert meant("I am the owner of the repo, why can't I delete it").startswith("I am the owner")


def test_an_account_blocked_is_its_sign_in_blocked() -> None:
    assert stem("signin") in query_terms("my colleague left, we need to block his account now")
    assert stem("signin") not in query_terms("block that spam user from the org")


def test_a_file_to_find_is_searched_for() -> None:
    assert stem("search") in query_terms("find the Excel file with the budget 2026")
    assert query_terms("find the Excel file with the budget 2026").get(stem("find"), 0.0) < 1.0


def test_a_series_of_meetings_is_a_meeting_not_a_charts_series() -> None:
    asked = query_terms("delete the recurring standup series")
    assert stem("series") not in asked and asked[stem("meeting")] > 0


def test_banning_someone_suspends_or_blocks_them() -> None:
    asked = query_terms("ban the spammer account for a month")
    assert asked[stem("suspend")] > 0 and asked[stem("block")] > 0


def test_the_asker_given_something_is_whom_it_is_for_not_whose() -> None:
    assert stem("me") not in query_terms("give me access to the finance sharepoint")
    assert stem("me") not in query_terms("can u make me an owner of the Design team")
    assert stem("me") in query_terms("show me my calendar")  # "my": whose


def test_what_a_new_thing_is_for_counts_less() -> None:
    said = words("finance wants a new sharepoint site for audits")
    assert said.index("audits") in what_for(said)
    assert query_terms("Finance wants a new SharePoint site for audits")[stem("audit")] < 1.0
    # whose it is, not what for: "a certificate for the billing app", "an address for customer 42"
    assert query_terms("upload a new certificate for the billing app")[stem("app")] == 1.0
    assert query_terms("add a second delivery address for customer 42")[stem("customer")] == 1.0


def test_a_participle_between_things_typed_tersely_says_which() -> None:
    assert intent("tenant verified domains") == READ
    assert intent("verify the domain") != READ


def test_rules_on_a_mailbox_are_its_message_rules() -> None:
    asked = query_terms("mailbox rules for cfo")
    assert asked[stem("message")] > 0 and asked[stem("rule")] > 0
    assert intent("mailbox rules for cfo") == READ
    assert intent("create an inbox rule") == CREATE


def test_things_done_at_a_time_typed_tersely_are_the_things_to_see() -> None:
    assert intent("teams created this month") == READ
    assert intent("users added last week") == READ
    assert intent("Bob deleted the file, restore it") != READ


def test_a_state_to_check_is_one_to_see() -> None:
    assert intent("check the status of the Exchange service") == READ
    assert stem("check") not in query_terms("check the status of the Exchange service")


def test_someones_second_factor_is_a_sign_in_method() -> None:
    assert query_terms("reset the MFA for Luca")[stem("authentication")] > 0


def test_what_someone_cannot_do_is_kept_from_them_by_a_rule() -> None:
    asked = query_terms("why can't bob push to main")
    assert asked[stem("protection")] > 0 and asked[stem("branch")] > 0
    assert stem("branch") not in query_terms("what's the main office's phone number")


def test_a_repository_named_by_its_slug_says_repository() -> None:
    # "archive acme/legacy-site": the slug is a repository's, nearly as if the word were said
    assert query_terms("archive acme/legacy-site")[stem("repo")] > 0.5


def test_things_and_where_they_are_typed_tersely_are_the_things_to_see() -> None:
    assert intent("forks of acme/sdk") == READ
    assert intent("webhooks on acme/api") == READ
    assert intent("turns on the lights") != READ  # a verb and its particle


def test_what_things_are_not_typed_tersely_only_filters_them() -> None:
    asked = query_terms("devices not compliant")
    assert asked.get(stem("not"), 0.0) < 1.0 and asked[stem("device")] == 1.0
    # what goes wrong is what happened: "phone not syncing email - check ..."
    assert query_terms("phone not syncing email")[stem("sync")] == 1.0


def test_a_verb_and_particle_written_as_one_word_first_is_a_thing() -> None:
    assert intent("sign-in failures today") == READ
    assert intent("log-in to the portal") != READ


def test_when_things_typed_tersely_were_done_only_says_which() -> None:
    assert query_terms("users created last 7 days")[stem("created")] < 1.0
    assert query_terms("create users")[stem("create")] == 1.0


def test_things_described_by_what_was_done_to_them_typed_tersely_are_the_things_to_see() -> None:
    assert intent("secrets used by the build workflow") == READ
    assert intent("grade Ahmed's submission for the lab report") != READ  # a name, not a participle


def test_a_work_item_moved_to_a_status_goes_through_a_transition() -> None:
    assert query_terms("move PROJ-88 to Done")[stem("transition")] > 0
    assert stem("transition") not in query_terms("move the file to the Archive folder")


def test_what_someone_should_know_is_asked_not_set() -> None:
    assert intent("any security issues I should know about") == READ
    assert intent("the intern's account should expire in August") != READ


def test_what_a_team_ships_is_released_and_what_blocks_a_release_is_open() -> None:
    assert query_terms("what did the team ship last week")[stem("release")] > 0
    asked = query_terms("what's blocking the 2.0 release")
    assert stem("block") not in asked and asked[stem("issue")] > 0
