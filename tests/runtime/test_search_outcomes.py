"""Search mode: requests that say how things should end up ("make sure nobody outside can open it"), typed as
a CLI's or PowerShell's commands, or naming the API's own path."""

from __future__ import annotations

from mcpforge.runtime.modes.asks import query_terms
from mcpforge.runtime.modes.commands import as_said
from mcpforge.runtime.modes.intents import CREATE, DELETE, READ, UPDATE
from mcpforge.runtime.modes.outcomes import achieved
from mcpforge.runtime.modes.sentences import intent, meant
from mcpforge.runtime.modes.words import stem


def test_a_thing_nobody_should_open_has_its_access_removed() -> None:
    assert (
        achieved("make sure nobody outside the company can open the Q3 budget file anymore")
        == "remove access to the Q3 budget file for anyone outside the company"
    )
    assert achieved("make sure the interns can't get into the HR site") == (
        "remove access to the HR site for the interns"
    )
    assert achieved("people outside the org shouldn't see the roadmap repo").startswith("remove access to the roadmap")
    assert intent("make sure Sam can't see any of our org's repos anymore") == DELETE


def test_a_thing_someone_should_open_is_shared_with_them() -> None:
    assert achieved("make sure everyone in Legal can open the NDA template") == (
        "give everyone in Legal access to the NDA template"
    )
    assert achieved("the intern should be able to see acme/api").startswith("give the intern access to acme/api")


def test_someone_who_should_not_sign_in_is_blocked_from_it() -> None:
    assert achieved("make sure Ana can't sign in anymore").startswith("block sign-in of Ana")


def test_other_abilities_wanted_or_denied_are_a_setting_turned_on_or_off() -> None:
    assert achieved("make sure nobody can create public repos in the org") == (
        "turn off allowing anyone to create public repos in the org"
    )
    assert achieved("I want the Help Desk team to stop being able to delete channels") == (
        "turn off allowing the Help Desk team to delete channels"
    )
    assert achieved("the Sales group should be able to receive email").startswith("turn on allowing the Sales group")
    assert achieved("keep people from commenting on issue 301") == "turn off commenting on issue 301 for people"


def test_a_state_said_without_wanting_it_is_a_problem_not_an_outcome() -> None:
    # "Sam can't see the site" reports a problem (which asks for the access, not its removal)
    assert achieved("Sam can't see the Finance site") == "Sam can't see the Finance site"
    assert achieved("why can't Sam see the Finance site") == "why can't Sam see the Finance site"
    # "should" with a verb of no ability is a change of the thing, not an ability
    assert achieved("my out of office should stop on Monday") == "my out of office should stop on Monday"
    # "stop the channel from receiving email" turns off what a thing does, as the rewordings read it
    assert achieved("stop the channel from receiving email") == "stop the channel from receiving email"


def test_being_told_whenever_something_happens_is_a_subscription() -> None:
    assert achieved("make sure I hear about it whenever something changes in the Contracts folder") == (
        "subscribe to notifications whenever something changes in the Contracts folder"
    )
    assert achieved("let me know every time someone opens an issue").startswith("subscribe to notifications every")
    assert achieved("let me know when Bob last signed in") == "let me know when Bob last signed in"  # a question


def test_other_outcomes_said_as_their_actions() -> None:
    assert meant("I want those emails to go to my new mailbox") == "forward those emails to my new mailbox"
    assert meant("the guest from Fabrikam needs to be in our Partners team") == (
        "add the guest from Fabrikam to our Partners team"
    )
    assert meant("keep the Board group out of the address book") == "hide the Board group from the address book"
    assert meant("I want to remember to call the bank tomorrow") == "remind me to call the bank tomorrow"
    assert meant("so I don't forget: block 2 hours Thursday") == "schedule a calendar event of 2 hours Thursday"


def test_a_cli_command_is_said_verb_first_with_its_flags_as_words() -> None:
    assert as_said("gh run list --workflow ci.yml") == "list run workflow ci.yml"
    assert as_said("gh pr edit 77 --add-reviewer alice") == "edit pr 77 add reviewer alice"
    assert as_said("gh release create v2.0 --generate-notes") == "create release v2.0 generate notes"
    assert as_said("gcloud compute instances list") == "list compute instances"
    assert intent("gh run list --workflow ci.yml") == READ
    assert as_said("ghost the spammer") == "ghost the spammer"  # no CLI's name


