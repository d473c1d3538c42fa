"""What a request asks of one thing's property: "what's Ravi's office location", "the default branch of acme/widgets".

Such a request names a thing (Ravi, a repository) and one of its properties (an office location,
a default branch). The property's name is in what the operation returns or takes, not in what the
document says of the operation, so the index's other fields cannot find it. :func:`property_phrases`
reads the property's words from the request's shape (a possessive, "the Y of", "what Y is", what a
change sets: "make develop the default branch", "turn off the issue tracker", who does something to
it: "who's following the task"), and
:func:`who_did` a question for a thing's maker or last editor ("who created the Partners site": createdBy);
:class:`Properties` matches them only against each operation's property names, whole,
so the words of every other request never meet the properties of an API's large records (measured:
reading property names as one more field pushed 6 to 27 tasks out of the first five).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence

from ..contract import SEARCH_NESTED
from .asks import query_terms
from .intents import CREATE, READ
from .people import adds_someone
from .words import STOPWORDS, VALUES, terms, wordset
from .wrapping import unwrapped

__all__ = ["Properties", "property_phrases", "who_did"]

_WORD = r"[A-Za-z][\w-]*"
# "Ravi's phone number", "the billing app's client secret": the words after a possessive.
_POSSESSIVE = re.compile(rf"\b({_WORD})['\u2019]s\s+(?=((?:{_WORD}\s*){{1,3}}))")
# "change his office location": a person's, said by a pronoun
_PRONOUN_OWNER = re.compile(rf"\b(?:his|her|their)\s+(?=((?:{_WORD}\s*){{1,3}}))", re.IGNORECASE)
# "the default branch of acme/widgets", "the price of the croissant", "the usage location set on Omar's account".
_OF = re.compile(rf"\bthe\s+((?:{_WORD}\s+){{0,2}}{_WORD})\s+(?:of|set\s+(?:on|for))\b", re.IGNORECASE)
# "what time zone is my mailbox set to", "which license does Priya have".
_WHAT_OF = re.compile(
    rf"^\s*(?:what|which)\s+((?:{_WORD}\s+){{0,2}}{_WORD})\s+(?:is|are|was|were|does|do|did)\s+"
    r"(?:my|the|our|this|that|his|her|their|its|(?-i:[A-Z][a-z]+))\b",
    re.IGNORECASE,
)
# "make develop the default branch", "make the acme/widgets repo private": the end names what is set.
_MADE_INTO = re.compile(
    rf"^\s*make\s+(?:\S+\s+){{1,4}}?(?:the\s+((?:{_WORD}\s+)?{_WORD})|({_WORD}))\s*[.!?]?\s*$", re.IGNORECASE
)
# "turn off the issue tracker", "enable secret scanning": a setting's name (has_issues, secret_scanning).
_SWITCHED = re.compile(
    rf"\b(?:(?:turn|switch)\s+(?:on|off)|enable|disable)\s+(?:the\s+)?((?:{_WORD}\s+){{0,2}}{_WORD})", re.IGNORECASE
)
# "mark the message from HR as read", "mark the VM as generalized": the state's name (isRead, generalized).
_MARKED_AS = re.compile(rf"\bmark\s+(?:\S+\s+){{1,6}}?as\s+(?:an?\s+)?({_WORD})", re.IGNORECASE)
# "add the custom domain shop.example.com to the store site", "add a redirect URL to the expense app": a value
# added to a thing's property (custom_domain, redirectUris), when no resource of the API is named so.
_ADDED_TO = re.compile(
    rf"^\s*add\s+(?:an?|another|the|one\s+more)\s+((?:{_WORD}\s+){{0,2}}?{_WORD})\s+(?:\S+\s+)?(?:to|on)\s+"
    r"(?:the|my|our|this|that|its)\b",
    re.IGNORECASE,
)
# "give the Design channel a new description": what is set anew is the thing's property.
_GIVEN_NEW = re.compile(rf"\bgive\s+(?:\S+\s+){{1,4}}?an?\s+new\s+((?:{_WORD}\s+)?{_WORD})", re.IGNORECASE)
# "how much CPU quota do we have left", "how many seats does the plan have": an amount a record keeps.
_HOW_MUCH = re.compile(
    rf"^\s*how\s+(?:much|many)\s+((?:{_WORD}\s+){{0,2}}?{_WORD})\s+(?:do|does|did|is|are|was|were|have|has|can)\b",
    re.IGNORECASE,
)
# "everyone in the marketing department", "the users in the Berlin office": a list filtered by a property.
_IN_THE = re.compile(rf"\b(?:in|from|at)\s+the\s+{_WORD}\s+({_WORD})\s*[.!?]?\s*$", re.IGNORECASE)
# "employees whose surname is Smith", "who has the desk phone 4455": a list filtered by a property's value.
_WHOSE = re.compile(
    rf"\bwhose\s+((?:{_WORD}\s+){{0,2}}{_WORD})\s+(?:is|are|was|were|has|have|starts|ends|contains)\b", re.IGNORECASE
)
# "how many unread emails", "the unresolved comments", "unpaid invoices": a state not reached is the state's
# property (isRead: read, resolved, paid); only a past participle, so "unique", "until", "unit" are not states.
_NOT_YET = re.compile(r"\bun([a-z]{2,}ed|read|paid|seen|sent|done)\b", re.IGNORECASE)
# "check if her account is enabled", "see whether the repo is archived": a state a thing holds (accountEnabled).
_IS_STATE = re.compile(
    rf"\b(?:if|whether)\s+(?:\w+['\u2019]s|his|her|their|its|the|my|our)\s+((?:{_WORD}\s+)?{_WORD})\s+"
    rf"(?:is|are)\s+(?:still\s+)?({_WORD})",
    re.IGNORECASE,
)
_WHO_HAS = re.compile(rf"^\s*who\s+(?:has|have)\s+the\s+((?:{_WORD}\s+){{0,2}}{_WORD})", re.IGNORECASE)
# "who created Budget.xlsx", "who uploaded the slides": a record holds who made it (createdBy). Only
# making: "who changed PROJ-4" asks for a history and "who reviewed PR 230" for the reviews, records of
# their own (both measured).
_WHO_MADE = re.compile(
    r"^\s*who\s+(?:(?:first\s+)?(?:created|made|uploaded|added)|(?:is|was)\s+the\s+author\s+of|authored)\b",
    re.IGNORECASE,
)
_MADE = tuple(terms("created"))  # the property's words: createdBy, created_by
# "who last edited the roadmap doc", "who made the latest change to it": a record holds who changed it
# last (lastModifiedBy, last_modified_by); who changed it at all is a history, as above.
_WHO_CHANGED_LAST = re.compile(
    r"^\s*who\s+(?:(?:last|most\s+recently)\s+(?:edited|modified|updated|changed|touched)"
    r"|(?:made|did)\s+the\s+(?:latest|last|most\s+recent)\s+(?:edits?|changes?|updates?))\b"
    r"|^\s*who\s+(?:edited|modified|updated|changed|touched)\b[^?]*\b(?:last|most\s+recently)\W*$",
    re.IGNORECASE,
)
_CHANGED_LAST = tuple(terms("last modified"))
# "who's following the budget task", "who is watching acme/widgets": a record lists those who do it
# (followers, watchers): the verb is the property's word ("who's going to" is not a doing).
_WHO_DOING = re.compile(r"^\s*who(?:['\u2019]s|\s+is|\s+are)\s+(?!going\b)([a-z]+ing)\b", re.IGNORECASE)
# Not an owner: a contraction ("it's", "what's") or a time ("today's visit", "Friday's meeting").
_NOT_OWNERS = VALUES | wordset("it that there here what who where how when let he she tonight quarter")
# A lexicon word this sure of a one-word phrase names what it is ("Jim's email": a message).
_SURE = 0.8
_SURE_ENOUGH = 0.6


def _words(phrase: str) -> list[str]:
    """The phrase's words up to the first common word ("job title to Senior Engineer"), times left out."""
    kept = []
    for word in phrase.split():
        if word.lower() in STOPWORDS or word.lower() == "set":
            break
        if word.lower() not in VALUES:  # "the older versions", "the calendar next week"
            kept.append(word)
    return kept


