"""Requests that say how things should end up, not what to do: each read as the action that gets there.

"make sure nobody outside the company can open the Q3 budget file anymore" asks to remove the file's
access, "the intern should be able to see acme/api" to give it, "make sure nobody can create public repos"
to turn a setting off, "I want to know whenever someone opens an issue" to subscribe to notifications.
:func:`.sentences.meant` applies :func:`achieved` before the other rewordings. A state said with no word
that wants it ("Sam can't see the Finance site") is a problem reported, which asks for the opposite, so the
rules here read only what is wanted: "make sure", "ensure", "should", "must", "I want ... to".
"""

from __future__ import annotations

import re

from .words import stem, wordset

__all__ = ["achieved"]

# What wants a state: "make sure (that)", "ensure", "see to it that", "make it so".
_WANTED = r"(?:make\s+sure|ensure|see\s+to\s+it|make\s+it\s+so)(?:\s+that)?\s+"
# Who or what the state is about, up to its modal: never a question's word ("why can't Sam ...").
_WHO = r"(?!(?:why|how|what|who|which|when|where|if|whether)\b)[^,;:?!]{1,60}?"
# A modal that denies an ability, and one that wants it.
_CANNOT = (
    r"can't|cant|cannot|can\s+not|can\s+no\s+longer|won't\s+be\s+able\s+to|will\s+not\s+be\s+able\s+to"
    r"|isn't\s+able\s+to|aren't\s+able\s+to|is\s+not\s+able\s+to|are\s+not\s+able\s+to"
)
_SHOULD_NOT = r"shouldn't|should\s+not|should\s+no\s+longer|mustn't|must\s+not|may\s+not"
_CAN = r"can|is\s+able\s+to|are\s+able\s+to|will\s+be\s+able\s+to"
_SHOULD = r"should|must|needs?\s+to|ha(?:s|ve)\s+to"
_STATE = re.compile(
    rf"^\s*(?P<wanted>{_WANTED})?(?P<who>{_WHO})\s+"
    rf"(?:(?P<cannot>{_CANNOT})|(?P<should_not>{_SHOULD_NOT})|(?P<can>{_CAN})|(?P<should>{_SHOULD}))\s+"
    r"(?:(?:still|ever|even|also)\s+)?(?:be\s+able\s+to\s+)?"
    r"(?P<verb>[a-z]+(?:[\s-](?:in|on|into|to)\b)?)(?P<what>[^?]*?)"
    r"(?:\s+(?:any\s?more|again|any\s+longer|from\s+now\s+on))?\s*[.!?]*\s*$",
    re.IGNORECASE,
)
# "I want the Help Desk team to stop being able to delete channels", "I don't want the old CI to run anymore"
_WANT_STATE = re.compile(
    r"^\s*(?:i|we)\s+(?P<dont>don't\s+|do\s+not\s+)?(?:want|need|'d\s+like|would\s+like)\s+"
    rf"(?P<who>(?!(?:to|me|us)\b){_WHO})\s+to\s+(?P<stop>stop\s+being\s+able\s+to\s+|no\s+longer\s+be\s+able\s+to\s+"
    r"|not\s+be\s+able\s+to\s+)?(?P<able>be\s+able\s+to\s+)?"
    r"(?P<verb>[a-z]+(?:[\s-](?:in|on|into|to)\b)?)(?P<what>[^?]*?)"
    r"(?:\s+(?:any\s?more|again|any\s+longer|from\s+now\s+on))?\s*[.!]*\s*$",
    re.IGNORECASE,
)
# "keep people from commenting on issue 301", "prevent guests from joining the team" (but "stop the channel from
# receiving email" turns off what a thing does, as :mod:`.rewordings` reads it)
_KEPT_FROM = re.compile(
    rf"^\s*(?:{_WANTED})?(?:keep|prevent)\s+(?P<who>{_WHO})\s+from\s+(?P<verb>[a-z]+ing(?:[\s-](?:in|on|into|to)\b)?)"
    r"(?P<what>[^?]*?)\s*[.!]*\s*$",
    re.IGNORECASE,
)
# The verbs of access: a state where someone can or cannot see a thing is the thing's access given or removed.
_ACCESS = frozenset(map(stem, wordset("see view open access read reach download edit use")))
_ACCESS_PHRASES = frozenset({"get into", "get to", "get in"})
_SIGN_IN = frozenset({"sign in", "sign-in", "log in", "log-in", "login", "signin", "sign on", "log on"})
_ABLE = re.compile(r"\bable\s+to\b", re.IGNORECASE)
_NO_LONGER = re.compile(r"\b(?:any\s?more|any\s+longer)\b", re.IGNORECASE)
_ONLY = re.compile(r"^(?:only|just)\s+", re.IGNORECASE)
_NOBODY = re.compile(r"^(?:nobody|no\s*one|none\s+of)\b\s*", re.IGNORECASE)

