"""Per-schema ``$defs``: single-use definitions inlined, shared and recursive ones kept."""

from __future__ import annotations

import json
from typing import Any

from mcpforge.schema.bundle import DefinitionIndex, referenced_names
from mcpforge.schema.bundle import bundle as bundled
from mcpforge.schema.shape import Shaper, shape


def bundle(schema: Any, defs: Any) -> Any:
    return bundled(schema, defs).schema


DEFS: dict[str, Any] = {
    "Once": {"type": "object", "properties": {"x": {"type": "integer"}}},
    "Shared": {
        "type": "object",
        "description": "used twice, long enough to stay",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
    },
    "Tree": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}},
    "Tiny": {"type": "string"},
}


def test_single_use_is_inlined_without_defs() -> None:
    assert bundle({"type": "object", "properties": {"o": {"$ref": "#/$defs/Once"}}}, DEFS) == {
        "type": "object",
        "properties": {"o": DEFS["Once"]},
    }


def test_shared_and_recursive_definitions_stay_once() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/Shared"},
            "b": {"$ref": "#/$defs/Shared"},
            "t": {"$ref": "#/$defs/Tree"},
            "s": {"$ref": "#/$defs/Tiny"},
            "s2": {"$ref": "#/$defs/Tiny"},
        },
    }
    out: Any = bundle(schema, DEFS)
    assert set(out["$defs"]) == {"Shared", "Tree"}
    assert out["properties"]["s"] == {"type": "string"}  # tiny definitions cost less inline
    assert out["properties"]["t"] == {"$ref": "#/$defs/Tree"}


def test_annotation_siblings_are_merged_when_inlining() -> None:
    out: Any = bundle({"type": "object", "properties": {"o": {"$ref": "#/$defs/Once", "description": "d"}}}, DEFS)
    assert out["properties"]["o"] == {**DEFS["Once"], "description": "d"}


def test_inputs_are_not_mutated() -> None:
    schema = {"type": "object", "properties": {"o": {"$ref": "#/$defs/Once"}}}
    before = repr(schema), repr(DEFS)
    bundle(schema, DEFS)
    assert (repr(schema), repr(DEFS)) == before


def test_shape_is_bounded_and_arrays_do_not_use_depth() -> None:
    assert shape({"$ref": "#/$defs/Tree"}, DEFS, 1) == {
        "type": "object",
        "properties": {"kids": {"type": "array", "items": {}}},
    }
    items = {"type": "object", "properties": {"kids": {"type": "array", "items": {}}}}
    assert shape({"$ref": "#/$defs/Tree"}, DEFS, 2) == {
        "type": "object",
        "properties": {"kids": {"type": "array", "items": items}},
    }
    # a list of objects shows the items' fields at depth 1
    assert shape({"type": "array", "items": {"$ref": "#/$defs/Once"}}, DEFS, 1) == {
        "type": "array",
        "items": {"type": "object", "properties": {"x": {"type": "integer"}}},
    }
    # an array of itself still ends
    assert shape({"$ref": "#/$defs/Loop"}, {"Loop": {"type": "array", "items": {"$ref": "#/$defs/Loop"}}}, 3)


def test_size_budget_cuts_deep_composite_definitions_and_keeps_leaves() -> None:
    pad = "x" * 400
    defs: dict[str, Any] = {
        "A": {
            "type": "object",
            "description": pad,
            "properties": {"b": {"$ref": "#/$defs/B"}, "t": {"$ref": "#/$defs/T"}},
        },
        "B": {
            "type": "object",
            "description": pad,
            "properties": {"c": {"$ref": "#/$defs/C"}, "t": {"$ref": "#/$defs/T"}},
        },
        "C": {"type": "object", "description": pad, "properties": {"d": {"$ref": "#/$defs/D"}}},
        "D": {"type": "object", "description": pad, "properties": {"n": {"type": "integer"}}},
        "T": {"type": "string", "format": "date-time", "description": pad},
    }
    root = {"type": "object", "properties": {"body": {"$ref": "#/$defs/A"}}}
    whole = bundled(root, defs)
    assert whole.omitted == () and '"n": {"type": "integer"}' in json.dumps(whole.schema)
    trimmed = bundled(root, defs, max_bytes=1700)  # A, B and T fit; C (and so D) do not
    assert trimmed.omitted == ("C",)
    text = json.dumps(trimmed.schema)
    assert '"format": "date-time"' in text and "nested fields not listed" in text and '"d"' not in text
    schema: Any = trimmed.schema
    body = schema["properties"]["body"]
    assert body["properties"]["b"]["properties"]["c"] == {
        "type": "object",
        "description": "A C (nested fields not listed, to keep the schema small).",
    }


