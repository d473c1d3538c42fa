"""The only place names are made: tool names, argument names and schema definition names.

Tool names are valid for every provider (``^[A-Za-z_][A-Za-z0-9_-]*$``, at most 64 characters
by default). Shortening drops whole words from the middle, so names stay readable; collisions get
``_2``, ``_3``... suffixes assigned by sorting the colliding operations by method and path, so the
result never depends on the order of operations in the document.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "DEFAULT_MAX_TOOL_NAME",
    "TOOL_NAME_PATTERN",
    "UNTAGGED_TOOLSET",
    "NameCandidate",
    "aggregate_tool_names",
    "argument_name",
    "assign_tool_names",
    "definition_name",
    "selection_argument",
    "short_hash",
    "shorten",
    "tool_name_base",
    "toolset_name",
    "toolsets_of",
]

DEFAULT_MAX_TOOL_NAME = 64
TOOL_NAME_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_ARG_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")
# camelCase / PascalCase / ACRONYMWord / digits boundaries, used only to shorten long single words
_CAMEL_PIECE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def short_hash(text: str, length: int = 6) -> str:
    """A short, stable hex digest (used for disambiguation, never for security)."""
    return hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()[:length]


def _words(text: str) -> list[str]:
    return [w for w in _NON_WORD.split(text) if w]


def tool_name_base(operation_id: str | None, method: str, path: str) -> tuple[str, bool]:
    """The unshortened tool name and whether it is exactly the operationId.

    ``repos/create-for-authenticated-user`` becomes ``repos_create_for_authenticated_user``;
    without an operationId, ``GET /pets/{petId}`` becomes ``get_pets_petId``.
    """
    if operation_id:
        words = _words(operation_id)
        if words:
            name = "_".join(words)
            if name[0].isdigit():
                name = "op_" + name
            return name, name == operation_id
    words = _words(path) or ["root"]
    return "_".join([method.lower(), *words]), False


def _pieces(name: str) -> list[str]:
    """Split a name into droppable pieces: words, and camelCase humps inside long words."""
    pieces: list[str] = []
    for word in name.split("_"):
        if not word:
            continue
        humps = _CAMEL_PIECE.findall(word)
        pieces.extend(humps if "".join(humps) == word and len(humps) > 1 else [word])
    return pieces


def shorten(name: str, max_length: int = DEFAULT_MAX_TOOL_NAME) -> str:
    """Fit ``name`` into ``max_length`` by dropping whole words from the middle.

    The first word (usually the verb) and as many trailing words as fit are kept, joined by
    ``_``: ``post_v3_mark_events_attendance_for_organization_members_in_bulk`` keeps
    ``post`` and the most specific tail instead of cutting a word in half.
    """
    if len(name) <= max_length:
        return name
    pieces = _pieces(name)
    if not pieces:
        return name[:max_length]
    head, tail = pieces[0], list[str]()
    for piece in reversed(pieces[1:]):
        if len("_".join([head, piece, *tail])) > max_length:
            break
        tail.insert(0, piece)
    result = "_".join([head, *tail])
    return result[:max_length].rstrip("_-") or name[:max_length]


@dataclass(frozen=True, slots=True)
class NameCandidate:
    """A tool name proposal: ``key`` identifies the operation (``METHOD /path``)."""

    key: str
    base: str
    exact: bool = False  # the base is exactly the operationId: it wins ties


def _with_suffix(base: str, suffix: str, max_length: int) -> str:
    return shorten(base, max_length - len(suffix)) + suffix


def assign_tool_names(
    candidates: Sequence[NameCandidate],
    *,
    max_length: int = DEFAULT_MAX_TOOL_NAME,
    reserved: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Give every candidate a unique, valid name; returns key -> name.

    ``reserved`` maps keys to names that must be kept (a lock file's earlier names); a new
    candidate that collides with a reserved name is the one renamed.
    """
    reserved = dict(reserved or {})
    result: dict[str, str] = {}
    taken: set[str] = set()
    for cand in candidates:
        kept = reserved.get(cand.key)
        if kept is not None and TOOL_NAME_PATTERN.match(kept) and len(kept) <= max_length and kept not in taken:
            result[cand.key] = kept
            taken.add(kept)
    groups: dict[str, list[NameCandidate]] = {}
    for cand in candidates:
        if cand.key not in result:
            groups.setdefault(shorten(cand.base, max_length), []).append(cand)
    # Names that are free go first, so a suffix can never steal another operation's plain name.
    for name in sorted(groups):
        members = sorted(groups[name], key=lambda c: (not c.exact, c.key))
        if name not in taken:
            result[members[0].key] = name
            taken.add(name)
            members = members[1:]
        groups[name] = members
    for name in sorted(groups):
        counter = 2
        for cand in groups[name]:
            while (candidate := _with_suffix(name, f"_{counter}", max_length)) in taken or candidate in groups:
                counter += 1
            result[cand.key] = candidate
            taken.add(candidate)
    return result


def argument_name(wire_name: str) -> str:
    """A portable argument (property) name for a parameter: ``X-Request-Id`` -> ``X_Request_Id``."""
    if _ARG_PATTERN.match(wire_name):
        return wire_name
    words = _words(wire_name)
    name = "_".join(words) if words else "param"
    if name[0].isdigit():
        name = "p_" + name
    return name[:64]


