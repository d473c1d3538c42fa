"""A person's request read for search: its weighted terms, and the HTTP methods it asks for (whom it names is
:mod:`.people`'s).

A request goes through :func:`.words.terms` as an operation's text does, and also through
:data:`.lexicon.EVERYDAY`: the words people use for what an API names otherwise (a PR is a pull
request, to "get rid of" is to delete, "who" asks for a list), each with the weight of its evidence.
The names it gives, values and what it is for are read apart from what it asks; how it is put
(courtesies, what it says not to do, the methods it asks for) is :mod:`.sentences`'.
"""

from __future__ import annotations

import itertools
import re

from .conditions import condition
from .gatherings import gathered
from .intents import FIRST_VERBS, READ, SENT
from .lexicon import EVERYDAY
from .named import COMPOUND, HYPHENATED, QUOTED, names_of_things, unnamed, unpunctuated
from .people import THIRD_PERSON, adds_someone
from .sentences import (
    QUESTIONS,
    described,
    intent,
    lets_someone,
    lexicon_stems,
    meant,
    methods_of,
    said_words,
    undone,
    what_for,
    what_happened,
)
from .words import POINTING, STOPWORDS, VALUES, stem, words, wordset
from .wrapping import placed

__all__ = ["query_terms"]


_LONGEST = max(len(k.split()) for k in EVERYDAY)

# Titles before a name say who, not what: a doctor is one to find ("book a checkup with Dr. Lee").
# (also written without the dot, as British English does: "Mr Harris", unlike "MR 42" or "mr !7", a merge request)
_TITLES = {"Mr.": "", "Mrs.": "", "Ms.": "", "Dr.": "doctor", "Mr": "", "Mrs": "", "Ms": "", "Dr": "doctor"}


# Tokens that are values, not words of the request: owner/repo, ch_123, example.com, a@b.c, camelCase
# names, keys such as PROJ-123, INC-7 or us-east1 (a hyphen and a number: "to-do" and "all-hands" are words),
# and one letter with a number: a cell (A1, C10), a plan (E5), a version (v2).
_VALUE_TOKEN = re.compile(r"\S*\w[/_@.:]\w\S*|[a-z]+[A-Z]\w*|(?=\S*-)(?=\S*\d)\S+|[A-Za-z]\d{1,3}")
VALUE_WEIGHT = 0.15
# What was done to things that describes them as gone: the deleted things an API keeps a while.
_GONE = wordset("removed deleted trashed erased")
_GONE_WEIGHT = 0.6
# What a state's adjective names: a "compliant" device's compliance, an "important" email's importance.
_STATE_NOUN = 0.7
# A value whose form says what it is: (the words for it, its form, its weight), first match wins.
# An address is what a request acts on ("assign 10.0.0.5 to the interface"); a host's name (blog.example.com,
# not jane@example.com) counts less than a word said: it may be what a thing is for ("a TLS certificate
# for example.com"); an issue tracker's key ("PROJ-45") names an issue, "acme/widgets" a repository
# by its owner (not a path, a file or a date), and "A1:C10" a spreadsheet's range of cells.
_KINDS = (
    (("ip",), re.compile(r"\d{1,3}(?:\.\d{1,3}){3}"), 1.0),
    # a block of addresses ("10.50.0.0/16"): a network's prefix, a subnet, a CIDR block
    (("prefix",), re.compile(r"\d{1,3}(?:\.\d{1,3}){3}/\d{1,2}"), 0.8),
    (
        ("domain",),
        re.compile(r"(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|app|co|uk|de|fr|eu|info|biz)", re.IGNORECASE),
        0.5,
    ),
    (("issue",), re.compile(r"[A-Z][A-Z0-9]{1,9}-\d+"), 0.6),
    # a commit's hash: hexadecimal, letters and digits both ("which pull requests include abc123?")
    (("commit",), re.compile(r"(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{6,40}"), 0.5),
    (("repository", "repo"), re.compile(r"[A-Za-z][\w-]*/[A-Za-z][\w-]*"), 0.7),  # paths say "repos"
    (("range",), re.compile(r"[A-Z]{1,3}\d{1,7}:[A-Z]{1,3}\d{1,7}", re.IGNORECASE), 0.8),
)
_PERIOD = re.compile(r"(FY\d\d(?:\d\d)?)|Q[1-4]", re.IGNORECASE)
_FILE_NAME = re.compile(
    r"\w\.(?:txt|md|rst|pdf|docx?|xlsx?|pptx?|odt|csv|tsv|json|ya?ml|xml|toml|ini|html?|css|png|jpe?g|gif|svg|"
    r"webp|mp[34]|mov|wav|zip|gz|tgz|tar|py|js|ts|go|rs|java|rb|c|h|cpp|sh|sql|log)$",
    re.IGNORECASE,
)


