"""Whom a request speaks of: a person named, put into something, owning a thing, or the asker.

"what groups is Tom a member of" asks of a user's groups, "add Bob to the Finance group" of a group's
members, "my boss's calendar" of someone else's calendar, "mark my passport task done" of the asker's:
:class:`.index.SearchIndex` weighs the operations a person's or the asker's paths hold by what these say.
A name is told from a product's by what the lexicon knows and what the API names.
"""

from __future__ import annotations

import re
from collections.abc import Container

from .lexicon import EVERYDAY
from .named import NAME, QUOTED, unpunctuated
from .sentences import lexicon_stems, meant
from .words import STOPWORDS, VALUES, stem, words, wordset

__all__ = ["THIRD_PERSON", "adds_someone", "as_owners", "asks_of_self", "names_someone", "owning_roles"]

THIRD_PERSON = wordset("him his her he she")  # someone other than the asker, always a person

# Someone named ("add Sam to the board", "what groups is Tom a member of"): the request is about a
# person. A name is a capitalised word after a lower-case one that is not an article or a
# preposition ("the Finance group", "Q3 Roadmap", "in Jira" name things), and not a word the lexicon
# or the calendar knows.
_NOT_BEFORE_A_NAME = wordset(
    "the a an this that these those our my your their his her its to as called named in on at into and or"
)


# People by what they are to an organisation or a class: "add a student to the class", "the new intern".
_WORKING = (
    "student|pupil|teacher|colleague|coworker|employee|hire|intern|contractor|volunteer|starter|joiner|leaver"
    "|consultant|temp"
)
# Someone put into or taken out of something: "add Bob to the Finance group", "take Jo off the card",
# "add jane@example.com to the list", "add a student to the chemistry class".
_ADDS_SOMEONE = re.compile(
    r"\b(?i:add|put|remove|kick|take|drop|enrol|enroll)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)"
    r"\s+(?:to|in|into|onto|from|off|out)\b|\b(?i:remove|take)\s+(me|myself)\s+(?:from|out\s+of)\b"
    r"|\b(?i:add|put|remove|kick|take|drop)\s+(?:(?:a|an|the|my|our|this|that|new|another)\s+){1,2}"
    rf"((?:{_WORKING})s?)"
    r"\s+(?:to|into|from|off|out)\b"
    # "make Bob a member of Finance", "make Jordan an owner of the Design team"
    r"|\b(?i:make)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+(?:an?|the)\s+(?:co-?)?(?:member|owner)\s+of\b"
    r"|\b(?i:add|put)\s+(him|her|them)\s+(?:to|in|into|onto)\s+(?:the|our|my)\b"  # "Nina starts Monday, put her in"
    # "add jdoe to the VPN Users group": a user name, put into what holds people
    r"|\b(?i:add|put|remove)\s+([a-z][\w.-]{2,})\s+(?:to|into|from)\s+(?:the|our|my)\s+(?:[\w-]+\s+){0,3}?"
    r"(?i:group|team|channel|role|org|organization|organisation)\b"
)


def adds_someone(text: str) -> bool:
    """Whether the request puts a person (a name the lexicon does not know) into something or takes one out."""
    found = _ADDS_SOMEONE.search(meant(QUOTED.sub(" ", text)))
    if found is None:
        return False
    # "remove me (myself) from the Phoenix team" ("take me off the issue" unassigns: not a member), "add a student to
    # the class"
    if found.group(2) or found.group(3) or found.group(5):
        return True
    return all(
        word.lower() not in STOPWORDS and stem(word.lower()) not in lexicon_stems()
        for word in (found.group(1) or found.group(4) or found.group(6)).split()
    )


# A person named by what they are to the organisation: "assign an E3 licence to the new intern".
_STAFF = re.compile(rf"\b(?:the|our|a|an)\s+(?:new\s+)?(?:{_WORKING})\b", re.IGNORECASE)
# The asker, in the first person: "what language is my mailbox set to", "when do I start".
_SELF = re.compile(r"\b(?:my|mine|me|myself|i|i'm|im|i've|ive)\b", re.IGNORECASE)


