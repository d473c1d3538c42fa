"""The records a question may be answered by, offered beside what its words match.

A question about people or about one numbered thing often asks for one field of a large record:
"what's Ravi's phone number" (GET /users/{id}), "what language is my mailbox set to" (GET /me), "who
works in marketing?" (GET /users, filtered), "who's assigned to issue 300?" (GET .../issues/{number}).
Other operations match the words better (phone methods, mailbox settings, marketing's things, the
issue's assignees), and the record's own fields are too many to index as words; so the search offers
the record in the tenth place (:func:`with_record`) when it is not already among the first ten.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .documents import PARAMETER
from .lexicon import EVERYDAY
from .sentences import said_words
from .words import VALUES, stem, words, wordset

__all__ = ["ASKERS", "PEOPLE", "Records", "with_record"]

# A record's place: the tenth (the last of a first page), or the last of fewer, from five on (a search
# for one operation is not changed).
_PLACE = 10
_FROM = 5
# The path segments of people: /users/{id}/..., /members/{idMember}/..., /Users/{userId}/...; a
# collection of them (the plural) holds one person's record as its item: /users/{id}, /people/{id}.
PEOPLE = frozenset({"user", "users", "member", "members", "people", "person", "persons"})
_COLLECTIONS = frozenset(word for word in PEOPLE if word.endswith("s") or word == "people")
# Where a path starts at the asker: /me/... (Microsoft Graph, Spotify), Jira's /myself, GitHub's /user/...
# The asker's own record is GET /me or /myself, else GitHub's GET /user.
ASKERS = frozenset({"me", "myself", "my", "user"})
_ASKERS_RECORDS = ASKERS - {"my"}
# A question about people in general ("who works in marketing?", "which guests never redeemed their invite?"):
# the list of them is where their fields are filtered.
_ABOUT_PEOPLE = wordset("who everyone everybody anyone anybody people users employees staff guests colleagues")
# One thing named by its number: "issue 300", "PR #42", "order 1234" (not "3 days", "last 24 hours"); not
# a value someone holds ("who has the desk phone 4455?" asks which person).
_NUMBERED = re.compile(r"\b([A-Za-z]+)\s+#?\d+\b")
_WHO_HOLDS = re.compile(r"^\s*who\s+(?:has|have|holds|owns)\b", re.IGNORECASE)


class Records:
    """The operations that get one person's record, everyone's, the asker's, and one item of each collection."""

    def __init__(self, methods: Sequence[str], paths: Sequence[Sequence[str]]) -> None:
        """``methods`` (upper case) and ``paths`` (each path's segments): the operations', in order."""
        person: list[tuple[int, int]] = []  # (segments, operation): the shortest wins
        people: list[tuple[int, int]] = []
        askers: list[tuple[bool, int, int]] = []  # (a "user" path, segments, operation)
        items: dict[str, tuple[int, int]] = {}  # a collection's stem -> its item's GET
        for number, (method, path) in enumerate(zip(methods, paths, strict=True)):
            if method != "GET" or not path:
                continue
            segments = [s.lower() for s in path]
            if segments[-1] in _COLLECTIONS:
                people.append((len(segments), number))
            if segments[-1] in _ASKERS_RECORDS:
                askers.append((segments[-1] == "user", len(segments), number))
            if len(segments) > 1 and PARAMETER.match(segments[-1]) and not PARAMETER.match(segments[-2]):
                if segments[-2] in _COLLECTIONS:
                    person.append((len(segments), number))
                named = words(segments[-2])
                kind = stem(named[-1]) if named else ""
                if kind and (kind not in items or len(segments) < items[kind][0]):
                    items[kind] = (len(segments), number)
        self._person = min(person)[1] if person else None
        self._people = min(people)[1] if people else None
        self._asker = min(askers)[2] if askers else None
        self._items = {kind: number for kind, (_, number) in items.items()}

    def asked(self, request: str, someone: bool, asker: bool) -> int | None:
        """The record a question may be answered by (``someone``: it names a person; ``asker``: it speaks of
        the asker), if any."""
        numbered = self._numbered(request)
        if numbered is not None:  # "who's assigned to issue 300?"
            return numbered
        if someone:  # "what's Ravi's phone number"
            return self._person
        if not _ABOUT_PEOPLE.isdisjoint(said_words(request)):  # "who works in marketing?"
            return self._people
        return self._asker if asker else None  # "what language is my mailbox set to?"

    def _numbered(self, request: str) -> int | None:
        """The item record of a thing the request names by its number ("issue 300"; "PR 42": a pull's)."""
        found = _NUMBERED.search(request)
        if found is None or found[1].lower() in VALUES or _WHO_HOLDS.match(request):
            return None
        word = found[1].lower()
        for kind in (word, *EVERYDAY.get(word, ((), 0.0))[0]):
            number = self._items.get(stem(kind))
            if number is not None:
                return number
        return None


def with_record(spread: list[tuple[float, int]], record: int | None, limit: int) -> list[tuple[float, int]]:
    """``spread`` (score, operation) with ``record`` in the tenth place (or the last of ``limit``), unless before it.

    The record takes the score of the result before it; ``limit`` results are kept.
    """
    place = min(limit, _PLACE)
    if record is None or limit < _FROM or any(number == record for _, number in spread[:place]):
        return spread
    rest = [(score, number) for score, number in spread if number != record]
    before = rest[: place - 1]
    score = before[-1][0] if before else 0.0
    return [*before, (score, record), *rest[place - 1 :]][:limit]
