"""Search mode: an office worker's and an administrator's words for what a workplace API names otherwise."""

from __future__ import annotations

from helpers import search_entry as entry
from helpers import search_first as first
from mcpforge.runtime.modes.asks import query_terms
from mcpforge.runtime.modes.documents import analyse_api, entry_texts
from mcpforge.runtime.modes.index import SearchIndex
from mcpforge.runtime.modes.intents import CREATE, READ, UPDATE, WRITE
from mcpforge.runtime.modes.people import names_someone
from mcpforge.runtime.modes.properties import Properties, property_phrases
from mcpforge.runtime.modes.sentences import intent, meant
from mcpforge.runtime.modes.words import stem

PEOPLE = [
    entry("list_group_members", "GET", "/groups/{group-id}/members", "Get members from groups"),
    entry("list_mail_folders", "GET", "/users/{user-id}/mailFolders", "List mailFolders"),
    entry("list_mail_tips", "POST", "/users/{user-id}/getMailTips", "Get mail tips"),
    entry("list_people", "GET", "/users/{user-id}/people", "List people relevant to the user"),
    entry("list_team_members", "GET", "/teams/{team-id}/members", "List members of a team"),
    entry("get_place", "GET", "/places/{place-id}", "Get place"),
    entry("list_phone_methods", "GET", "/users/{user-id}/authentication/phoneMethods", "List phone methods"),
]


def test_who_is_in_a_distribution_list_is_its_groups_members() -> None:
    assert meant("who is in the Marketing distribution list?").startswith("who are the members of the Marketing")
    assert first(PEOPLE, "who is in the Marketing distribution list?") == "list_group_members"
    assert "members" not in meant("who is in charge of the budget?")


def test_coworkers_are_the_people_someone_works_with() -> None:
    assert first(PEOPLE, "who are Tomas's coworkers on the same team?") == "list_people"


def test_a_meeting_room_is_a_place() -> None:
    assert first(PEOPLE, "what's the phone number of the Berlin office meeting room?") == "get_place"


def test_a_name_with_accents_is_a_name() -> None:
    assert meant("ask Zoë and Tomás") == "ask Zoe and Tomas"
    assert names_someone("what groups is Tomás a member of?")


FRENCH = [
    entry("creer_facture", "POST", "/factures", "Créer une facture"),
    entry("lister_clients", "GET", "/clients", "Lister les clients"),
]


def test_accents_are_left_off_on_both_sides_alike() -> None:
    assert stem("größe") == stem("große")
    assert first(FRENCH, "créer une facture") == "creer_facture"
    assert first(FRENCH, "creer une facture") == "creer_facture"  # typed without its accents


DEVICES = [
    entry("list_managed_devices", "GET", "/deviceManagement/managedDevices", "Get managedDevices"),
    entry("list_devices", "GET", "/devices", "List devices"),
    entry("list_terms", "GET", "/deviceManagement/termsAndConditions", "Terms the company shows on devices"),
    entry("sync_device", "POST", "/deviceManagement/managedDevices/{id}/syncDevice", "Sync a device"),
]


def test_company_laptops_are_the_devices_it_manages() -> None:
    assert stem("managed") in query_terms("which company laptops haven't synced for a month?")
    assert first(DEVICES, "which company laptops are there?") == "list_managed_devices"


def test_a_device_checked_in_synced() -> None:
    assert stem("sync") in query_terms("which devices checked in today?")
    assert stem("sync") in query_terms("the phone checks in every hour")


FILES = [
    entry("invite", "POST", "/drives/{drive-id}/items/{driveItem-id}/invite", "Share a drive item: send an invitation"),
    entry("update_permission", "PATCH", "/shares/{share-id}/permission", "Update a sharing permission"),
    entry("delete_item", "DELETE", "/drives/{drive-id}/items/{driveItem-id}", "Delete a driveItem"),
    entry("delete_call_record", "DELETE", "/communications/callRecords/{callRecord-id}", "Delete callRecord"),
    entry("delete_dns_record", "DELETE", "/domainDnsRecords/{id}", "Delete domainDnsRecord"),
    entry("get_item", "GET", "/drives/{drive-id}/items/{driveItem-id}", "Get a driveItem: who modified it, when"),
    entry("update_status", "GET", "/deviceManagement/iosUpdateStatuses", "List iOS update statuses"),
]


def test_a_doc_or_a_handbook_is_a_file() -> None:
    assert stem("file") in query_terms("give Jordan edit rights to the roadmap doc")
    assert first(FILES, "show me who edited the handbook last") == "get_item"


