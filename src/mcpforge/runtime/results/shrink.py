"""JSON results shrunk to a token budget, keeping their structure, so they still match their output schema.

Reduction is deterministic and goes from the least to the most lossy, stopping as soon as the result
fits: (1) strings over 2,000 characters are shortened with a marker; (2) whole items of the outermost
lists are kept, as many as fit, and the rest left out (counted); (3) strings are shortened further;
(4) nested detail is emptied from the deepest level up (``{}`` and ``[]`` keep each value's type),
so top-level fields go last; (5) objects keep only their first keys. Every step keeps each value's
JSON type, and output schemas are loose shapes (types and property names, nothing required), so a
shrunk result validates wherever the full one did. The report says exactly what was cut.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Shrunk", "shrink"]

FIRST_STRING_CAP = 2000
STRING_CAPS = (500, 200, 80)


@dataclass(frozen=True, slots=True)
class _Limits:
    strings: int | None = None
    items: int | None = None  # of the outermost lists
    depth: int | None = None  # objects nested deeper than this are emptied
    keys: int | None = None


@dataclass
class _Report:
    strings: int = 0
    string_cap: int = 0
    items: dict[str, tuple[int, int]] = field(default_factory=dict)  # list path -> (kept, total)
    emptied: list[str] = field(default_factory=list)
    keys: dict[str, tuple[int, int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Shrunk:
    """The reduced value and one sentence per kind of cut."""

    value: Any
    cuts: tuple[str, ...]
    items_left_out: int  # whole list items left out (the next page may hold them, or a field selection)


def _label(path: str) -> str:
    return f"`{path}`" if path else "the result"


def _reduce(node: Any, limits: _Limits, report: _Report, path: str, level: int, in_list: bool) -> Any:
    if isinstance(node, str):
        if limits.strings is not None and len(node) > limits.strings:
            report.strings += 1
            return node[: limits.strings] + f"…[{len(node) - limits.strings:,} more characters]"
        return node
    if isinstance(node, dict):
        if limits.depth is not None and level > limits.depth and node:
            report.emptied.append(path)
            return {}
        items = list(node.items())
        if limits.keys is not None and len(items) > limits.keys:
            report.keys[path] = (limits.keys, len(items))
            items = items[: limits.keys]
        prefix = f"{path}." if path else ""
        return {k: _reduce(v, limits, report, prefix + k, level + 1, in_list) for k, v in items}
    if isinstance(node, list):
        if limits.depth is not None and level > limits.depth and node:
            report.emptied.append(path)
            return []
        kept = node
        if limits.items is not None and not in_list and len(node) > limits.items:
            report.items[path] = (limits.items, len(node))
            kept = node[: limits.items]
        return [_reduce(v, limits, report, f"{path}[]", level, True) for v in kept]
    return node


def _outermost_list_length(node: Any, in_list: bool = False) -> int:
    if isinstance(node, list):
        return len(node) if not in_list else 0
    if isinstance(node, dict):
        return max((_outermost_list_length(v, in_list) for v in node.values()), default=0)
    return 0


def _depth(node: Any) -> int:
    if isinstance(node, dict):
        return 1 + max((_depth(v) for v in node.values()), default=0)
    if isinstance(node, list):
        return max((_depth(v) for v in node), default=0)
    return 0


def _widest(node: Any) -> int:
    if isinstance(node, dict):
        return max([len(node), *(_widest(v) for v in node.values())])
    if isinstance(node, list):
        return max((_widest(v) for v in node), default=0)
    return 0


def _largest(low: int, high: int, fits: Callable[[int], bool]) -> int | None:
    """The largest n in [low, high] for which ``fits(n)``, assuming it is monotonic; None when none fits."""
    if low > high or not fits(low):
        return None
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low


def _cuts(report: _Report) -> tuple[tuple[str, ...], int]:
    cuts = []
    left_out = 0
    for path, (kept, total) in report.items.items():
        left_out += total - kept
        cuts.append(f"kept the first {kept:,} of {total:,} items of {_label(path)} ({total - kept:,} left out)")
    if report.strings:
        cuts.append(f"shortened {report.strings:,} string(s) to {report.string_cap:,} characters (marked …)")
    if report.emptied:
        shown = ", ".join(f"`{p}`" for p in dict.fromkeys(report.emptied[:3]))
        more = f" and {len(report.emptied) - 3:,} more" if len(report.emptied) > 3 else ""
        cuts.append(f"emptied nested values ({shown}{more}) to {{}} or []")
    for path, (kept, total) in report.keys.items():
        cuts.append(f"kept the first {kept:,} of {total:,} fields of {_label(path)}")
    return tuple(dict.fromkeys(cuts)), left_out


def shrink(value: Any, budget: int, measure: Callable[[Any], int]) -> Shrunk:
    """``value`` reduced until ``measure`` (its tokens as sent) is at most ``budget``; see the module docstring."""
    attempts: list[tuple[_Limits, Any, _Report]] = []

    def attempt(limits: _Limits) -> bool:
        report = _Report(string_cap=limits.strings or 0)
        reduced = _reduce(value, limits, report, "", 0, False)
        attempts.append((limits, reduced, report))
        return measure(reduced) <= budget

    def result() -> Shrunk:
        _, reduced, report = attempts[-1]
        cuts, left_out = _cuts(report)
        return Shrunk(reduced, cuts, left_out)

    def settle(make: Callable[[int], _Limits], low: int, high: int) -> bool:
        best = _largest(low, high, lambda n: attempt(make(n)))
        if best is None:
            return False
        attempt(make(best))  # the last attempt is the one returned
        return True

    if attempt(_Limits(strings=FIRST_STRING_CAP)):
        return result()
    longest = _outermost_list_length(value)
    if longest > 1 and settle(lambda k: _Limits(strings=FIRST_STRING_CAP, items=k), 1, longest - 1):
        return result()
    items = 1 if longest else None
    for cap in STRING_CAPS:
        if attempt(_Limits(strings=cap, items=items)):
            return result()
    cap = STRING_CAPS[-1]
    deepest = _depth(value)
    if settle(lambda d: _Limits(strings=cap, items=items, depth=d), 0, max(deepest - 1, 0)):
        return result()
    if settle(lambda n: _Limits(strings=cap, items=items, depth=0, keys=n), 1, max(_widest(value), 1)):
        return result()
    attempt(_Limits(strings=cap, items=0 if longest else None, depth=0, keys=0))
    return result()