def query_terms(text: str) -> dict[str, float]:
    """A request's terms, each once, with its weight (a word said outright counts whole).

    A word said counts 1.0, even where the lexicon named it before ("stop anyone from ... with a
    ruleset"), and the everyday lexicon's terms for it less; the index adds up every term an
    operation matches ("email" finds mail messages by both words). Quoted text, and what follows a
    colon after an action ("file a bug: the login page crashes"), is what to write, not what to
    call; what the request says not to do ("don't send it yet") is not what to call either: both
    are left out. Numbers and words of time (``tomorrow``, ``3pm``) are mostly arguments: they
    count little. A file's name (``budget.xlsx``) says "file".
    """
    text = _PLACED.sub(_a_file, _FILED.sub(_a_file, QUOTED.sub(" ", placed(text))))
    text = _LISTED.sub(_an_entry, text)
    sought = _SOUGHT.search(text)
    if sought:  # "search Teams messages for logo": what is searched is named; what for is the query's value
        text = text[: sought.start(1)] + text[sought.end(1) :]
    written = _WRITTEN.search(text) or _NOTED.search(text)
    if written and intent(text[: written.start(1)]) - READ:  # a question asks what it says
        text = text[: written.start(1)]
    weights: dict[str, float] = {}
    parts: dict[str, float] = {}  # of names written as one word
    tokens = []
    # "Mrs. Patel", "Dr. Lee": a person's title, not merge requests.
    titled = [_TITLES.get(token, token) for token in unnamed(meant(text).split())]
    previous = ""
    for token in filter(None, names_of_things(titled, parts)):
        bare, before, previous = unpunctuated(token), previous, token
        path = _path_words(bare, before)
        if path:  # "GET /me/drive/recent", "gh api user/keys": the API's own path, said by its words
            tokens.append(path)
        elif COMPOUND.fullmatch(bare):
            # A product's name: its parts are not the lexicon's words ("OneNote" asks nothing of notes
            # in general), and where the lexicon knows the name, its words are what the parts would mean
            # ("SharePoint" asks nothing of sharing).
            if bare.lower() not in EVERYDAY:
                parts.update((stem(part), 1.0) for part in words(token) if part not in STOPWORDS)
            tokens.append(token.lower())
        else:
            if HYPHENATED.fullmatch(bare):  # "to-do", "e-mail", "sign-in": also the word written whole
                whole = bare.replace("-", "").lower()
                weights.setdefault(stem(whole), 1.0)
                synonyms, weight = EVERYDAY.get(whole, ((), 0.0))  # and what it means: a to-do is a task
                for term in synonyms:
                    weights.setdefault(stem(term), weight)
            # "point blog.example.com at 203.0.113.7": a domain and an IP, though not said
            for kind, form, weight in _KINDS:
                if form.fullmatch(bare):
                    for word in kind:
                        weights.setdefault(stem(word), weight)
                    break
            tokens.append(_value_free(token, bare))
    said = said_words(" ".join(tokens))
    if said and said[0] in SENT:  # "email the report to the team": a message to send
        weights[stem("send")] = 0.8
    if said and said[0] in FIRST_VERBS:  # "like the drone video": a like, though "like" is a stopword
        weights[stem(said[0])] = 1.0
    # What a "which" question's things lack ("which users don't have a license") only filters them, as
    # what someone did to them does ("the movies I added"): each word counts less, without its lexicon's
    # words (a license's subscriptions, a sign-in's sessions would name other things than the users).
    describing, purpose, scope = described(said) | condition(said), what_for(said), _scope(said)
    happened, action = what_happened(text)
    describing |= _done_before(said, happened, action)  # "the branch is merged, delete it": which branch
    index = 0
    while index < len(said):
        if index == 1 and _to_asker(said):  # "give me access to ...": whom it is for, not whose it is
            index += 1
            continue
        if index in describing or index in purpose or index in scope:  # "the movies I added": which movies
            if said[index] not in STOPWORDS:
                aside = _SCOPE if index in scope else _PURPOSE if index in purpose else _DESCRIBING
                weights.setdefault(stem(said[index]), aside)
                if said[index] in _GONE:  # "which apps were removed lately": the deleted ones
                    weights.setdefault(stem("deleted"), _GONE_WEIGHT)
            index += 1
            continue
        if _as_adjective(said, index):  # "the shared mailbox": a kind of mailbox, not a sharing
            weights[stem(said[index])] = 1.0
            index += 1
            continue
        for size in range(min(_LONGEST, len(said) - index), 0, -1):
            phrase = " ".join(said[index : index + size])
            if phrase in EVERYDAY:
                synonyms, weight = EVERYDAY[phrase]
                if size == 1 and phrase not in STOPWORDS:  # said outright; a word of time counts little
                    weights.setdefault(stem(phrase), VALUE_WEIGHT if phrase in VALUES else 1.0)
                for term in synonyms:
                    weights.setdefault(stem(term), weight)
                index += size
                break
        else:
            word = said[index]
            if word in STOPWORDS:
                pass
            elif word in VALUES or word.isdigit():
                weights.setdefault(stem(word), VALUE_WEIGHT)
            else:
                weights[stem(word)] = 1.0  # a word said counts whole, whatever the lexicon guessed before it
                if len(word) > 5 and word.endswith(("ant", "ent")):  # "compliant" devices: their compliance
                    weights.setdefault(stem(word[:-1] + "ce"), _STATE_NOUN)
                reverted = undone(word)
                if reverted is not None:  # "unassign": what is undone, and the lexicon's words for it
                    weights.setdefault(stem(reverted), 0.8)
                    word = reverted
                # Another form of a word the lexicon knows: "happening" as "happened".
                synonyms, weight = lexicon_stems().get(stem(word), ((), 0.0))
                for term in synonyms:
                    weights.setdefault(stem(term), weight)
            index += 1
    for term, weight in parts.items():
        weights[term] = max(weight, weights.get(term, 0.0))
    if _lists(said):
        # "list the users": the first word says what to do (a GET of a collection, which the index's
        # action field calls "list all"), as "show" does; elsewhere ("the lists on the site") it is
        # what to find. Whole, it found every operation titled "List ..." before one titled "Get user"
        # that lists the users (Microsoft Graph's GET /users: 19th for "list users").
        weights[stem("list")] = _LISTING
    if _asks_what_changed(said):  # "what changed on the Finance group yesterday": the audit log's record of it
        for term in _RECORDED:
            weights.setdefault(stem(term), _RECORDED_WEIGHT)
    if lets_someone(said):  # "let my assistant see my calendar": a permission given
        for term in _LETTING:
            weights.setdefault(stem(term), _LETTING_WEIGHT)
    if _PERSONAL_DETAIL.search(text):  # "change her display name to Carla Ruiz": a detail of a user's record
        weights.setdefault(stem("user"), _DETAIL_WEIGHT)
    if stem("report") in weights and not _HANDLED.isdisjoint(said):  # "stop sharing the finance report": a file
        for term in _DOCUMENT:
            weights.setdefault(stem(term), _DOCUMENT_WEIGHT)
    if adds_someone(text):  # "add Bob to the Finance group": a member of it
        for term in _MEMBERS:
            weights.setdefault(stem(term), _MEMBER_WEIGHT)
    elif _MEMBER_OF.search(text):  # "which Teams am I a member of": the ones joined, not their members
        weights.setdefault(stem("join"), _JOINED_WEIGHT)
    gathered(text, happened, weights)
    return weights


