"""Words for search: how an operation's text and a person's request become the same terms.

Both sides go through :func:`terms`: identifiers split where their words meet (``listPullRequests``,
``rerun-failed-jobs``, ``microsoft.graph.sendMail``), lower-cased, common words dropped, and each
word reduced to its stem by the Snowball English stemmer (``snowballstemmer``: "repositories" and
"repository" meet). A request also goes through :data:`EVERYDAY`: the words people use for what an
API names otherwise (a PR is a pull request, to "get rid of" is to delete, "who" asks for a
list), each with the weight of its evidence, and :func:`intent`: which HTTP methods the request
asks for. The lexicon holds general software vocabulary only, never one API's names.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

__all__ = ["EVERYDAY", "intent", "query_terms", "stem", "terms", "words"]


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Identifier words: "listPRs" -> list, PRs; "getURLs" -> get, URLs; "HTTPServer" -> HTTP, Server;
# "OAuthToken" -> O, Auth, Token; digits apart. A plural acronym is tried first: "PRs", not "P", "Rs".
# A word with a letter beyond ASCII ("Größe", "NäME", "Zürich") is one word, not split where that
# letter is ("NäME" would be "N" and "ME", and "me" means the signed-in user).
_WORD = re.compile(
    r"[^\W\d_]*[^\x00-\x7f\W\d_][^\W\d_]*|[A-Z]+s(?![a-z])|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+"
)
STOPWORDS = _wordset(
    "a an the to of for in on at by with from into onto about as and or but if so than then this that "
    "these those it its is are was were be been being do does did done can could would should will shall "
    "may might must please some any each every there here just also very really now still yet again up "
    "out over off you your yours we our us they them their he she his her him i im i'm let lets let's "
    "want wants need needs like would could thing things stuff one ones what which who whom whose how "
    "where when why have has had got gets getting dont doesnt isnt arent wont cant didnt more "
    "anything something everything nothing"
)
# Words that stay whole: the stemmer would merge them with unrelated words.
_KEEP = frozenset({"me", "news", "status", "alias", "canvas", "analytics", "https", "sms", "dns", "os", "ios"})


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The word's stem (Snowball English), lower-case."""
    if word in _KEEP or len(word) <= 2 or word.isdigit():
        return word
    stemmed: str = _stemmer().stemWord(word)
    return stemmed


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    import snowballstemmer  # noqa: PLC0415 - only search and code modes stem

    return snowballstemmer.stemmer("english")


def words(text: str) -> list[str]:
    """The words of ``text``, identifiers split, lower-case, in order (stopwords kept)."""
    return " ".join(_WORD.findall(text.replace("'", ""))).lower().split()


# The terms of each whitespace-separated token seen so far. No word spans whitespace, so a text's
# terms are its tokens' terms in order; an API's text repeats a few thousand tokens many times over,
# so after the first operations nearly every token is one lookup (three times faster than matching
# identifier words in the whole text). Emptied when full: a server analyses requests for as long as
# it runs, and its memory must not grow with them.
_TOKENS: dict[str, tuple[str, ...]] = {}
_TOKENS_MAX = 200_000


def _token_terms(token: str) -> tuple[str, ...]:
    if len(_TOKENS) >= _TOKENS_MAX:
        _TOKENS.clear()
    found = _TOKENS[token] = tuple(stem(word) for word in words(token) if word not in STOPWORDS)
    return found


def terms(text: str) -> list[str]:
    """The stemmed terms of ``text``, common words dropped, in order."""
    found: list[str] = []
    add = found.extend
    known = _TOKENS.get
    for token in text.split():
        token_terms = known(token)
        add(_token_terms(token) if token_terms is None else token_terms)
    return found


# To stop hearing about something: "stop sending me updates", "stop notifying me".
_UNWATCH = (("unsubscribe", "unwatch", "watcher", "subscription", "notification", "delete"), 0.6)

