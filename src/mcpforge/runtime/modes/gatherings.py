"""Gatherings in a request: meetings, calls, stand-ups and the like are a calendar's events.

An API keeps a gathering as an event with attendees (Microsoft Graph's, Google Calendar's, Zoom's
meetings), while a request names it by its kind ("the design review", "tomorrow's standup") and by what is
done around it: invited to, joined, scheduled, moved. :func:`gathered` reads those shapes and weighs the
words for the event over the words that name other things (an invitation of its own, a team's members, a
shift schedule).
"""

from __future__ import annotations

import re

from .words import stem

__all__ = ["gathered"]

# An invitation to a gathering is the gathering's: a calendar's event and its attendees ("send Raj an invite to
# Friday's planning session", "who turned down the offsite invite?"), not an invitation of its own (a guest
# user's, a repository's). A gathering's word after "to" is an action ("invite Jo to review the PR").
_GATHERING_WORDS = (
    r"meetings?|calls?|sessions?|workshops?|offsites?|off-sites?|stand-?ups?|syncs?|reviews?|events?|appointments?"
    r"|part(?:y|ies)|lunch(?:es)?|dinners?|webinars?|interviews?|retros?|retrospectives?|demos?|trainings?"
    r"|kick-?offs?|all-hands|catch-?ups?|presentations?|conferences?|celebrations?|meetups?|1:1s?"
)
_GATHERING_INVITE = re.compile(
    rf"\b({_GATHERING_WORDS})\s+invit(?:e|es|ation|ations)\b"
    rf"|\binvit(?:e|es|ed|ation|ations)\b(?:\s+\S+){{0,3}}?\s+(?:to|for)\s+(?!(?:{_GATHERING_WORDS})\b)"
    rf"(?:\S+\s+){{0,4}}?({_GATHERING_WORDS})\b",
    re.IGNORECASE,
)
# Who joined a gathering are its attendees ("who joined the Teams meeting and for how long"), not the members
# who joined a team.
_JOINED_GATHERING = re.compile(rf"\bwho\s+joined\s+(?:\S+\s+){{0,4}}?(?:{_GATHERING_WORDS})\b", re.IGNORECASE)
_ATTENDED = ("attendee", "participant", "attendance")
# A thing a day to come owns is what happens that day: "tomorrow's sprint planning", "Friday's all-hands" (an
# event; yesterday's are as often what was made then: a build, a snapshot).
_DAYS_THING = re.compile(
    r"\b(?:today|tonight|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday)['\u2019]s\s+\w",
    re.IGNORECASE,
)
_DAYS_THING_WEIGHT = 0.6
_GATHERING_SAID_FIRST = re.compile(rf"\b(?:{_GATHERING_WORDS}|kickoff|all hands)\b", re.IGNORECASE)
# A gathering that something happened to ("the quarterly review slipped a week"), not one naming another thing
# ("the training video is too big").
_GATHERING_DID = re.compile(
    rf"\b({_GATHERING_WORDS}|kickoff)\s+(?:is|are|was|were|got|has|had|have|keeps|[a-z]{{3,}}ed)\b", re.IGNORECASE
)
# The gathering said first, what to do after: "the design review is on Friday, invite the whole Design team".
_GATHERING_THEN_INVITE = re.compile(
    rf"\b({_GATHERING_WORDS})\b[^,;]*[,;]\s+(?:please\s+|and\s+|so\s+)?invite\b()", re.IGNORECASE
)
# A gathering arranged is an event made ("schedule a Teams meeting with the design team"), not a shift schedule.
_ARRANGED = re.compile(
    r"\b(?:schedule|arrange|organi[sz]e|plan)\s+(?:a|an|the|our|my)\s+(?:\S+\s+){0,2}?"
    r"(?:meetings?|calls?|stand-?ups?|interviews?|lunch(?:es)?|catch-?ups?|all-hands|1:1s?|one on ones?)\b",
    re.IGNORECASE,
)
# A reminder before a gathering is the event's own ("remind me half an hour before the client call"), not a task.
_REMINDED = re.compile(
    rf"\bremind\s+(?:me|us)\b(?:\s+\S+){{0,6}}?\s+before\s+(?:the|my|our|this|that)\s+(?:\S+\s+){{0,3}}?"
    rf"(?:{_GATHERING_WORDS})\b|\bremind\s+(?:me|us)\s+about\s+(?:the|my|our)\s+(?:\S+\s+){{0,3}}?"
    rf"(?:{_GATHERING_WORDS})\b(?:\s+\S+){{0,4}}?\s+before\b",
    re.IGNORECASE,
)
_TASKS = ("task", "todo", "remind")  # and the word, which names snoozing and dismissing one
_GATHERING = ("event", "attendee", "calendar")
_GATHERING_WEIGHT = 0.8
_GATHERING_INVITATION = 0.4
_GATHERING_SAID = 0.5
# What is lowered where another word is meant: who joined a gathering are not a team's members; the schedule
# of a meeting arranged is not a shift schedule.
_MEMBERS = ("member", "membership")
_LOWERED = 0.3
_ARRANGING = 0.5


def gathered(text: str, happened: str, weights: dict[str, float]) -> None:
    """Raise ``weights`` (a request's terms) for the event a gathering in ``text`` is; ``happened``: its first clause.

    "the kickoff was moved to the big room, update the location" asks of the kickoff, said in what happened.
    """
    if _DAYS_THING.search(text) or _GATHERING_SAID_FIRST.search(happened):
        _raise(weights, ("event",), _DAYS_THING_WEIGHT)
    subject = _GATHERING_DID.search(happened)
    if subject:  # "the quarterly review slipped, move it": its word says which event, as a name would
        said_gathering = stem(subject.group(1).lower())
        if said_gathering in weights:
            weights[said_gathering] = min(weights[said_gathering], _GATHERING_SAID)
            _raise(weights, ("event", "calendar"), _GATHERING_WEIGHT)
    if _ARRANGED.search(text):
        _raise(weights, ("event",), _GATHERING_WEIGHT)
        weights[stem("schedule")] = min(weights.get(stem("schedule"), _ARRANGING), _ARRANGING)
    if _REMINDED.search(text):
        for term in map(stem, _TASKS):
            if term in weights:
                weights[term] = min(weights[term], _LOWERED)
        _raise(weights, ("event", "calendar", "update"), _GATHERING_WEIGHT)
    if _JOINED_GATHERING.search(text):
        for term in map(stem, _MEMBERS):
            if term in weights:
                weights[term] = min(weights[term], _LOWERED)
        _raise(weights, _ATTENDED, _GATHERING_WEIGHT)
    gathering = _GATHERING_INVITE.search(text) or _GATHERING_THEN_INVITE.search(text)
    if gathering:  # "accept the invitation to the design review meeting": the event's
        weights[stem("invitation")] = min(weights.get(stem("invitation"), 1.0), _GATHERING_INVITATION)
        # The gathering's own word ("meeting", "session") says which event, as a name would.
        said_gathering = stem((gathering.group(1) or gathering.group(2)).lower())
        if said_gathering in weights:
            weights[said_gathering] = min(weights[said_gathering], _GATHERING_SAID)
        _raise(weights, _GATHERING, _GATHERING_WEIGHT)


def _raise(weights: dict[str, float], words: tuple[str, ...], weight: float) -> None:
    for term in map(stem, words):
        weights[term] = max(weights.get(term, 0.0), weight)