# What a request gives to write, after the action that writes it: a colon ("file a bug: the login page
# crashes") or what a message says ("post a toot saying the server is back up").
_WRITTEN = re.compile(r"(: |\s(?:saying|that\s+says|which\s+says|to\s+say)\s)", re.IGNORECASE)
# or what a note or a message says, after "that": "put a note on the client meeting that we need the contract"
_NOTED = re.compile(r"\b(?:note|message|comment|reminder|announcement)\b[^.?!:]{0,40}?\s(that)\s", re.IGNORECASE)


# What a request keeps in a named folder, site or library is a file, named by the words before it: "copy
# the contract template into the Legal folder", "upload the signed contract to the Legal SharePoint site"
# (not the API's contracts). Mail, notes and contacts have folders too.
_FILED = re.compile(
    r"\b(?:the|my|our|this|that)\s+((?:[\w-]+\s+){0,2}?[\w-]+)"
    r"(?=\s+(?:in|into|to|from|inside|under)\s+(?:the|my|our)\s+(?:[A-Z][\w-]*\s+)+folder\b)"
)
# A site or a library holds lists and permissions too: only what is put there is a file.
_PLACED = re.compile(
    r"^\s*(?i:upload|copy|move|save|put|store)\s+(?:the|my|our|this|that)\s+((?:[\w-]+\s+){0,2}?[\w-]+)"
    r"(?=\s+(?:to|into|onto|on)\s+the\s+(?:[A-Z][\w-]*\s+)+(?:site|library)\b)"
)
# What a search is for, after where it looks: "search my mailbox for invoice 4471" (but a kind said first names
# what to find: "search our sites for files mentioning the budget").
_SOUGHT = re.compile(
    r"\bsearch\s+(?:\S+\s+){1,4}?for\s+(?:[\w-]+\s+(?:mentioning|about|containing|named|called|titled|with)\s+)?"
    r"([^,.;?!]+)",
    re.IGNORECASE,
)
# What is added to a named list is one of its entries ("add milk to my Groceries list"), unless it says what it is
# ("add a column to the Projects list").
_LISTED = re.compile(
    r"^\s*(?i:add|put)\s+(?!(?i:an?|the|another|one|my|our|some)\s)((?:[\w-]+\s+){0,3}?[\w-]+)"
    r"(?=\s+(?:to|on|onto)\s+(?:the|my|our)\s+(?:[A-Z][\w-]*\s+)+(?:list|checklist)\b)"
)
_FOLDERED = wordset("email emails mail message messages note notes contact contacts conversation conversations")