# What someone sends the asker: "the invite from Carlos" is the asker's invitation.
_SENT_THINGS = wordset(
    "email emails mail message messages invite invites invitation invitations note notes text texts request"
)
_SENT_ME = re.compile(r"\b([A-Z][a-z]+)\s+(?:sent|shared|forwarded|emailed|gave)\s+(?:me|us)\b")
_SENT_BY = re.compile(rf"\b(?:{'|'.join(sorted(_SENT_THINGS))})\s+from\s+[A-Z]")


def asks_of_self(text: str) -> bool:
    """Whether the request speaks of the asker ("my", "I", "me", or what someone sent them: "the email from Acme")."""
    text = QUOTED.sub(" ", text)
    return _SELF.search(text) is not None or _SENT_BY.search(text) is not None


# Someone named by their role, owning a thing the API keeps: "what's on my boss's calendar", "the CEO's iPad".
# The role says whose (a person's), not what to find: a boss's calendar is not their manager record (but
# "my manager's phone number" is a property of that record: the thing after the role must be a resource).
_ROLE_OWNER = re.compile(
    r"\b(?:my|our|the|his|her|their)\s+(boss|manager|assistant|colleague|coworker|teammate|supervisor|secretary"
    r"|ceo|cfo|cto|coo|cio|ciso)['\u2019]s\s+([a-z]+(?:\s+[a-z]+)?)",
    re.IGNORECASE,
)
_OWNER_WEIGHT = 0.3
# A capitalised name owning something ("Maya's out sick", "what's on Maria's calendar"): a person, unless it is a
# value ("Thursday's"), a word the lexicon knows ("Outlook's") or a thing the API names.
_OWNER = re.compile(r"(?<![\w'\u2019])([A-Z][a-z]+)['\u2019]s\b")


def owning_roles(text: str, things: Container[str]) -> list[str]:
    """The roles that name whose thing ``text`` asks for ("boss" in "my boss's calendar"), lower-case."""
    found = []
    for role, after in _ROLE_OWNER.findall(text):
        said = after.lower().split()
        # a thing of its own, not the first word of what the lexicon knows as one ("phone number": a property)
        if stem(said[0]) in things and " ".join(said) not in EVERYDAY:
            found.append(role.lower())
    return found


def as_owners(asked: dict[str, float], roles: list[str]) -> dict[str, float]:
    """``asked`` with the words of each role (and the lexicon's words for it) at an owner's weight."""
    owned = dict(asked)
    for role in roles:
        synonyms, _ = EVERYDAY.get(role, ((), 0.0))
        for term in map(stem, (role, *synonyms)):
            if term in owned:
                owned[term] = min(owned[term], _OWNER_WEIGHT)
    return owned


def names_someone(text: str, things: Container[str] = ()) -> bool:
    """Whether the request names a person (``things``: the stems of what the API names or speaks of, "Planner")."""
    if owning_roles(text, things) or not THIRD_PERSON.isdisjoint(words(text)):  # "sign him out of everything"
        return True
    if _STAFF.search(text):  # "assign an E3 licence to the new intern": a person, by what they are
        return True
    for owner in map(str.lower, _OWNER.findall(QUOTED.sub(" ", text))):
        if owner not in VALUES and stem(owner) not in lexicon_stems() and stem(owner) not in things:
            return True
    two_before = before = ""
    senders = set(_SENT_ME.findall(text))  # "the slides Jen sent me": the asker's
    for token in meant(QUOTED.sub(" ", text)).split():
        bare = unpunctuated(token)
        lower = bare.lower()
        if (
            NAME.fullmatch(bare)
            and before.islower()
            and before not in _NOT_BEFORE_A_NAME
            and lower not in VALUES
            and lower not in STOPWORDS
            and stem(lower) not in lexicon_stems()  # "Teams", "Outlook": the lexicon's words, in any form
            and stem(lower) not in things
            # "the last email from Finance", "move my 1:1 with Sam": the asker's thing, the name's part in it
            and not (before == "from" and two_before.lower() in _SENT_THINGS)
            and bare not in senders
            and not (before == "with" and _SELF.search(text))
        ):
            return True
        two_before, before = before, bare
    return False