def test_a_lower_case_folder_name_after_a_word_of_age_is_a_name() -> None:
    assert query_terms("delete the old recordings folder from my OneDrive")[stem("recordings")] < 0.5
    assert first(FILES, "delete the old recordings folder from my OneDrive") == "delete_item"
    # an app is named by its kind: "the old authenticator app" is an authenticator
    assert query_terms("delete the old authenticator app")[stem("authenticator")] == 1.0


def test_a_task_that_repeats_recurs() -> None:
    assert stem("recurrence") in query_terms("make the water plants task repeat every Monday")


def test_sign_in_disabled_for_someone_blocks_their_account() -> None:
    assert meant("disable sign-in for Erin, she's gone").startswith("block sign-in of the account of Erin")
    assert "account" not in meant("show the sign-ins for the HR app")


CALENDAR = [
    entry("create_event", "POST", "/me/events", "Create an event in the user's calendar"),
    entry("create_booking_business", "POST", "/solutions/bookingBusinesses", "Create a Bookings business"),
    entry("create_call", "POST", "/communications/calls", "Create call"),
]


def test_a_call_booked_with_someone_is_a_meeting_scheduled() -> None:
    assert meant("book a 30 minute call with Aisha") == "schedule a 30 minute meeting with Aisha"
    assert first(CALENDAR, "book a 30 minute call with Aisha next Tuesday morning") == "create_event"
    assert meant("book a table for two") == "book a table for two"


NETWORK = [
    entry("create_prefix", "POST", "/ipam/prefixes/", "Create a prefix"),
    entry("create_rack_reservation", "POST", "/dcim/rack-reservations/", "Reserve units of a rack"),
    entry("list_cables", "GET", "/dcim/cables/", "List cables"),
    entry("list_console_ports", "GET", "/dcim/console-ports/", "List console ports"),
    entry("list_front_ports", "GET", "/dcim/front-ports/", "List front ports"),
    entry("update_device", "PATCH", "/dcim/devices/{id}/", "Update a device"),
]


def test_a_block_of_addresses_is_a_prefix() -> None:
    assert stem("prefix") in query_terms("reserve the 10.50.0.0/16 block for the new region")
    assert first(NETWORK, "reserve the 10.50.0.0/16 block for the new region") == "create_prefix"


def test_what_is_plugged_into_a_port_is_cabled_to_it() -> None:
    assert first(NETWORK, "what's plugged into port 24 on the core switch?") == "list_cables"


def test_a_network_box_retired_is_a_device_changed() -> None:
    assert stem("device") in query_terms("decommission the old firewall fw-legacy")
    assert intent("retire the old router") == WRITE
    assert intent("connect the server to the switch") == WRITE


SOCIAL = [
    entry("create_status", "POST", "/api/v1/statuses", "Publish a new status"),
    entry("reblog", "POST", "/api/v1/statuses/{id}/reblog", "Reshare a status to your followers"),
    entry("get_instance", "GET", "/api/v1/instance", "Information about the server"),
    entry("list_peers", "GET", "/api/v1/instance/peers", "Domains this server is aware of"),
    entry("block_account", "POST", "/api/v1/accounts/{id}/block", "Block account"),
    entry("create_list", "POST", "/api/v1/lists", "Create a list"),
]


def test_what_a_post_says_is_what_to_write() -> None:
    assert stem("server") not in query_terms("post a toot saying the server is back up")
    assert stem("server") in query_terms("what is the server saying")  # a question, not a message sent
    assert first(SOCIAL, "post a toot saying the server is back up") == "create_status"


def test_a_post_boosted_is_reblogged() -> None:
    assert first(SOCIAL, "boost Alice's latest post") == "reblog"


def test_a_value_added_to_a_things_property_is_an_update() -> None:
    assert property_phrases("add the custom domain shop.example.com to the store site", CREATE) == ["custom domain"]
    assert property_phrases("add a student to the chemistry class", CREATE) == []  # a member added
    docs = [{"resource": ["site"], "properties": ["custom_domain"]}, {"resource": ["site"], "properties": ["name"]}]
    raised = Properties(docs, 1.0, 0.5).scores("add the custom domain shop.example.com to the store site", CREATE)
    assert set(raised) == {0}


