"""What a request names: the names it gives ("an app called billing-portal") and the things' own names it uses.

A name given is what to write, not what to find; a thing's own name ("the Finance group", "the billing
app") says which one, not what kind: both count apart from what the request asks (:mod:`.asks`).
"""

from __future__ import annotations

import re

from .intents import INTENT_VERBS
from .lexicon import EVERYDAY
from .words import POINTING, STOPWORDS, VALUES, stem, wordset

__all__ = ["COMPOUND", "HYPHENATED", "NAME", "QUOTED", "bare_word", "names_of_things", "unnamed", "unpunctuated"]

# A name written as one word of two capitalised parts ("OneNote", "SharePoint", "GitHub", "iPad"), or ending
# in capitals ("MySQL", "PostgreSQL", "GraphQL", "iOS"): a document may write it as one word (a path's
# "onenote"), so a request's joined word is a term beside its parts.
COMPOUND = re.compile(r"(?:[A-Z][a-z]+|[a-z])[A-Z][a-z]+|(?:[A-Z][a-z]+|[a-z]+)[A-Z]{2,}")
# A word of parts joined by hyphens ("to-do", "sign-in", "dark-mode"), and a capitalised word (a name's form).
HYPHENATED = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)+")
NAME = re.compile(r"[A-Z][a-z]+")
# Quoted text, in double quotes or single ones that open after a space ("the 'book flights' task", not "Tom's"):
# what to write, or a name given, not what to find.
QUOTED = re.compile(r"\"[^\"]*\"|\u201c[^\u201d]*\u201d|\u2018[^\u2019]*\u2019|(?<![\w'])'[^'\n]+'(?!\w)")

# The name a request gives something ("an app called billing-portal", "a board called Q3 Roadmap", "rename
# the team to Brand and Marketing") is what to write, not what to find: it and the word that gives it are
# left out. A name is its first word and the capitalised words after it, joined by "and", "of" or "&".
_NAMING = wordset("called named")
_RENAMING = wordset("rename renamed")
_TITLES_GIVEN = wordset("name title subject")
_IN_A_NAME = wordset("and of &")
# After these, "named" describes what follows, and gives it no name: "the named locations we trust".
_POINTING = wordset("the our my your their these those all any every some")
# What cannot be a name given: "who called me" is a call.
_NOT_GIVEN = STOPWORDS | wordset("me you him her us them it")


# What may stand around a word in a sentence: "Dr. Lee,", "(PROJ-4)", "acme/widgets?".
_PUNCTUATION = ",.;:!?()"


def unpunctuated(token: str) -> str:
    """``token`` without the punctuation around it (its case kept: a name's capitals say it is a name)."""
    return token.strip(_PUNCTUATION)


def bare_word(token: str) -> str:
    """``token`` as a lower-case word: without punctuation or quotes around it."""
    return token.strip(_PUNCTUATION + "\"'").lower()


def unnamed(tokens: list[str]) -> list[str]:
    """``tokens`` without a name given after "called", "named" or a rename's "to" (and without that word)."""
    kept: list[str] = []
    renaming = False
    index = 0
    while index < len(tokens):
        word = bare_word(tokens[index])
        renaming = renaming or word in _RENAMING
        # "change the team's name to Brand and Marketing", "set the subject to Sprint sync"
        retitling = word == "to" and index > 0 and bare_word(tokens[index - 1]) in _TITLES_GIVEN
        if (
            (word in _NAMING or ((renaming or retitling) and word == "to"))
            and not (word in _NAMING and index and bare_word(tokens[index - 1]) in _POINTING)
            and index + 1 < len(tokens)
            and bare_word(tokens[index + 1]) not in _NOT_GIVEN
        ):
            rest = tokens[index + 1 :]
            index += 1 + (_sentence_length(rest) if word == "to" else _name_length(rest))
        else:
            kept.append(tokens[index])
            index += 1
    return kept


def _sentence_length(tokens: list[str]) -> int:
    """How many of ``tokens`` there are to the end of their sentence: a new name is all that follows "to".

    A comma before an action ends it too: "we renamed master to main, update the default branch".
    """
    return next(
        (
            size
            for size, token in enumerate(tokens, 1)
            if token.endswith((".", "!", "?", ";"))
            or (token.endswith(",") and size < len(tokens) and bare_word(tokens[size]) in _ACTIONS)
        ),
        len(tokens),
    )