def property_phrases(request: str, wanted: frozenset[str]) -> list[str]:
    """The phrases of ``request`` that may name a property of a thing (none for most requests).

    ``wanted``: the methods the request asks for. Deleting is never of a property, though turning a
    setting off, which may delete, is ("turn off the issue tracker"); what a request creates is a
    thing of its own ("save the plumber's phone number in my contacts").
    """
    request = unwrapped(request)  # "can you make develop the default branch for me?"
    if "DELETE" in wanted:
        switched = [_words(found) for found in _SWITCHED.findall(request)] if "PATCH" in wanted else []
        return [" ".join(phrase) for phrase in switched if phrase]
    phrases = []
    for owner, after in _POSSESSIVE.findall(request) if wanted != CREATE else ():
        if owner.lower() not in _NOT_OWNERS:
            phrases.append(_words(after))
    phrases += [_words(after) for after in _PRONOUN_OWNER.findall(request)] if wanted != CREATE else []
    phrases += [_words(found) for found in _OF.findall(request)]
    phrases += [_words(found) for found in _WHAT_OF.findall(request)]
    if wanted == READ:
        phrases += [[found] for found in _WHO_DOING.findall(request)]
    if wanted == READ:
        phrases += [_words(found) for found in _IN_THE.findall(request)]
        phrases += [_words(found) for found in _HOW_MUCH.findall(request)]
        phrases += [_words(found) for found in (*_WHOSE.findall(request), *_WHO_HAS.findall(request))]
        phrases += [_words(f"{thing} {state}") for thing, state in _IS_STATE.findall(request)]
    if wanted == CREATE and not adds_someone(request):  # "add a student to the class": a member
        phrases += [_words(found) for found in _ADDED_TO.findall(request)]
    if "PATCH" in wanted:
        phrases += [_words(the or last) for the, last in _MADE_INTO.findall(request)]
        phrases += [_words(found) for found in _SWITCHED.findall(request)]
        phrases += [_words(found) for found in _MARKED_AS.findall(request)]
        phrases += [_words(found) for found in _GIVEN_NEW.findall(request)]
    return [" ".join(phrase) for phrase in phrases if phrase]


