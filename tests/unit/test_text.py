"""Prose from specs: whitespace collapsed as a regular expression's ``\\s`` would, cut at a word."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from mcpforge.text.prose import bounded, clean

_WHITESPACE = "".join(ch for ch in map(chr, range(0x3000 + 1)) if ch.isspace())


@given(st.text(alphabet=st.sampled_from(["a", "b", " ", *_WHITESPACE, "\x00", "é"]), max_size=60))
def test_whitespace_collapses_exactly_as_backslash_s_would(text: str) -> None:
    assert bounded(text, 1_000) == re.sub(r"\s+", " ", text).strip()


def test_long_text_is_cut_at_a_word_and_marked() -> None:
    assert bounded("one two  three\n\tfour\u2028five", 1_000) == "one two three four five"
    assert bounded("alpha beta gamma delta", 15) == "alpha beta…"
    assert clean("see [the docs](https://x.example/a_(b)) <b>now</b>", 100) == "see the docs now"


def test_sentences_that_only_point_elsewhere_are_dropped() -> None:
    text = "Lists the runs. For more information, see [runs](https://x.example). Needs the repo scope."
    assert clean(text, 1_000) == "Lists the runs. Needs the repo scope."
    assert clean("To learn more, read this. Deletes a hook.", 1_000) == "Deletes a hook."  # at the start
    assert clean("Gets it.\nfor details see the guide. Then more.", 1_000) == "Gets it. Then more."  # any case
    # Not a sentence of its own, not a word of its own: kept.
    assert clean("Used for more information than fits.", 1_000) == "Used for more information than fits."
    assert clean("Gets it. Before more information arrives.", 1_000) == "Gets it. Before more information arrives."
    assert clean("For more information, see the guide.", 1_000) == "For more information, see the guide."  # all of it
