"""HTTP serialisation: turn tool arguments into a request, following each argument's binding.

Covers OpenAPI 3 styles (simple, label, matrix, form, spaceDelimited, pipeDelimited,
deepObject) and Swagger 2.0 collection formats; path values are percent-encoded so no value
can change the path; header and cookie values with CR, LF or NUL, and header values that are not
ASCII, are refused; a request whose URL would be too long for HTTP clients and servers is refused
naming its largest argument.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

from ..results.sequences import serialize_items

__all__ = ["MAX_URL_LENGTH", "ArgumentError", "PreparedRequest", "encoded_body", "prepare_request", "query_string"]

MAX_URL_LENGTH = 32_768  # httpx refuses 65,536; many servers and proxies stop at 8-16 KB
_FORM = "application/x-www-form-urlencoded"
_DELIMITERS = {"spaceDelimited": " ", "pipeDelimited": "|", "tabDelimited": "\t"}


class ArgumentError(ValueError):
    """An argument cannot be sent as the API expects; the message names it."""


@dataclass
class PreparedRequest:
    """Everything the request of one call needs, built from its arguments."""

    method: str
    path: str
    params: list[tuple[str, str]] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)
    json_body: Any = None
    has_json: bool = False
    files: list[tuple[str, tuple[str | None, bytes, str | None]]] | None = None
    content: bytes | None = None
    raw_query: str | None = None  # OpenAPI 3.2 ``in: querystring``: the whole query string, already encoded


def _scalar(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return ""
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return str(value)


def _pairs(value: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [(str(k), _scalar(v)) for k, v in value.items() if v is not None]


def _check_header_value(name: str, text: str, *, header: bool = True) -> str:
    if "\r" in text or "\n" in text or "\0" in text:
        raise ArgumentError(f"{name}: header and cookie values must not contain CR, LF or NUL")
    if header and not text.isascii():
        position = next(i for i, ch in enumerate(text) if not ch.isascii())
        raise ArgumentError(
            f"{name}: HTTP header values must be ASCII; {text[position]!r} at position {position} is not"
        )
    return text


def _path_value(binding: Mapping[str, Any], value: Any) -> str:
    style, explode, name = binding.get("style", "simple"), binding.get("explode", False), binding["name"]

    def enc(text: str) -> str:
        encoded = quote(text, safe="")
        return encoded.replace(".", "%2E") if encoded in (".", "..") else encoded

    if isinstance(value, list):
        items = [enc(_scalar(v)) for v in value]
        if style == "label":
            return "." + (".".join(items) if explode else ",".join(items))
        if style == "matrix":
            return "".join(f";{name}={i}" for i in items) if explode else f";{name}=" + ",".join(items)
        return ",".join(items)
    if isinstance(value, dict):
        pairs = [(enc(k), enc(v)) for k, v in _pairs(value)]
        joined = ",".join(f"{k}={v}" for k, v in pairs) if explode else ",".join(f"{k},{v}" for k, v in pairs)
        if style == "label":
            return "." + (joined.replace(",", ".") if explode else joined)
        if style == "matrix":
            return "".join(f";{k}={v}" for k, v in pairs) if explode else f";{name}={joined}"
        return joined
    text = enc(_scalar(value))
    return {"label": f".{text}", "matrix": f";{name}={text}"}.get(style, text)


def _deep_object(prefix: str, value: Any) -> list[tuple[str, str]]:
    """``deepObject`` at any depth: ``a[b][c]=v`` for objects, ``a[b][0]=v`` for arrays."""
    if isinstance(value, dict):
        return [pair for k, v in value.items() if v is not None for pair in _deep_object(f"{prefix}[{k}]", v)]
    if isinstance(value, list):
        return [pair for i, v in enumerate(value) for pair in _deep_object(f"{prefix}[{i}]", v)]
    return [(prefix, _scalar(value))]


def _query_pairs(binding: Mapping[str, Any], value: Any) -> list[tuple[str, str]]:
    name, style, explode = binding["name"], binding.get("style", "form"), binding.get("explode", True)
    if binding.get("contentType"):
        return [(name, _scalar(value) if isinstance(value, str) else json.dumps(value, ensure_ascii=False))]
    if isinstance(value, list):
        items = [_scalar(v) for v in value]
        if style in _DELIMITERS and not explode:
            return [(name, _DELIMITERS[style].join(items))]
        return [(name, i) for i in items] if explode else [(name, ",".join(items))]
    if isinstance(value, dict):
        if style == "deepObject":
            return _deep_object(name, value)
        if explode:
            return _pairs(value)
        delimiter = _DELIMITERS.get(style, ",")
        return [(name, delimiter.join(f"{k}{delimiter}{v}" for k, v in _pairs(value)))]
    return [(name, _scalar(value))]


def _header_value(binding: Mapping[str, Any], value: Any) -> str:
    if binding.get("contentType") and not isinstance(value, str):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if isinstance(value, list):
        return ",".join(_scalar(v) for v in value)
    if isinstance(value, dict):
        if binding.get("explode"):
            return ",".join(f"{k}={v}" for k, v in _pairs(value))
        return ",".join(f"{k},{v}" for k, v in _pairs(value))
    return _scalar(value)


def _decode_base64(arg: str, text: Any) -> bytes:
    if not isinstance(text, str):
        raise ArgumentError(f"{arg}: expected a base64-encoded string")
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ArgumentError(f"{arg}: not valid base64") from None


def _form_fields(binding: Mapping[str, Any], value: Mapping[str, Any]) -> list[tuple[str, str]]:
    fields = binding.get("fields", {})
    result: list[tuple[str, str]] = []
    for name, item in value.items():
        if item is None:
            continue
        encoding = fields.get(name, {"style": "form", "explode": True})
        if encoding.get("contentType") and not isinstance(item, str):
            result.append((name, json.dumps(item, ensure_ascii=False)))
        else:
            result.extend(_query_pairs({"name": name, **encoding}, item))
    return result


def _multipart(binding: Mapping[str, Any], value: Mapping[str, Any], request: PreparedRequest) -> None:
    """One part per field; files decoded from base64; arrays of scalars as repeated parts.

    Objects (and arrays of objects) are JSON parts unless the field's encoding gives a style,
    in which case the field is serialised form-style, as in a urlencoded body.
    """
    fields = binding.get("fields", {})
    parts: list[tuple[str, tuple[str | None, bytes, str | None]]] = []
    for name, item in value.items():
        if item is None:
            continue
        encoding = fields.get(name, {})
        media = encoding.get("contentType")
        if encoding.get("file"):
            for part in item if isinstance(item, list) else [item]:
                parts.append((name, (name, _decode_base64(f"body.{name}", part), media or "application/octet-stream")))
        elif encoding.get("styled") and not media:
            parts.extend(
                (key, (None, text.encode("utf-8"), None))
                for key, text in _query_pairs({"name": name, **encoding}, item)
            )
        elif isinstance(item, list) and not any(isinstance(v, dict | list) for v in item):
            parts.extend((name, (None, _scalar(v).encode("utf-8"), media)) for v in item)
        elif isinstance(item, dict | list):
            parts.append((name, (None, json.dumps(item, ensure_ascii=False).encode(), media or "application/json")))
        else:
            # A part without a filename is an ordinary form field.
            parts.append((name, (None, _scalar(item).encode("utf-8"), media)))
    if parts:
        request.files = parts
    else:
        request.headers["Content-Type"] = "multipart/form-data; boundary=empty"
        request.content = b"--empty--\r\n"


def _body(binding: Mapping[str, Any], value: Any, request: PreparedRequest) -> None:
    kind, media = binding.get("kind", "json"), binding.get("contentType") or "application/json"
    if kind == "json":
        request.json_body, request.has_json = value, True
        if media not in ("application/json", "*/*"):
            request.headers["Content-Type"] = media
    elif kind == "form":
        if not isinstance(value, dict):
            raise ArgumentError("body: expected an object of form fields")
        request.content = urlencode(_form_fields(binding, value)).encode("ascii")
        request.headers["Content-Type"] = media if media != "application/json" else _FORM
    elif kind == "multipart":
        if not isinstance(value, dict):
            raise ArgumentError("body: expected an object of form fields")
        _multipart(binding, value, request)
    elif kind == "text":
        request.content = (value if isinstance(value, str) else json.dumps(value)).encode("utf-8")
        request.headers["Content-Type"] = media
    elif kind == "sequence":
        if not isinstance(value, list):
            raise ArgumentError(f"body: expected a list of items to send as {media}")
        request.content = serialize_items(media, value)
        request.headers["Content-Type"] = media
    else:
        request.content = _decode_base64("body", value)
        request.headers["Content-Type"] = media


def prepare_request(
    method: str, path: str, bindings: Sequence[Mapping[str, Any]], arguments: Mapping[str, Any]
) -> PreparedRequest:
    """Build the request for one call; arguments are already validated."""
    request = PreparedRequest(method=method, path=path)
    rendered = path
    for binding in bindings:
        arg = binding["arg"]
        if arg not in arguments or arguments[arg] is None:
            continue
        value = arguments[arg]
        where = binding["in"]
        wire = binding.get("name", arg)
        full = {**binding, "name": wire}
        if where == "path":
            rendered = rendered.replace("{" + wire + "}", _path_value(full, value))
        elif where == "query":
            request.params.extend(_query_pairs(full, value))
        elif where == "querystring":
            _querystring(full, value, request)
        elif where == "header":
            request.headers[wire] = _check_header_value(f"argument {arg!r} (header {wire})", _header_value(full, value))
        elif where == "cookie":
            # Cookie values are percent-encoded when sent, so any character is fine.
            cookie = _header_value({**full, "explode": False}, value)
            request.cookies[wire] = _check_header_value(f"argument {arg!r} (cookie {wire})", cookie, header=False)
        else:
            _body(full, value, request)
    request.path = rendered
    _check_url_length(request, bindings, arguments)
    return request


def _querystring(binding: Mapping[str, Any], value: Any, request: PreparedRequest) -> None:
    """The whole query string from one value: form fields, or the value in its media type, percent-encoded."""
    media = binding.get("contentType") or _FORM
    if media == _FORM and isinstance(value, dict):
        pairs = _form_fields({"fields": {}}, value)
        request.raw_query = urlencode(pairs, quote_via=quote)
        return
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    request.raw_query = quote(text, safe="")


def _check_url_length(
    request: PreparedRequest, bindings: Sequence[Mapping[str, Any]], arguments: Mapping[str, Any]
) -> None:
    length = len(request.path) + len(urlencode(request.params)) + len(request.raw_query or "")
    if length <= MAX_URL_LENGTH:
        return
    in_url = [b["arg"] for b in bindings if b["in"] in ("path", "query", "querystring") and b["arg"] in arguments]
    largest = max(in_url, key=lambda arg: len(json.dumps(arguments[arg], ensure_ascii=False)), default="")
    size = len(json.dumps(arguments[largest], ensure_ascii=False)) if largest else 0
    raise ArgumentError(
        f"the request URL would be {length:,} characters, over the limit of {MAX_URL_LENGTH:,}; "
        f"the largest part is argument {largest!r} ({size:,} characters): send less"
    )


def query_string(params: Sequence[tuple[str, str]]) -> str:
    """``params`` as a query string, encoded as httpx encodes query parameters (a space is ``+``)."""
    return urlencode(params)


def encoded_body(request: PreparedRequest) -> tuple[bytes | None, dict[str, str]]:
    """The request's body as bytes, and the headers it needs that the request does not set (Content-Type).

    JSON as httpx sends it (compact, UTF-8); multipart bodies encoded by httpx, which also chooses
    their boundary.
    """
    if request.has_json:
        body = json.dumps(request.json_body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        return body.encode("utf-8"), {"Content-Type": "application/json"}
    if request.files is not None:
        import httpx  # noqa: PLC0415 - multipart bodies only

        multipart = httpx.Request("POST", "http://multipart.invalid", files=request.files)
        return multipart.read(), {"Content-Type": multipart.headers["Content-Type"]}
    return request.content, {}