SELECTION_NAMES = ("fields", "result_fields", "select_fields")


def selection_argument(taken: Iterable[str]) -> str:
    """The name of a tool's field-selection argument: ``fields`` unless the API already uses it."""
    used = set(taken)
    for name in SELECTION_NAMES:
        if name not in used:
            return name
    counter = 2
    while f"fields_{counter}" in used:
        counter += 1
    return f"fields_{counter}"


def unique_argument_name(name: str, location: str, taken: Iterable[str]) -> str:
    """Resolve an argument name collision: ``id`` -> ``query_id`` -> ``query_id_2``..."""
    used = set(taken)
    if name not in used:
        return name
    candidate = f"{location}_{name}"[:64]
    counter = 2
    while candidate in used:
        candidate = f"{location}_{name}"[:60] + f"_{counter}"
        counter += 1
    return candidate


def definition_name(tokens: Sequence[str], *, uri: str, canonical: bool) -> str:
    """A ``$defs`` key for a referenced schema.

    Component schemas (``#/components/schemas/Pet``, ``#/definitions/Pet``) keep their name;
    anything else gets its last token plus a short hash of its URI, so keys never collide.
    """
    last = tokens[-1] if tokens else "schema"
    base = re.sub(r"[^A-Za-z0-9_.-]+", "_", last).strip("_") or "schema"
    return base if canonical else f"{base}_{short_hash(uri)}"


_PY_KEYWORDS = frozenset(
    {
        "False",
        "None",
        "True",
        "and",
        "as",
        "assert",
        "async",
        "await",
        "break",
        "class",
        "continue",
        "def",
        "del",
        "elif",
        "else",
        "except",
        "finally",
        "for",
        "from",
        "global",
        "if",
        "import",
        "in",
        "is",
        "lambda",
        "nonlocal",
        "not",
        "or",
        "pass",
        "raise",
        "return",
        "try",
        "while",
        "with",
        "yield",
        "match",
        "case",
        "type",
    }
)


@dataclass(frozen=True, slots=True)
class ProjectNames:
    """Names of the generated project: Python package, distribution, command, env prefix."""

    package: str  # petstore_mcp
    dist: str  # petstore-mcp
    command: str  # petstore-mcp
    env_prefix: str  # PETSTORE


def project_names(title: str, override: str | None = None) -> ProjectNames:
    """Names derived from the API title (or ``override``): ASCII, lower snake case, never empty."""
    words = [w.lower() for w in _words(override or title)][:6] or ["api"]
    if words[-1] == "mcp":
        words = words[:-1] or ["api"]
    if words[0][0].isdigit():
        words.insert(0, "api")
    base = "_".join(words)[:40].strip("_")
    package = f"{base}_mcp"
    if package in _PY_KEYWORDS:
        package = f"{package}_server"
    return ProjectNames(
        package=package, dist=package.replace("_", "-"), command=package.replace("_", "-"), env_prefix=base.upper()
    )


def aggregate_tool_names(tools: Sequence[tuple[str, str]], *, max_length: int = DEFAULT_MAX_TOOL_NAME) -> list[str]:
    """Names for the tools of several servers, ``tools[i] = (server, tool name)``.

    A name is kept when it is valid and unique; names that occur on more than one server are
    prefixed with the server's name (``github_search``), shortened to ``max_length``; any name
    still taken gets a ``_2``, ``_3``... suffix. Invalid names are made valid first.
    """

    def valid(name: str) -> str:
        if TOOL_NAME_PATTERN.match(name) and len(name) <= max_length:
            return name
        return shorten("_".join(_words(name)) or "tool", max_length)

    bases = [valid(name) for _, name in tools]
    servers_of: dict[str, set[str]] = {}
    for (server, _), base in zip(tools, bases, strict=True):
        servers_of.setdefault(base, set()).add(server)
    result: list[str] = []
    taken: set[str] = set()
    for (server, _), base in zip(tools, bases, strict=True):
        name = base
        if len(servers_of[base]) > 1:
            prefix = "_".join(_words(server)) or "server"
            name = shorten(f"{prefix}_{base}", max_length)
        candidate, counter = name, 2
        while candidate in taken:
            candidate = _with_suffix(name, f"_{counter}", max_length)
            counter += 1
        taken.add(candidate)
        result.append(candidate)
    return result


UNTAGGED_TOOLSET = "untagged"


def toolset_name(tag: str | None) -> str:
    """The toolset of a tag: lower snake case ASCII (``Pull Requests`` -> ``pull_requests``)."""
    words = [w.lower() for w in _words(tag or "")]
    return "_".join(words)[:64] or UNTAGGED_TOOLSET


def toolsets_of(tags: Sequence[str]) -> list[str]:
    """The toolsets of an operation with ``tags`` (``untagged`` when it has none), without repeats."""
    return list(dict.fromkeys(toolset_name(tag) for tag in tags)) or [UNTAGGED_TOOLSET]


def credential_env_names(prefix: str, scheme_key: str, kinds: Sequence[str]) -> dict[str, str]:
    """Environment variable names for a security scheme: ``PETSTORE_API_KEY_TOKEN``..."""
    scheme = "_".join(w.upper() for w in _words(scheme_key)) or "AUTH"
    return {kind: f"{prefix}_{scheme}_{re.sub(r'(?<!^)(?=[A-Z])', '_', kind).upper()}" for kind in kinds}
