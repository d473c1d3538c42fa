"""The everyday lexicon's phrases: what people say of an action or a question in their own words.

A seller lists a guitar "for sale" and asks which orders still "need to ship"; an administrator asks who
is "able to see" a file, whether a server is "healthy", to be told "when" something happens, how far
along a piece of work is, and how many emails "did people" send. Each names what an API calls a
listing, an awaiting shipment, a permission, a health check, a rule, a progress, a usage report. Like
:mod:`.things`' words for things, they join :mod:`.lexicon`'s one table, :data:`.lexicon.EVERYDAY`.
General software vocabulary only, never one API's names.
"""

from __future__ import annotations

from .things import USAGE

__all__ = ["PHRASES"]

# What people say of an action or a question, and the terms an API document uses for it: (terms, weight).
PHRASES: dict[str, tuple[tuple[str, ...], float]] = {
    # an alarm acknowledged is "ack"ed, as monitoring APIs write it ("acknowledge the alarm")
    **dict.fromkeys(("acknowledge", "acknowledged"), (("ack",), 0.8)),
    # A marketplace's words: what one sells is listed ("put my amp up for sale"), what one bought is an
    # order, what a thing is worth its price, and what is still to ship awaits shipment.
    "for sale": (("listing", "sell", "create"), 0.7),
    "sell": (("listing", "sale"), 0.6),
    "purchases": (("order", "buying", "bought"), 0.6),
    "worth": (("price", "value", "valuation"), 0.6),
    **dict.fromkeys(
        ("need to ship", "to be shipped", "not shipped", "unshipped", "havent shipped"),
        (("awaiting", "shipment", "unfulfilled", "pending"), 0.6),
    ),
    # whether someone can see or change a thing: its permissions ("who's able to see the Q3 report?")
    **dict.fromkeys(
        (
            *("able to see", "able to open", "able to edit", "able to access", "allowed to see", "allowed to edit"),
            *("who can see", "who else can see", "who can open", "who can edit", "who else can edit"),
        ),
        (("permission", "access", "share"), 0.7),
    ),
    # whether a service is up: its health or status ("is the server healthy?")
    **dict.fromkeys(("healthy", "up and running", "alive"), (("health", "status", "healthcheck", "alive"), 0.7)),
    # to hear whenever something happens is a webhook or a subscription ("notify me every time a PR is merged")
    "every time": (("webhook", "hook", "event", "subscription"), 0.6),
    "whenever": (("webhook", "hook", "event", "subscription"), 0.6),
    "each time": (("webhook", "hook", "event", "subscription"), 0.6),
    "notify me": (("webhook", "subscription", "notification"), 0.6),
    # "get notified when a file lands in the folder": a notification, and what sends it
    **dict.fromkeys(("get notified", "be notified"), (("notification", "subscription", "webhook", "notify"), 0.9)),
    # to hear when something happens is a rule, a trigger or a subscription ("alert me when the truck leaves")
    **dict.fromkeys(
        ("notify me when", "tell me when", "let me know when", "ping me when"),
        (("rule", "notification", "trigger", "subscription", "webhook", "alert"), 0.6),
    ),
    "alert me when": (("alert", "alarm", "rule", "trigger", "notification", "policy"), 0.8),
    # a device erased from afar is wiped ("erase everything on it remotely")
    **dict.fromkeys(("erase everything", "remotely erase", "erase it remotely"), (("wipe", "reset", "factory"), 0.8)),
    # an answer to everyone on a thread is a reply to all ("answer everyone on the budget email thread")
    **dict.fromkeys(
        ("answer everyone", "reply to everyone", "respond to everyone", "answer all"), (("reply", "all"), 0.8)
    ),
    # how much people did something is a usage report ("how many emails did people send last week?")
    **dict.fromkeys(("did people", "did users"), USAGE),
    # licences still to give out are the subscriptions' prepaid units ("which licences are available to assign?")
    **dict.fromkeys(("available to assign", "left to assign"), (("subscribed", "sku", "prepaid", "units"), 0.7)),
    # how far along a piece of work is: its progress ("how far along is the translation?")
    **dict.fromkeys(("how far along", "how far is", "how much is done"), (("progress", "status"), 0.8)),
    "be disturbed": (("presence", "availability", "status"), 0.8),  # "I don't want to be disturbed"
    # people told something are sent a message ("the office is closed tomorrow, let everyone know")
    **dict.fromkeys(
        ("let everyone know", "let them know", "let everyone there know", "let the team know", "let people know"),
        (("send", "message", "mail"), 0.7),
    ),
    # a link made to share a thing ("the video is too big for email, share a link instead")
    **dict.fromkeys(("share a link", "send a link"), (("link", "create", "share"), 0.8)),
    # a person's names are their record's ("update her last name to Petrova")
    **dict.fromkeys(("last name", "family name", "surname"), (("surname", "user", "name"), 0.8)),
    **dict.fromkeys(("first name", "given name"), (("given", "user", "name"), 0.8)),
    # someone's account is their user record ("our intern finishes today, disable her account")
    **dict.fromkeys(("his account", "her account", "their account"), (("user",), 0.7)),
    # one's own status set to a state is a presence ("set my status to away")
    **dict.fromkeys(
        ("status to away", "status to busy", "status to available", "status to offline"),
        (("presence", "availability"), 0.9),
    ),
    # a meeting pushed back or brought forward is rescheduled ("push my 10 o'clock back to 10:30")
    **dict.fromkeys(("push back", "bring forward"), (("reschedule", "update", "event", "time"), 0.7)),
    # when a thing was last changed is in its record or its history ("when was the VPN Users group last changed?")
    **dict.fromkeys(
        ("last changed", "last modified", "last updated", "last edited"),
        (("modified", "updated", "audit", "history", "activity"), 0.6),
    ),
    # what was said while one was away is in the messages ("back from holiday, what did I miss in the Product channel?")
    **dict.fromkeys(("did i miss", "have i missed", "did we miss"), (("message", "messages", "post", "activity"), 0.7)),
    # where a site keeps its files: its drives ("list the document libraries of the Tokyo site")
    **dict.fromkeys(("document library", "document libraries"), (("drive", "drives", "library", "file"), 0.8)),
    # time kept free in a calendar is an event ("block my calendar as out of office", "block out Friday")
    **dict.fromkeys(("block my calendar", "block out", "block off"), (("event", "calendar", "create"), 0.7)),
    # when people are free is in their calendars' schedules: "when are Ana, Ben and I all free next week", "is
    # meeting room B free at 2pm"
    **dict.fromkeys(
        ("are free", "are all free", "is free", "am free", "free time", "free slot", "free slots", "free at"),
        (("schedule", "availability", "meeting", "time", "find"), 0.7),
    ),
    # what someone has to do: their tasks and meetings ("what's on my plate today?")
    **dict.fromkeys(("on my plate", "on our plate"), (("task", "calendar"), 0.7)),
    # time made free: its meetings called off or declined ("clear my afternoon")
    **dict.fromkeys(
        (f"clear my {when}" for when in ("afternoon", "morning", "evening", "day", "calendar", "schedule")),
        (("event", "calendar", "cancel", "decline"), 0.7),
    ),
    # others reminded are told, in a message ("remind the team about Friday's offsite"); "remind me" is a task
    **dict.fromkeys(
        ("remind the team", "remind everyone", "remind the group", "remind the channel"), (("message", "send"), 0.7)
    ),
    # who is in charge of a thing owns it ("who's in charge of the marketing group?")
    **dict.fromkeys(("in charge of", "responsible for"), (("owner",), 0.8)),
    # how a chat app shows someone is their presence ("stop Teams showing me as away", "appear offline")
    **dict.fromkeys(
        ("as away", "as busy", "as offline", "as available", "appear offline", "appear away"),
        (("presence", "availability", "status"), 0.8),
    ),
    # what someone cannot do is kept from them by a rule or a permission ("why can't bob push to main")
    **dict.fromkeys(
        ("why cant", "why cannot", "why can not"), (("permission", "protection", "rule", "restriction"), 0.4)
    ),
    # the branch most repositories build from, by its usual names ("push to main", "merge it into master")
    **dict.fromkeys(("to main", "into main", "on main", "to master", "into master", "on master"), (("branch",), 0.5)),
    # a work item moved to a status goes through a workflow's transition ("move PROJ-88 to Done")
    **dict.fromkeys(
        ("to done", "to in progress", "to in review", "to closed", "to resolved", "to backlog"),
        (("transition", "status", "state"), 0.6),
    ),
    # what blocks a release or a project is its open issues ("what's blocking the 2.0 release")
    **dict.fromkeys(
        ("what blocking", "what is blocking", "blockers", "blocker"),
        (("issue", "open", "milestone", "dependency"), 0.6),
    ),
}
