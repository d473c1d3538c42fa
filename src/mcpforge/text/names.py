"""The only place names are made: tool names, argument names and schema definition names.

Tool names are valid for every provider (``^[A-Za-z_][A-Za-z0-9_-]*$``, at most 64 characters
by default). Shortening drops whole words from the middle, so names stay readable; collisions get
``_2``, ``_3``... suffixes assigned by sorting the colliding operations by method and path, so the
result never depends on the order of operations in the document.
"""

from __future__ import annotations

import hashlib
import keyword
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from mcpforge.runtime.settings.table import SETTINGS

__all__ = [
    "DEFAULT_MAX_TOOL_NAME",
    "NAME_RULES",
    "PORTABLE_NAME_RULE",
    "TOOL_NAME_PATTERN",
    "UNTAGGED_TOOLSET",
    "NameCandidate",
    "NameRule",
    "aggregate_tool_names",
    "argument_name",
    "assign_tool_names",
    "definition_name",
    "name_problem",
    "page_url_argument",
    "selection_argument",
    "short_hash",
    "shorten",
    "tool_name_base",
    "toolset_name",
    "toolsets_of",
    "unique_valid_names",
    "valid_name",
]

DEFAULT_MAX_TOOL_NAME = 64
TOOL_NAME_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# Property names every target accepts (Anthropic: ^[a-zA-Z0-9_.-]{1,64}$; dots left out: field paths use them).
_ARG_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$")
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

    An operationId valid for every target (``get-stations``, ``listPets``) is the name as written:
    the name the API's documentation and users know. Others are made valid word by word:
    ``repos/create-for-authenticated-user`` becomes ``repos_create_for_authenticated_user``;
    without an operationId, ``GET /pets/{petId}`` becomes ``get_pets_petId``.
    """
    if operation_id and PORTABLE_NAME_RULE.pattern.match(operation_id) and len(operation_id) <= DEFAULT_MAX_TOOL_NAME:
        return operation_id, True
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
        humps: list[str] = []
        for hump in _CAMEL_PIECE.findall(word):
            if hump.isdigit() and humps:
                humps[-1] += hump  # digits stay with their word: v3, not v and 3
            else:
                humps.append(hump)
        pieces.extend(humps if "".join(humps) == word and len(humps) > 1 else [word])
    return pieces


def shorten(name: str, max_length: int = DEFAULT_MAX_TOOL_NAME) -> str:
    """Fit ``name`` into ``max_length`` by dropping whole words from the middle.

    The first word (usually the verb) and as many trailing words as fit are kept, joined by
    ``_``: ``post_v3_mark_events_attendance_for_organization_members_in_bulk`` keeps
    ``post`` and the most specific tail instead of cutting a word in half. Only a single word
    longer than the limit is cut, and then marked with a hash of the whole name.
    """
    if len(name) <= max_length:
        return name
    pieces = _pieces(name)
    head, tail = (pieces[0], list[str]()) if pieces else ("", [])
    if len(head) > max_length:
        head = ""  # the verb alone does not fit: keep the most specific words instead
    for piece in reversed(pieces[1:] if head else pieces):
        if len("_".join([head, piece, *tail]).strip("_")) > max_length:
            break
        tail.insert(0, piece)
    result = "_".join([head, *tail]).strip("_")
    if result:
        return result
    mark = short_hash(name)
    return f"{(pieces or [name])[0][: max(max_length - len(mark) - 1, 1)]}_{mark}"


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


@lru_cache(maxsize=4096)  # operations repeat their parameters (Graph: 48,000 uses of a few hundred names)
def argument_name(wire_name: str) -> str:
    """A portable argument (property) name for a parameter.

    A name every target accepts as a property (``only-performed-by``, ``X-Request-Id``) is kept as
    written; others are made so word by word: ``$top`` -> ``top``, ``filter[name]`` -> ``filter_name``.
    """
    if _ARG_PATTERN.match(wire_name):
        return wire_name
    words = _words(wire_name)
    name = "_".join(words) if words else "param"
    if name[0].isdigit():
        name = "p_" + name
    return name[:64]


SELECTION_NAMES = ("fields", "result_fields", "select_fields")
PAGE_URL_NAMES = ("page_url", "next_page_url", "mcp_page_url")


def _free_name(choices: Sequence[str], taken: Iterable[str]) -> str:
    used = set(taken)
    for name in choices:
        if name not in used:
            return name
    counter = 2
    while f"{choices[0]}_{counter}" in used:
        counter += 1
    return f"{choices[0]}_{counter}"


def selection_argument(taken: Iterable[str]) -> str:
    """The name of a tool's field-selection argument: ``fields`` unless the API already uses it."""
    return _free_name(SELECTION_NAMES, taken)


def page_url_argument(taken: Iterable[str]) -> str:
    """The name of a tool's next-page URL argument: ``page_url`` unless the API already uses it."""
    return _free_name(PAGE_URL_NAMES, taken)


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


_PY_KEYWORDS = frozenset([*keyword.kwlist, *keyword.softkwlist, "type"])


