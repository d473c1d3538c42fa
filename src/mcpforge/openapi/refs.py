"""``$ref`` resolution: local pointers, relative files, and (only when allowed) remote URLs.

Resolution is lazy and memoised: a reference is looked up when the parser reaches it, never
by dereferencing the whole document (GitHub's spec inlines to 73 MB; cycles never end).
Every document is named by a stable, machine-independent URI: ``""`` for the root document,
a POSIX path relative to the root's folder for files, the URL for remote documents.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

from mcpforge.errors import RefError

__all__ = ["RefResolver", "Resolved", "escape_pointer", "join_pointer"]

ROOT_URI = ""
_MAX_CHAIN = 64
_MAX_DOCUMENTS = 256

DocumentReader = Callable[[str], Any]


@dataclass(frozen=True, slots=True)
class Resolved:
    """The target of a reference: its value, the document it lives in, and its full URI."""

    value: Any
    doc: str
    pointer: str

    @property
    def uri(self) -> str:
        """``doc#pointer``: unique key of the target."""
        return f"{self.doc}#{self.pointer}"


def escape_pointer(token: str) -> str:
    """Escape one JSON pointer reference token (RFC 6901)."""
    return token.replace("~", "~0").replace("/", "~1")


def join_pointer(base: str, *tokens: str | int) -> str:
    """Append reference tokens to a JSON pointer."""
    for token in tokens:
        text = token if type(token) is str else str(token)
        base += "/" + (escape_pointer(text) if "~" in text or "/" in text else text)  # a hot path: 40,000 calls
    return base


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


class RefResolver:
    """Resolves ``$ref`` strings relative to the document they appear in."""

    def __init__(
        self,
        root: Any,
        *,
        root_dir: Path | None,
        read_file: DocumentReader,
        read_url: DocumentReader | None = None,
        self_uri: str | None = None,
        root_url: str | None = None,
    ) -> None:
        self._documents: dict[str, Any] = {ROOT_URI: root}
        # OpenAPI 3.2's $self: the root document's own URI, the base of its relative references. A
        # reference into the same folder tree is the local file there (how a multi-file description
        # published at one URL is read from a checkout); anything else stays remote.
        self._self = urldefrag(self_uri)[0] if self_uri and "://" in self_uri else None
        # Where the root was fetched from (a spec given as a URL): its relative references are remote.
        self._root_url = root_url
        self._root_dir = root_dir.resolve() if root_dir is not None else None
        self._read_file = read_file
        self._read_url = read_url
        self._cache: dict[str, Resolved] = {}

    @property
    def root(self) -> Any:
        """The root document."""
        return self._documents[ROOT_URI]

    def resolve(self, ref: str, base_doc: str, *, where: str) -> Resolved:
        """Resolve one reference; ``where`` is the JSON pointer of the ``$ref`` (for errors)."""
        if not isinstance(ref, str):
            raise RefError(f"$ref must be a string, got {type(ref).__name__}", location=where)
        if ref[:2] == "#/" and "%" not in ref:  # the common case, without URL parsing
            doc, pointer = base_doc, ref[1:]
        else:
            doc, pointer = self._split(ref, base_doc, where=where)
        key = f"{doc}#{pointer}"
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        value = self._lookup(self._document(doc, where=where), pointer, ref=ref, where=where)
        resolved = Resolved(value=value, doc=doc, pointer=pointer)
        self._cache[key] = resolved
        return resolved

    def follow(self, node: Any, base_doc: str, *, where: str) -> tuple[Any, str, str]:
        """Follow a chain of references from ``node``; return (value, document, pointer).

        A node that is not a reference is returned as is, with ``where`` as its pointer.
        A chain that loops back on itself (``A -> B -> A``) is an error, not a hang.
        """
        seen: list[str] = []
        doc, pointer = base_doc, where
        while isinstance(node, dict) and "$ref" in node:
            target = self.resolve(node["$ref"], doc, where=pointer)
            if target.uri in seen or len(seen) >= _MAX_CHAIN:
                chain = " -> ".join([*seen, target.uri])
                raise RefError(
                    f"reference cycle: {chain}", location=where, hint="a $ref chain must end at a real object"
                )
            seen.append(target.uri)
            node, doc, pointer = target.value, target.doc, target.pointer
        return node, doc, pointer

    def _split(self, ref: str, base_doc: str, *, where: str) -> tuple[str, str]:
        location, fragment = urldefrag(ref)
        pointer = unquote(fragment)
        if pointer and not pointer.startswith("/"):
            raise RefError(
                f"unsupported $ref {ref!r}: only JSON pointers (#/...) are supported",
                location=where,
                hint="use a JSON pointer such as '#/components/schemas/Pet'",
            )
        if not location:
            return base_doc, pointer
        return self._document_uri(location, base_doc, where=where), pointer

    def _document_uri(self, location: str, base_doc: str, *, where: str) -> str:
        if self._root_url is not None and base_doc == ROOT_URI:
            base_doc = self._root_url
        if self._self is not None and not base_doc.startswith(("http://", "https://")):
            base = urljoin(self._self, base_doc) if base_doc else self._self
            absolute = urldefrag(urljoin(base, location))[0]
            if absolute == self._self:
                return ROOT_URI
            folder = self._self.rsplit("/", 1)[0] + "/"
            if absolute.startswith(folder):
                location = unquote(absolute[len(folder) :])
                base_doc = ""
            else:
                location = absolute
        is_remote_base = base_doc.startswith(("http://", "https://"))
        if location.startswith(("http://", "https://")) or is_remote_base:
            url = urljoin(base_doc, location) if is_remote_base else location
            if url == self._root_url:
                return ROOT_URI
            if self._read_url is None:
                raise RefError(
                    f"remote $ref {url!r} refused",
                    location=where,
                    hint="pass --allow-remote-refs to fetch remote documents",
                )
            return url
        if "://" in location or location.startswith("//"):
            raise RefError(f"unsupported $ref location {location!r}", location=where)
        if self._root_dir is None:
            raise RefError(
                f"file $ref {location!r} cannot be resolved: the spec was not read from a file", location=where
            )
        base_dir = PurePosixPath(base_doc).parent if base_doc else PurePosixPath()
        target = (self._root_dir / base_dir / location).resolve()
        if not target.is_relative_to(self._root_dir):
            raise RefError(
                f"file $ref {location!r} points outside the spec's folder",
                location=where,
                hint="keep referenced files in the spec's folder or below it",
            )
        return target.relative_to(self._root_dir).as_posix()

    def _document(self, uri: str, *, where: str) -> Any:
        doc = self._documents.get(uri)
        if doc is not None or uri in self._documents:
            return doc
        if len(self._documents) >= _MAX_DOCUMENTS:
            raise RefError(f"too many referenced documents (more than {_MAX_DOCUMENTS})", location=where)
        if uri.startswith(("http://", "https://")):
            assert self._read_url is not None  # refused in _document_uri otherwise
            doc = self._read_url(uri)
        else:
            assert self._root_dir is not None
            path = self._root_dir / uri
            if not path.is_file():
                raise RefError(f"referenced file {uri!r} does not exist", location=where)
            doc = self._read_file(str(path))
        self._documents[uri] = doc
        return doc

    @staticmethod
    def _lookup(doc: Any, pointer: str, *, ref: str, where: str) -> Any:
        node = doc
        if not pointer:
            return node
        for raw in pointer[1:].split("/"):
            token = _unescape(raw)
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                raise RefError(
                    f"$ref {ref!r} does not resolve: no {token!r} in the target document",
                    location=where,
                    hint="fix the reference or add the missing definition",
                )
        return node