# The words that start an action: what follows a comma after a new name is a new clause.
_ACTIONS = frozenset(word for words_, _ in INTENT_VERBS for word in words_.split())


def _name_length(tokens: list[str]) -> int:
    """How many of ``tokens`` make the name they start with."""
    size = 1
    while size < len(tokens) and not tokens[size - 1].endswith((",", ".", ";", ":", "!", "?")):
        if tokens[size][:1].isupper():
            size += 1
        elif bare_word(tokens[size]) in _IN_A_NAME and size + 1 < len(tokens) and tokens[size + 1][:1].isupper():
            size += 2
        else:
            break
    return size


# A thing's own name before the word for it ("the Inventory list on the Operations site", "the Finance
# group", "the billing app"): which one, not what kind; it counts as a name. Only after a word that
# points at one thing: "a Kubernetes cluster" and "a Windows laptop" name kinds. A lower-case name only
# before the words for things people name (a "security group" and "mobile apps" are kinds the lexicon
# knows, or would be read so by their first word).
_NAMED = 0.25
_NAMED_THINGS = wordset("app site team group channel file document doc spreadsheet workbook sheet folder")
_KEPT_IN = _NAMED_THINGS - {"app"}
_PLACES = wordset("site team group channel folder list library")


def names_of_things(tokens: list[str], parts: dict[str, float]) -> list[str]:
    """``tokens`` without the names of things (their stems go into ``parts`` at a name's weight)."""
    kept: list[str] = []
    naming = False  # the token before was a capitalised name: "the All Company group"
    for index, token in enumerate(tokens):
        bare = unpunctuated(token)
        after = unpunctuated(tokens[index + 1]) if index + 1 < len(tokens) else ""
        # "the Sales site", and past a word of age before a place things are kept: "the old recordings folder"
        # (not an app: "the old authenticator app" is a kind of app)
        pointed = index > 0 and (
            naming
            or bare_word(tokens[index - 1]) in POINTING
            or (
                index > 1
                and bare_word(tokens[index - 1]) in VALUES
                and bare_word(tokens[index - 2]) in POINTING
                and after.lower() in _KEPT_IN
            )
        )
        # after the word for the thing: "rename the folder Projects 2023"
        kind_first = (
            index > 1 and bare_word(tokens[index - 1]) in _NAMED_THINGS and bare_word(tokens[index - 2]) in POINTING
        )
        naming = (pointed and _capitalised_name(token, bare, after)) or (
            (kind_first or naming) and NAME.fullmatch(bare) is not None and bare.lower() not in EVERYDAY
        )
        if naming or (pointed and _lower_case_name(bare, after)):
            parts.setdefault(stem(bare.lower()), _NAMED)
        else:
            kept.append(token)
    return kept


def _capitalised_name(token: str, bare: str, after: str) -> bool:
    """Whether ``bare`` is a capitalised name of the thing ``after`` names ("Finance" in "Finance group")."""
    if NAME.fullmatch(bare) is None or token.endswith(tuple(_PUNCTUATION)):
        return False
    if bare.lower() in EVERYDAY:
        # A word the lexicon knows, capitalised before a place things are kept, is that place's name: "the
        # Archive folder", "the Security channel" (a kind it names whole stays one: "the Security group").
        # Not before a file's word: "the Excel file" is a kind of file.
        return after.lower() in _PLACES and f"{bare.lower()} {after.lower()}" not in EVERYDAY
    return (
        (after.isalpha() and after.islower() and after not in STOPWORDS)
        or NAME.fullmatch(after) is not None
        or COMPOUND.fullmatch(after) is not None  # "the Operations SharePoint site"
    )


def _lower_case_name(bare: str, after: str) -> bool:
    """Whether ``bare`` names the one thing ``after`` says ("billing" in "the billing app", "the dark-mode flag")."""
    if HYPHENATED.fullmatch(bare) and bare.islower() and after.isalpha() and after not in STOPWORDS:
        # A slug names one thing; a hyphenated word the lexicon knows ("the all-hands meeting") is a word.
        return bare.replace("-", " ") not in EVERYDAY and bare.replace("-", "") not in EVERYDAY
    return (
        after in _NAMED_THINGS
        and bare.isalpha()
        and bare.islower()
        and bare not in STOPWORDS
        and bare not in VALUES
        and bare not in EVERYDAY
        and f"{bare} {after}" not in EVERYDAY
    )
