"""Search mode: an invitation to a meeting is the meeting's, not an invitation of its own."""

from __future__ import annotations

from helpers import search_entry as entry
from helpers import search_names
from mcpforge.runtime.contract import ToolEntry
from mcpforge.runtime.modes.asks import query_terms
from mcpforge.runtime.modes.sentences import intent
from mcpforge.runtime.modes.words import stem

# As Microsoft Graph has them: a guest user's invitation is a resource of its own, a meeting an event.
ENTRIES: list[ToolEntry] = [
    entry("create_invitation", "POST", "/invitations", "Invite an external user to the organization"),
    entry("list_invitations", "GET", "/invitations", "List the invitations sent to external users"),
    entry("update_event", "PATCH", "/me/events/{event-id}", "Update an event in the user's calendar: its attendees"),
    entry("get_event", "GET", "/me/events/{event-id}", "Get an event, with its attendees and their responses"),
    entry("accept_event", "POST", "/me/events/{event-id}/accept", "Accept the specified event in a user calendar"),
    entry("decline_event", "POST", "/me/events/{event-id}/decline", "Decline an event in a user calendar"),
]


def first(request: str) -> str:
    return search_names(ENTRIES, request, limit=1)[0]


def test_an_invitation_to_a_gathering_is_its_event() -> None:
    assert first("invite Raj to the Friday planning meeting") == "update_event"
    assert first("who turned down the offsite invite?") == "get_event"
    assert first("accept the invitation to the design review meeting") == "accept_event"
    assert first("turn down the invite to the quarterly all-hands") == "decline_event"
    said = query_terms("invite Raj to the Friday planning meeting")
    assert said[stem("event")] >= 0.8 and said[stem("attendee")] >= 0.8 and said[stem("invitation")] < 0.5
    assert query_terms("which workshop invitations are still open?")[stem("event")] >= 0.8


def test_an_invitation_to_anything_else_is_an_invitation() -> None:
    assert first("invite a guest from our partner company") == "create_invitation"
    assert first("which invitations to outside users are still pending?") == "list_invitations"
    # "to review" is an action, not a review meeting; a repository is no gathering
    for asked in ("invite Jo to review the PR", "invite Bob to the repo"):
        said = query_terms(asked)
        assert stem("event") not in said and said[stem("invitation")] >= 0.7, asked


def test_turning_down_and_passing_on_are_actions() -> None:
    assert intent("turn the offer down") == intent("decline the offer")
    assert stem("forward") in query_terms("pass the invite on to Jim")


def test_who_joined_something_asks_for_its_members() -> None:
    said = query_terms("who joined the Marketing team this month?")
    assert said[stem("member")] >= 0.8 and stem("join") not in said  # not the teams someone joined
