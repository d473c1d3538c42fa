"""What a request says of the things it means, not what to do with them: what they lack, what they are ordered by.

"which users don't have a license yet" lists users (a license only filters them), "sort the leads sheet by
close date" orders by a field ("close" closes nothing), and "the policies people have to follow" are
policies, not acceptances. :func:`.sentences.described` and :mod:`.asks` read these word positions as
describing, so they neither say the action nor weigh as what to find.
"""

from __future__ import annotations

from .words import STOPWORDS, wordset

__all__ = ["condition", "obliged", "ordered_by"]

_BE = wordset("am is are was were be been")


def condition(said: list[str]) -> set[int]:
    """Where a request says what its things lack: "which users don't have a license yet", "the groups nobody owns".

    The things (users, groups) are what to list; what they are not or have not (a license), or what no
    one did to them, only filters them. A clause that says what they are or did ("which apps are
    installed") is what is asked, and stays.
    """
    # "the security groups nobody owns": what no one did to them only filters them, as above.
    nobody = next(
        (
            i
            for i in range(1, len(said) - 1)  # typed tersely: "apps nobody signed into"
            if (said[i] in _NOBODY or said[i : i + 2] == ["no", "one"]) and said[i - 1] not in STOPWORDS
        ),
        None,
    )
    if nobody is not None:
        return set(range(nobody, len(said)))
    # "list Teams without an owner", "delete groups with no members": what they lack only filters them.
    lacking = next(
        (
            i
            for i in range(1, len(said) - 1)  # typed tersely, "teams without owners" starts with the things
            if (said[i] == "without" or said[i : i + 2] == ["with", "no"]) and said[i - 1] not in STOPWORDS
        ),
        None,
    )
    if lacking is not None:
        return set(range(lacking, len(said)))
    # typed tersely, "repos not updated in a year", "devices not compliant": what they are not only filters them
    undone = next(
        (
            i
            for i in range(1, len(said) - 1)
            if said[i] == "not" and said[i - 1] not in STOPWORDS and _what_they_are(said[i + 1])
        ),
        None,
    )
    if undone is not None:
        return set(range(undone, len(said)))
    if len(said) < 4 or said[0] != "which" or said[1] in STOPWORDS or said[1] in _BE:
        return set()
    for index in range(2, min(len(said) - 1, 5)):
        if said[index] in _NEGATED or (said[index] in _BE_OR_HAVE and said[index + 1] in _NOT):
            return set(range(index + 1, len(said)))
    return set()


def _what_they_are(word: str) -> bool:
    """Whether ``word`` after "not" says what things are ("compliant", "updated"), not what goes wrong ("syncing")."""
    return word not in STOPWORDS and not word.endswith("ing")


# A question's clause said in the negative: "which devices are not compliant", "which repos have no README".
_NEGATED = wordset("dont doesnt didnt arent isnt wasnt werent havent hasnt hadnt cant never")
_BE_OR_HAVE = wordset("am is are was were have has had do does did")
_NOT = wordset("not no never")
_NOBODY = wordset("nobody noone")


# "the terms of use our users must accept", "the policies people have to follow": who must do what describes the
# thing before them (the terms), not what to find (their acceptances).
_OBLIGED = wordset("users people everyone employees staff members guests students visitors")


def obliged(said: list[str]) -> set[int]:
    """Where people who must do something say which things a request means (that they must, and what)."""
    for index in range(2, len(said) - 1):
        if said[index - 1] not in _OBLIGED:
            continue
        if said[index] == "must":
            return {index - 1, index, index + 1}
        if said[index] in ("have", "has", "need", "needs") and said[index + 1] == "to" and index + 2 < len(said):
            return {index - 1, index, index + 1, index + 2}
    return set()


# "sort the leads sheet by close date", "list my files ordered by size": the words after "by" name the key
# to order on, a field's value to pass ("close" closes nothing).
_ORDERING = wordset("sort sorted order ordered rank ranked arrange arranged group grouped")


def ordered_by(said: list[str]) -> set[int]:
    """Where in ``said`` the words after "by" name what a request orders or groups its things by."""
    ordering = next((i for i, word in enumerate(said) if word in _ORDERING), None)
    if ordering is None:
        return set()
    by = next((i for i in range(ordering + 1, len(said)) if said[i] == "by"), len(said))
    return set(range(by + 1, len(said)))