def test_things_described_by_when_they_were_changed_ask_no_change() -> None:
    assert intent("export the products updated since Monday") != UPDATE
    assert query_terms("export the products updated since Monday")[stem("updated")] < 1.0
    assert intent("show invoices created last month") == READ
    # in a question, what happened is what is asked: the bounces
    assert query_terms("which email addresses bounced yesterday?")[stem("bounced")] == 1.0


def test_a_grade_is_a_submissions_outcome() -> None:
    assert stem("outcome") in query_terms("grade Ahmed's submission for the lab report")


def test_a_connection_refreshed_is_synchronised() -> None:
    assert stem("sync") in query_terms("refresh the user's bank connection")


def test_a_rewording_rounds_words() -> None:
    assert stem("forward") in query_terms("send Dana's invoice mail on to accounting@contoso.com")
    assert intent("send Dana's invoice mail on to accounting@contoso.com") == CREATE
    assert stem("place") in query_terms("what meeting spaces are there in building 4?")
    assert stem("version") in query_terms("get me the older copy of the policy document")
    assert meant("mark me as busy on Teams") == "set my presence to busy on Teams"
    assert meant("file the newsletters into my Reading folder") == "move the newsletters to my Reading folder"
    assert meant("file a bug about the login page") == "file a bug about the login page"


def test_a_checking_account_is_an_account_not_a_check() -> None:
    assert stem("checking") not in query_terms("open a new checking account for Acme LLC")
    assert stem("account") in query_terms("open a new checking account for Acme LLC")


REPOS = [
    entry("list_repo_teams", "GET", "/repos/{owner}/{repo}/teams", "List repository teams"),
    entry("list_org_teams", "GET", "/orgs/{org}/teams", "List teams"),
    entry("list_my_teams", "GET", "/user/teams", "List teams for the authenticated user"),
    entry("list_child_teams", "GET", "/orgs/{org}/teams/{team_slug}/teams", "List child teams"),
    entry("list_releases", "GET", "/repos/{owner}/{repo}/releases", "List releases"),
    entry(
        "download_archive", "GET", "/orgs/{org}/migrations/{id}/archive", "Download an organization migration archive"
    ),
]


def test_a_repository_named_by_its_owner_is_a_repo_of_the_paths() -> None:
    assert stem("repo") in query_terms("list the teams that can push to acme/api")
    assert first(REPOS, "list the teams that can push to acme/api") == "list_repo_teams"


def test_download_counts_are_a_releases_not_a_download() -> None:
    assert first(REPOS, "list the releases and their download counts") == "list_releases"


def test_notified_when_something_happens_is_a_subscription_and_a_shared_calendar_is_a_calendar() -> None:
    assert stem("subscription") in query_terms("get notified when a new file is added to the Legal drive")
    assert query_terms("get notified whenever a file lands")[stem("notification")] >= 0.9
    assert stem("share") not in query_terms("what's the group's shared calendar this week?")
    assert stem("group") in query_terms("what's on the Finance group calendar?")


SHOPPING = [
    entry("content_accounts_get", "GET", "/{merchantId}/accounts/{accountId}", "Retrieves a Merchant Center account"),
    entry("content_accountstatuses_get", "GET", "/{merchantId}/accountstatuses/{accountId}", "Retrieves a status"),
    entry("content_datafeedstatuses_get", "GET", "/{merchantId}/datafeedstatuses/{datafeedId}", "Retrieves a status"),
]


def test_two_words_a_resource_runs_together_name_it() -> None:
    index = SearchIndex(SHOPPING, analysed=analyse_api([entry_texts(e) for e in SHOPPING]))
    asked = query_terms("what's my account status?")
    joined = index._joined("what's my account status?", asked)
    assert joined[stem("accountstatuses")] == 0.5 * (asked[stem("account")] + asked[stem("status")]) / 2
    apart = query_terms("what's the status of my account?")  # the two words, not in a row: nothing joined
    assert index._joined("what's the status of my account?", apart) == apart


def test_a_thing_moved_to_a_time_is_rescheduled() -> None:
    assert meant("move Thursday's standup to 10am").startswith("reschedule Thursday")
    assert meant("move the task to next Friday") == "reschedule the task to next Friday"
    assert meant("move the files to the Archive folder") == "move the files to the Archive folder"


def test_who_can_see_a_file_asks_for_its_permissions() -> None:
    assert stem("permission") in query_terms("who else can see the salary spreadsheet?")


def test_a_thing_turned_into_another_kind_makes_one_from_it() -> None:
    assert meant("convert the Marketing group into a team") == "create a team from the Marketing group "
    assert intent("turn the Marketing group into a Team") == CREATE