@dataclass(frozen=True, slots=True)
class ProjectNames:
    """Names of the generated project: Python package, distribution, command, env prefix."""

    package: str  # petstore_mcp
    dist: str  # petstore-mcp
    command: str  # petstore-mcp
    env_prefix: str  # PETSTORE


# The generated server's own settings (<PREFIX>_<NAME>): no credential variable may take one of these names.
_SERVER_SETTINGS = frozenset(setting.name for setting in SETTINGS)

# Words that say what kind of document it is, not which API: left out of a default project name.
_FILLER = frozenset(
    "a an and the of for to with by on in s api apis rest restful http https json openapi swagger "  # noqa: SIM905
    "spec specs specification definition definitions description documentation docs doc reference "
    "official public service services server directory interface endpoint endpoints web mcp sdk "
    "client unofficial odata namespace support example examples".split()
)
_VERSION = re.compile(r"^v?\d+(?:[._]\d+)*$", re.IGNORECASE)  # v1, 2, 3_0: a version, not a name
_HUMPS = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
DEFAULT_NAME_MAX = 20  # characters of a default name's base: `github`, `train_travel`, `listen_podcast`


def default_project_base(title: str, server_url: str = "") -> str:
    """A short, readable name for an API: its title's meaningful words, else its server's host, else ``api``.

    ``GitHub's official OpenAPI spec + Octokit`` gives ``github_octokit``; whole words are kept while
    they fit in 20 characters. A title of filler only (``REST API``) falls back to the host of
    ``https://api.example.com/v2`` (``example``).
    """
    # A run-together name too long to keep whole is split at its capitals: DataFactoryManagementClient.
    words = [
        part.lower()
        for word in _words(_ascii(title))
        for part in (_HUMPS.split(word) if len(word) > DEFAULT_NAME_MAX else [word])
    ]
    meaningful = [w for w in words if w not in _FILLER and not _VERSION.match(w)]
    if not meaningful:
        host = urlsplit(server_url).hostname or ""
        labels = [label for label in host.split(".")[:-1] if label not in ("api", "www")]  # the TLD is not a name
        meaningful = [w.lower() for label in labels for w in _words(label) if w.lower() not in _FILLER]
    kept: list[str] = []
    for word in meaningful:
        if kept and len("_".join([*kept, word])) > DEFAULT_NAME_MAX:
            break
        kept.append(word[:DEFAULT_NAME_MAX])
    return "_".join(kept) or "api"


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def project_names(title: str, override: str | None = None, server_url: str = "") -> ProjectNames:
    """Package, distribution, command and variable prefix: from ``override`` as given, else a default name.

    The default comes from :func:`default_project_base`; an override keeps all its words (at most
    six), so a name recorded by an earlier run comes back unchanged.
    """
    if override:
        words = [w.lower() for w in _words(override)][:6] or ["api"]
        if words[-1] == "mcp":
            words = words[:-1] or ["api"]
    else:
        words = default_project_base(title, server_url).split("_")
    if words[0][0].isdigit():
        words.insert(0, "api")
    base = "_".join(words)[:40].strip("_")
    package = f"{base}_mcp"
    if package in _PY_KEYWORDS:
        package = f"{package}_server"
    return ProjectNames(
        package=package, dist=package.replace("_", "-"), command=package.replace("_", "-"), env_prefix=base.upper()
    )


def recorded_project_name(files: Iterable[str]) -> str | None:
    """The name an earlier run gave its project, from the files it wrote (``src/<base>_mcp/tools.json``)."""
    for path in sorted(files):
        parts = path.split("/")
        if len(parts) == 3 and parts[0] == "src" and parts[2] == "tools.json" and parts[1].endswith("_mcp"):
            return parts[1].removesuffix("_mcp")
    return None


@dataclass(frozen=True, slots=True)
class NameRule:
    """What a target format accepts as a tool name."""

    pattern: re.Pattern[str]
    max_length: int
    text: str  # the rule in words, for messages


_PROVIDER_RULE = NameRule(re.compile(r"^[A-Za-z0-9_-]+$"), 64, "1-64 characters of A-Z a-z 0-9 _ -")
# What every format accepts: the names ToolHub exposes, so one list works with every provider.
PORTABLE_NAME_RULE = NameRule(
    re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$"), 64, "1-64 characters of A-Z a-z 0-9 _ -, starting with a letter or _"
)
NAME_RULES: Mapping[str, NameRule] = {
    # MCP 2025-11-25 (SEP-986); OpenAI and Anthropic document 64 (Anthropic's API has taken 128 since 2025-08).
    "mcp": NameRule(re.compile(r"^[A-Za-z0-9_.-]+$"), 128, "1-128 characters of A-Z a-z 0-9 _ . -"),
    "openai-chat": _PROVIDER_RULE,
    "openai-responses": _PROVIDER_RULE,
    "anthropic": _PROVIDER_RULE,
    # Gemini's API error text; its SDK docs say 128 and allow ':' (2026-05): the stricter reading is kept.
    "gemini": NameRule(
        re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$"),
        64,
        "1-64 characters of A-Z a-z 0-9 _ . -, starting with a letter or _",
    ),
}