# Other states wanted, each (pattern, rewrite):
_OTHERS: tuple[tuple[re.Pattern[str], str], ...] = (
    # told of what happens: "make sure I hear about it whenever something changes", "let me know every time ..."
    (
        re.compile(
            rf"^\s*(?:{_WANTED})?(?:(?:i|we)\s+)?(?:(?:hear|know|find\s+out|get\s+(?:notified|told|an?\s+"
            r"(?:email|alert|notification|message)))(?:\s+about\s+it)?|(?:notify|tell|ping|alert)\s+(?:me|us)"
            r"|let\s+(?:me|us)\s+know)\s+(?=(?:whenever|every\s+time|each\s+time|any\s+time|as\s+soon\s+as)\b)",
            re.IGNORECASE,
        ),
        "subscribe to notifications ",
    ),
    # "make sure we hear about disputes as soon as they open": told of each as it happens
    (
        re.compile(
            rf"^\s*(?:{_WANTED})?(?:i|we)\s+(?:hear|find\s+out|get\s+(?:notified|told))\s+(?:about|of)\s+"
            r"(?=[^?]*\b(?:as\s+soon\s+as|whenever|every\s+time|the\s+moment|right\s+away|immediately)\b)",
            re.IGNORECASE,
        ),
        "subscribe to notifications of ",
    ),
    # mail that should go elsewhere is forwarded: "I want those emails to go to my new mailbox"
    (
        re.compile(
            r"\b(?:(?:i|we)\s+(?:want|need)\s+)?((?:the|those|these|my|our|all|his|her)\s+)?(e-?mails?|mail|messages)"
            r"\s+to\s+go\s+to\b",
            re.IGNORECASE,
        ),
        r"forward \1\2 to",
    ),
    # someone who should be in a group is added to it: "the guest from Fabrikam needs to be in our Partners team"
    (
        re.compile(
            rf"^\s*(?:{_WANTED})?({_WHO})\s+(?:needs?\s+to|has\s+to|should|must)\s+be\s+(?:in|on|part\s+of|a\s+member\s+of)\s+",
            re.IGNORECASE,
        ),
        r"add \1 to ",
    ),
    # a thing kept out of a list is hidden from it: "keep the Board group out of the address book"
    (re.compile(r"\bkeep\s+((?:[\w'-]+\s+){1,4}?)out\s+of\s+", re.IGNORECASE), r"hide \1from "),
    # what to remember is a reminder: "remember to call the bank tomorrow" (after "I want to")
    (re.compile(r"^\s*remember\s+to\b", re.IGNORECASE), "remind me to"),
    # "so I don't forget: block 2 hours ...": why it is asked, not what
    (
        re.compile(r"^\s*(?:so\s+(?:that\s+)?)?(?:i|we)\s+(?:don't|do\s+not|won't)\s+forget\s*[:,-]\s*", re.IGNORECASE),
        "",
    ),
    # time blocked is an event on the calendar: "block 2 hours Thursday afternoon"
    (
        re.compile(
            r"\bblock\s+(?:out\s+)?((?:\d+|an?|one|two|three|a\s+couple\s+of|some)\s*(?:hours?|hrs?|minutes?|mins?)"
            r"|(?:some\s+)?time)\b",
            re.IGNORECASE,
        ),
        r"schedule a calendar event of \1",
    ),
)


def achieved(text: str) -> str:
    """``text`` with a state it wants said as the action that gets there (the text itself if it says none)."""
    for pattern, rewrite in _OTHERS:
        text = pattern.sub(rewrite, text)
    found = _STATE.match(text)
    if found and (found["wanted"] or found["should"] or found["should_not"]):
        denied = bool(found["cannot"] or found["should_not"])
        # "my out of office should stop on Monday" is no ability: only one to see or sign in, or said as one
        if found["wanted"] or _ABLE.search(found.group(0)) or _access(found["verb"]) or _signs_in(found["verb"]):
            return _action(found["who"], found["verb"], found["what"], denied)
    found = _WANT_STATE.match(text)
    if found and (found["stop"] or found["able"] or found["dont"]):
        return _action(found["who"], found["verb"], found["what"], bool(found["stop"] or found["dont"]))
    found = _KEPT_FROM.match(text)
    if found:
        return _action(found["who"], found["verb"], found["what"], denied=True)
    return text


def _signs_in(verb: str) -> bool:
    said = verb.lower().replace("-", " ")
    return said in _SIGN_IN or (said.startswith(("sign", "log")) and said.endswith((" in", " on")))


def _access(verb: str) -> bool:
    said = verb.lower().replace("-", " ")
    return said in _ACCESS_PHRASES or stem(said.split(maxsplit=1)[0]) in _ACCESS


def _action(who: str, verb: str, what: str, denied: bool) -> str:
    """The action that makes ``who`` able (or, ``denied``, unable) to ``verb`` ``what``."""
    what = _NO_LONGER.sub("", what).strip()
    only = _ONLY.match(who)
    if only and not denied:  # "make sure only our office IP can SSH in": a rule that lets no one else
        return f"only allow {who[only.end() :].strip()} to {verb} {what}".strip()
    nobody = _NOBODY.match(who)
    if nobody:  # "nobody outside the company can open it": everyone outside it cannot
        who, denied = "anyone " + who[nobody.end() :], not denied
    who = who.strip()
    if _signs_in(verb):
        return f"{'block' if denied else 'unblock'} sign-in of {who} {what}".strip()
    if _access(verb):
        what = re.sub(r"^any\s+of\s+", "", what, flags=re.IGNORECASE)
        return f"remove access to {what} for {who}" if denied else f"give {who} access to {what}"
    if verb.split(maxsplit=1)[0].lower().endswith("ing"):  # "keep people from commenting on issue 301"
        return f"turn {'off' if denied else 'on'} {verb} {what} for {who}".replace("  ", " ").strip()
    return f"turn {'off' if denied else 'on'} allowing {who} to {verb} {what}".strip()
