"""How a request is put: its words in order, what it says not to do, its clauses, the methods it asks for.

:func:`meant` reads past what a request is put in (:mod:`.wrapping`; "give me the ..."), says a command
in words (:mod:`.commands`), an outcome wanted as its action (:mod:`.outcomes`), and leaves out what it says
not to do; :func:`said_words` brings a phrasal verb's particle back beside its verb;
:func:`intent` says which HTTP methods its first action word or phrase asks for (:mod:`.intents`'
tables), where :func:`described` marks the verbs that only say which things ("the movies I added").
Its clauses: :func:`what_happened` splits off one saying what happened before the action ("the
branch is merged, delete it"), :func:`what_for` marks one saying what it is for ("... so only people
with the link can watch it"). :mod:`.asks` reads the request's terms from what these leave.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .commands import as_said
from .conditions import condition, obliged, ordered_by
from .intents import CREATE, DELETE, FIRST_VERBS, INTENT_PHRASES, INTENT_VERBS, READ, SENT, UPDATE, WRITE
from .lexicon import EVERYDAY
from .outcomes import achieved
from .rewordings import REWORDINGS
from .words import POINTING, STOPWORDS, VALUES, stem, unaccented, words, wordset
from .wrapping import unwrapped

__all__ = [
    "QUESTIONS",
    "described",
    "intent",
    "lets_someone",
    "lexicon_stems",
    "meant",
    "methods_of",
    "said_words",
    "undone",
    "what_for",
    "what_happened",
]

# Someone's past action describes a thing ("the movies I added", "the email we sent"): it says which
# things, not what to do now.
_DOERS = wordset("i we you they he she someone somebody")
_BE = wordset("am is are was were be been")
_ASKING = wordset("when where did does is are was were has am")
_LOOKING = wordset("check see verify confirm tell know")
_IF = wordset("if whether")
_IFS = (["if"], ["whether"])
QUESTIONS = wordset("which what who how when where")  # the words that open a question
_WHEN_DONE = wordset("since last this yesterday today before after during within between earlier recently lately")
_PAST = wordset("sent made wrote written bought paid took taken gave given saw seen put set left")


def lets_someone(said: list[str]) -> bool:
    """Whether the request lets someone (not the asker) do something: "let the bot work on the repo".

    Also when it says someone needs access: "the auditor needs read access to the Finance site".
    """
    # "let our app know when ...": a notification, not a permission
    if len(said) > 2 and said[0] == "let" and said[1] not in _ASKER and "know" not in said[2:5]:
        return True
    return any(
        word == "needs" and not _ACCESS.isdisjoint(said[index + 1 : index + 3]) and "who" not in said[:index]
        for index, word in enumerate(said)
    )  # "review who still needs access" asks who


_ASKER = wordset("me us")
_ACCESS = wordset("access permission permissions rights")


def described(said: list[str]) -> set[int]:
    """Where in ``said`` a verb describes a thing by what someone did to it, or by what it did."""
    done_to = {
        index
        for index in range(1, len(said))
        if said[index - 1] in _DOERS
        and (said[index] in _PAST or (said[index].endswith("ed") and len(said[index]) > 4))
        and (index < 2 or said[index - 2] not in _BE)  # "am I allowed" is a question about now
    }
    return done_to | _done_when(said) | _relative(said) | ordered_by(said) | obliged(said)


def _done_when(said: list[str]) -> set[int]:
    """Where a participle after its thing says when it was done: "export the products updated since Monday".

    In a question it is what is asked ("which addresses bounced yesterday"), and stays.
    """
    if not said or said[0] in QUESTIONS:
        return set()
    # typed tersely, the things said first: "users created last 7 days"
    first = 1 if said[0] not in STOPWORDS and not methods_of(said[0]) else 2
    return {
        index
        for index in range(first, len(said) - 1)
        if said[index].endswith("ed")
        and len(said[index]) > 4
        and said[index + 1] in _WHEN_DONE
        and said[index - 1] not in STOPWORDS
        and said[index - 1] not in _DOERS
        # "the user wants their display name changed after marriage": what is wanted done, not when it was
        and _WANTING.isdisjoint(said[max(0, index - 5) : index])
    }


_WANTING = wordset("want wants wanted need needs")


def _relative(said: list[str]) -> set[int]:
    """Where "who" says which one thing is meant ("the contractor who left"): that word and the next said.

    Only after one thing the request points at: "everyone who signed in today" and "users who have no
    phone" ask for whoever did, and "show who has access" asks who.
    """
    found: set[int] = set()
    for index in range(2, len(said) - 1):
        before = said[index - 1]
        if said[index] != "who" or before in STOPWORDS or before in _ANYONE or before.endswith("s"):
            continue
        if (
            before in _ASKING_WHO
            or methods_of(before)
            or not POINTING.intersection(said[max(index - 4, 0) : index - 1])
        ):
            continue
        after = next((i for i in range(index + 1, len(said)) if said[i] not in STOPWORDS), None)
        found.update((index,) if after is None else (index, after))
    return found


# Verbs that ask who ("show who has access", "find out who owns the repo") and words for whoever
# ("everyone who signed in").
_ASKING_WHO = wordset("show tell know see find check ask list out")
_ANYONE = wordset("everyone anyone someone everybody anybody people")


# "what's", "who's", "Carol's", "we're": the word before the apostrophe is what was said.
_CONTRACTION = re.compile(r"'(?:s|re|ve|ll|d|m)\b", re.IGNORECASE)
_OWNED_FIRST = re.compile(r"\s*[A-Z][a-z]+['\u2019]s\s")


@lru_cache(maxsize=1)
def lexicon_stems() -> dict[str, tuple[tuple[str, ...], float]]:
    """The lexicon's single words by their stems (the first entry of a stem wins)."""
    found: dict[str, tuple[tuple[str, ...], float]] = {}
    for key, value in EVERYDAY.items():
        if " " not in key and key not in STOPWORDS:
            found.setdefault(stem(key), value)
    return found


