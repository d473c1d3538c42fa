"""What a request is put in, not what it asks: "can you", "how do I", "my boss asked me to", "for me, thanks".

:func:`unwrapped` reads past it, past how people type in a chat ("pls", "can u") and the English words they
most often misspell, past a developer's question for an endpoint ("what endpoint do I call to upload a file")
and says where in an admin centre it is asked after what to do (:func:`placed`); :mod:`.sentences` reads
what is left.
"""

from __future__ import annotations

import re

__all__ = ["placed", "unwrapped"]


# How a request may be put around what it asks: "how do I delete a webhook" asks to delete one, "is it
# possible to rename the repo" to rename it ("how" and "is" alone ask a question, which reads), "I need to
# know who ..." asks who.
_WRAPPED = re.compile(
    # who a message is said to ("hey assistant, ...", "hi team, ..."), and "please to" as some write it
    r"^\s*(?:(?:hey|hi|hello|ok|okay)\s+\w+\s*,\s*|please to\s+"
    r"|(?:please|just|kindly|ok|okay|hey|hi|so|quickly)[\s,]+|would you mind[\s,]+"
    # a helpdesk ticket's or a message's own label: "Ticket #4521: ...", "Re: ...", "Urgent - ..."
    r"|(?:ticket|request|subject|re|fwd?|urgent|fyi|question|support|helpdesk)(?: #?\d+)?\s*[:\u2013-]\s+"
    r"|(?:can|could|would|will) you(?: please)?[\s,]+|(?:can|could) (?:someone|somebody|anyone)(?: please)?[\s,]+"
    r"|how (?:do|can|should|would) (?:i|we)[\s,]+|is (?:it possible|there (?:a|any) way) to[\s,]+|help me(?: to)?[\s,]+"
    r"|where (?:can|do|should) (?:i|we)[\s,]+|what(?:'s| is) the (?:best|easiest|quickest|fastest) way to[\s,]+"
    r"|(?:can|could) (?:i|we)[\s,]+(?=(?:find out|figure out|work out|see|check|tell|know)\b)"
    r"|go ahead and[\s,]+|(?:i|we)(?: need| want| would like|'d like| have) (?:you )?to[\s,]+"
    # "I need to know who has admin rights", "figure out when we're all free", "check what groups Omar is in":
    # the question itself
    r"|(?:know|find out|figure out|work out|check|see|tell)[\s,]+(?=(?:who|what|which|when|where|how)\b))+",
    re.IGNORECASE,
)


# Who asked for it ("my boss asked me to ...", "Sam wants us to ...") and the courtesies after it ("...
# for me, thanks"): what the request is put in, not what it asks. Not a question ("who wants me to review").
_ASKED_TO = re.compile(
    r"^\s*(?!(?:who|what|which|when|where|why|how)\b)(?:(?:my|our|the)\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:asked|wants|told|needs|would like)\s+(?:me|us)\s+to\s+",
    re.IGNORECASE,
)
_COURTESY_END = re.compile(
    r"(?:[\s,]+(?:for\s+(?:me|us)|please|thanks|thank\s+you|thx|cheers|asap|right away|if you can))+\s*([.!?]*)\s*$",
    re.IGNORECASE,
)


# How people type in a chat ("can u make me an owner", "pls", "whats my employee id"), and the English words
# they most often misspell ("my outlook calender"). A general speller would need a dictionary: read against the
# API's own words, it took "staging" for "stating" and "backend" for "backed" (measured: -15 in the first five).
_CHAT_WORDS = {
    "u": "you", "ur": "your", "pls": "please", "plz": "please", "ppl": "people", "whats": "what's",
    "whos": "who's", "cant": "can't", "dont": "don't", "wont": "won't", "didnt": "didn't", "isnt": "isn't",
    "calender": "calendar", "calenders": "calendars", "pasword": "password", "passwrod": "password",
    "accidently": "accidentally", "recieve": "receive", "recieved": "received", "adress": "address",
    "seperate": "separate", "occured": "occurred", "untill": "until", "wich": "which", "teh": "the",
    "buisness": "business", "reciept": "receipt", "shedule": "schedule", "acess": "access", "acces": "access",
}  # fmt: skip
# "u" and "ur" only as typed, lower-case ("the U.S. office" is no "you")
_CHAT = re.compile(rf"\b(?:(?-i:u|ur)|{'|'.join(w for w in _CHAT_WORDS if w not in ('u', 'ur'))})\b", re.IGNORECASE)


