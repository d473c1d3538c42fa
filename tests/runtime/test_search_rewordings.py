"""Search mode: a request said again in other words finds what the first wording found."""

from __future__ import annotations

from helpers import search_entry as entry
from helpers import search_first as first
from helpers import search_names
from mcpforge.runtime.modes.asks import query_terms
from mcpforge.runtime.modes.intents import CREATE, DELETE, READ
from mcpforge.runtime.modes.sentences import intent, meant
from mcpforge.runtime.modes.words import stem

TEAMS = [
    entry("send_chat_message", "POST", "/chats/{chat-id}/messages", "Send chatMessage in a chat"),
    entry("send_channel_message", "POST", "/teams/{team-id}/channels/{channel-id}/messages", "Send channel message"),
    entry("delete_channel_message", "DELETE", "/teams/{team-id}/channels/{channel-id}/messages/{id}", "Delete"),
    entry("get_presence", "GET", "/users/{user-id}/presence", "Get presence"),
    entry("list_chat_messages", "GET", "/chats/{chat-id}/messages", "List messages in a chat"),
    entry("list_swap_requests", "GET", "/teams/{team-id}/schedule/swapShiftsChangeRequests", "List swap requests"),
    entry("list_offer_requests", "GET", "/teams/{team-id}/schedule/offerShiftRequests", "List offer requests"),
]


def test_a_message_dropped_to_someone_is_a_chat_sent_to_them() -> None:
    assert meant("drop Priya a quick message in Teams") == "send Priya a chat message in Teams"
    assert intent("drop Priya a quick message in Teams") == CREATE  # not a removal
    assert first(TEAMS, "drop Priya a quick message in Teams") == "send_chat_message"
    assert first(TEAMS, "send Ana a message in the general channel") == "send_channel_message"
    assert "chat" not in meant("send Ben a message by email")


def test_whether_someone_is_free_now_and_shifts_traded() -> None:
    assert first(TEAMS, "is Jonas free to chat right now?") == "get_presence"
    assert first(TEAMS, "any requests to trade shifts waiting on me?") == "list_swap_requests"
    assert intent("unsend the message I posted by mistake") == DELETE


BOARD = [
    entry("update_task", "PATCH", "/planner/tasks/{plannerTask-id}", "Update plannerTask"),
    entry("list_buckets", "GET", "/planner/plans/{plannerPlan-id}/buckets", "List buckets"),
    entry("list_columns", "GET", "/sites/{site-id}/lists/{list-id}/columns", "List columnDefinitions in a list"),
    entry("update_column", "PATCH", "/sites/{site-id}/columns/{column-id}", "Update columnDefinition"),
]


def test_a_boards_columns_are_its_buckets() -> None:
    assert first(BOARD, "what columns does our Planner board have?") == "list_buckets"
    assert first(BOARD, "move the website redesign task to the Done column") == "update_task"
    assert first(BOARD, "which columns does the Inventory list on the site have?") == "list_columns"


FILES = [
    entry("recent_files", "GET", "/drives/{drive-id}/microsoft.graph.recent()", "Invoke function recent"),
    entry("list_files", "GET", "/agreements/{agreement-id}/files", "List agreement files"),
    entry("get_site", "GET", "/sites/{site-id}", "Get a site resource"),
    entry("create_list", "POST", "/sites/{site-id}/lists", "Create a new list"),
    entry("update_branding", "PATCH", "/organization/{id}/branding", "Update organizationalBranding"),
    entry("update_privacy", "PATCH", "/privacy", "Update privacy"),
    entry(
        "apply_hold",
        "POST",
        "/security/cases/ediscoveryCases/{id}/custodians/{cid}/microsoft.graph.security.applyHold",
        "Invoke action applyHold",
    ),
    entry("create_message", "POST", "/me/messages", "Create a draft message"),
    entry("send_mail", "POST", "/me/sendMail", "Send mail"),
]


def test_what_the_asker_viewed_a_login_screen_a_legal_hold_and_a_draft() -> None:
    assert first(FILES, "pull up the files I viewed in the last few days") == "recent_files"
    # the login screen is the branding's, beside the privacy settings the words also name
    assert "update_branding" in search_names(FILES, "update the privacy policy URL shown on our login screen", limit=2)
    held = query_terms("put a legal hold on the outgoing CFO's email")
    assert held[stem("ediscovery")] >= 0.7 and held[stem("custodian")] >= 0.7  # the eDiscovery case's hold
    assert first(FILES, "prepare an email to the team and leave it in drafts") == "create_message"
    assert intent("open the SharePoint site for HR") == READ and intent("open a new list") == CREATE
    assert intent("grab me the join link for tomorrow's all-hands") == READ
    said = query_terms("grab me the join link for tomorrow's all-hands")
    assert said[stem("link")] > 0.5 and said[stem("url")] > 0.5


ADMIN = [
    entry("update_user", "PATCH", "/users/{user-id}", "Update user"),
    entry("update_audit_logs", "PATCH", "/auditLogs", "Update auditLogRoot"),
    entry("list_owned_devices", "GET", "/users/{user-id}/ownedDevices", "List ownedDevices"),
    entry("get_user", "GET", "/users/{user-id}", "Get user"),
    entry("list_history_items", "GET", "/users/{user-id}/activities/{id}/historyItems", "List historyItems"),
    entry("create_event", "POST", "/me/events", "Create event"),
    entry("create_booking", "POST", "/solutions/bookingBusinesses/{id}/appointments", "Create bookingAppointment"),
    entry("cancel_event", "POST", "/me/events/{event-id}/microsoft.graph.cancel", "Invoke action cancel"),
    entry("list_people", "GET", "/me/people", "List people"),
    entry("list_channel_members", "GET", "/teams/{team-id}/channels/{channel-id}/members", "List members of a channel"),
]