# An action the request says not to take: "draft it but don't send it yet", "do not notify anyone",
# "close PR 12 without merging".
_NOT_DOING = re.compile(r"\b(?:don'?t|do not|never|without)\s+(\w+)[^,.;:!?]*", re.IGNORECASE)


# "give me all the users", "give me a list of the PRs", "I need the logs of the last run": to show, not to
# grant ("give me access to the repo") or to make ("give me a new token").
_GIVE_ME = re.compile(
    r"^(\s*(?:please\s+)?)(?:give\s+me|(?:i|we)\s+(?:need|want|'d\s+like|would\s+like))\s+"
    r"(?=(?:the|all|every|my|our|his|her|their|this|that|these|those|list|a\s+list|a\s+summary|an\s+overview)\b)",
    re.IGNORECASE,
)


# A meeting of two, written as numbers ("my 1:1 with Sam", "1-on-1s"): said in words, as the lexicon has it.
_ONE_ON_ONE = re.compile(r"\b1(?::|-on-|\s+on\s+)1s?\b", re.IGNORECASE)


# One request is read by several of the search's steps (its terms, its methods, whom it names): read once.
@lru_cache(maxsize=256)
def meant(text: str) -> str:
    """A request as it is read: contractions as the word before them, what it says not to do left out."""
    # "Tomás" and "Zoë" are names as "Tomas" and "Zoe" are (the terms of both sides are unaccented alike)
    text = achieved(as_said(unwrapped(_ONE_ON_ONE.sub("one on one", unaccented(text)))))
    text = _GIVE_ME.sub(_shown, text)
    for pattern, rewrite in REWORDINGS:
        text = pattern.sub(rewrite, text)
    return _NOT_DOING.sub(_not_done, _CONTRACTION.sub("", text))