def name_problem(name: str, rule: NameRule) -> str | None:
    """Why ``name`` breaks ``rule`` (None when it is valid)."""
    if not name:
        return "the name is empty"
    if len(name) > rule.max_length:
        return f"{len(name)} characters, more than {rule.max_length}"
    if not rule.pattern.match(name):
        return f"names must be {rule.text}"
    return None


def valid_name(name: str, rule: NameRule, max_length: int | None = None) -> str:
    """``name`` made valid for ``rule``: accents dropped, other characters to ``_``, whole words kept."""
    limit = min(max_length or rule.max_length, rule.max_length)
    if len(name) <= limit and rule.pattern.match(name):
        return name
    ascii_text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    words = _words(ascii_text)
    base = "_".join(words) if words else f"tool_{short_hash(name)}"
    if not rule.pattern.match(base):
        base = f"tool_{base}"  # a leading digit, where the format wants a letter first
    return shorten(base, limit)


def unique_valid_names(
    names: Sequence[str], rule: NameRule, *, max_length: int | None = None, groups: Sequence[str] | None = None
) -> list[str]:
    """A valid, unique name for each of ``names``, in order.

    Names that are already valid keep theirs; a name that had to change never takes one that a
    valid name holds. ``groups`` (a server per name) prefix a name that several groups share:
    ``github_search`` and ``jira_search``. Any name still taken gets ``_2``, ``_3``...
    """
    limit = min(max_length or rule.max_length, rule.max_length)
    exact = [len(n) <= limit and rule.pattern.match(n) is not None for n in names]
    bases = [n if ok else valid_name(n, rule, limit) for n, ok in zip(names, exact, strict=True)]
    owners: dict[str, set[str]] = {}  # base -> the groups holding it as an unchanged name
    claims: dict[str, set[str]] = {}  # base -> every group wanting it
    members = groups or [""] * len(names)
    for base, ok, group in zip(bases, exact, members, strict=True):
        claims.setdefault(base, set()).add(group)
        owners.setdefault(base, set())
        if ok:
            owners[base].add(group)
    wanted: list[str] = []
    for base, ok, group in zip(bases, exact, members, strict=True):
        shared = len(owners[base]) > 1 if ok else bool(owners[base]) or len(claims[base]) > 1
        prefix = "_".join(_words(group)) or "server"
        wanted.append(valid_name(f"{prefix}_{base}", rule, limit) if shared and groups else base)
    result: list[str | None] = [None] * len(names)
    taken: set[str] = set()
    # Unchanged names first, so a suffix never lands on a name that was valid as it was.
    for i in sorted(range(len(names)), key=lambda i: (not (exact[i] and wanted[i] == names[i]), i)):
        candidate, counter = wanted[i], 2
        while candidate in taken:
            candidate = _with_suffix(wanted[i], f"_{counter}", limit)
            counter += 1
        taken.add(candidate)
        result[i] = candidate
    return [name for name in result if name is not None]


def aggregate_tool_names(tools: Sequence[tuple[str, str]], *, max_length: int = DEFAULT_MAX_TOOL_NAME) -> list[str]:
    """Names for the tools of several servers (``tools[i] = (server, tool name)``), valid for every provider."""
    return unique_valid_names(
        [name for _, name in tools], PORTABLE_NAME_RULE, max_length=max_length, groups=[s for s, _ in tools]
    )


UNTAGGED_TOOLSET = "untagged"


def toolset_name(tag: str | None) -> str:
    """The toolset of a tag: lower snake case ASCII (``Pull Requests`` -> ``pull_requests``)."""
    words = [w.lower() for w in _words(tag or "")]
    return "_".join(words)[:64] or UNTAGGED_TOOLSET


def toolsets_of(tags: Sequence[str]) -> list[str]:
    """The toolsets of an operation with ``tags`` (``untagged`` when it has none), without repeats."""
    return list(dict.fromkeys(toolset_name(tag) for tag in tags)) or [UNTAGGED_TOOLSET]


def credential_env_names(prefix: str, scheme_key: str, kinds: Sequence[str]) -> dict[str, str]:
    """Environment variable names for a security scheme: ``PETSTORE_API_KEY_TOKEN``...

    A name that would be one of the server's own settings (a scheme called ``OAuth`` would give
    ``OAUTH_CLIENT_ID``, the endpoint's introspection client) gets ``_SCHEME`` after the scheme's words.
    """
    scheme = "_".join(w.upper() for w in _words(scheme_key)) or "AUTH"
    suffixes = {kind: re.sub(r"(?<!^)(?=[A-Z])", "_", kind).upper() for kind in kinds}
    if any(f"{scheme}_{suffix}" in _SERVER_SETTINGS for suffix in suffixes.values()):
        scheme += "_SCHEME"
    return {kind: f"{prefix}_{scheme}_{suffix}" for kind, suffix in suffixes.items()}