def test_someone_stopped_from_logging_in_a_room_booked_and_a_standup_scrapped() -> None:
    assert meant("Erin's gone, stop her from logging in").endswith("block her from logging in")
    said = query_terms("Erin's gone, stop her from logging in")
    assert said[stem("sign")] >= 0.7 and said[stem("login")] >= 0.7  # logging in is signing in
    assert first(ADMIN, "book the large conference room for Tuesday at 10") == "create_event"
    assert first(ADMIN, "scrap tomorrow's standup and let the invitees know") == "cancel_event"
    assert first(ADMIN, "list the people in the Sales channel") == "list_channel_members"
    assert query_terms("when was Tom last active?")[stem("signin")] >= 0.7  # the sign-in activity on the user


def test_a_reminder_before_an_event_a_repository_made_read_only_and_a_commits_hash() -> None:
    assert meant("remind me half an hour before the client call").startswith("set a reminder")
    assert query_terms("remind me half an hour before the client call")[stem("half")] < 0.5  # an amount
    assert meant("remind me to call the dentist") == "remind me to call the dentist"  # a to-do, as said
    assert intent("make old-project read-only, it's abandoned") == intent("update old-project")
    assert query_terms("make old-project read-only, it's abandoned")[stem("archive")] >= 0.5
    assert query_terms("which pull requests include abc123?")[stem("commit")] >= 0.5
    assert stem("commit") not in query_terms("set the page size to 100")


def test_admin_rights_the_people_someone_manages_a_name_changed_and_terms_agreed_to() -> None:
    assert meant("who has global administrator rights?") == "who are the members of the global administrator role?"
    assert meant("who has admin access to acme/payments?") == "who has admin access to acme/payments?"  # the repo's
    assert meant("which people does Priya manage?") == "who are the direct reports of Priya?"
    assert meant("change the name of the Q4 folder to Q4 archive") == "rename the Q4 folder to Q4 archive"
    assert intent("I booked the flights, check that off my to-do list") == intent("update the task")
    assert query_terms("which users agreed to the updated terms?")[stem("acceptance")] >= 0.7


def test_a_calendar_asked_of_a_group_run_a_room_grabbed_and_a_name_called_instead() -> None:
    assert meant("what do I have scheduled through Friday?") == "what is on my calendar through Friday?"
    assert meant("who runs the Finance group?") == "who are the owners of the Finance group?"
    assert meant("grab the big conference room for Thursday at 2").startswith("reserve the big conference room")
    assert meant("grab me the join link") == "grab me the join link"  # a link is got, not reserved
    assert meant("call my Misc mail folder Receipts instead") == "rename my Misc mail folder to Receipts"
    assert meant("call the customer back") == "call the customer back"


def test_a_request_said_first_questions_about_someone_and_what_was_removed() -> None:
    assert intent("request time off for Monday in Shifts") == CREATE
    assert intent("can Tom still sign in, or is his account disabled?") == READ
    assert intent("can we turn off the issue tracker?") != READ  # asked politely: still a change
    said = query_terms("which app registrations were removed lately?")
    assert said[stem("deleted")] >= 0.6 and said[stem("lately")] < 0.5
    assert query_terms("extend the Marketing group's expiration")[stem("renew")] >= 0.6
    assert query_terms("who's able to see the Q3 report?")[stem("permission")] >= 0.7


def test_an_admin_made_a_spreadsheets_tabs_a_reply_to_everyone_and_a_chat_status() -> None:
    assert meant("make Sam a helpdesk admin") == "make Sam a helpdesk admin, a member of the administrator role"
    assert meant("list the tabs in the budget spreadsheet") == "list the worksheets in the budget spreadsheet"
    assert meant("list the tabs in the Marketing channel") == "list the tabs in the Marketing channel"  # a channel's
    assert query_terms("answer everyone on the budget email thread")[stem("all")] >= 0.8
    assert query_terms("I don't want to be disturbed, change my Teams status")[stem("presence")] >= 0.8
    assert query_terms("Tom lost his phone, erase everything on it remotely")[stem("wipe")] >= 0.8


def test_a_role_activated_a_usage_question_and_licences_left_to_assign() -> None:
    admin = [
        entry("create_role", "POST", "/directoryRoles", "Activate directoryRole"),
        entry("request_role", "POST", "/roleManagement/directory/roleAssignmentScheduleRequests", "Create request"),
        entry("update_activities", "PATCH", "/me/activities/{id}", "Update activity"),
        entry("list_people", "GET", "/me/people", "List people"),
        entry("email_activity", "GET", "/reports/getEmailActivityCounts", "Get email activity counts report"),
        entry("license_details", "GET", "/me/licenseDetails", "List licenseDetails"),
        entry("subscribed_skus", "GET", "/subscribedSkus", "List subscribedSkus"),
    ]
    assert first(admin, "activate my Global Reader role for two hours") == "request_role"
    assert first(admin, "how many emails did people send last week?") == "email_activity"
    assert query_terms("which licences are still available to assign?")[stem("prepaid")] >= 0.7
