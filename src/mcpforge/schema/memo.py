"""Results remembered by the identity of what they were computed from.

Generation shares unchanged subschemas between tools instead of copying them (Microsoft Graph: one
argument object in thousands of tools), so each later stage meets the same object again and again
and computes its result for it once. The object is kept alive beside its result: while the memo
lives, no other object can be given its ``id``.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

__all__ = ["IdentityMemo"]

V = TypeVar("V")


class IdentityMemo(Generic[V]):
    """Results by the identity of an object (and the context it was met in, when that matters)."""

    __slots__ = ("_found",)

    def __init__(self) -> None:
        self._found: dict[Hashable, tuple[object, V]] = {}

    # The key is the bare id without a context: these are hot paths (Graph: 400,000 lookups).
    def get(self, obj: object, *context: Hashable) -> V | None:
        """The result remembered for ``obj`` in ``context``, or None."""
        found = self._found.get((id(obj), *context) if context else id(obj))
        return None if found is None else found[1]

    def put(self, obj: object, result: V, *context: Hashable) -> V:
        """Remember ``result`` for ``obj`` in ``context``, and return it."""
        self._found[(id(obj), *context) if context else id(obj)] = (obj, result)
        return result