def _shown(match: re.Match[str]) -> str:
    # "I want the deck shared with the auditors" asks for the sharing: a thing wanted in a state is a change.
    if _SET_TO.match(match.string, match.end()):  # "I want the v1 tag to point at the new commit": how it is set
        return match.group(1) + "set "
    rest = match.string[match.end() :].lower().split()
    if any(word in _PAST or (word.endswith("ed") and len(word) > 4) for word in rest):
        return match.group(0)
    return match.group(1) + "show me "


# A thing wanted to do something ("the staging deploy to wait for QA's approval"): not a thing to show. Not what
# the asker will do with it ("I need the report to send to my boss", "the logs to debug the build").
_SET_TO = re.compile(
    r"(?:[\w'/.-]+\s+){1,5}?to\s+(?!(?:me|us|the|an?|my|our|this|that|it|send|share|show|review|check|debug|print"
    r"|read|use|give|forward|compare|analy[sz]e|prepare|present|look|see|plan|fix|find|help|decide|attach|post)\b)"
    r"[a-z]+\b",
    re.IGNORECASE,
)


def _not_done(match: re.Match[str]) -> str:
    # Only an action ("don't send"): "users who don't have MFA" asks about them. Said alone, it is the
    # request: "don't send the scheduled campaign after all" calls off what was to be done ("don't
    # delete it, archive it" asks for the archive).
    if not methods_of(match.group(1).lower()):
        return match.group(0)
    alone = match.string[: match.start()].strip(" ,.!").lower() in ("", "please")
    if not alone or match.string[match.end() :].strip(" .!"):
        return " "
    return "call off " + match.group(0)[match.start(1) - match.start() :]


# Particles of verbs said apart from them: "take Bob out", "turn the alarm off", "set the repo up".
_PARTICLES = frozenset({"off", "on", "out", "up", "down", "back", "away"})
_PHRASAL = frozenset(k for k in (*EVERYDAY, *INTENT_PHRASES) if len(k.split()) == 2 and k.split()[1] in _PARTICLES)


def said_words(text: str) -> list[str]:
    """The words of a request, a phrasal verb's particle brought back beside its verb (up to three words apart)."""
    said = words(text)
    for index, word in enumerate(said):
        for gap in range(2, 5):
            if (
                index + gap < len(said)
                and f"{word} {said[index + gap]}" in _PHRASAL
                # "take the day off", "take Friday off": time away, not an action's particle
                and f"{said[index + gap - 1]} {said[index + gap]}" not in EVERYDAY
                and said[index + gap - 1] not in VALUES
            ):
                said.insert(index + 1, said.pop(index + gap))
                break
    return said


@lru_cache(maxsize=1)
def _intents() -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    return tuple((frozenset(stem(w) for w in verbs.split()), methods) for verbs, methods in INTENT_VERBS)


def _listed(word: str) -> frozenset[str]:
    """The methods the intents list ``word`` for (empty: none)."""
    stemmed = stem(word)
    found = next((methods for verbs, methods in _intents() if stemmed in verbs), frozenset())
    if found == WRITE and word.endswith(_NOUN_ENDINGS):  # "open the attachment": a thing, not attaching
        return frozenset()
    return found


# How a noun made from a verb ends: an attachment, an assignment, a subscription.
_NOUN_ENDINGS = ("ment", "ments", "tion", "tions", "sion", "sions")


def methods_of(word: str) -> frozenset[str]:
    """The HTTP methods ``word`` asks for as an action (empty: it is not one)."""
    found = _listed(word)
    action = None if found else undone(word)
    if action is None:
        return found
    # Undoing what made something takes it away ("unassign", "unpin"); undoing a change is a change
    # ("unarchive", "unhide").
    return DELETE if methods_of(action) in (CREATE, WRITE, frozenset()) else UPDATE


