"""The generator and a generated server stem words the same way, whichever Snowball they run.

mcpforge depends on PyStemmer (Snowball in C), which snowballstemmer uses when it is installed; a
generated server has only snowballstemmer's pure-Python stemmer. ``search.json`` holds stems made
by the first, and requests are stemmed by the second: a word the two stem differently would never
match. This holds them to the same stems over the words of the task sets and fixture documents.
"""

from __future__ import annotations

import re
from pathlib import Path

import Stemmer
from snowballstemmer.english_stemmer import EnglishStemmer

from conftest import CORPUS
from mcpforge.runtime.modes.words import stem

ROOT = Path(__file__).resolve().parents[2]
# People's words (the task sets) and APIs' words (a sample of the corpus's documents, a few MB).
SOURCES = [
    *sorted((ROOT / "bench" / "search").glob("*.yaml")),
    *sorted((ROOT / "fixtures" / "specs").glob("*")),
    *sorted((CORPUS / "dev").glob("*"))[::3],
]


def _vocabulary() -> set[str]:
    words: set[str] = set()
    for path in SOURCES:
        if path.is_file():
            words.update(word.lower() for word in re.findall(r"[A-Za-z]+", path.read_text(errors="replace")))
    return words


def test_c_and_pure_python_snowball_agree() -> None:
    words = sorted(_vocabulary())
    assert len(words) > 5000  # the test reads a real vocabulary
    in_c, in_python = Stemmer.Stemmer("english"), EnglishStemmer()
    differ = [(w, in_c.stemWord(w), in_python.stemWord(w)) for w in words if in_c.stemWord(w) != in_python.stemWord(w)]
    assert differ == []


def test_the_generator_stems_in_c() -> None:
    # Generation stems every word of the document: with the pure-Python stemmer GitHub's run takes a third longer.
    from mcpforge.runtime.modes.words import _stemmer

    assert isinstance(_stemmer(), Stemmer.Stemmer)
    assert stem("repositories") == stem("repository") == "repositori"