# A developer's question for the operation that does something ("what endpoint do I call to upload a file", "is
# there an API to add a member", "which API gives me a user's manager", "how can my daemon app read the sign-in
# logs"): what it does is the request. The API's name may come first ("what's the Graph call to ...").
_CALL = r"(?:endpoint|api|call|rest\s+call)s?"  # not "method" nor "request": "shipping methods", "pull requests"
_ENDPOINT = re.compile(
    rf"^\s*(?:(?:what|which)(?:'s|\s+is|\s+are)?\s+(?:the\s+)?(?:[\w-]+\s+)?{_CALL}\s+"
    r"(?:(?:do|should|can|would|could|must)\s+(?:i|we)\s+(?:call|use|hit|need|send)\s+)?(?:for|to)\s+"
    rf"|is\s+there\s+(?:an?|any)\s+(?:[\w-]+\s+)?{_CALL}\s+(?:for|to)\s+"
    rf"|(?:(?:i|we)\s+need\s+)?(?:the|an?)\s+(?:[\w-]+\s+)?{_CALL}\s+(?:that|which)\s+"
    rf"|{_CALL}\s+(?:for|to)\s+|(?:what|which)\s+(?:[\w-]+\s+)?{_CALL}\s+"
    r"(?=[a-z]+s\s+(?:a|an|the|all|my|our|its|their|someone|every|each|one|new)\b)"
    r"|how\s+(?:can|do|does|should|would)\s+(?:my|our|the|an?)\s+(?:[\w-]+\s+)?"
    r"(?:app|bot|script|service|code|daemon|integration|function|action|workflow|client)\s+)",
    re.IGNORECASE,
)
# "which API gives me a user's manager", "which call returns the files changed in a PR": what it gives is to get
_GIVES = re.compile(
    rf"^\s*(?:what|which)\s+(?:[\w-]+\s+)?{_CALL}\s+(?:gives|returns|lists|shows|gets|fetches)\s+(?:me\s+|us\s+)?",
    re.IGNORECASE,
)
# how it is to be done: "programmatically", "in code", "through the API"
_IN_CODE = re.compile(
    r"\s*\b(?:programmatically|(?:in|from)\s+(?:my\s+|our\s+)?code|(?:through|via|with|using)\s+(?:the\s+)?(?:rest\s+)?api)\b",
    re.IGNORECASE,
)


# Where in an admin centre or a portal the asker is ("Intune > Devices > Windows > retire the old laptop",
# "SharePoint admin center: list all sites"): what to do comes last; where, said after it, names its things.
_PLACE = re.compile(
    r"^\s*(?:in\s+)?(?P<place>(?:(?-i:[A-Z])[^>:,?]{0,40}?\s*>\s*)+"
    r"|[\w -]{1,30}?\s(?:admin\s+cent(?:er|re)|portal|console)\s*[:>-]\s*)(?P<rest>[^>]+)$",
    re.IGNORECASE,
)


def _placed(found: re.Match[str]) -> str:
    # the product's name and its pages' names, not "admin center" (every API has an admin, no API a center)
    place = _CENTRE.sub(" ", found["place"])
    place = " ".join(part.strip() for part in re.split(r"[>:-]", place) if part.strip())
    return f"{found['rest'].strip()} (in {place})" if place else found["rest"].strip()


_CENTRE = re.compile(r"\b(?:admin\s+cent(?:er|re)|portal|console)\b", re.IGNORECASE)


def placed(text: str) -> str:
    """``text`` with where in an admin centre it is asked said after what to do, or ``text``."""
    return _PLACE.sub(_placed, text)


def unwrapped(text: str) -> str:
    """A request without what it is put in: "can you", "my boss asked me to", "for me, thanks"."""
    text = _CHAT.sub(lambda found: _CHAT_WORDS[found.group(0).lower()], text.replace("\u2019", "'"))
    text = placed(text)
    text = _ENDPOINT.sub("", _GIVES.sub("get ", _IN_CODE.sub("", text)))
    text = _WRAPPED.sub("", text)
    text = _WRAPPED.sub("", _ASKED_TO.sub("", text))
    return _COURTESY_END.sub(r"\1", text)
