"""The words people use for an API's basic actions: making, changing, reading, removing, running.

:data:`VERBS` maps each to the terms API documents use for it, with the weight of that evidence, as
:data:`.lexicon.EVERYDAY` (which holds it) does; which HTTP methods they ask for is :mod:`.intents`'.
"""

from __future__ import annotations

__all__ = ["VERBS"]

# A change to what exists: "make the project private", "make it public".
_CHANGE_IT = (("update", "set"), 0.4)

VERBS: dict[str, tuple[tuple[str, ...], float]] = {
    "make the": _CHANGE_IT,
    "make this": _CHANGE_IT,
    "make it": _CHANGE_IT,
    "leave a": (("create",), 0.4),  # "leave a comment": writing one, not leaving a group
    "new": (("create",), 0.6),
    "add": (("create", "add"), 0.6),
    "added": (("create", "add", "addition"), 0.6),  # lines added are additions
    "set up": (("create", "configure"), 0.6),
    "setup": (("create", "configure"), 0.6),
    "start": (("create", "start", "run"), 0.4),
    "open": (("create", "open"), 0.4),
    "register": (("create", "register"), 0.5),
    "save": (("create", "save", "put"), 0.4),
    "store": (("create", "put", "set"), 0.4),
    "put": (("create", "update", "set"), 0.4),
    "publish": (("create", "release", "publish"), 0.6),
    "write": (("create", "update"), 0.4),
    "upload": (("upload", "content", "create", "file"), 0.6),
    "change": (("update", "edit"), 0.7),
    "edit": (("update",), 0.8),
    "modify": (("update",), 0.8),
    "rename": (("update", "rename", "name"), 0.6),
    "fix": (("update", "edit"), 0.5),
    "set": (("update", "set"), 0.5),
    "turn on": (("enable", "update"), 0.7),
    "turn off": (("disable", "update"), 0.7),
    "switch on": (("enable", "update"), 0.7),
    "switch off": (("disable", "update"), 0.7),
    "shut off": (("disable", "deactivate", "status", "update"), 0.7),
    "shut down": (("shutdown", "disable", "deactivate", "stop", "status"), 0.7),
    "tear down": (("delete", "destroy", "remove"), 0.8),
    # Looking through everything at once: a search ("find documents about the budget across SharePoint").
    "across": (("search", "query"), 0.5),
    "anywhere": (("search", "query"), 0.5),
    "spin down": (("stop", "shutdown", "scale", "delete"), 0.6),
    "spin up": (("create", "launch", "start", "provision"), 0.7),
    "enable": (("enable", "update"), 0.6),
    "disable": (("disable", "update"), 0.6),
    "deactivate": (("disable", "update"), 0.6),
    # what a team ships it releases or deploys ("what did the team ship last week")
    **dict.fromkeys(("ship", "shipped", "ships"), (("release", "deploy", "publish", "merged"), 0.6)),
    # someone banned from a forum or a chat is suspended or blocked there
    **dict.fromkeys(("ban", "bans", "banned"), (("suspend", "block", "silence", "disable"), 0.7)),
    "activate": (("enable", "update"), 0.6),
    "toggle": (("update",), 0.5),
    "move": (("move", "transfer", "update", "reassign"), 0.5),  # a terminal moved to another store is reassigned
    "show": (("get", "list"), 0.4),
    # Whom to show it to, not whose it is: "show me the devices that haven't checked in".
    "show me": (("show", "get", "list"), 0.4),
    "tell me": (("get", "list"), 0.4),
    "get me": (("get", "list"), 0.4),
    "find me": (("find", "search", "get", "list"), 0.4),
    "let me see": (("show", "get", "list"), 0.4),
    "pull up": (("show", "get", "list"), 0.4),
    # a list taken out to read elsewhere is the list: "export the list of admins in our tenant"
    **dict.fromkeys(("export the list of", "export a list of"), (("list", "export"), 0.5)),
    "one": (("single",), 0.5),
    "single": (("single",), 0.5),
    "specific": (("single",), 0.5),
    "particular": (("single",), 0.5),
    "see": (("get", "list"), 0.3),
    "view": (("get", "list"), 0.3),
    "read": (("get", "list"), 0.3),
    "fetch": (("get",), 0.4),
    "look up": (("get", "search", "lookup"), 0.5),
    "find": (("search", "list", "get"), 0.5),
    "search": (("search", "list"), 0.5),
    "which": (("list",), 0.4),
    "who": (("list", "member", "user"), 0.4),
    "what": (("get", "list"), 0.2),
    "how many": (("list", "count"), 0.5),
    "how much": (("amount", "balance", "total", "usage"), 0.4),
    "check": (("get", "status", "check", "verify"), 0.4),
    "send": (("send", "create"), 0.6),
    "reply": (("reply", "comment", "respond"), 0.6),
    "respond": (("reply",), 0.6),
    "reply all": (("reply", "all", "mail", "message"), 0.9),  # an email's answer to everyone on it
    "comment": (("comment", "reply", "note"), 0.5),
    "post": (("message", "create"), 0.4),  # what someone posts in a channel is a message
    # data fetched again from where it comes from: synchronised ("refresh the user's bank connection")
    **dict.fromkeys(("refresh", "resync", "re sync"), (("sync", "synchronize", "synchronization", "refresh"), 0.6)),
    # a teacher's mark on a submission: its outcome, score or points ("grade Ahmed's lab report")
    **dict.fromkeys(("grade", "grading"), (("outcome", "score", "points", "feedback", "submission"), 0.6)),
    # another's post shared again with one's own followers: reblogged, reposted
    **dict.fromkeys(("boost", "retweet", "repost"), (("reblog", "repost", "retweet", "share"), 0.7)),
    "forward": (("forward",), 1.0),
    # "pass the design review invitation on to Jim", "send Dana's invoice on to accounting"
    **dict.fromkeys(("pass on", "send on"), (("forward", "share"), 0.8)),
    "turn down": (("decline", "reject"), 0.9),  # "turn down the offsite invite"
    "turned down": (("decline", "attendee", "response"), 0.8),  # "who turned down the invite"
    "answer": (("reply", "respond", "answer"), 0.7),  # "answer Tom's latest message"
    "cancel": (("cancel", "delete", "stop", "void"), 0.6),
    "stop": (("cancel", "stop", "delete", "disable"), 0.5),
    "abort": (("cancel",), 0.8),
    "halt": (("cancel", "stop"), 0.7),
    "kill": (("cancel", "delete", "stop"), 0.6),
    "call off": (("cancel", "delete"), 0.8),
    "rerun": (("rerun", "retry", "run"), 0.8),
    "retry": (("rerun", "retry"), 0.8),
    "re-run": (("rerun", "run"), 0.8),
    "run again": (("rerun",), 0.8),
    "restart": (("rerun", "restart"), 0.6),
    "reboot": (("restart", "reboot"), 0.8),
    "trigger": (("dispatch", "run", "trigger", "create"), 0.6),
    "kick off": (("dispatch", "run", "trigger", "start"), 0.7),
    "launch": (("run", "start", "create"), 0.5),
    "deploy": (("deployment", "release"), 0.6),
    # what runs out: "renew the group before it lapses"
    **dict.fromkeys(("lapse", "lapses", "lapsed"), (("expire", "expiration", "renew"), 0.7)),
    "append": (("add", "create"), 0.7),
    "ask for": (("request",), 0.6),  # "ask for a day off": a request for it
    "throw away": (("delete", "remove", "discard"), 0.8),
    # mail that forwards itself is a rule: "auto-forward anything from the bank to my accountant"
    "auto forward": (("rule", "forward", "automatic", "inbox"), 0.8),
    "look through": (("search", "find"), 0.7),
    "clear out": (("delete", "remove", "empty"), 0.7),
    # who may run a thing: "which people can administer acme/payments"
    "administer": (("admin", "administrator", "permission", "collaborator"), 0.7),
}