# The words people use, and the terms an API document uses for them: (terms, weight of the evidence).
# Multi-word keys are matched as phrases before single words. General vocabulary only.
EVERYDAY: dict[str, tuple[tuple[str, ...], float]] = {
    # abbreviations and near-synonyms of things
    "pr": (("pull", "request"), 1.0),
    "prs": (("pull", "request"), 1.0),
    "repo": (("repository",), 1.0),
    "repos": (("repository",), 1.0),
    "org": (("organization",), 1.0),
    "orgs": (("organization",), 1.0),
    "msg": (("message",), 1.0),
    "dm": (("direct", "message", "chat"), 0.8),
    "email": (("mail", "message"), 0.9),
    "emails": (("mail", "message"), 0.9),
    "mail": (("message",), 0.7),
    "inbox": (("mail", "message", "notification"), 0.5),
    "config": (("configuration", "setting"), 0.8),
    "settings": (("configuration",), 0.4),
    "perm": (("permission",), 1.0),
    "perms": (("permission",), 1.0),
    "auth": (("authentication", "authorization"), 0.6),
    "info": (("information", "detail"), 0.5),
    "docs": (("document", "documentation"), 0.6),
    "doc": (("document",), 0.6),
    "pic": (("photo", "picture", "image"), 0.8),
    "picture": (("photo", "image", "avatar"), 0.6),
    "photo": (("picture", "image"), 0.5),
    "avatar": (("photo", "picture"), 0.6),
    "sub": (("subscription",), 0.6),
    "env": (("environment",), 1.0),
    "vars": (("variable",), 1.0),
    "var": (("variable",), 1.0),
    "ci": (("workflow", "action", "check", "run", "build"), 0.6),
    "build": (("workflow", "run", "job"), 0.4),
    "pipeline": (("workflow", "run"), 0.5),
    "job": (("run", "task"), 0.3),
    "chargeback": (("dispute",), 1.0),
    "chargebacks": (("dispute",), 1.0),
    "money": (("balance", "payment", "fund"), 0.5),
    "paid": (("pay", "payment"), 0.6),
    "bill": (("invoice", "charge"), 0.7),
    "receipt": (("invoice", "charge", "payment"), 0.4),
    "discount": (("coupon", "promotion"), 0.8),
    "code": (("code",), 1.0),
    "card": (("card", "payment", "method", "source"), 0.5),
    "people": (("user", "member", "person"), 0.6),
    "person": (("user", "people"), 0.5),
    "account": (("user", "account"), 0.4),
    "accounts": (("user", "account"), 0.4),
    "team": (("team", "group"), 0.4),
    "meeting": (("event", "meeting", "calendar"), 0.8),
    "meetings": (("event", "meeting", "calendar"), 0.8),
    "appointment": (("event", "calendar"), 0.8),
    "calendar": (("event",), 0.4),
    "schedule": (("calendar", "event", "schedule"), 0.5),
    "file": (("item", "file", "content", "document"), 0.4),
    "files": (("item", "file", "content", "document"), 0.4),
    "folder": (("folder", "directory", "item", "children"), 0.5),
    "spreadsheet": (("workbook", "excel", "sheet"), 0.8),
    "excel": (("workbook",), 0.6),
    "password": (("password", "credential", "authentication"), 0.5),
    "log": (("log", "audit"), 0.5),
    "logs": (("log", "audit"), 0.5),
    "secret": (("secret", "credential"), 0.5),
    "key": (("key", "credential"), 0.4),
    "hook": (("webhook", "hook"), 0.8),
    "webhook": (("hook",), 0.8),
    "ping": (("hook", "webhook", "notification"), 0.4),
    "notify": (("notification", "webhook", "hook"), 0.6),
    "notifications": (("notification",), 1.0),
    "label": (("label", "tag"), 0.5),
    "tag": (("label", "tag"), 0.5),
    "version": (("release", "tag", "version"), 0.5),
    "thread": (("conversation", "thread", "discussion"), 0.5),
    "conversation": (("thread", "discussion", "chat"), 0.5),
    "chat": (("conversation", "message"), 0.4),
    "checks": (("check", "status"), 0.6),
    "passing": (("status", "check"), 0.6),
    "failing": (("status", "check", "failed"), 0.5),
    "vulnerable": (("vulnerability", "alert", "security"), 0.8),
    "vulnerability": (("alert", "security", "advisory"), 0.5),
    "dependencies": (("dependency", "dependabot"), 0.6),
    "diff": (("compare", "commit", "patch"), 0.6),
    "changes": (("commit", "diff", "compare"), 0.4),
    "branch": (("branch", "ref"), 0.5),
    "contributor": (("contributor", "collaborator"), 0.6),
    "access": (("permission", "collaborator", "member"), 0.5),
    "quota": (("quota", "usage", "limit", "drive"), 0.5),
    "space": (("quota", "storage", "drive"), 0.4),
    "storage": (("drive", "quota"), 0.4),
    "license": (("license",), 1.0),
    "tenant": (("organization", "directory", "domain"), 0.6),
    "company": (("organization", "user"), 0.4),
    "spam": (("block", "delete", "junk"), 0.4),
    "todo": (("task", "todo"), 0.8),
    "to do list": (("task", "todo", "list"), 0.8),  # "to-do list": words() splits at the hyphen
    "reminder": (("task", "todo"), 0.5),
    "remind": (("task", "todo", "reminder"), 0.6),
    "ticket": (("issue", "case", "incident"), 0.6),
    "tickets": (("issue", "case", "incident"), 0.6),
    # verbs people use for what APIs name otherwise
    "file a": (("create", "issue", "report"), 0.6),
    "file an": (("create", "issue", "report"), 0.6),
    "in one go": (("bulk", "batch"), 0.9),
    "at once": (("bulk", "batch"), 0.7),
    "bump": (("update", "increase"), 0.6),
    "text": (("message", "sms", "send"), 0.6),
    "texts": (("message", "sms"), 0.6),
    "credit": (("balance", "credit", "fund"), 0.5),
    "give": (("assign", "assignee", "grant", "add"), 0.5),
    "stop sending": _UNWATCH,
    "stop notifying": _UNWATCH,
    "tell": (("notify", "notification", "comment", "message"), 0.5),
    "remove": (("delete", "remove"), 0.8),
    "trash": (("delete",), 0.8),
    "drop": (("delete", "remove"), 0.6),
    "erase": (("delete",), 0.8),
    "discard": (("delete", "cancel"), 0.6),
    "get rid of": (("delete", "remove"), 0.9),
    "make": (("create",), 0.6),
    "new": (("create",), 0.6),
    "add": (("create", "add"), 0.6),
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
    "shut down": (("disable", "deactivate", "stop", "status"), 0.7),
    "enable": (("enable", "update"), 0.6),
    "disable": (("disable", "update"), 0.6),
    "deactivate": (("disable", "update"), 0.6),
    "activate": (("enable", "update"), 0.6),
    "toggle": (("update",), 0.5),
    "move": (("move", "transfer", "update"), 0.5),
    "show": (("get", "list"), 0.4),
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
    "check": (("get", "status", "check", "verify"), 0.4),
    "send": (("send", "create"), 0.6),
    "reply": (("reply", "comment", "respond"), 0.6),
    "respond": (("reply",), 0.6),
    "comment": (("comment", "reply"), 0.6),
    "forward": (("forward",), 1.0),
    "cancel": (("cancel", "delete", "stop"), 0.6),
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
    "trigger": (("dispatch", "run", "trigger", "create"), 0.6),
    "kick off": (("dispatch", "run", "trigger", "start"), 0.7),
    "launch": (("run", "start", "create"), 0.5),
    "deploy": (("deployment", "release"), 0.6),
    "difference": (("compare", "diff"), 0.8),
    "differences": (("compare", "diff"), 0.8),
    "every time": (("webhook", "hook", "event", "subscription"), 0.6),
    "whenever": (("webhook", "hook", "event", "subscription"), 0.6),
    "each time": (("webhook", "hook", "event", "subscription"), 0.6),
    "notify me": (("webhook", "subscription", "notification"), 0.6),
    "registered": (("registrant", "registration", "register"), 0.6),
    "signed up": (("registrant", "registration", "register", "sign"), 0.6),
    "absent": (("absentee", "absent"), 0.8),
    "never came": (("absentee",), 0.8),
    "no-show": (("absentee",), 0.8),
    "bug": (("issue",), 0.6),
    "bugs": (("issue",), 0.6),
    "approve": (("review", "approve"), 0.7),
    "review": (("review", "reviewer"), 0.6),
    "invite": (("invitation", "invite", "member"), 0.7),
    "join": (("member", "membership", "join"), 0.5),
    "leave": (("member", "delete", "leave"), 0.4),
    "assign": (("assignee", "assign"), 0.7),
    "block": (("block",), 1.0),
    "unblock": (("block", "delete"), 0.8),
    "pay": (("payment", "pay", "charge"), 0.5),
    "charge": (("charge", "payment"), 0.6),
    "refund": (("refund",), 1.0),
    "transfer": (("transfer",), 1.0),
    "download": (("download", "content", "archive", "get"), 0.6),
    "export": (("export", "download"), 0.6),
    "share": (("share", "invite", "link", "permission", "collaboration"), 0.6),
    "unshare": (("share", "link", "collaboration", "permission", "remove", "delete"), 0.7),
    "who can see": (("collaboration", "collaborator", "permission", "access", "member", "share"), 0.6),
    "who has access": (("collaboration", "collaborator", "permission", "member", "share"), 0.6),
    "lock": (("lock",), 1.0),
    "unlock": (("lock", "delete"), 0.7),
    "archive": (("archive", "update"), 0.6),
    "accept": (("accept",), 1.0),
    "decline": (("decline",), 1.0),
    "subscribe": (("subscription", "subscribe"), 0.7),
    "unsubscribe": (("subscription", "delete", "unsubscribe"), 0.7),
    "mark": (("update", "mark", "read"), 0.4),
    "count": (("count",), 1.0),
    "latest": (("latest", "list"), 0.4),
    "recent": (("recent", "list"), 0.5),
    "recently": (("recent",), 0.8),
    "log in": (("login", "authenticated", "session", "sign"), 0.7),
    "logged in": (("authenticated", "login", "session", "current"), 0.8),
    "sign in": (("login", "authenticated", "session", "sign"), 0.7),
    "signed in": (("authenticated", "login", "session", "current", "sign"), 0.8),
    "log out": (("logout", "token", "session", "revoke", "sign"), 0.8),
    "sign out": (("logout", "token", "session", "revoke", "sign"), 0.8),
    "who am i": (("authenticated", "current", "me", "user"), 0.9),
    "happened": (("event", "activity", "history", "log", "audit"), 0.6),
    "history": (("log", "event", "activity"), 0.5),
    "public": (("visibility", "private"), 0.6),
    "private": (("visibility", "public"), 0.6),
    "star": (("stargazer", "starred"), 0.8),
    "starred": (("star", "stargazer"), 0.9),
    "server": (("instance", "machine", "host", "node"), 0.5),
    "servers": (("instance", "machine", "host", "node"), 0.5),
    "machine": (("instance", "server", "host", "node"), 0.5),
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
    "recover": (("restore", "undelete"), 0.7),
    "waiting": (("pending", "open", "queue"), 0.5),
    "pending": (("open", "waiting"), 0.5),
    "allowed": (("limit", "quota", "permission"), 0.5),
    "limit": (("quota", "limit"), 0.6),
    "contributed": (("contributor", "contribution"), 0.9),
    "contributors": (("contributor", "collaborator"), 0.6),
    "call": (("meeting", "call", "phone"), 0.4),
    "video call": (("meeting", "video"), 0.9),
    "vat": (("tax",), 0.9),
    "out of office": (("automatic", "reply", "vacation", "mailbox", "setting"), 0.7),
    "link": (("url", "link", "invitation"), 0.5),
    "vm": (("machine", "instance", "server"), 0.8),
    # who "me" is: the signed-in user
    "my": (("me", "user"), 0.3),
    "mine": (("me", "user"), 0.3),
}

