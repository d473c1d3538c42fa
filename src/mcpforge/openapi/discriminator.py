"""Discriminated unions: each ``$ref`` branch constrained to its tag value(s) (OpenAPI 3.2 ``defaultMapping`` too)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcpforge.errors import RefError
from mcpforge.openapi.refs import RefResolver, join_pointer
from mcpforge.openapi.values import obj

__all__ = ["tag_branches"]


def tag_branches(
    resolver: RefResolver,
    node: Mapping[str, Any],
    discriminator: Mapping[str, Any],
    out: dict[str, Any],
    doc: str,
    pointer: str,
) -> list[tuple[str, str]]:
    """Constrain each ``$ref`` branch of ``out`` (from ``node``) to its tag; returns the problems (pointer, message)."""
    problems: list[tuple[str, str]] = []
    prop = discriminator.get("propertyName")
    mapping = obj(discriminator.get("mapping"))
    if not isinstance(prop, str):
        return problems
    where = join_pointer(pointer, "discriminator")
    targets: dict[str, list[str]] = {}
    for value, target in mapping.items():  # a broken entry loses only its tag value
        uri = _mapped_uri(resolver, problems, target, doc, where, f"mapping {value!r}")
        if uri is not None:
            targets.setdefault(uri, []).append(str(value))
    name = discriminator.get("defaultMapping")  # OpenAPI 3.2
    default_at = join_pointer(where, "defaultMapping")
    default = _mapped_uri(resolver, problems, name, doc, default_at, "defaultMapping") if name else None
    for keyword in ("oneOf", "anyOf"):
        raw_branches, branches = node.get(keyword), out.get(keyword)
        if not isinstance(raw_branches, list) or not isinstance(branches, list):
            continue
        tagged = []
        tags: dict[int, list[str]] = {}
        for index, (raw, branch) in enumerate(zip(raw_branches, branches, strict=True)):
            tagged.append(branch)
            if not (
                isinstance(raw, dict)
                and isinstance(raw.get("$ref"), str)
                and isinstance(branch, dict)
                and set(branch) == {"$ref"}
            ):
                continue
            target = resolver.resolve(raw["$ref"], doc, where=pointer)
            if target.uri == default:
                tags[index] = []  # filled below: any value the other branches do not claim
                continue
            last = target.pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
            values = targets.get(target.uri) or [last]
            tag = {"const": values[0]} if len(values) == 1 else {"enum": values}
            tagged[-1] = {**branch, "properties": {prop: tag}, "required": [prop]}
            tags[index] = values
        claimed = sorted({value for values in tags.values() for value in values})
        for index, values in tags.items():
            if not values and claimed:  # 3.2 defaultMapping: the property is absent or holds another value
                tagged[index] = {**tagged[index], "properties": {prop: {"not": {"enum": claimed}}}}
        out[keyword] = tagged
    return problems


def _mapped_uri(
    resolver: RefResolver, problems: list[tuple[str, str]], target: Any, doc: str, where: str, what: str
) -> str | None:
    """The URI of a schema a discriminator names (a schema name or a reference); None, reported, if broken."""
    text = str(target)
    ref = text if "/" in text or "#" in text else f"#/components/schemas/{text}"
    try:
        return resolver.resolve(ref, doc, where=where).uri
    except RefError as exc:
        problems.append((where, f"discriminator {what} ignored: {exc}"))
        return None
