"""The everyday lexicon: the words people use for what API documents name otherwise.

:data:`EVERYDAY` maps a word or phrase of a request to the terms a document uses for it, with the weight
of that evidence ("get rid of" is delete and remove, a PR is a pull request, "who" asks for a list);
which HTTP methods an action word asks for is :mod:`.intents`'s. General software vocabulary only, never
one API's names: the search index (:mod:`.index`) and :mod:`.asks` read it. Keys are words as people
say them (lower-case, apostrophes dropped, hyphens as spaces), matched as phrases before single words.
It holds :mod:`.things`' words for things, :mod:`.phrases`' for actions and questions said in people's
own words, and :mod:`.verbs`' for the basic actions.
"""

from __future__ import annotations

from .phrases import PHRASES
from .things import THINGS
from .verbs import VERBS

__all__ = ["EVERYDAY"]

# To stop hearing about something: "stop sending me updates", "stop notifying me".
_UNWATCH = (("unsubscribe", "unwatch", "watcher", "subscription", "notification", "delete"), 0.6)
# What has been happening: "what happened", "what's going on", "what has Dana been doing".
_ACTIVITY = (("event", "activity", "history", "log", "audit", "action"), 0.6)
# Time away from work: "take Friday off", "two days off" ask for leave, not for a removal.
_TIME_AWAY = (("time", "off", "leave", "absence", "vacation"), 0.7)
# Whether someone is there: "is Jonas online in Teams", "who is online right now".
_PRESENCE = (("presence", "availability"), 0.9)
# A rule against something: "stop anyone from force pushing", "prevent merges without a review".
_RESTRICT = (("rule", "ruleset", "protection", "restriction", "restrict", "lock", "limit"), 0.6)
# How much of something in a time: "how many pull requests can they open per day" asks for a limit.
_RATE = (("limit", "cap", "quota", "rate"), 0.6)