def test_a_list_cut_to_fit_the_budget_stays_a_list_of_anything() -> None:
    pad = "x" * 400
    defs: dict[str, Any] = {
        "A": {"type": "object", "description": pad, "properties": {"tags": {"$ref": "#/$defs/Tags"}}},
        "Tags": {"type": "array", "description": pad, "items": {"$ref": "#/$defs/Tag"}},
        "Tag": {"type": "object", "description": pad, "properties": {"n": {"type": "integer"}}},
    }
    root = {"type": "object", "properties": {"body": {"$ref": "#/$defs/A"}}}
    trimmed = bundled(root, defs, max_bytes=500)
    assert trimmed.omitted == ("Tags",)
    schema: Any = trimmed.schema
    assert schema["properties"]["body"]["properties"]["tags"] == {
        "type": "array",
        "items": {},  # an array schema without items is rejected by every provider
        "description": "A Tags (nested fields not listed, to keep the schema small).",
    }


def test_a_roots_references_are_found_in_the_walks_order_each_property_walked_once() -> None:
    defs: dict[str, Any] = {name: {"type": "object"} for name in ("A", "B", "C")}
    a = {"$ref": "#/$defs/A", "description": "an A"}
    b = {"type": "array", "items": [{"$ref": "#/$defs/B"}, {"$ref": "#/$defs/C"}]}
    index = DefinitionIndex(defs)
    roots: list[Any] = [
        {"type": "object", "properties": {"a": a, "b": b, "n": True}, "required": ["a"]},
        {"type": "object", "properties": {"b": b, "a": a}},
        {"type": "object", "properties": {"a": a}, "allOf": [{"$ref": "#/$defs/C"}]},  # not only properties
        {"$ref": "#/$defs/A", "properties": {"b": b}},
    ]
    for root in roots:
        assert index.root_refs(root) == referenced_names(root, defs)
    assert index.root_refs(roots[0]) == [("C", False), ("B", False), ("A", False)]  # a stack: last first


def test_a_shared_index_bundles_every_schema_as_a_fresh_one_would() -> None:
    """Definitions expanded under one plan are reused by the next schema with that plan, and only then."""
    defs: dict[str, Any] = {
        "Tag": {"type": "object", "properties": {"label": {"type": "string", "description": "x" * 60}}},
        "Pet": {"type": "object", "properties": {"tag": {"$ref": "#/$defs/Tag"}, "kind": {"$ref": "#/$defs/Kind"}}},
        "Kind": {"type": "string", "enum": ["cat", "dog", "a much longer kind name to make it large"]},
        "Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}, "pet": {"$ref": "#/$defs/Pet"}}},
    }
    roots: list[Any] = [
        {"type": "object", "properties": {"body": {"$ref": "#/$defs/Pet"}}},
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/Pet"}, "b": {"$ref": "#/$defs/Pet"}}},
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/Pet"}, "t": {"$ref": "#/$defs/Tag"}}},
        {"type": "object", "properties": {"n": {"$ref": "#/$defs/Node"}}},
        {"type": "object", "properties": {"body": {"$ref": "#/$defs/Pet"}}},
    ]
    index = DefinitionIndex(defs)
    for max_bytes in (None, 120):
        for root in roots:
            shared = bundled(root, index, max_bytes=max_bytes)
            fresh = bundled(root, defs, max_bytes=max_bytes)
            assert json.dumps(shared.schema, sort_keys=True) == json.dumps(fresh.schema, sort_keys=True)
            assert shared.omitted == fresh.omitted
    assert index.expanded  # the plans were remembered
    assert "$ref" not in json.dumps(bundled(roots[0], index).schema)  # used once: Pet, Tag and Kind inlined


def test_a_shaper_shapes_each_definition_once_per_depth_as_shape_would() -> None:
    shaper = Shaper(DEFS)
    first = shaper.shape({"$ref": "#/$defs/Tree"}, 2)
    again = shaper.shape({"$ref": "#/$defs/Tree", "description": "another reference"}, 2)
    assert again is first  # both references reach one definition: one shape, shared
    assert first == shape({"$ref": "#/$defs/Tree"}, DEFS, 2)
    shallow = shaper.shape({"$ref": "#/$defs/Tree"}, 1)
    assert shallow is not first
    assert shallow == shape({"$ref": "#/$defs/Tree"}, DEFS, 1)


def test_a_reference_inside_data_is_data() -> None:
    """A "$ref" key in an enum member, a const, a default or an example is a value, never followed."""
    literal = {"$ref": "#/$defs/Once"}
    data: dict[str, Any] = {"type": "object", "enum": [literal], "default": literal, "examples": [literal]}
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            "e": data,
            "c": {"const": literal},
            "enum": {"$ref": "#/$defs/Tiny"},  # a property named "enum" is a schema
        },
    }
    assert referenced_names(schema) == [("Tiny", False)]
    out = bundle(schema, DEFS)
    assert out["properties"]["e"] == data
    assert out["properties"]["c"] == {"const": literal}
    assert out["properties"]["enum"] == {"type": "string"}
    assert "$defs" not in out