_LONGEST = max(len(k.split()) for k in EVERYDAY)


# Words that name when or how much, not what: mostly arguments of the call, seldom its subject.
_VALUES = _wordset(
    "today tomorrow yesterday tonight morning afternoon evening night week weekend month year hour hours "
    "minute minutes day days weeks months years ago last next previous soon later earlier first second "
    "third monday tuesday wednesday thursday friday saturday sunday january february march april may june "
    "july august september october november december am pm percent usd eur dollars euros"
)
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")
# Tokens that are values, not words of the request: owner/repo, ch_123, example.com, a@b.c, camelCase
# names, keys such as PROJ-123 or INC-7 (a hyphen with a number: "to-do" and "all-hands" are words).
_VALUE_TOKEN = re.compile(r"\S*\w[/_@.:]\w\S*|[a-z]+[A-Z]\w*|\S*[A-Za-z]-\d\S*|\S*\d-[A-Za-z]\S*")
VALUE_WEIGHT = 0.15


def query_terms(text: str) -> dict[str, float]:
    """A request's terms, each with its weight, each once (the first thing said that names it counts).

    A word said counts 1.0, the everyday lexicon's terms for it less; the index adds up every term an
    operation matches ("email" finds mail messages by both words). Quoted text, and what follows a
    colon after an action ("file a bug: the login page crashes"), is what to write, not what to
    call: it is left out. Numbers and words of time (``tomorrow``, ``3pm``) are mostly arguments:
    they count little.
    """
    text = _QUOTED.sub(" ", text)
    action, colon, _ = text.partition(": ")
    if colon and intent(action):
        text = action
    said = words(" ".join(_value_free(token) for token in text.split()))
    weights: dict[str, float] = {}
    index = 0
    while index < len(said):
        for size in range(min(_LONGEST, len(said) - index), 0, -1):
            phrase = " ".join(said[index : index + size])
            if phrase in EVERYDAY:
                synonyms, weight = EVERYDAY[phrase]
                if size == 1 and phrase not in STOPWORDS:
                    weights.setdefault(stem(phrase), 1.0)
                for term in synonyms:
                    weights.setdefault(stem(term), weight)
                index += size
                break
        else:
            word = said[index]
            if word not in STOPWORDS:
                weights.setdefault(stem(word), VALUE_WEIGHT if word in _VALUES or word.isdigit() else 1.0)
            index += 1
    return weights