def who_did(request: str) -> tuple[str, ...] | None:
    """The words of the property ``request`` asks for when it asks who made a thing or last changed it."""
    if _WHO_CHANGED_LAST.search(request):  # first: "who made the latest change" made a change, not the thing
        return _CHANGED_LAST
    return _MADE if _WHO_MADE.search(request) else None


class Properties:
    """The property names of an API's operations, for the phrases of a request that name one."""

    def __init__(self, docs: Sequence[Mapping[str, Sequence[str]]], weight: float, part: float) -> None:
        # A property name is one token of its terms joined ("jobTitle": job_titl), from search.json.
        self._holders: dict[str, list[int]] = defaultdict(list)
        for number, doc in enumerate(docs):
            for token in dict.fromkeys(doc.get("properties", ())):
                self._holders[token].append(number)
        total = len(docs)
        self._value = {
            token: weight * math.log(1 + (total - len(held) + 0.5) / (len(held) + 0.5))
            for token, held in self._holders.items()
        }
        self._part = part
        self._resources = frozenset(tuple(doc.get("resource", ())) for doc in docs)

    def scores(self, request: str, wanted: frozenset[str]) -> dict[int, float]:
        """Operation number -> what the properties ``request`` asks of add to its score (most requests: none).

        A property named whole counts its rarity times the weight; a property whose name holds the
        phrase's words ("client secret" in ``client_secret_text``) ``part`` of that; an operation
        counts its best match once.
        """
        found: dict[int, float] = {}
        phrases = [(phrase, tuple(terms(phrase))) for phrase in property_phrases(request, wanted)]
        # "Maria's manager" is /users/{id}/manager, not a property
        asked = [(phrase, said) for phrase, said in phrases if not self._names_resource(phrase, said)]
        doer = who_did(request)
        if doer is not None:
            asked.append(("", doer))
        if wanted == READ:  # the state itself (read, resolved), never a time or a person of it (resolved_at)
            for state in _NOT_YET.findall(unwrapped(request)):
                self._match(tuple(terms(state)), 1.0, found, only=True)
        for phrase, said in asked:
            if self._match(said, 1.0, found):
                continue
            if len(said) > 1:
                # A phrase the lexicon names in other words: "Nina's staff number" (employeeId).
                named = tuple(term for term, weight in query_terms(phrase).items() if weight >= _SURE_ENOUGH)
                if len(named) > 1 and named != said and self._match(named, self._part, found):
                    continue
                # or two of them in a row: "client secret" is a password credential (passwordCredentials)
                pairs = [named[i : i + 2] for i in range(len(named) - 1)] if named != said else []
                matched = [self._match(pair, self._part, found) for pair in pairs]  # each pair raises its holders
                if any(matched):
                    continue
                # "Ravi's phone number" (mobilePhone), "the homepage URL of X" (homepage): no property has
                # every word, so the phrase less its last word, or less its first, at a part's value.
                less_last: dict[int, float] = {}
                less_first: dict[int, float] = {}
                self._match(said[:-1], self._part, less_last)
                self._match(said[1:], self._part, less_first)
                # the rarer: "homepage" of "homepage URL", "private" of "repo private"
                rarer = max(less_last, less_first, key=lambda raised: max(raised.values(), default=0.0))
                for number, value in rarer.items():
                    found[number] = max(found.get(number, 0.0), value)
                continue
            # One word no property holds: what the lexicon says it names ("public": visibility, private).
            for term, weight in query_terms(phrase).items():
                if weight >= _SURE_ENOUGH and (term,) != said:
                    self._match((term,), self._part, found)
        return found

    def _match(self, said: tuple[str, ...], scale: float, found: dict[int, float], only: bool = False) -> bool:
        """Raise ``found`` for the operations holding a property named ``said`` (``only``: whole); whether any does."""
        whole = "_".join(said)
        inside = f"_{whole}_"
        matched = False
        for token, holders in self._holders.items():
            if token == whole:
                value = self._value[token] * scale
            elif not only and inside in f"_{token}_" and (len(said) > 1 or SEARCH_NESTED not in token):
                value = self._value[token] * self._part * scale
            else:
                continue
            matched = True
            for number in holders:
                if value > found.get(number, 0.0):
                    found[number] = value
        return matched

    def _names_resource(self, phrase: str, said: tuple[str, ...]) -> bool:
        """Whether the phrase (``said``: its terms) names one of the API's resources (one word: also by the lexicon)."""
        if said in self._resources:
            return True
        return len(said) == 1 and any(
            (term,) in self._resources for term, weight in query_terms(phrase).items() if weight >= _SURE
        )
