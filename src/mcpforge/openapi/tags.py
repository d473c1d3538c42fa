"""Tag hierarchy (OpenAPI 3.2 ``parent`` and ``kind``): what an operation's tags mean for selection and toolsets.

An operation belongs to its tags and to every ancestor of them, so ``--include-tags repos`` and
``--toolsets repos`` take in ``repos/issues`` too. Only navigation tags (no ``kind``, or
``kind: nav``) make toolsets; a badge or audience tag (``beta``, ``internal``) still selects
operations but is not a group a model browses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mcpforge.openapi.model import Tag
from mcpforge.text.names import toolsets_of

__all__ = ["NAVIGATION_KIND", "TagTree"]

NAVIGATION_KIND = "nav"


class TagTree:
    """The document's tags, indexed once; answers for many operations."""

    def __init__(self, tags: Sequence[Tag]) -> None:
        self._by_name: Mapping[str, Tag] = {tag.name: tag for tag in tags}
        self._lineage: dict[str, tuple[str, ...]] = {}
        self._toolsets: dict[tuple[str, ...], tuple[str, ...]] = {}  # operations share a few tag lists

    def lineage(self, name: str) -> tuple[str, ...]:
        """``name`` and its ancestors, nearest first; a cycle or an unknown parent ends the chain."""
        cached = self._lineage.get(name)
        if cached is not None:
            return cached
        chain = [name]
        tag = self._by_name.get(name)
        while tag is not None and tag.parent is not None and tag.parent not in chain:
            chain.append(tag.parent)
            tag = self._by_name.get(tag.parent)
        self._lineage[name] = result = tuple(chain)
        return result

    def own_ancestor(self, name: str) -> bool:
        """Whether ``name`` is on a cycle of parents (where :meth:`lineage` stops)."""
        last = self._by_name.get(self.lineage(name)[-1])
        return last is not None and last.parent == name

    def expand(self, names: Sequence[str]) -> tuple[str, ...]:
        """``names`` with all their ancestors, in order, without repeats."""
        return tuple(dict.fromkeys(ancestor for name in names for ancestor in self.lineage(name)))

    def is_navigation(self, name: str) -> bool:
        """Whether a tag groups operations for browsing (no ``kind``, or ``nav``)."""
        tag = self._by_name.get(name)
        return tag is None or tag.kind is None or tag.kind == NAVIGATION_KIND

    def toolsets(self, names: tuple[str, ...]) -> tuple[str, ...]:
        """The toolsets of an operation tagged ``names``: its navigation tags and their ancestors."""
        found = self._toolsets.get(names)
        if found is None:
            found = tuple(toolsets_of([name for name in self.expand(names) if self.is_navigation(name)]))
            self._toolsets[names] = found
        return found