def _value_free(token: str) -> str:
    # A value (acme/widgets, cus_9, deprecatedFunction) names what to act on, not what to do: left out,
    # unless the lexicon knows it (k8s).
    if token.lower().strip(",.;:!?") in EVERYDAY or not _VALUE_TOKEN.fullmatch(token.strip(",;:!?()")):
        return token
    return ""


# The HTTP methods a request's action words ask for, first match wins; a phrase before its words
# ("get rid of" is a DELETE, not a GET).
_DELETE, _CREATE, _UPDATE, _READ = (
    frozenset({"DELETE"}), frozenset({"POST", "PUT"}), frozenset({"PATCH", "PUT", "POST"}), frozenset({"GET"})
)  # fmt: skip
_INTENT_PHRASES = {
    "get rid of": _DELETE,
    "clean up": _DELETE,
    "turn off": _UPDATE,
    "turn on": _UPDATE,
    "switch off": _UPDATE,
    "switch on": _UPDATE,
    "set up": _CREATE,
    "kick off": _CREATE,
    "stop sending": _DELETE,
    "stop notifying": _DELETE,
    "drop a note": _CREATE,
    "file a": _CREATE,
    "file an": _CREATE,
    "look up": _READ,
    "look at": _READ,
}
_INTENT: tuple[tuple[str, frozenset[str]], ...] = (
    ("delete remove trash drop erase discard destroy purge unblock unstar unfollow unsubscribe", _DELETE),
    ("create add make new post submit send register publish upload invite save store book put text", _CREATE),
    (
        "update change edit modify rename fix set enable disable toggle turn switch archive mark close reopen give",
        _UPDATE,
    ),
    ("list show get find search see view read fetch which who what how look any anything", _READ),
)


@lru_cache(maxsize=1)
def _intents() -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    return tuple((frozenset(stem(w) for w in verbs.split()), methods) for verbs, methods in _INTENT)


def intent(text: str) -> frozenset[str]:
    """The HTTP methods the request's first action word or phrase asks for (empty: it says no action)."""
    said = words(text)
    for index, word in enumerate(said):
        for size in (3, 2):
            methods = _INTENT_PHRASES.get(" ".join(said[index : index + size]))
            if methods:
                return methods
        stemmed = stem(word)
        for verbs, methods in _intents():
            if stemmed in verbs:
                return methods
    return frozenset()