# The words people use, and the terms an API document uses for them: (terms, weight of the evidence).
# Multi-word keys are matched as phrases before single words. General vocabulary only.
EVERYDAY: dict[str, tuple[tuple[str, ...], float]] = {
    **THINGS,  # what people call things (:mod:`.things`), before the verbs and phrases they use
    **PHRASES,  # what people say of an action or a question (:mod:`.phrases`)
    # verbs people use for what APIs name otherwise
    "file a": (("create", "issue", "report"), 0.6),
    "file an": (("create", "issue", "report"), 0.6),
    # Filing what one has away puts it somewhere: "file this email in the Archive folder".
    **dict.fromkeys(("file this", "file that", "file it", "file these", "file them"), (("move",), 0.8)),
    **dict.fromkeys(("in one go", "in bulk"), (("bulk", "batch", "multiple"), 0.9)),
    "at once": (("bulk", "batch"), 0.7),
    "bump": (("update", "increase"), 0.6),
    "text": (("message", "sms", "send"), 0.6),
    "texts": (("message", "sms"), 0.6),
    "credit": (("balance", "credit", "fund"), 0.5),
    "give": (("assign", "assignee", "grant", "add"), 0.5),
    "stop sending": _UNWATCH,
    "stop notifying": _UNWATCH,
    "tell": (("notify", "notification", "comment", "message", "send", "mail"), 0.5),
    "remove": (("delete", "remove"), 0.8),
    "trash": (("delete",), 0.8),
    "drop": (("delete", "remove"), 0.6),
    "erase": (("delete",), 0.8),
    "discard": (("delete", "cancel"), 0.6),
    "get rid of": (("delete", "remove"), 0.9),
    "make": (("create",), 0.6),
    # A website is a site or pages (GitHub Pages); what was given access was granted it.
    "website": (("site", "pages", "page", "hosting"), 0.6),
    "given access": (("grant", "permission", "consent", "access"), 0.6),
    # What someone let an app do on their behalf: the permission they granted it.
    "consent": (("consent", "grant", "permission"), 0.6),
    # An OAuth scope is a permission an app or token is granted ("what scopes does the token have").
    "scope": (("permission", "grant"), 0.6),
    "scopes": (("permission", "grant"), 0.6),
    "consented to": (("consent", "grant", "permission"), 0.7),
    "let me know": (("notification", "notify", "subscription", "webhook"), 0.6),
    # An invite said as a thing is an invitation ("accept the meeting invite"), not someone to invite.
    "the invite": (("invitation", "event"), 0.8),
    "meeting invite": (("invitation", "meeting", "event", "calendar"), 0.8),
    "meeting request": (("invitation", "meeting", "event", "calendar"), 0.8),
    "say yes to": (("accept",), 0.9),
    "say no to": (("decline",), 0.9),
    # what is used up or ends: "is the app's secret about to run out", "are we running out of storage"
    **dict.fromkeys(("run out", "runs out", "running out"), (("expire", "expiration", "quota", "limit"), 0.6)),
    "confirm": (("verify", "confirm"), 0.6),  # "confirm we own contoso.io"
    **dict.fromkeys(("empty my", "empty the"), (("delete", "clear"), 0.7)),  # "empty my spam folder"
    # Who looked at something asks for its views: its activity or analytics.
    "looked at": (("view", "viewed", "activity", "analytics", "access", "seen"), 0.6),
    "viewed": (("view", "activity", "analytics", "access", "seen"), 0.6),
    "who saw": (("view", "viewed", "activity", "analytics", "seen"), 0.6),
    "who opened": (("open", "view", "viewed", "activity", "analytics"), 0.6),
    "copy": (("duplicate", "clone", "replicate"), 0.7),
    "duplicate": (("copy", "clone"), 0.6),
    **dict.fromkeys(("color code", "colour code"), (("category", "color", "label", "tag"), 0.8)),  # "color-code it red"
    # the kinds of leave an employer keeps ("add a leave type for jury duty")
    **dict.fromkeys(("leave type", "leave types", "type of leave", "leave reason"), (("time", "off", "reason"), 0.8)),
    "owe": (("balance", "invoice", "bill", "billing", "due"), 0.6),
    "past due": (("overdue", "unpaid", "delinquent", "due"), 0.6),
    "power off": (("shutdown", "stop", "disable"), 0.7),
    # A mailing list's subscribers are its members or contacts (in Stripe they subscribe to a plan: low).
    "subscribers": (("member", "contact", "recipient"), 0.35),
    "go out": (("send", "delivery", "schedule"), 0.6),
    "goes out": (("send", "delivery", "schedule"), 0.6),
    "when someone": (("automation", "automatic", "trigger", "rule", "webhook", "event"), 0.6),
    # "her own login": whose it is, not an owner.
    **{f"{whose} own": ((), 0.0) for whose in ("my", "your", "his", "her", "our", "their")},
    "mute": (("ignore", "ignored", "subscription", "unsubscribe", "silence", "notification"), 0.6),
    # Hours logged are a time entry: a time card, a timesheet, a work log.
    "log hours": (("time", "timecard", "timesheet", "worklog", "hours", "entry", "create"), 0.7),
    "log time": (("time", "timecard", "timesheet", "worklog", "hours", "entry", "create"), 0.7),
    **dict.fromkeys(
        ("hours logged", "time logged", "hours were logged", "logged hours"),
        (("time", "timecard", "timesheet", "worklog", "hours", "entry"), 0.7),
    ),
    "said": (("message", "history", "conversation", "post"), 0.5),
    "say": (("message", "history", "conversation", "post", "said"), 0.5),
    "showcase": (("album", "collection", "playlist", "portfolio"), 0.6),
    "subtitles": (("caption", "subtitle", "text", "track", "transcript"), 0.7),
    "captions": (("caption", "subtitle", "text", "track", "transcript"), 0.7),
    "follow": (("subscribe", "subscription", "following"), 0.4),
    "who logged in": (("event", "login", "sign", "audit", "activity", "log"), 0.7),
    "who signed in": (("event", "login", "sign", "audit", "activity", "log"), 0.7),
    "expire after": (("timeout", "lifespan", "expiration", "expiry", "ttl", "idle"), 0.7),
    "2fa": (("mfa", "otp", "totp", "authenticator", "factor", "multi"), 0.8),
    "two factor": (("mfa", "otp", "totp", "authenticator", "factor", "multi"), 0.8),
    "log in with": (("identity", "provider", "federated", "social", "sso", "login"), 0.7),
    "sign in with": (("identity", "provider", "federated", "social", "sso", "login"), 0.7),
    "leave in": (("item", "content", "remaining"), 0.4),
    "how many people": (("stats", "statistic", "metric", "analytics", "count", "user", "member", "people"), 0.5),
    "can i still": (("remaining", "balance", "credit", "quota", "limit", "available"), 0.6),
    "can we still": (("remaining", "balance", "credit", "quota", "limit", "available"), 0.6),
    "have left": (("remaining", "balance", "credit", "quota", "limit", "available"), 0.6),
    "rewrite": (("update", "edit"), 0.7),
    "require": (("required", "protection", "rule", "require"), 0.5),
    "prevent": _RESTRICT,
    "stop everyone from": _RESTRICT,
    "stop people from": _RESTRICT,
    "stop anyone from": _RESTRICT,
    **dict.fromkeys(("dont let", "do not let", "dont allow", "do not allow", "only let", "only allow"), _RESTRICT),
    **dict.fromkeys(("make sure nobody", "make sure no one", "ensure nobody", "ensure no one"), _RESTRICT),
    "resend": (("redeliver", "retry", "send", "resend"), 0.6),
    # "make the project private": a change to something that exists, not a new one
    # a rate asks for a limit: "how many pull requests can new contributors open per day"
    "per second": _RATE,
    "per minute": _RATE,
    "per hour": _RATE,
    "per day": _RATE,
    "per week": _RATE,
    "per month": _RATE,
    # a count broken down by a time: "how many lines were added each week" asks for weekly numbers
    "each week": (("weekly",), 0.7),
    "each month": (("monthly",), 0.7),
    # what uses something up: "what's eating our Actions minutes" asks where the usage goes
    "eating": (("usage", "billing", "cost"), 0.6),
    "eating up": (("usage", "billing", "cost"), 0.6),
    **VERBS,  # the words for the basic actions (:mod:`.verbs`)
    "difference": (("compare", "diff"), 0.8),
    "differences": (("compare", "diff"), 0.8),
    "registered": (("registrant", "registration", "register"), 0.6),
    "signed up": (("registrant", "registration", "register", "sign"), 0.6),
    "absent": (("absentee", "absent"), 0.8),
    "showed up": (("participant", "attendee", "attend"), 0.8),
    "show up": (("participant", "attendee", "attend"), 0.8),
    "attended": (("participant", "attendee"), 0.8),
    "attending": (("participant", "attendee"), 0.8),
    # Where a site's or a repository's visitors come from: its referrers.
    "send people": (("referrer", "referral", "traffic"), 0.8),
    "sends people": (("referrer", "referral", "traffic"), 0.8),
    "send visitors": (("referrer", "referral", "traffic"), 0.8),
    "send traffic": (("referrer", "referral", "traffic"), 0.8),
    # A secret that got out: what secret scanning finds.
    "leaked": (("secret", "scanning", "alert", "exposed"), 0.8),
    **dict.fromkeys(
        ("accidentally pushed", "accidentally committed"), (("secret", "scanning", "alert", "exposed"), 0.6)
    ),
    # someone who spams is someone to block ("stop this spammer from interacting with my repos")
    **dict.fromkeys(("spammer", "spammers"), (("block", "spam", "abuse"), 0.7)),
    "unresolved": (("open",), 0.7),  # an issue or an alert not yet closed
    "audit trail": (("audit", "log", "directory"), 0.9),  # "the audit trail of policy changes"
    # a mark to come back to a message ("set a follow-up flag", "flag it so I follow up")
    "follow up": (("flag", "followup", "reminder", "follow"), 0.6),
    **dict.fromkeys(("am i working", "are we working"), (("shift", "schedule"), 0.8)),  # "what time am I working next?"
    "popular": (("trending", "popular", "top"), 0.7),  # "what files are popular with my colleagues"
    "inactive": (("activity", "usage", "used", "inactive"), 0.6),  # not used: a usage report's
    # "make my own copy of this repo" (before "my own", which says whose)
    **dict.fromkeys(("own copy", "my own copy", "our own copy"), (("fork", "clone", "copy"), 0.8)),
    # Who is on a network: its clients; numbers moved from another carrier are ported.
    "connected to": (("client", "session", "device"), 0.6),
    # what is plugged into a port is connected to it by a cable: "what's plugged into port 24"
    **dict.fromkeys(
        ("plugged into", "plugged in to", "plugged in"), (("cable", "connected", "connection", "trace"), 0.6)
    ),
    "carrier": (("carrier", "port", "porting", "portability"), 0.5),
    # Someone reached "on Teams" is reached in a chat (the product), not through a team.
    "on teams": (("chat", "message"), 0.7),
    **dict.fromkeys(("teams message", "teams messages", "teams chat"), (("chat", "message"), 0.7)),
    # How long things are kept: a retention policy ("keep contracts for 7 years").
    "keep": (("retention", "retain", "hold"), 0.5),
    # Who is working on something: its members, the people assigned to it.
    "working on": (("member", "assignee", "participant", "task"), 0.7),
    "works on": (("member", "assignee", "participant"), 0.7),
    # Who is invited to something, who declined or accepted it: its attendees (a meeting's, an event's).
    "invited to": (("attendee", "participant", "event", "meeting"), 0.7),
    "declined": (("attendee", "response", "event", "meeting"), 0.7),
    "accepted": (("attendee", "response", "event", "meeting"), 0.7),
    # Who joined something is who its members are ("who joined the Marketing team this month?").
    **dict.fromkeys(("who joined", "who has joined", "who just joined"), (("member", "membership"), 0.8)),
    "never came": (("absentee",), 0.8),
    "no-show": (("absentee",), 0.8),
    "bug": (("issue",), 0.6),
    "bugs": (("issue",), 0.6),
    "approve": (("review", "approve"), 0.7),
    "review": (("review", "reviewer"), 0.6),
    "invite": (("invitation", "invite", "member", "attendee"), 0.7),
    "join": (("member", "membership", "join"), 0.5),
    "leave": (("member", "delete", "leave"), 0.4),
    "assign": (("assignee", "assign"), 0.7),
    "block": (("block",), 1.0),
    "unblock": (("block", "delete"), 0.8),
    "pay": (("payment", "pay", "charge"), 0.5),
    "salary": (("pay", "salary", "wage", "compensation", "earnings"), 0.6),
    "bonus": (("pay", "bonus", "payment", "compensation", "addition"), 0.6),
    "charge": (("charge", "payment"), 0.6),
    "refund": (("refund",), 1.0),
    "transfer": (("transfer",), 1.0),
    "download": (("download", "content", "archive", "get"), 0.6),
    "export": (("export", "download"), 0.6),
    "share": (("share", "invite", "link", "permission", "collaboration", "authorize"), 0.6),
    # letting someone open a thing: sharing it ("give the auditors read-only access to the budget workbook")
    **dict.fromkeys(
        ("read only access", "view only access", "edit access", "edit rights", "edit permissions", "view rights"),
        (("share", "invite", "permission", "link", "access", "collaboration", "collaborator"), 0.7),
    ),
    "unshare": (("share", "link", "collaboration", "permission", "remove", "delete"), 0.7),
    "who can see": (("collaboration", "collaborator", "permission", "access", "member", "share", "user"), 0.6),
    "who has access": (("collaboration", "collaborator", "permission", "member", "share"), 0.6),
    "who can": (("collaboration", "collaborator", "permission", "access", "restriction", "role"), 0.6),
    "who is allowed": (("collaboration", "collaborator", "permission", "access", "restriction"), 0.6),
    "stop sharing": (("share", "link", "collaboration", "permission", "remove", "delete"), 0.7),
    "lock": (("lock",), 1.0),
    "unlock": (("lock", "delete"), 0.7),
    "archive": (("archive", "update"), 0.6),
    "reopen": (("open", "state", "update"), 0.6),  # an issue or a pull request: its state set open again
    "accept": (("accept",), 1.0),
    "decline": (("decline",), 1.0),
    # not going to a meeting is declining it ("tell the organizer I can't attend Friday's all-hands")
    **dict.fromkeys(
        ("cant attend", "cannot attend", "cant make it", "cannot make it", "wont attend"), (("decline",), 0.9)
    ),
    # gone for good: deleted permanently ("purge the deleted intern account")
    "purge": (("delete", "permanent", "deleted"), 0.8),
    "for good": (("permanent", "permanently", "deleted"), 0.6),
    "factory reset": (("wipe", "reset", "factory"), 0.8),
    # data of one's own kept on a record: an extension of it ("save the badge ID as extra data on her account")
    **dict.fromkeys(("extra data", "custom data", "additional data"), (("extension", "custom", "property"), 0.7)),
    # who works somewhere: the people (users) in it ("who works in marketing")
    **dict.fromkeys(("works in", "who work in", "works at", "works for"), (("user", "people", "member"), 0.6)),
    "subscribe": (("subscription", "subscribe"), 0.7),
    "unsubscribe": (("subscription", "delete", "unsubscribe"), 0.7),
    # to watch something is to subscribe to what happens to it
    "watch": (("subscription", "subscribe", "watcher"), 0.6),
    "unwatch": (("subscription", "unsubscribe", "watcher"), 0.7),
    "stop watching": (("subscription", "subscribe", "unsubscribe", "unwatch", "watcher"), 0.7),
    "mark": (("update", "mark", "read"), 0.4),
    "count": (("count",), 1.0),
    "latest": (("latest", "list"), 0.4),
    "recent": (("recent", "list"), 0.5),
    "recently": (("recent",), 0.8),
    "lately": (("recent",), 0.8),
    # What someone had open last: "what did I last open", "the files I last worked on".
    **dict.fromkeys(
        ("last open", "last opened", "last viewed", "last edited", "last worked on", "opened recently", "worked on"),
        (("recent", "used", "viewed"), 0.8),
    ),
    # what the asker had open: "the files I viewed this week", "documents I've been looking at"
    **dict.fromkeys(
        ("i viewed", "i looked at", "ive viewed", "ive been looking at"),
        (("recent", "used", "viewed"), 0.7),
    ),
    # the page people sign in on shows the organisation's branding ("the privacy link on our login screen")
    **dict.fromkeys(
        ("login screen", "login page", "sign in page", "sign in screen"), (("branding", "sign", "login"), 0.7)
    ),
    # a draft is a message made and not sent ("prepare an email and leave it in drafts")
    **dict.fromkeys(("in drafts", "as a draft", "a draft"), (("draft", "create", "message"), 0.7)),
    "unsend": (("delete", "recall", "retract"), 0.8),
    "scrap": (("cancel", "delete"), 0.8),
    "extend": (("renew", "extension"), 0.7),  # "extend the group's expiration": renewed
    "disabled": (("enabled", "status"), 0.5),  # "is his account disabled?": whether it is enabled
    "read only": (("archive", "archived", "readonly", "lock"), 0.5),  # a repository made read-only is archived
    # a project left alone is archived ("make old-project read-only, it's abandoned")
    **dict.fromkeys(("abandoned", "unmaintained", "no longer maintained"), (("archive", "archived"), 0.7)),
    # when someone was last around: their sign-in activity ("when was Tom last active?")
    **dict.fromkeys(("last active", "last seen", "last online"), (("sign", "signin", "login", "activity"), 0.7)),
    # joining what has a roster: "sign Mia up for chemistry", "sign up for the newsletter"
    "sign up": (("enroll", "register", "subscribe", "member", "signup"), 0.7),
    # shifts traded between colleagues are swapped
    **dict.fromkeys(("trade", "trade shifts", "swap shifts"), (("swap", "exchange"), 0.6)),
    # "stop her from logging in", "block him from signing in": the sign-in itself
    **dict.fromkeys(("log in", "logging in"), (("login", "authenticated", "session", "sign"), 0.7)),
    "logged in": (("authenticated", "login", "session", "current"), 0.8),
    **dict.fromkeys(("sign in", "signing in"), (("login", "authenticated", "session", "sign"), 0.7)),
    "signed in": (("authenticated", "login", "session", "current", "sign"), 0.8),
    "log out": (("logout", "token", "session", "revoke", "sign"), 0.8),
    "sign out": (("logout", "token", "session", "revoke", "sign"), 0.8),
    "who am i": (("authenticated", "current", "me", "user"), 0.9),
    "happened": _ACTIVITY,
    # what went on, said as a noun (its stem is "activate"'s: not an enabling)
    **dict.fromkeys(("activity", "activities"), (("event", "activity", "history"), 0.5)),
    "going on": _ACTIVITY,
    "been doing": _ACTIVITY,
    # when, not what
    "right now": ((), 0.0),
    "at the moment": ((), 0.0),
    # a service that is down
    "outage": (("health", "incident", "issue", "status"), 0.6),
    # a branch behind another
    "up to date": (("update", "merge", "sync"), 0.6),
    "history": (("log", "event", "activity", "audit"), 0.5),
    "monthly": (("schedule", "recurring", "recurrence"), 0.6),
    "weekly": (("schedule", "recurring", "recurrence"), 0.6),
    "daily": (("schedule", "recurring", "recurrence"), 0.6),
    **dict.fromkeys(("repeat", "repeats", "recur", "recurs"), (("recurrence", "recurring", "schedule"), 0.6)),
    **dict.fromkeys(
        ("every month", "every week", "every day", "every night", "every hour", "nightly", "hourly"),
        (("schedule", "recurring", "recurrence", "automation"), 0.6),
    ),
    "when did": (("log", "history", "activity", "audit", "event"), 0.5),
    "when was": (("log", "history", "activity", "audit", "event"), 0.5),
    "public": (("visibility", "private"), 0.6),
    "private": (("visibility", "public"), 0.6),
    "star": (("stargazer", "starred"), 0.8),
    "starred": (("star", "stargazer"), 0.9),
    "server": (("instance", "machine", "host", "node"), 0.5),
    "servers": (("instance", "machine", "host", "node"), 0.5),
    "machine": (("instance", "server", "host", "node", "device", "computer"), 0.5),
    "backed up": (("backup",), 0.9),
    "back up": (("backup",), 0.9),
    "down": (("status", "state", "health", "uptime"), 0.4),
    "roll back": (("rollback", "revert", "restore"), 0.9),
    "revert": (("rollback", "restore"), 0.7),
    "undo": (("revert", "rollback", "restore"), 0.6),
    "restore": (("recover", "undelete", "status"), 0.6),
    "undelete": (("restore", "recover", "trash"), 0.8),
    "kick": (("remove", "delete", "member", "membership"), 0.5),
    "note": (("comment", "note", "annotation"), 0.5),
    "drop a note": (("comment", "note", "create"), 0.7),
    "bring back": (("restore", "recover", "undelete"), 0.8),
    "get back": (("restore", "recover", "undelete"), 0.8),
    # a file in another format is its content converted ("convert the report to PDF")
    "to pdf": (("pdf", "content", "format", "convert", "download"), 0.8),
    "write back": (("reply",), 0.8),  # "write back to Priya's email"
    # answering an invitation: "RSVP yes to the design review"
    "rsvp yes": (("accept", "response", "event"), 0.9),
    "rsvp no": (("decline", "response", "event"), 0.9),
    "rsvp": (("accept", "decline", "response", "event"), 0.6),
    "complete": (("complete", "completed", "status", "update"), 0.6),  # "complete my to-do item"
    # a record's fields are a list's or a table's columns ("add a Status field to the tracker list")
    **dict.fromkeys(("field", "fields"), (("column", "property"), 0.4)),
    "recover": (("restore", "undelete"), 0.7),
    "waiting": (("pending", "open", "queue"), 0.5),
    "pending": (("open", "waiting"), 0.5),
    "allowed": (("limit", "quota", "permission"), 0.5),
    "limit": (("quota", "limit"), 0.6),
    "contributed": (("contributor", "contribution"), 0.9),
    "contributors": (("contributor", "collaborator"), 0.6),
    "call": (("meeting", "call", "phone"), 0.4),
    # What came in, not what was sent: "forward incoming texts", "the texts customers sent back".
    "incoming": (("inbound", "received", "receive"), 0.7),
    "sent back": (("reply", "inbound", "received", "response"), 0.7),
    # Money put into an account: "top up the account", "top up our balance".
    "top up": (("recharge", "credit", "balance", "fund", "purchase"), 0.8),
    "video call": (("meeting", "video"), 0.9),
    "vat": (("tax",), 0.9),
    # A mailbox's answer while its owner is away: "turn on my out of office", "set up automatic replies".
    **dict.fromkeys(
        (
            "out of office",
            "out of office message",
            "out of office reply",
            "automatic replies",
            "automatic reply",
            "auto reply",
            "auto replies",
            "away message",
        ),
        (("automatic", "reply", "vacation", "mailbox", "setting"), 0.7),
    ),
    "link": (("url", "link", "invitation"), 0.5),
    # Resizing changes a thing's size: an update where the API has no resize of its own.
    "resize": (("size", "update"), 0.6),
    # Growing or shrinking a thing is resizing it ("grow the boot disk to 200GB").
    **dict.fromkeys(("grow", "enlarge", "expand", "shrink"), (("resize", "size", "update"), 0.6)),
    # Work cut into parts is subtasks: "break the website task into smaller steps", "break it down".
    # Members of members: "including nested ones", "people in sub-lists" (Graph's transitive members).
    **dict.fromkeys(
        ("nested", "sublist", "sublists", "subgroup", "subgroups", "sub list", "sub lists", "sub group", "sub groups"),
        (("transitive", "nested", "recursive"), 0.7),
    ),
    # Many at once is a batch, not a phone call: "look up several users by their ids in one call".
    "in one call": (("batch", "bulk"), 0.6),
    # What changed since the last look is a delta: "only the users that changed since my last sync".
    "changed since": (("delta", "change", "changes"), 0.7),
    "last sync": (("delta", "sync", "changes"), 0.7),
    # The raw form of a message or file is its content, as stored ("the raw MIME of the email").
    "raw": (("content", "value", "media", "mime"), 0.6),
    # Hanging up ends a call: its status set to completed, or the API's own hangup.
    "hang up": (("hangup", "end", "complete", "completed", "status", "terminate"), 0.7),
    # What is copied out of something is downloaded from it: "copy the config file out of the container".
    "copy out": (("download", "export", "archive"), 0.7),
    "smaller steps": (("subtask", "child", "step"), 0.7),
    "smaller tasks": (("subtask", "child"), 0.7),
    "break down": (("subtask", "child", "split"), 0.6),
    "vm": (("virtual", "machine", "instance", "server"), 0.8),
    "vms": (("virtual", "machine", "instance", "server"), 0.8),
    "own": (("owner",), 0.8),
    "ownership": (("owner",), 0.9),
    "owns": (("owner",), 0.8),
    "part of": (("member",), 0.5),
    "belong to": (("member", "membership"), 0.6),
    "belongs to": (("member", "membership"), 0.6),
    "am i in": (("member", "membership", "me", "authenticated"), 0.7),
    # the asker's memberships: "what groups do I belong to"
    "do i belong to": (("member", "membership", "me", "authenticated"), 0.7),
    "take out": (("remove", "delete", "member"), 0.7),
    "take off": (("remove", "delete"), 0.7),  # "take Jo off this card", "take it off my favourites"
    "time off": _TIME_AWAY,
    # Leave taken is time away, not leaving ("record Tom's sick leave").
    "sick leave": (("sick", "sickness", "leave", "absence", "time", "off"), 0.7),
    "annual leave": (("holiday", "vacation", "leave", "absence", "time", "off"), 0.7),
    "parental leave": (("parental", "leave", "absence", "time", "off"), 0.7),
    "day off": _TIME_AWAY,
    "days off": _TIME_AWAY,
    "kick out": (("remove", "delete", "member", "membership", "kick"), 0.7),
    "react": (("reaction",), 0.9),
    "app": (("application", "client"), 0.8),
    "apps": (("application", "client"), 0.8),
    # An app's registration is the app's own record (Microsoft Entra's app registrations), not a
    # device's apps registered for management.
    "app registration": (("application", "registration"), 0.9),
    "app registrations": (("application", "registration"), 0.9),
    "registered app": (("application", "registration"), 0.9),
    "registered apps": (("application", "registration"), 0.9),
    "apps registered": (("application", "registration"), 0.9),
    "apps are registered": (("application", "registration"), 0.9),
    # An enterprise app is an app's presence in one tenant (Microsoft Entra's service principals).
    "enterprise app": (("service", "principal", "application"), 0.8),
    "enterprise apps": (("service", "principal", "application"), 0.8),
    "profile": (("user", "me", "account"), 0.5),
    "automatically": (("rule", "automatic", "automation", "trigger"), 0.5),
    "compromised": (("risk", "risky", "security", "breach"), 0.6),
    "visited": (("view", "traffic", "visit"), 0.6),
    "visitors": (("view", "traffic", "visit"), 0.6),
    "spent": (("billing", "usage", "cost", "invoice"), 0.6),
    "spend": (("billing", "usage", "cost", "invoice"), 0.6),
    "cost": (("billing", "usage", "price", "invoice"), 0.5),
    "busy": (("presence", "availability", "schedule"), 0.6),
    # what someone is a member of ("Alex's group memberships")
    **dict.fromkeys(("group memberships", "group membership"), (("group", "member", "transitive"), 0.8)),
    "do not disturb": (("presence", "availability", "status"), 0.8),
    "reschedule": (("update", "event", "time"), 0.7),
    "api key": (("key", "token", "secret", "credential"), 0.7),
    **dict.fromkeys(("tick off", "check off"), (("complete", "status", "update"), 0.7)),
    **dict.fromkeys(("as done", "as finished"), (("complete", "status"), 0.7)),  # "mark the task as done"
    # who agreed to terms: their acceptances ("which users agreed to the updated terms?")
    **dict.fromkeys(("agreed to", "agree to", "agrees to"), (("acceptance", "accept", "agreement"), 0.7)),
    "who changed": (("change", "audit", "log", "history", "activity"), 0.8),
    "who deleted": (("delete", "audit", "log", "history", "activity"), 0.8),
    "who removed": (("remove", "audit", "log", "history", "activity"), 0.8),
    "top level": (("root",), 0.7),
    "top of": (("root",), 0.6),
    "phone number": (("phone", "number", "mobile"), 0.8),
    # products named as one word, whose parts would say something else
    "sharepoint": (("site", "list"), 0.6),
    "standup": (("meeting", "event"), 0.8),
    "stand up": (("meeting", "event"), 0.8),
    "one on one": (("meeting", "event"), 0.8),
    "catch up": (("meeting", "event"), 0.6),
    "all hands": (("meeting", "event"), 0.8),
    "huddle": (("meeting", "call"), 0.6),
    "poster": (("image", "picture"), 0.8),
    "artwork": (("image", "picture"), 0.8),
    "cover art": (("image", "picture"), 0.8),
    "thumbnail": (("image", "thumb"), 0.7),
    "middle of": (("resume", "progress"), 0.6),
    "where i left off": (("resume", "progress"), 0.7),
    # Where something is: its location ("where is my character right now", "where are the delivery vans").
    **dict.fromkeys(("where is", "where are"), (("location", "position", "place"), 0.6)),
    "pick up where": (("resume", "progress"), 0.7),
    "mobile number": (("phone", "number", "mobile"), 0.8),
    # who "me" is: the signed-in user
    "am i": (("me", "authenticated", "current"), 0.5),
    "my": (("me", "user", "member"), 0.3),
    "assigned to me": (("assignee", "assigned", "me", "authenticated", "current", "user", "member"), 0.6),
    "work with": (("people", "relevant", "colleague"), 0.7),  # "who do I work with most"
    # the people someone works beside: "who are Tom's coworkers"
    **dict.fromkeys(("coworkers", "co workers", "colleagues", "teammates"), (("people", "relevant", "colleague"), 0.6)),
    # someone's presence: "is Jonas online in Teams", "who is online right now" (not an online meeting)
    "is online": _PRESENCE,
    "are online": _PRESENCE,
    "online in": _PRESENCE,
    "online now": _PRESENCE,
    "online right now": _PRESENCE,
    "mine": (("me", "user", "member"), 0.3),
}