# An action undone, said as one word: "unassign carol", "unpin the message", "unmute the channel".
_UNDONE = re.compile(r"un([a-z]{3,})")


def undone(word: str) -> str | None:
    """The action ``word`` undoes: "un" and an action the intents know ("unassigned", "unread" are states)."""
    found = _UNDONE.fullmatch(word)
    if found is None or word.endswith("ed"):
        return None
    rest = found.group(1)
    known = _listed(rest)
    if known == READ:
        return None
    return rest if known or rest in EVERYDAY or stem(rest) in lexicon_stems() else None


# What happened, then what to do about it: "Jonas got a new phone, clear his MFA methods" asks to clear
# them (a new phone is not made), "we track bugs in Jira now, so turn off the issue tracker" to turn it off.
# Its subject is someone ("Jonas", "we") or a thing that is or has been something ("the feature-x
# branch is merged, delete it").
_BEFORE_DOING = re.compile(
    r"^\s*((?:[Ii]|[Ww]e|[Hh]e|[Ss]he|[Tt]hey|[Ii]t|[A-Z][a-z]+)\s[^,;]*"
    r"|[^,;]*?\s(?:is|are|was|were|has|have|got|[a-z]{3,}ed|died|broke|lost|left|can't|cannot|won't|doesn't|isn't"
    r"|keeps|fails|crashes|freezes|hangs|not|failing|crashing|freezing|hanging|dropping|stuck|broken"  # what goes
    # wrong: "the app keeps failing", "phone not syncing", "user reports Teams calls dropping - check ..."
    r"|starts|begins|joins|arrives|returns|leaves|retires|quits)"  # "the new starter begins Monday, ..."
    r"\s?[^,;]*?)(?:[,;]|\s[-\u2013\u2014])\s+(?:so\s+|and\s+)?(.+)$"  # "phone not syncing - check it"
)


def what_happened(text: str) -> tuple[str, str]:
    """``(what happened, what to do)``: a request's first clause when it says what happened, and the rest.

    Both are read as :func:`meant` reads them; without such a clause, what happened is empty and what to
    do is the whole request.
    """
    owned = _OWNED_FIRST.match(text) is not None  # "Mark's phone was stolen": a name, not the verb "mark"
    text = meant(text)
    found = _BEFORE_DOING.match(text)
    if found is None:
        return "", text
    to_do = unwrapped(found[2])  # "..., can you find it"
    before, after = words(found[1]), said_words(to_do)
    acting = methods_of(before[0]) and before[0] != "new"  # "new starter Priya begins Monday, ...": said of her
    if not after or (acting and not owned) or before[0] in _ASKING:  # "delete the old ones, then"
        return "", text
    acts = methods_of(after[0]) or INTENT_PHRASES.get(" ".join(after[:2])) or INTENT_PHRASES.get(" ".join(after[:3]))
    # "..., check if her account is on", "my laptop is acting up, when did it last sync?"
    # "... calls dropping - check call quality records"
    asks = after[0] in QUESTIONS or after[0] in ("check", "see") or (after[0] in _LOOKING and after[1:2] in _IFS)
    return (found[1], to_do) if acts or asks else ("", text)


# What a request is for, after "so": "make the video private so only people with the link can watch
# it" asks for a change to the video; watching and people say why ("so far" and "so many" are not).
_NOT_PURPOSE = wordset("far many much")


def what_for(said: list[str]) -> set[int]:
    """Where in ``said`` the words say what the request is for, not what to do (after "so")."""
    # "so turn off the tracker" after what happened ("we use Jira now, so ...") is what to do.
    start = next(
        (
            i
            for i in range(1, len(said) - 1)
            if said[i] == "so"
            and said[i + 1] not in _NOT_PURPOSE
            and not methods_of(said[i + 1])
            and " ".join(said[i + 1 : i + 3]) not in INTENT_PHRASES  # "so say no to the all-hands"
        ),
        len(said),
    )
    made = next((i for i in range(2, len(said) - 1) if said[i] == "for" and _makes(said[:i])), None)
    # "a new SharePoint site for audits": what the site is for (but "a certificate for the billing app", "an
    # address for customer 42": whose)
    if (
        made is not None
        and made < start
        and said[made + 1] not in _NOT_A_THING
        and not any(word.isdigit() for word in said[made:])
    ):
        start = made
    return set(range(start + 1, len(said)))


