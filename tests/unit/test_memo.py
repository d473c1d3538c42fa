"""Results by identity: one per object and context, and the object kept so that its id stays its own."""

from __future__ import annotations

from mcpforge.schema.memo import IdentityMemo


def test_results_are_kept_per_object_and_context_not_per_equal_value() -> None:
    memo = IdentityMemo[str]()
    first, equal = {"type": "string"}, {"type": "string"}
    assert memo.put(first, "one") == "one" and memo.get(first) == "one"
    assert memo.get(equal) is None  # equal, but another object
    assert memo.get(first, 2) is None  # the same object in another context
    memo.put(first, "two", 2)
    assert memo.get(first, 2) == "two" and memo.get(first) == "one"


def test_a_remembered_object_outlives_its_callers_so_its_id_is_not_reused() -> None:
    memo = IdentityMemo[int]()
    ids = set()
    for n in range(1_000):
        temporary = {"n": n}  # dropped by the caller at once: kept alive by the memo
        ids.add(id(temporary))
        memo.put(temporary, n)
    assert len(ids) == 1_000  # no id was handed to a later object
