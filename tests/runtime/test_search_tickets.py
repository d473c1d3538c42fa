"""Search mode: requests written as helpdesk tickets, typed tersely as administrators type, and asked as how-to
questions; and what an OData link operation does."""

from __future__ import annotations

from mcpforge.runtime.modes.asks import query_terms
from mcpforge.runtime.modes.documents import operation_texts
from mcpforge.runtime.modes.intents import DELETE, READ, UPDATE
from mcpforge.runtime.modes.people import asks_of_self, names_someone
from mcpforge.runtime.modes.sentences import intent, meant, what_happened
from mcpforge.runtime.modes.words import stem


def test_a_tickets_own_label_is_not_part_of_the_request() -> None:
    assert meant("Ticket #4521: reset the password for j.wong") == "reset the password for j.wong"
    assert meant("Re: budget spreadsheet, share it with Leo") == "budget spreadsheet, share it with Leo"
    assert meant("request access to the repo") == "request access to the repo"  # a verb, not a label


def test_what_goes_wrong_before_a_dash_is_what_happened() -> None:
    happened, to_do = what_happened("phone not syncing email - check whether it's compliant")
    assert happened == "phone not syncing email" and to_do.startswith("check whether")
    assert intent("phone not syncing email - check whether it's compliant") == READ
    assert what_happened("sign-in page is broken")[0] == ""  # a hyphen inside a word separates nothing


def test_someone_starting_or_leaving_is_what_happened_and_new_describes_them() -> None:
    request_ = "new starter Priya Shah begins Monday, please create her account"
    assert what_happened(request_)[0] == "new starter Priya Shah begins Monday"
    assert query_terms(request_)[stem("starter")] < 1.0  # context, not what to find


def test_a_change_someone_wants_is_the_action_not_when_it_was_done() -> None:
    assert intent("the user wants their display name changed after marriage") == UPDATE
    assert intent("export the products updated since Monday") != UPDATE


def test_a_participle_said_with_no_action_asks_to_see_those_things() -> None:
    assert intent("deleted users last 30 days") == READ
    assert intent("deleted it by mistake, bring it back") != READ
    assert intent("deleted the old branch") == DELETE


def test_list_typed_last_after_the_things_is_what_to_do() -> None:
    assert query_terms("sharepoint sites list")[stem("list")] < 1.0
    assert query_terms("add a new item to the IT assets list")[stem("list")] == 1.0  # a list's own name


def test_how_a_chat_app_shows_someone_is_their_presence() -> None:
    assert stem("presence") in query_terms("how do I stop Teams showing me as away?")
    assert stem("presence") not in query_terms("how do I stop Teams showing me notifications?")


def test_an_odata_link_added_or_removed_says_so() -> None:
    def title(method: str) -> str:
        texts = operation_texts(
            name="groups.RefMembers",
            title="Create new navigation property ref to members for groups",
            method=method,
            path="/groups/{group-id}/members/$ref",
            toolsets=(),
            description="",
            input_schema={},
        )
        return texts["title"]

    assert title("POST").startswith("add ") and title("DELETE").startswith("remove ")
    assert title("GET").startswith("Create")


def test_what_was_done_to_or_by_the_asker_says_which_things() -> None:
    assert intent("open issues labeled p0 assigned to me") == READ  # which issues to see, not an assigning
    assert intent("issues assigned to Sam") != frozenset()


def test_the_companys_phone_number_is_the_organisations_not_a_company_phones() -> None:
    asked = query_terms("update the company's phone number shown in the directory")
    assert stem("organization") in asked and stem("device") not in asked
    assert stem("device") in query_terms("which company phones haven't synced this week?")


def test_an_app_reg_is_an_apps_registration() -> None:
    assert stem("registration") in query_terms("app regs expiring secrets")


def test_things_named_with_no_action_are_the_things_to_see() -> None:
    assert intent("teams without owners") == READ
    assert intent("pending access reviews") == READ
    # an action the intents do not know is followed by what it acts on, a particle or a name: no guess
    for request_ in ("bump the prod db to a bigger class", "back up the shop app now", "clock Ana in", "wire $200"):
        assert intent(request_) == frozenset(), request_
    assert intent("the board wants the slides by Friday, remind me Thursday") == frozenset()  # a sentence