def _makes(said: list[str]) -> bool:
    """Whether ``said`` makes a new thing: "create a site", "Finance wants a new site"."""
    return "new" in said or methods_of(said[0]) == CREATE


# A verb and its particle written as one word, said first and before no article: a thing, typed tersely ("sign-in
# failures today", "check-ins this week"); "log-in to the portal" stays a verb.
_FIRST_COMPOUND = re.compile(
    r"^\s*([a-z]+)-(in|on|out|up|off)(s?)\b(?!\s+(?:the|a|an|my|our|your|his|her|their|this|that|it|them|to)\b)",
    re.IGNORECASE,
)


# What is made by taking it: "take a (manual) snapshot of the database", "take a backup first".
_TAKEN = wordset("snapshot snapshots backup backups screenshot screenshots photo photos picture pictures")


def intent(text: str) -> frozenset[str]:
    """The HTTP methods the request's first action word or phrase asks for (empty: it says no action)."""
    action = _FIRST_COMPOUND.sub(r"\1\2\3", what_happened(text)[1])  # "sign-in failures today": a thing's name
    said = said_words(action)
    then = _then_done(said)
    if then:  # "find the Sales group and make Zoe an owner of it": what is done once it is found
        return then
    if said and said[0] in SENT:
        return CREATE
    if said and said[0] in _ASKING:  # "when does my shift start": a question about what is
        return READ
    if said[:1] in (["can"], ["could"]) and said[1:2] not in (["i"], ["we"]):  # "can Tom still sign in?"
        return READ
    if len(said) > 1 and said[0] in _LOOKING and said[1] in _IF:  # "check if Raj's account is enabled"
        return READ
    if said[:1] == ["check"] and "for" in said[2:6]:  # "check my mailbox for messages with big attachments"
        return READ
    # "the intern's account should expire in August" (but "any issues I should know about" asks)
    if "should" in said[1:] and said[0] not in QUESTIONS and _LOOKING.isdisjoint(_after(said, "should")):
        return UPDATE
    if _things_where(said):  # "forks of acme/sdk", "webhooks on acme/api", typed tersely
        return READ
    if said and said[0] in FIRST_VERBS:
        return FIRST_VERBS[said[0]]
    if said[:1] == ["make"] and "the" in said[2:4]:  # "make develop the default branch": setting, not making
        return UPDATE
    if said[:1] == ["take"] and not _TAKEN.isdisjoint(said[1:4]):  # "take a manual snapshot": a copy made now
        return CREATE
    if lets_someone(said):  # "let my assistant see my calendar": a permission to give, not a look
        return UPDATE
    describing = described(said) | condition(said)  # "users with no manager set": which users, not a setting
    for index, word in enumerate(said):
        if index in describing:
            continue
        for size in (3, 2):
            methods = INTENT_PHRASES.get(" ".join(said[index : index + size]))
            if methods:
                return methods
        if index == 0 and word.endswith("ed") and said[1:2] and said[1] not in _NOT_A_THING:
            continue  # "archived repos in acme", "deleted users we can restore": which things, not what to do
        if index and _done_for_asker(said, index):
            continue  # "open issues assigned to me", "files shared by us": which things
        if index == 1 and _kind_after_thing(said, action):
            if word.endswith("ed"):  # "secrets used by the build workflow": which things, all of it
                return READ
            continue  # typed tersely, "workflow runs using ...", "devices running old iOS": which things
        if index and said[index - 1] == "auto" and methods_of(word):
            return UPDATE  # "auto-delete branches after merge": a setting that does it
        methods = methods_of(word)
        if methods:
            return methods
    # "deleted users last 30 days", said with no action: the things to see
    if said[:1] and said[0].endswith("ed") and methods_of(said[0]):
        return READ
    return READ if _named_only(action, said) else frozenset()


