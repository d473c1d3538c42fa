"""The compiled output check agrees with jsonschema on every shape, and leaves every other schema to it."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from conftest import FIXTURES
from helpers import contract_of
from mcpforge.runtime.results.shapes import compile_shape

TYPES = ["object", "array", "string", "integer", "number", "boolean", "null"]
NAMES = st.sampled_from(["a", "b", "c", "id", "result"])
KIND = st.one_of(st.sampled_from(TYPES), st.lists(st.sampled_from(TYPES), min_size=1, max_size=3, unique=True))


def _shape(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    node = st.fixed_dictionaries(
        {},
        optional={
            "type": KIND,
            "properties": st.dictionaries(NAMES, children, max_size=3),
            "items": children,
            "anyOf": st.lists(children, min_size=1, max_size=3),
            "allOf": st.lists(children, min_size=1, max_size=2),
            "description": st.just("words"),
        },
    )
    return st.one_of(node, st.just({"$ref": "#/$defs/thing"}))


SHAPES = st.recursive(st.one_of(st.builds(lambda k: {"type": k}, KIND), st.booleans()), _shape, max_leaves=10)
VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(-2, 2, allow_nan=False), st.text(max_size=3)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(NAMES, inner, max_size=3)),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(schema=SHAPES, thing=SHAPES, value=VALUES)
def test_the_compiled_check_answers_as_jsonschema_does(schema: Any, thing: Any, value: Any) -> None:
    root = {**schema, "$defs": {"thing": thing}} if isinstance(schema, dict) else schema
    check = compile_shape(root)
    if check is None:  # a definition that refers to itself without a level between: not a shape
        assert "#/$defs/thing" in repr(thing)
        return
    found = check(value, ())
    assert (found is None) == Draft202012Validator(root).is_valid(value), (root, value, found)


def test_a_cycle_through_definitions_is_checked_as_deep_as_the_value_goes() -> None:
    kids = {"type": "array", "items": {"$ref": "#/$defs/node"}}
    tree = {"$defs": {"node": {"type": "object", "properties": {"kids": kids}}}, "$ref": "#/$defs/node"}
    check = compile_shape(tree)
    assert check is not None
    assert check({"kids": [{"kids": [{"kids": []}]}]}, ()) is None
    assert check({"kids": [{"kids": [{"kids": 3}]}]}, ()) == (
        ("kids", 0, "kids", 0, "kids"),
        "3 is not of type 'array'",
    )


def test_a_schema_outside_the_shape_subset_is_left_to_jsonschema() -> None:
    for schema in ({"type": "object", "required": ["a"]}, {"type": "integer", "minimum": 0}, {"$ref": "#/nope"},
                   {"type": "strange"}, {"oneOf": [{"type": "string"}]}):  # fmt: skip
        assert compile_shape(schema) is None, schema


def test_every_output_schema_mcpforge_writes_compiles() -> None:
    for spec in sorted(FIXTURES.glob("golden/*/openapi.*")):
        for entry in contract_of(spec)["tools"]:
            if "outputSchema" in entry["tool"]:
                assert compile_shape(entry["tool"]["outputSchema"]) is not None, (
                    spec.parent.name,
                    entry["tool"]["name"],
                )
