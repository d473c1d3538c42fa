"""Token estimates: the one estimator, for tool lists (the generator's budget) and tool results (the server's).

Tokens are estimated as UTF-8 bytes / 3, rounded up, without any tokenizer download. This errs
high for English prose (about 4 bytes per token with common tokenizers) and for typical JSON
(3.5 to 4), matches CJK text (about one token per character), and can err low for text dense in
punctuation, digits or emoji (down to 2 bytes per token). A budget in these units is a little
stricter than the same number of real tokens for what APIs usually return.
"""

from __future__ import annotations

__all__ = ["BYTES_PER_TOKEN", "estimate_tokens", "tokens_of"]

BYTES_PER_TOKEN = 3


def estimate_tokens(size: int) -> int:
    """Estimated tokens of ``size`` bytes of UTF-8 text."""
    return -(-size // BYTES_PER_TOKEN)


def tokens_of(text: str) -> int:
    """Estimated tokens of ``text``."""
    size = len(text) if text.isascii() else len(text.encode("utf-8"))
    return estimate_tokens(size)