def _then_done(said: list[str]) -> frozenset[str]:
    """The methods of what a request does to a thing once it has found it ("look up X and send him ...")."""
    if not said or said[0] not in _FINDING or "and" not in said[2:]:
        return frozenset()
    done = said[said.index("and", 2) + 1 :]
    done = done[1:] if done[:1] == ["then"] else done
    return methods_of(done[0]) - READ if done else frozenset()


# What finds a thing to act on: "find the Sales group and ...", "go into my Inbox, find ... and forward it".
_FINDING = wordset("find locate get go open pull look")


def _after(said: list[str], word: str) -> list[str]:
    """The word after ``word``'s first place in ``said`` (none at the end)."""
    return said[said.index(word) + 1 :][:1]


# Where things are or whose, said right after them: "forks of acme/sdk", "logs from last night".
_WHERE = wordset("of on in from at under across within")


def _things_where(said: list[str]) -> bool:
    """Whether ``said`` starts with things (a plural) and where or whose they are: "webhooks on acme/api"."""
    first = said[0] if said else ""
    if len(said) < 3 or not first.endswith("s") or first.endswith("ss") or said[1] not in _WHERE:
        return False
    return f"{first[:-1]} {said[1]}" not in _PHRASAL  # "logs in to the VPN": a verb and its particle


def _kind_after_thing(said: list[str], text: str) -> bool:
    """Whether ``said[1]`` is a noun or participle after a thing said first ("workflow runs", "devices running")."""
    if methods_of(said[0]) or said[0] in _NOT_A_THING or said[0] in _DOERS:
        return False
    # "tenant verified domains", "teams created this month" (but "grade Ahmed's submission": a name)
    if said[1].endswith("ed") and len(said) > 2 and (said[2] not in _AFTER_A_VERB or said[2] in _WHEN_DONE):
        tokens = _TOKEN.findall(text)
        return len(tokens) < 2 or not tokens[1][:1].isupper()
    return said[1].endswith("s") or (said[1].endswith("ing") and methods_of(said[1]) != READ)


def _done_for_asker(said: list[str], index: int) -> bool:
    """Whether ``said[index]`` is a participle of what was done to or by the asker ("assigned to me")."""
    by_whom = said[index + 1 : index + 3]
    return said[index].endswith("ed") and len(by_whom) == 2 and by_whom[0] in ("to", "by") and by_whom[1] in _ASKER


# Words after a participle said first that make it a verb ("moved the meeting", "deleted it").
_NOT_A_THING = wordset("the a an my our your his her their this that these those it them me us him all every to")


# What follows an action word the intents do not know ("bump the db", "alert me", "back up the app",
# "clock Ana in", "wire $200"), and not a thing's first word ("teams without owners").
_AFTER_A_VERB = _NOT_A_THING | wordset("up back in out on off down away over some any")
_TOKEN = re.compile(r"[\w$'\u2019.-]+")


def _named_only(text: str, said: list[str]) -> bool:
    """Whether ``text`` (``said``: its words) names things with no action: "pending access reviews", typed tersely."""
    tokens = _TOKEN.findall(text)
    # a sentence of clauses says more than names ("the board wants the slides, remind me"), and "automatically
    # file mail" has its action after the adverb
    if len(said) < 2 or len(tokens) < 2 or "," in text or said[0].endswith("ly"):
        return False
    second = tokens[1]
    named = second[0].isupper() and second[1:2].islower()  # "clock Ana in"; not "stale PRs", "open VMs"
    return said[1] not in _AFTER_A_VERB and not named and second[0] not in "$0123456789"