def _an_entry(found: re.Match[str]) -> str:
    return found.group(0)[: found.start(1) - found.start()] + "item task"


def _a_file(found: re.Match[str]) -> str:
    if not _FOLDERED.isdisjoint(found.group(1).lower().split()):
        return found.group(0)
    return found.group(0)[: found.start(1) - found.start()] + "file"


# "list" said first: what to do, as the lexicon's words for an action count.
_LISTING = 0.4


def _lists(said: list[str]) -> bool:
    """Whether "list" is what the request asks to do ("list the users", "I need a list of the groups").

    What a request is put in ("can you", "please") is gone already (:func:`meant`).
    """
    if len(said) > 1 and said[0] == "list":
        return True
    # typed tersely, "sharepoint sites list"; not a list's own name ("add an item to the IT assets list")
    if len(said) > 1 and said[-1] == "list" and said[-2].endswith("s") and POINTING.isdisjoint(said[-4:-1]):
        return True
    return any(word == "list" and after == "of" for word, after in itertools.pairwise(said))


# A verb that says which things ("the file I deleted"): less than a word said.
_DESCRIBING = 0.5


# What a request is for (:func:`.sentences.what_for`) counts less than what it asks to do.
_PURPOSE = 0.3


# The whole of what an API serves, said as where to look: "the groups in our organization", "guest
# users in our directory", "apps registered in our tenant". The things asked for are the request's
# subject; the tenant is only the scope (Microsoft Graph's /organization and /directory are records of
# their own).
_SCOPE = 0.2
_SCOPES = wordset("directory tenant company organization organisation workspace")
_IN_SCOPE = wordset("in across of for at")
_OURS = wordset("our the my this whole entire")


def _as_adjective(said: list[str], index: int) -> bool:
    """Whether ``said[index]`` is a participle that says what kind its thing is ("the shared mailbox")."""
    word = said[index]
    return (
        0 < index < len(said) - 1
        and said[index - 1] in POINTING
        and word.endswith("ed")
        and len(word) > 4
        and not word.startswith("un")  # a state not reached: the lexicon's words name it ("unresolved": open)
        and said[index + 1] not in STOPWORDS
        and said[index + 1] not in VALUES
    )


# What is given or made for the asker, said before it: "give me access to the finance site", "make me an owner".
_GIVING = wordset("give grant make add")


def _to_asker(said: list[str]) -> bool:
    """Whether ``said`` gives something to the asker, named right after the verb ("give me access to ...")."""
    return len(said) > 2 and said[0] in _GIVING and said[1] in ("me", "us")


def _scope(said: list[str]) -> set[int]:
    """Where in ``said`` a closing "in our directory" names the whole tenant as where to look."""
    if len(said) > 3 and said[-1] in _SCOPES and said[-2] in _OURS and said[-3] in _IN_SCOPE:
        return {len(said) - 1}
    return set()


def _done_before(said: list[str], happened: str, action: str) -> set[int]:
    """Where in ``said`` the words of a clause saying what happened count less (:func:`.sentences.what_happened`).

    "the feature-x branch is merged, delete it" asks to delete the branch: merging was done, and says
    which branch; the clause's things ("the branch", "his password") are what the action is on, and only
    its verbs count less. An action that does not refer back to it ("the wifi password changed, tell
    everyone") makes the whole clause context.
    """
    if not happened:
        return set()
    first = said_words(action)[:2]
    start = next((i for i in range(1, len(said)) if said[i : i + len(first)] == first), 0)
    # "the wifi password changed, tell everyone": what to say, not what to find (but a wish says what for:
    # "I don't want to be disturbed, change my status")
    # A question after it asks of what it names: "we bought 10 more E3 licences, how many do we have now?"
    asked = start < len(said) and said[start] in QUESTIONS
    # Referring back only to a person ("Mark's phone was stolen, sign him out") keeps the person, not the things.
    if not asked and _BACK.intersection(said[start:]) <= THIRD_PERSON and _WISHING.isdisjoint(said[:start]):
        return set(range(start))
    return {i for i in range(start) if methods_of(said[i]) or _told(said[i])}