def test_more_actions_and_action_phrases() -> None:
    assert intent("take ownership of the ransomware incident") == UPDATE
    assert intent("open port 443 on the web firewall") != READ
    assert intent("limit interactions on the repo to collaborators") == UPDATE
    assert intent("require passwords of at least 14 characters") == UPDATE


def test_chat_spellings_and_common_misspellings_are_read_as_meant() -> None:
    assert meant("can u make me an owner of the Design team") == "make me an owner of the Design team"
    assert meant("hey can someone give me access to the finance sharepoint pls") == (
        "give me access to the finance sharepoint"
    )
    assert stem("calendar") in query_terms("my outlook calender isnt showing the team meetings")


def test_who_is_in_charge_of_a_thing_owns_it() -> None:
    assert stem("owner") in query_terms("whos in charge of the marketing group?")


def test_someone_who_sent_the_asker_a_thing_does_not_own_it() -> None:
    assert not names_someone("reply all to the last email from Finance saying thanks")
    assert asks_of_self("reply all to the last email from Finance saying thanks")
    assert not names_someone("move my 1:1 with Sam to next week")
    assert names_someone("remove the Visio licence from Priya")  # taken from her: hers


def test_a_managers_few_words_for_tasks_meetings_and_reminders() -> None:
    assert stem("task") in query_terms("what's on my plate today?")
    assert stem("event") in query_terms("clear my afternoon")
    assert stem("message") in query_terms("remind the team about Friday's offsite")
    assert stem("message") not in query_terms("remind me about the dentist")
    assert not names_someone("find the slides Jen sent me last week")  # Jen sent them: the asker's


def test_tell_me_why_asks_and_what_things_lack_typed_tersely_only_filters_them() -> None:
    assert intent("can someone tell me why my sign-in was blocked?") == READ
    assert intent("users with no manager set") == READ  # which users, not a manager set
    assert stem("owner") in query_terms("teams without owners")
    assert query_terms("teams without owners")[stem("owner")] < query_terms("teams without owners")[stem("team")]


def test_typed_tersely_a_word_after_the_things_says_which() -> None:
    assert intent("workflow runs using self-hosted runners") == READ
    assert intent("devices running old iOS") == READ
    assert intent("stale PRs older than 30 days") == READ  # an acronym, not a name after an unknown verb
    assert intent("continue listing the group's members") == READ  # listing still asks to list
    assert query_terms("apps nobody signed into for 90 days")[stem("sign")] < 1.0  # which apps: only a filter


def test_an_automatic_action_is_a_setting_and_news_for_everyone_a_message() -> None:
    assert intent("is there a way to auto-delete branches after merge?") == UPDATE
    assert intent("open HTTPS to the world with a firewall rule") != READ
    assert intent("the all-hands got moved to Thursday, let everyone know") == {"POST", "PUT"}


def test_what_the_asker_deleted_by_mistake_said_alone_is_to_be_brought_back() -> None:
    assert meant("i accidently deleted a whole folder on onedrive help").startswith("restore a whole folder")
    assert intent("I accidentally deleted an email from HR, get it back") != DELETE  # the clause after says what
    assert not meant("I deleted the old branch, now create a new one").startswith("restore")


def test_what_keeps_going_wrong_before_a_check_is_what_happened() -> None:
    happened, _ = what_happened("user reports Teams calls dropping - check call quality records")
    assert happened == "user reports Teams calls dropping"


def test_chat_spellings_leave_capitals_and_a_tasks_own_title_alone() -> None:
    assert meant("list the U.S. office users") == "list the U.S. office users"
    assert meant("Task: buy milk") == "Task: buy milk"  # in a to-do list, a task to make


def test_telling_whether_asks_and_what_was_not_done_to_things_filters_them() -> None:
    assert intent("how can I tell if a workflow is disabled?") == READ
    assert intent("repos not updated in a year") == READ
    assert query_terms("repos not updated in a year")[stem("updated")] < 1.0
