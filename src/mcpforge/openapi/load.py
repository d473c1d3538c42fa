"""Read an OpenAPI document from disk or an http(s) URL (JSON or YAML) within bounded time and memory, overlays applied.

Bounds: file size, nesting depth and, for YAML, the size of the document once anchors are
expanded (a "billion laughs" document is rejected before anything walks it).
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import orjson

from mcpforge.diagnostics import Diagnostics
from mcpforge.errors import SpecFormatError, SpecReadError
from mcpforge.openapi.model import Dialect
from mcpforge.openapi.refs import RefResolver

__all__ = ["Document", "LoadLimits", "detect_dialect", "fetch", "load_document", "parse_text", "spec_url"]


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadLimits:
    """Resource bounds for reading untrusted documents."""

    max_bytes: int = 256 * 1024 * 1024
    max_yaml_nodes: int = 5_000_000
    max_depth: int = 200
    remote_timeout: float = 20.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Document:
    """A parsed document, its dialect and the resolver for its references."""

    root: Mapping[str, Any]
    dialect: Dialect
    openapi_version: str
    resolver: RefResolver
    source_name: str
    raw_bytes: bytes
    digest: str = ""  # sha256 of the document and its overlays, in order (the lock file records it)
    known_version: bool = True  # False: a later OpenAPI version, read as the latest one mcpforge knows
    overlays: tuple[tuple[str, str], ...] = ()  # (file name, sha256) of each overlay applied
    base_uri: str = ""  # where the document was read from: its URL, or its file's URI


@cache
@cache
def _yaml_loader() -> Any:
    """A safe YAML loader that keeps dates as strings and makes every mapping key a string.

    Built on first use, once: JSON documents (most large specs) never pay for importing PyYAML.
    """
    import yaml  # noqa: PLC0415

    base = yaml.CSafeLoader if hasattr(yaml, "CSafeLoader") else yaml.SafeLoader

    class Loader(base):  # type: ignore[misc, valid-type]
        pass

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    Loader.add_constructor("tag:yaml.org,2002:timestamp", Loader.construct_yaml_str)
    return Loader


def _construct_mapping(loader: Any, node: Any) -> dict[str, Any]:
    loader.flatten_mapping(node)
    result: dict[str, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=False)
        if isinstance(key, bool):
            key = "true" if key else "false"
        elif key is None:
            key = "null"
        result[str(key)] = loader.construct_object(value_node, deep=False)
    return result


def _expanded_size(root: Any, limits: LoadLimits) -> None:
    """Reject YAML whose anchors expand past the node budget, or that nests too deeply."""
    _node_count(root, 0, limits, {})


def _node_count(node: Any, depth: int, limits: LoadLimits, memo: dict[int, int]) -> int:
    # A function of its own, not a closure: a closure that calls itself is a reference cycle.
    if depth > limits.max_depth:
        raise SpecReadError(f"document nests deeper than {limits.max_depth} levels")
    if isinstance(node, dict):
        children: Any = node.values()
    elif isinstance(node, list):
        children = node
    else:
        return 1
    key = id(node)
    if key in memo:
        return memo[key]
    total = 1
    for child in children:
        total += _node_count(child, depth + 1, limits, memo)
        if total > limits.max_yaml_nodes:
            raise SpecReadError(
                f"YAML document expands to more than {limits.max_yaml_nodes:,} nodes (anchor/alias bomb?)"
            )
    memo[key] = total
    return total


def parse_text(data: bytes, *, name: str, limits: LoadLimits | None = None) -> Any:
    """Parse JSON or YAML bytes; errors name the file and the line."""
    limits = limits or LoadLimits()
    if len(data) > limits.max_bytes:
        raise SpecReadError(f"{name} is {len(data):,} bytes, more than the limit of {limits.max_bytes:,}")
    body = data.removeprefix(b"\xef\xbb\xbf")
    if body.lstrip()[:1] in (b"{", b"["):
        try:
            return orjson.loads(body)  # checks UTF-8 itself: no decoding of a 100 MB string first
        except orjson.JSONDecodeError:
            pass  # NaN, integers beyond 64 bits, bad UTF-8...: let the stdlib decide and explain
        except RecursionError:
            raise SpecReadError(f"{name} nests too deeply to be an API description") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SpecReadError(f"{name} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    stripped = text.lstrip()
    try:
        if stripped.startswith(("{", "[")):
            try:
                return json.loads(text)
            except json.JSONDecodeError as exc:
                raise SpecReadError(
                    f"{name} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                    hint="check the file for a syntax error at that position",
                ) from None
        import yaml  # noqa: PLC0415

        try:
            doc = yaml.load(text, Loader=_yaml_loader())  # noqa: S506 - a SafeLoader subclass
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise SpecReadError(f"{name} is not valid YAML: {problem}{where}") from None
        _expanded_size(doc, limits)
        return doc
    except RecursionError:
        raise SpecReadError(f"{name} nests too deeply to be an API description") from None


_KNOWN = {"3.0": Dialect.OPENAPI_30, "3.1": Dialect.OPENAPI_31, "3.2": Dialect.OPENAPI_32}
_VERSION = re.compile(r"^(\d+)\.(\d+)(?:\.\d+)?(?:-[0-9A-Za-z.-]+)?$")


_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+):/+", re.ASCII)  # two letters at least: C:/ is a drive


def detect_dialect(root: Any, *, name: str) -> tuple[Dialect, str, bool]:
    """Tell Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2 apart: ``(dialect, version, known)``.

    A later OpenAPI version (3.3, 4.0) is read as 3.2 with ``known`` false: the caller reports it
    (a warning, fatal under ``--strict``). Anything else is a clear error.
    """
    hint = "mcpforge reads Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2 documents"
    if not isinstance(root, Mapping):
        raise SpecFormatError(
            f"{name} is not an OpenAPI document: the top level is not a mapping", location="/", hint=hint
        )
    swagger = root.get("swagger")
    openapi = root.get("openapi")
    if swagger is not None:
        if str(swagger).strip() == "2.0":
            return Dialect.SWAGGER_20, "2.0", True
        raise SpecFormatError(
            f"unsupported Swagger version {swagger!r}",
            location="/swagger",
            hint="only Swagger 2.0 is supported; convert older documents first",
        )
    if openapi is None:
        raise SpecFormatError(
            f"{name} is not an OpenAPI document: it has neither 'openapi' nor 'swagger'", location="/", hint=hint
        )
    version = str(openapi).strip()
    match = _VERSION.match(version)
    if match is None or int(match.group(1)) < 3:
        raise SpecFormatError(f"unsupported OpenAPI version {version!r}", location="/openapi", hint=hint)
    dialect = _KNOWN.get(f"{match.group(1)}.{match.group(2)}")
    if dialect is not None:
        return dialect, version, True
    return Dialect.OPENAPI_32, version, False


def _read_bytes(path: Path, limits: LoadLimits) -> bytes:
    try:
        size = path.stat().st_size
        if size > limits.max_bytes:
            raise SpecReadError(f"{path.name} is {size:,} bytes, more than the limit of {limits.max_bytes:,}")
        return path.read_bytes()
    except FileNotFoundError:
        raise SpecReadError(f"{path} does not exist", hint="check the path to the spec") from None
    except IsADirectoryError:
        raise SpecReadError(f"{path} is a directory, not a spec file") from None
    except OSError as exc:
        raise SpecReadError(f"cannot read {path}: {exc.strerror}") from None


# Below this size a thread costs more than hashing the bytes where they are read.
_HASH_IN_THREAD_BYTES = 1 << 20


@contextmanager
def _beside(work: Callable[[bytes], object], data: bytes) -> Iterator[None]:
    """Run ``work(data)`` in a thread while the block runs (here when ``data`` is small); both end before leaving."""
    if len(data) < _HASH_IN_THREAD_BYTES:
        work(data)
        yield
        return
    thread = threading.Thread(target=work, args=(data,), name="mcpforge-hash", daemon=True)
    thread.start()
    try:
        yield
    finally:
        thread.join()


def fetch(url: str, limits: LoadLimits) -> bytes:
    """The bytes at an ``http(s)`` URL, within the time and size limits; one-line errors naming the URL."""
    import urllib.error  # noqa: PLC0415 - only for URLs; 25 ms of imports
    import urllib.request  # noqa: PLC0415

    accept = {"Accept": "application/json, application/yaml;q=0.9, */*;q=0.5"}
    request = urllib.request.Request(url, headers=accept)  # noqa: S310 - spec_url and the resolver pass http(s) only
    try:
        with urllib.request.urlopen(request, timeout=limits.remote_timeout) as response:  # noqa: S310 - http(s) only
            data: bytes = response.read(limits.max_bytes + 1)
    except urllib.error.HTTPError as exc:
        exc.close()  # it holds the response's connection
        raise SpecReadError(f"cannot fetch {url}: HTTP {exc.code} {exc.reason}", hint="check the URL") from None
    except (OSError, ValueError) as exc:
        why = getattr(exc, "reason", None) or exc
        raise SpecReadError(
            f"cannot fetch {url}: {why}", hint=f"check the URL and the network (time limit {limits.remote_timeout:g} s)"
        ) from None
    if len(data) > limits.max_bytes:
        raise SpecReadError(f"{url} is more than the limit of {limits.max_bytes:,} bytes")
    return data


def _url_reader(limits: LoadLimits) -> Any:
    def read_url(url: str) -> Any:
        return parse_text(fetch(url, limits), name=url, limits=limits)

    return read_url


def spec_url(path: Path | str) -> str | None:
    """The ``http(s)`` URL a spec argument names (a :class:`Path` collapses its ``//``), else None."""
    text = str(path)
    match = _URL.match(text)
    if match is None or (isinstance(path, Path) and path.exists()):
        return None
    url = _URL.sub(lambda m: m.group(1) + "://", text, count=1)
    if match.group(1).lower() not in ("http", "https"):
        raise SpecReadError(f"{url}: only http and https URLs can be read", hint="pass a local file or an http(s) URL")
    return url


def _with_overlays(
    root: Any, overlays: Sequence[Path], limits: LoadLimits, diags: Diagnostics, digest: Any
) -> tuple[Any, list[tuple[str, str]]]:
    """``root`` with ``overlays`` applied in order, and each one's (name, sha256); their bytes go into ``digest``."""
    from mcpforge.openapi.overlay import apply_overlay, load_overlay  # noqa: PLC0415 - most runs have none

    applied = []
    for overlay_path in overlays:
        overlay = load_overlay(
            overlay_path, read=lambda p: parse_text(_read_bytes(p, limits), name=p.name, limits=limits)
        )
        root = apply_overlay(root, overlay, diags)
        digest.update(b"\0overlay\0" + overlay.raw_bytes)
        applied.append((overlay_path.name, hashlib.sha256(overlay.raw_bytes).hexdigest()))
    return root, applied


def load_document(
    path: Path,
    *,
    allow_remote_refs: bool = False,
    limits: LoadLimits | None = None,
    overlays: Sequence[Path] = (),
    diags: Diagnostics | None = None,
) -> Document:
    """Read and parse a spec (a file or an ``http(s)`` URL), apply ``overlays``, and prepare ``$ref`` resolution.

    A document read from a URL resolves its relative references against that URL: remote documents,
    fetched only with ``allow_remote_refs``.

    Overlay problems that do not stop the run (an action that matches nothing) go to ``diags``.
    """
    limits = limits or LoadLimits()
    url = spec_url(path)
    name = (url.rstrip("/").rsplit("/", 1)[-1] or url) if url else path.name
    data = fetch(url, limits) if url else _read_bytes(path, limits)
    digest = hashlib.sha256()
    with _beside(digest.update, data):  # hashing releases the GIL: it runs on the other core meanwhile
        root = parse_text(data, name=name, limits=limits)
    applied: list[tuple[str, str]] = []
    if overlays:
        root, applied = _with_overlays(root, overlays, limits, diags if diags is not None else Diagnostics(), digest)
    dialect, version, known = detect_dialect(root, name=name)

    def read_file(file: str) -> Any:
        file_path = Path(file)
        return parse_text(_read_bytes(file_path, limits), name=file_path.name, limits=limits)

    self_uri = root.get("$self") if dialect is Dialect.OPENAPI_32 and isinstance(root.get("$self"), str) else None
    resolver = RefResolver(
        root,
        root_dir=None if url else path.parent,
        root_url=url,
        read_file=read_file,
        read_url=_url_reader(limits) if allow_remote_refs else None,
        self_uri=self_uri,
    )
    return Document(
        root=root,
        dialect=dialect,
        openapi_version=version,
        known_version=known,
        resolver=resolver,
        source_name=name,
        raw_bytes=data,
        digest=digest.hexdigest(),
        overlays=tuple(applied),
        base_uri=url or path.resolve().as_uri(),
    )