def _told(word: str) -> bool:
    """Whether ``word`` is a verb said of what happened ("we lost the NDA", "the password changed")."""
    return (word.endswith(("ed", "ing")) and len(word) > 4) or word in _HAPPENED


# What the action says of what happened ("we lost the NDA, find it", "Omar is on leave, remove his licenses").
_BACK = wordset("it its them their they him his her he she this that those these there one ones")
# A person's details said with their pronoun are their user record's.
_PERSONAL_DETAIL = re.compile(
    r"\b(?:his|her)\s+(?:display\s+name|name|surname|last\s+name|first\s+name|email(?:\s+address)?|"
    r"(?:phone|mobile)\s+number|department|office(?:\s+location)?|job\s+title|address|usage\s+location)\b",
    re.IGNORECASE,
)
_DETAIL_WEIGHT = 0.7
# What is done to a document, not to a usage report: a report shared, downloaded or moved is a file.
_HANDLED = wordset("share sharing shared unshare download upload rename move copy attach open edit print restore")
_DOCUMENT, _DOCUMENT_WEIGHT = ("file", "document", "item", "drive"), 0.6
_WISHING = wordset("want wants need needs like")
_HAPPENED = wordset("lost lose left gone went got broke broken died dead stole stolen missed forgot full late")


def _path_words(bare: str, before: str) -> str:
    """The words of an API path said in a request ("/me/drive/recent", "me/messages?$filter=..." or "user/keys"
    after "GET" or "api"), empty if ``bare`` is none: a value such as a repository's slug (acme/web)."""
    path, query, _ = bare.partition("?")
    if "/" not in path or not (path.startswith("/") or query or _PATH_BEFORE.fullmatch(before)):
        return ""
    said = [part for part in path.split("/") if part and _PATH_SEGMENT.fullmatch(part)]
    return " ".join(said)


# What says that a path follows: an HTTP method in capitals ("GET me/drive", not "delete acme/web"), an API's
# CLI ("gh api user/keys").
_PATH_BEFORE = re.compile(r"GET|POST|PUT|PATCH|DELETE|api|curl")
# A path's word, not a value in it ("/repos/acme/web/issues/12": acme and web are values, though said as words)
_PATH_SEGMENT = re.compile(r"[A-Za-z][A-Za-z_-]*")


def _value_free(token: str, bare: str) -> str:
    """``token`` as the request's words read it (``bare``: the token without punctuation around it)."""
    # A value (acme/widgets, cus_9, deprecatedFunction) names what to act on, not what to do: left out,
    # unless the lexicon knows it (k8s). A file's name is a value that says what it names. A quarter
    # or a fiscal year (Q3, FY24) is a time, said as the word for it ("the Q3 report": a quarterly one).
    period = _PERIOD.fullmatch(bare)
    if period:
        return "annual" if period.group(1) else "quarterly"
    if bare.lower() in EVERYDAY or not _VALUE_TOKEN.fullmatch(bare):
        return token
    return "file" if _FILE_NAME.search(bare) else ""


# Someone's memberships asked for: "which Teams am I a member of", "what groups is Tom a member of". An
# API may call them what was joined (Microsoft Graph's /me/joinedTeams); a little of that word, so that
# what someone is a member of comes before the members of each.
_MEMBER_OF = re.compile(r"\b(?:am\s+i|are\s+we|is\s+\w+|i'?m|we'?re)\s+(?:an?\s+)?members?\s+of\b", re.IGNORECASE)
_JOINED_WEIGHT = 0.3
_LETTING = ("permission", "grant", "access")
_LETTING_WEIGHT = 0.6
_MEMBERS = ("member", "membership")
_MEMBER_WEIGHT = 0.7


def _asks_what_changed(said: list[str]) -> bool:
    """Whether the request asks what changed on a thing: "what changed on the Finance group yesterday" (but "what
    changed in PR 12" asks for its changes)."""
    return said[:2] in (["what", "changed"], ["what", "happened"]) and said[2:3] in (["on"], ["to"], ["with"])


# What an audit log is called: where who did a change is recorded.
_RECORDED = ("audit", "log", "history", "activity")
_RECORDED_WEIGHT = 0.5
