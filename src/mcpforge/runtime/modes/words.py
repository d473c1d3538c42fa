"""Words for search: how an operation's text and a person's request become the same terms.

Both sides go through :func:`terms`: identifiers split where their words meet (``listPullRequests``,
``rerun-failed-jobs``, ``microsoft.graph.sendMail``), lower-cased, common words dropped, and each
word reduced to its stem by the Snowball English stemmer (``snowballstemmer``: "repositories" and
"repository" meet). How a request is read beyond its words (the lexicon, what it asks to do, whom
it names) is :mod:`.asks`'s.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

__all__ = ["POINTING", "STOPWORDS", "VALUES", "stem", "terms", "unaccented", "words", "wordset"]


def wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Identifier words: "listPRs" -> list, PRs; "getURLs" -> get, URLs; "HTTPServer" -> HTTP, Server;
# "OAuthToken" -> O, Auth, Token; digits apart. A plural acronym is tried first: "PRs", not "P", "Rs".
# A word with a letter beyond ASCII ("Größe", "NäME", "Zürich") is one word, not split where that
# letter is ("NäME" would be "N" and "ME", and "me" means the signed-in user).
_WORD = re.compile(
    r"[^\W\d_]*[^\x00-\x7f\W\d_][^\W\d_]*|[A-Z]+s(?![a-z])|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+"
)
STOPWORDS = wordset(
    "a an the to of for in on at by with from into onto about as and or but if so than then this that "
    "these those it its is are was were be been being do does did done can could would should will shall "
    "may might must please some any each every there here just also very really now still yet again up "
    "out over off you your yours we our us they them their he she his her him i im i'm let lets let's "
    "want wants need needs like would could stuff one ones what which who whom whose how "
    "where when why have has had got gets getting dont doesnt isnt arent wont cant didnt hasnt havent "
    "wasnt werent shouldnt couldnt wouldnt more while "
    "anything something everything nothing accidentally mistakenly"
)

# Words that name when or how much, not what: mostly arguments of the call, seldom its subject.
VALUES = wordset(
    "today tomorrow yesterday tonight morning afternoon evening night week weekend month year hour hours "
    "minute minutes day days weeks months years ago last next previous soon later earlier first second "
    "third monday tuesday wednesday thursday friday saturday sunday january february march april may june "
    "july august september october november december am pm percent usd eur dollars euros old older oldest "
    "quarterly annual before after until during half lately oclock"
)
# Words that point at one thing: "the Finance group", "our billing app", "the contractor who left".
POINTING = wordset("the this that my our your his her their")
# Words that stay whole: the stemmer would merge them with unrelated words.
_KEEP = frozenset({"me", "news", "status", "alias", "canvas", "analytics", "https", "sms", "dns", "os", "ios"})
# Nouns the stemmer would merge with a verb people say: "set" Dave as manager is not about settings.
_NOUNS = {"setting": "setting", "settings": "setting"}
# Words the stemmer would merge with unrelated ones that APIs use as often: a customer is not a custom
# field ("custom"), an authorization not a commit's author, an operator not an operation, an important
# email not an import, a meeting's organizer not an organization, a load balancer not a balance, a
# person's manager not device management, a receivable not a receiver, a controller not access
# control, a locale not a local file, an administrator not an administrative unit; and the words
# descriptions say in passing ("if applicable", "a specific user", "depending on", "contains") are not
# an application, a specification, dependencies or a container. Found by listing the stems that the
# words of real documents share ("documentation" is left with "document": apart, it cost requests
# about documents).
_APART = {
    **dict.fromkeys(("customer", "customers"), "customer"),
    **dict.fromkeys(("authorization", "authorizations", "authorize", "authorized", "authorizes"), "authoriz"),
    **dict.fromkeys(("authorizing",), "authoriz"),
    **dict.fromkeys(("operator", "operators"), "operator"),
    **dict.fromkeys(("important", "importance"), "importan"),
    **dict.fromkeys(("organizer", "organizers", "organize", "organized", "organizes", "organizing"), "organizer"),
    **dict.fromkeys(("balancer", "balancers"), "balancer"),
    **dict.fromkeys(("manager", "managers"), "manager"),
    **dict.fromkeys(("receivable", "receivables"), "receivable"),
    **dict.fromkeys(("controller", "controllers"), "controller"),
    **dict.fromkeys(("localization", "localizations", "localize", "localized", "localizing"), "localiz"),
    **dict.fromkeys(("locale", "locales"), "locale"),
    **dict.fromkeys(("applicable",), "applicable"),
    **dict.fromkeys(("transition", "transitions"), "transition"),
    **dict.fromkeys(("transitive",), "transitive"),
    **dict.fromkeys(("production",), "production"),
    **dict.fromkeys(("container", "containers"), "container"),
    **dict.fromkeys(("dependency", "dependencies"), "dependenc"),
    **dict.fromkeys(("specification", "specifications"), "specification"),
    **dict.fromkeys(("administrative",), "administrative"),
}
# British spellings as American ones, by the start of the word ("favourites", "organisation"), on both
# sides: a British request finds an American document and the other way round. A list, not a rule:
# "-ise" to "-ize" everywhere would part "advertising" from "advertisement".
_BRITISH = {
    british: american
    for british, _, american in (
        pair.partition("=")
        for pair in wordset(
            "favour=favor colour=color behaviour=behavior honour=honor neighbour=neighbor labour=labor "
            "flavour=flavor humour=humor rumour=rumor licence=license catalogue=catalog dialogue=dialog "
            "analogue=analog centre=center theatre=theater metre=meter litre=liter fibre=fiber "
            "programme=program defence=defense offence=offense judgement=judgment grey=gray analyse=analyze "
            "acknowledgement=acknowledgment organis=organiz authoris=authoriz customis=customiz "
            "synchronis=synchroniz prioritis=prioritiz summaris=summariz recognis=recogniz optimis=optimiz "
            "minimis=minimiz maximis=maximiz initialis=initializ normalis=normaliz serialis=serializ "
            "utilis=utiliz visualis=visualiz finalis=finaliz personalis=personaliz categoris=categoriz "
            "apologis=apologiz centralis=centraliz specialis=specializ standardis=standardiz "
            "memoris=memoriz capitalis=capitaliz localis=localiz tokenis=tokeniz sanitis=sanitiz "
            "randomis=randomiz virtualis=virtualiz digitis=digitiz itemis=itemiz "
            "criticis=criticiz anonymis=anonymiz"
        )
    )
}
_BRITISH_START = re.compile("|".join(sorted(_BRITISH, key=len, reverse=True)))


def unaccented(text: str) -> str:
    """``text`` with its letters' accents left off ("Tomás", "créer", "Größe": "Tomas", "creer", "Große")."""
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The word's stem (Snowball English), lower-case, its accents left off: both sides of a search write
    "créer" or "Zürich" with or without them."""
    word = unaccented(word)
    if word in _KEEP or len(word) <= 2 or word.isdigit():
        return word
    if word in _NOUNS:
        return _NOUNS[word]
    british = _BRITISH_START.match(word)
    if british:
        word = _BRITISH[british.group()] + word[british.end() :]
    if word in _APART:
        return _APART[word]
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
