"""XML responses as JSON values, typed by the tool's output schema where it says how.

Parsed with ``defusedxml`` (a maintained guard over the standard library's parser): a document that
declares entities or a DTD (billion laughs, external entities) is refused, never expanded, and then
stays text. An element becomes an object of its attributes and children (a repeated child, or one
the schema calls an array, becomes a list); a leaf becomes its text, made a number or boolean where
the schema says so; mixed text sits under ``#text``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from .defs import deref
from .typed import kinds, typed_text

__all__ = ["is_xml", "xml_value"]

_NAMESPACE = re.compile(r"^\{[^}]*\}")


def is_xml(media: str) -> bool:
    """Whether a (base) media type is XML."""
    return media in ("application/xml", "text/xml") or media.endswith("+xml")


def _name(element: ET.Element) -> str:
    return _NAMESPACE.sub("", element.tag)


def _convert(element: ET.Element, schema: Any, defs: Mapping[str, Any]) -> Any:
    schema = deref(schema, defs)
    schema = schema if isinstance(schema, Mapping) else {}
    children = list(element)
    text = (element.text or "").strip()
    if not children and not element.attrib:
        return typed_text(text, schema)
    if "array" in kinds(schema) and not element.attrib:  # a wrapped array: <pets><pet/><pet/></pets>
        return [_convert(child, schema.get("items", {}), defs) for child in children]
    properties = schema.get("properties") if isinstance(schema.get("properties"), Mapping) else {}
    value: dict[str, Any] = {
        _NAMESPACE.sub("", k): typed_text(v, deref(properties.get(k, {}), defs)) for k, v in element.attrib.items()
    }
    counts: dict[str, int] = {}
    for child in children:
        counts[_name(child)] = counts.get(_name(child), 0) + 1
    for child in children:
        name = _name(child)
        sub = deref(properties.get(name, {}), defs)
        sub = sub if isinstance(sub, Mapping) else {}
        listed = counts[name] > 1 or ("array" in kinds(sub) and len(list(child)) == 0 and child.text)
        if listed:  # unwrapped array: <tag>a</tag><tag>b</tag>
            item = _convert(child, sub.get("items", {}) if "array" in kinds(sub) else sub, defs)
            value.setdefault(name, []).append(item)
        else:
            value[name] = _convert(child, sub, defs)
    if text:
        value["#text"] = text
    return value


def xml_value(body: bytes, schema: Any, defs: Mapping[str, Any]) -> Any:
    """The XML document as a JSON value (its root element's content), or None when it is not safe, well-formed XML."""
    try:
        return _convert(fromstring(body, forbid_dtd=True), schema, defs)
    except (ET.ParseError, DefusedXmlException, ValueError, RecursionError):
        return None
