"""Words a path runs together ("persistentvolumeclaims", "appsettings"), split by the API's own words.

Kubernetes writes ``/namespaces/{namespace}/persistentvolumeclaims`` and Azure ``/config/appsettings``:
one lower-case word the stemmer keeps whole, so "the database volume claim" or "the app settings"
matched neither the path nor the resource it names. The same API spells those words apart in its
operations' names and titles (``readCoreV1NamespacedPersistentVolumeClaim``, ``ListApplicationSettings``):
a run-together word of a path is split into words they use, and read as both (the whole word still
matches itself). Descriptions are not read for words: they hold links whose anchors run words
together too (``.../persistent-volumes#persistentvolumeclaims``). No word list ships: each API
brings its own words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from .words import words

__all__ = ["split_run_together", "vocabulary"]

# The fields a path's words are in, and the fields the API's own words come from.
_PATH_FIELDS = ("resource", "path")
_NAME_FIELDS = ("name", "title")
_SHORTEST_PART = 3
_SHORTEST_WORD = 2 * _SHORTEST_PART
_MOST_PARTS = 4


def vocabulary(texts: Iterable[Mapping[str, str]]) -> frozenset[str]:
    """The words (three letters or more) the operations' names and titles use."""
    # An API repeats its names' tokens many times over: each distinct token is split into words once.
    tokens: set[str] = set()
    for fields in texts:
        for field in _NAME_FIELDS:
            tokens.update(fields.get(field, "").split())
    return frozenset(word for token in tokens for word in words(token) if len(word) >= _SHORTEST_PART)


def split_run_together(texts: Mapping[str, str], known: frozenset[str]) -> dict[str, str]:
    """``texts`` with each run-together word of its path fields followed by the words it is made of."""
    split = dict(texts)
    for field in _PATH_FIELDS:
        text = texts.get(field, "")
        if text:
            split[field] = " ".join(_with_parts(token, known) for token in text.split())
    return split


def _with_parts(token: str, known: frozenset[str]) -> str:
    if len(token) < _SHORTEST_WORD or not token.isalpha() or not token.islower() or _known(token, known):
        return token
    parts = _split(token, known)
    return f"{token} {' '.join(parts)}" if parts else token


def _known(word: str, known: frozenset[str]) -> bool:
    """Whether ``word`` is one of ``known``, or the plural or singular of one ("webhooks", "app")."""
    return word in known or word + "s" in known or (word.endswith("s") and word[:-1] in known)


@lru_cache(maxsize=4096)
def _split(word: str, known: frozenset[str]) -> tuple[str, ...]:
    """The fewest known words (up to 4) that make ``word`` (itself not one of them); none if none do."""
    best: dict[int, tuple[str, ...]] = {0: ()}  # the fewest words that make word[:end]
    for end in range(_SHORTEST_PART, len(word) + 1):
        for start in range(end - _SHORTEST_PART + 1):
            before = best.get(start)
            if before is None or len(before) >= _MOST_PARTS or not _known(word[start:end], known):
                continue
            made = (*before, word[start:end])
            if end not in best or len(made) < len(best[end]):
                best[end] = made
    return best.get(len(word), ())