def test_a_cmdlet_is_said_as_its_verb_and_noun() -> None:
    assert as_said("run Get-MgGroupMember on the Finance group") == "get group member on the Finance group"
    assert as_said("Update-MgUser -UsageLocation US") == "update user usage location US"
    assert intent("run Get-MgGroupMember on the Finance group") == READ
    assert as_said("Get-Help") == "get help"


def test_an_api_path_in_a_request_is_read_by_its_words() -> None:
    assert {stem("drive"), stem("recent")} <= set(query_terms("GET /me/drive/recent pls"))
    assert stem("key") in query_terms("gh api user/keys")
    assert stem("messages") in query_terms("me/messages?$filter=isRead eq false")
    # a repository's slug is a value, not a path (though "DELETE" in capitals would say one)
    assert stem("acme") not in query_terms("delete acme/web")


def test_what_changed_on_a_thing_is_in_the_audit_log() -> None:
    assert stem("audit") in query_terms("what changed on the Finance group yesterday")
    assert stem("audit") not in query_terms("what changed in PR 12")


def test_a_developers_question_for_an_endpoint_is_what_the_endpoint_does() -> None:
    assert meant("what endpoint do I call to upload a large file to OneDrive?") == "upload a large file to OneDrive?"
    assert meant("what's the Graph call to send mail as the signed-in user") == "send mail as the signed-in user"
    assert meant("is there an API to add a member to a group?") == "add a member to a group?"
    assert meant("which API gives me a user's manager?") == "get a user manager?"
    assert meant("what REST endpoint starts a codespace?") == "starts a codespace?"
    assert meant("how can my daemon app read the sign-in logs?") == "read the sign-in logs?"
    assert meant("how do I read a file's contents from a repo through the API?") == "read a file contents from a repo?"
    # the API's own words are no such question: "shipping methods", "API permissions"
    assert meant("what shipping methods does the cart support?") == "what shipping methods does the cart support?"
    assert intent("which API permissions does the reporting app request?") == READ


def test_what_is_done_to_a_thing_once_found_is_the_request() -> None:
    assert intent("find the Sales group and make Zoe an owner of it") == CREATE
    assert intent("find yesterday's 4pm meeting and cancel it") >= DELETE
    assert intent("get the logs and the artifacts of run 5") == READ  # two things to get
    assert intent("open issues and PRs in acme/web") == READ


def test_free_busy_is_a_schedule() -> None:
    assert stem("schedule") in query_terms("is there an endpoint for the free/busy of several people at once?")


def test_mail_archived_is_moved_and_an_account_used_is_signed_in_to() -> None:
    assert meant("archive the email from the bank").startswith("move the email to the archive mail folder")
    assert meant("archive the old repo") == "archive the old repo"
    assert meant("did anyone use the break-glass account recently") == (
        "did anyone sign in to the break-glass account recently"
    )


def test_a_thing_wanted_to_do_something_is_set_so() -> None:
    assert meant("I want the v1 tag to point at the new commit") == "set the v1 tag to point at the new commit"
    assert intent("I need the staging deploy to wait for QA's approval") >= UPDATE
    # what the asker will do with a thing is what it is for: the thing is to show
    assert intent("I need the report to send to my boss") == READ
    assert intent("I need the logs of the last run") == READ


def test_only_someone_able_is_a_rule_that_lets_no_one_else() -> None:
    assert achieved("make sure only our office IP can SSH into the droplets") == (
        "only allow our office IP to SSH into the droplets"
    )
    assert stem("rule") in query_terms("make sure only our office IP can SSH into the droplets")


def test_hearing_of_each_thing_as_it_happens_is_a_subscription() -> None:
    assert achieved("make sure we hear about disputes as soon as they open") == (
        "subscribe to notifications of disputes as soon as they open"
    )
    assert achieved("we hear about it from customers") == "we hear about it from customers"


def test_where_in_an_admin_centre_is_said_after_what_to_do() -> None:
    assert (
        meant("Intune > Devices > Windows > retire the old laptop")
        == "retire the old laptop (in Intune Devices Windows)"
    )
    assert meant("SharePoint admin center: list all sites") == "list all sites (in SharePoint)"
    assert stem("admin") not in query_terms("SharePoint admin center: list all sites")
    assert meant("what is 3 > 2") == "what is 3 > 2"  # no page's name


def test_a_one_letter_flag_is_said_by_its_value_alone() -> None:
    assert as_said("gh secret set NPM_TOKEN -R acme/web") == "set secret NPM_TOKEN acme/web"
