"""Conformance lint: check tool manifests against each provider's rules (provider-rules.md).

Works on any manifest (MCP ``tools/list``, OpenAI Chat or Responses, Anthropic, Gemini), generated
or not. Each finding has a stable code, the tool, a JSON path and a hint. Errors are what a
provider rejects (one bad tool fails every request that carries it); warnings are limits that
depend on the client or the request (128 tools for OpenAI, 1,024-character descriptions on older
models, Gemini keywords outside its documented list).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from mcpforge.schema.keywords import DATA_KEYWORDS, NAME_MAPS, SCHEMA_LISTS
from mcpforge.targets import MANIFESTS, Format
from mcpforge.targets.openai_strict import ALLOWED_FORMATS, STRICT_KEYWORDS, has_lookaround
from mcpforge.text.names import NAME_RULES, PORTABLE_NAME_RULE

__all__ = ["MANIFEST_FILES", "Finding", "ManifestFormat", "detect_format", "lint_manifest", "summarize"]

ManifestFormat = Format
# The manifests mcpforge writes, and their formats.
MANIFEST_FILES: Mapping[str, ManifestFormat] = {m.name: m.format for m in MANIFESTS}
_GEMINI_KEYWORDS = frozenset(
    {
        "$id",
        "$defs",
        "$ref",
        "$anchor",
        "type",
        "format",
        "title",
        "description",
        "enum",
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "anyOf",
        "oneOf",
        "properties",
        "additionalProperties",
        "required",
        "propertyOrdering",
    }
)


@dataclass(frozen=True, slots=True)
class Finding:
    """One rule a manifest breaks."""

    severity: Literal["error", "warning"]
    code: str
    provider: str
    tool: str | None
    path: str
    message: str
    hint: str

    def render(self) -> str:
        """One line for humans."""
        who = f" {self.tool}" if self.tool else ""
        return f"{self.severity}[{self.code}] {self.provider}{who} at {self.path}: {self.message} (fix: {self.hint})"


def detect_format(data: Any) -> ManifestFormat:
    """Which provider format a list of tools is in (from the first tool's shape)."""
    if isinstance(data, Mapping) and isinstance(data.get("tools"), list):
        data = data["tools"]
    tools = [t for t in data if isinstance(t, Mapping)] if isinstance(data, list) else []
    if any(isinstance(t.get("function"), Mapping) for t in tools):
        return "openai-chat"
    if any(
        t.get("type") in ("namespace", "tool_search") or (t.get("type") == "function" and "parameters" in t)
        for t in tools
    ):
        return "openai-responses"
    if any("input_schema" in t for t in tools):
        return "anthropic"
    if any("inputSchema" in t for t in tools):
        return "mcp"
    return "gemini" if tools else "mcp"  # Gemini declarations may all lack parameters


class _Where:
    """A subschema's JSON path, spelled out only when a finding needs it (most nodes have none)."""

    __slots__ = ("key", "member", "parent")

    def __init__(self, parent: _Where | str, key: str, member: str | int | None = None) -> None:
        # The step is ``.key``, ``.key.member`` (a name in a map) or ``.key[member]`` (an index).
        self.parent, self.key, self.member = parent, key, member

    def step(self) -> str:
        """This step of the path."""
        if self.member is None:
            return f".{self.key}"
        return f".{self.key}[{self.member}]" if isinstance(self.member, int) else f".{self.key}.{self.member}"

    def __str__(self) -> str:
        steps: list[str] = []
        node: _Where | str = self
        while isinstance(node, _Where):
            steps.append(node.step())
            node = node.parent
        return node + "".join(reversed(steps))


def _children(node: dict[str, Any], where: _Where | str) -> list[tuple[dict[str, Any], _Where]]:
    """The subschemas of ``node`` (maps of names are crossed, data is left alone), in document order."""
    children: list[tuple[dict[str, Any], _Where]] = []
    for key, value in node.items():
        if isinstance(value, dict) and key not in DATA_KEYWORDS:
            if key in NAME_MAPS:
                children.extend((sub, _Where(where, key, name)) for name, sub in value.items() if isinstance(sub, dict))
            else:
                children.append((value, _Where(where, key)))
        elif isinstance(value, list) and key in SCHEMA_LISTS:
            children.extend((sub, _Where(where, key, i)) for i, sub in enumerate(value) if isinstance(sub, dict))
    return children


def _lint_tree(
    node: dict[str, Any], where: _Where | str, check: Callable[[dict[str, Any], _Where | str], bool], clean: set[int]
) -> bool:
    """Check ``node`` and every subschema, in document order; True when none has a finding.

    A clean subtree is remembered by identity and skipped when met again: manifests share
    subschemas between tools (Gemini's and Anthropic's share the MCP schemas and their ``$defs``),
    and paths are spelled lazily, so a clean Microsoft Graph costs a fraction of a full walk.
    """
    if id(node) in clean:
        return True
    ok = check(node, where)
    for child, step in _children(node, where):
        ok = _lint_tree(child, step, check, clean) and ok
    if ok:
        clean.add(id(node))
    return ok


# Tools a provider runs itself, which a manifest names without a schema (tool search).
_HOSTED = ("tool_search", "tool_search_tool_")


def _row(tool: Mapping[str, Any], fmt: ManifestFormat, at: str) -> tuple[str | None, str, Any, bool, str, bool]:
    """(name, description, schema, strict, JSON path of the schema, deferred) of one tool."""
    deferred = tool.get("defer_loading") is True
    if fmt == "openai-chat":
        fn = tool.get("function") or {}
        return (
            fn.get("name"),
            fn.get("description") or "",
            fn.get("parameters"),
            fn.get("strict") is True,
            (f"{at}.function.parameters"),
            deferred,
        )
    key = {"openai-responses": "parameters", "anthropic": "input_schema", "gemini": "parametersJsonSchema"}.get(
        fmt, "inputSchema"
    )
    strict = fmt != "gemini" and tool.get("strict") is True
    return tool.get("name"), tool.get("description") or "", tool.get(key), strict, f"{at}.{key}", deferred


def _tools(data: Any, fmt: ManifestFormat, add: Any) -> list[tuple[str | None, str, Any, bool, str, bool]]:
    """(name, description, schema, strict, JSON path of the schema, deferred) per tool, namespaces crossed."""
    tools = data["tools"] if isinstance(data, Mapping) else data
    rows = []
    for i, tool in enumerate(tools if isinstance(tools, list) else []):
        if not isinstance(tool, Mapping):
            continue
        kind = str(tool.get("type") or "")
        if fmt in ("openai-responses", "anthropic") and kind.startswith(_HOSTED):
            continue
        if fmt == "openai-responses" and kind == "namespace":
            _namespace(tool, f"$[{i}]", add)
            members = tool.get("tools")
            for j, member in enumerate(members if isinstance(members, list) else []):
                if isinstance(member, Mapping):
                    rows.append(_row(member, fmt, f"$[{i}].tools[{j}]"))
            continue
        rows.append(_row(tool, fmt, f"$[{i}]"))
    return rows


def _namespace(tool: Mapping[str, Any], at: str, add: Any) -> None:
    """A Responses namespace: a function-like name, a description and at least one tool."""
    name = tool.get("name")
    if not isinstance(name, str) or not NAME_RULES["openai-responses"].pattern.match(name):
        add(
            "error", "invalid-name", None, f"{at}.name",
            f"namespace name {name!r} must be {NAME_RULES['openai-responses'].text}", "rename the namespace",
        )  # fmt: skip
    if not isinstance(tool.get("description"), str) or not tool["description"]:
        add("error", "namespace-description", name, f"{at}.description", "namespace without a description", "add one")
    if not isinstance(tool.get("tools"), list) or not tool["tools"]:
        add("error", "empty-namespace", name, f"{at}.tools", "namespace without tools", "drop it or add its tools")


def _deferral(data: Any, fmt: ManifestFormat, rows: Sequence[tuple[Any, ...]], add: Any) -> None:
    """Deferred tools need the provider's tool search beside them, and something loaded up front."""
    deferred = sum(1 for row in rows if row[5])
    if not deferred:
        return
    tools = data["tools"] if isinstance(data, Mapping) else data
    hosted = [t for t in tools if isinstance(t, Mapping) and str(t.get("type") or "").startswith(_HOSTED)]
    if not hosted:
        add(
            "error", "deferred-without-search", None, "$",
            f"{deferred} tools defer loading but no tool search is listed",
            "add the provider's tool search tool (mcpforge writes it in the -deferred manifests)",
        )  # fmt: skip
    if fmt == "anthropic" and deferred > 10_000:
        add(
            "warning", "too-many-deferred-tools", None, "$",
            f"{deferred:,} deferred tools; Anthropic's tool search documents a catalog of at most 10,000",
            "send a subset (toolsets, tags) or use search mode",
        )  # fmt: skip


def lint_manifest(
    data: Any, fmt: ManifestFormat | None = None, *, client_prefix: str = "", max_name: int = 64
) -> list[Finding]:
    """Every finding for a manifest; ``client_prefix`` counts toward name length (``mcp__server__``)."""
    fmt = fmt or detect_format(data)
    provider = fmt
    findings: list[Finding] = []

    def add(
        severity: Literal["error", "warning"], code: str, tool: str | None, path: _Where | str, message: str, hint: str
    ) -> None:
        findings.append(Finding(severity, code, provider, tool, str(path), message, hint))

    rows = _tools(data, fmt, add)
    _deferral(data, fmt, rows, add)
    clean: dict[bool, set[int]] = {False: set(), True: set()}  # subtrees without findings, by strictness
    loaded = sum(1 for row in rows if not row[5])  # deferred tools are loaded by tool search, a few at a time
    if fmt.startswith("openai") and loaded > 128:
        add(
            "warning",
            "too-many-tools",
            None,
            "$",
            f"{loaded} tools; OpenAI accepts at most 128 per request",
            "send a subset (toolsets, tags), use the -deferred manifest (tool search) or search mode",
        )
    strict_count = sum(1 for row in rows if row[3])
    if fmt == "anthropic" and strict_count > 20:
        add(
            "warning",
            "too-many-strict-tools",
            None,
            "$",
            f"{strict_count} strict tools; Anthropic allows 20 per " "request",
            "mark fewer tools strict",
        )
    for name, description, schema, strict, path, _ in rows:
        _lint_name(name, fmt, client_prefix, max_name, path, add)
        if len(description) > 1024:
            add(
                "warning",
                "long-description",
                name,
                path.rsplit(".", 1)[0] + ".description",
                f"description is {len(description)} characters",
                "shorten it to 1,024 characters (older OpenAI " "models and Azure reject longer ones)",
            )
        if schema is None:
            if fmt != "gemini":
                add("error", "missing-schema", name, path, "no parameter schema", "add an object schema")
            continue
        _lint_schema(name, schema, path, fmt, strict, add, clean[strict])
    return findings


def _lint_name(name: Any, fmt: ManifestFormat, prefix: str, max_name: int, path: str, add: Any) -> None:
    where = path.rsplit(".", 1)[0] + (".name" if not path.endswith("function.parameters") else "")
    if not isinstance(name, str) or not name:
        add("error", "missing-name", None, where, "tool has no name", "give every tool a name")
        return
    rule = NAME_RULES[fmt]
    if not rule.pattern.match(name):
        add(
            "error",
            "gemini-name" if fmt == "gemini" else "invalid-name",
            name,
            where,
            f"{fmt} names must be {rule.text}",
            f"rename the tool (mcpforge convert --to {fmt} does, and reports each rename)",
        )
    elif fmt == "mcp" and not PORTABLE_NAME_RULE.pattern.match(name):
        add(
            "warning",
            "provider-name",
            name,
            where,
            f"MCP allows this name, but provider formats want {PORTABLE_NAME_RULE.text}",
            "mcpforge convert and ToolHub rename it; or rename the tool",
        )
    full = prefix + name
    if len(full) > max_name:
        add(
            "error",
            "name-too-long",
            name,
            where,
            (
                f"name is {len(full)} characters with the client prefix " f"{prefix!r}"
                if prefix
                else f"name is {len(full)} characters"
            ),
            f"shorten names to {max_name - len(prefix)}" " characters (mcpforge generate --max-tool-name-length)",
        )


_LIMITED = frozenset({"properties", "enum", "items", "additionalProperties", "anyOf", "oneOf", "allOf", "$defs"})


def _strict_limits(name: str | None, schema: dict[str, Any], path: str, add: Any) -> None:
    """OpenAI strict size limits: 5,000 properties, 10 levels of objects, 1,000 enum values."""
    properties = enum_values = deepest = 0
    stack: list[tuple[dict[str, Any], int]] = [(schema, 1)]  # only subschemas (dicts) are pushed
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if _LIMITED.isdisjoint(node):  # most nodes are leaves: nothing to count, nothing below
            continue
        props = node.get("properties")
        if isinstance(props, dict):
            properties += len(props)
            stack.extend((sub, depth + 1) for sub in props.values() if isinstance(sub, dict))
        enum = node.get("enum")
        if isinstance(enum, list):
            enum_values += len(enum)
        for key in ("items", "additionalProperties"):
            sub = node.get(key)
            if isinstance(sub, dict):
                stack.append((sub, depth))
        for key in ("anyOf", "oneOf", "allOf"):
            subs = node.get(key)
            if isinstance(subs, list):
                stack.extend((sub, depth) for sub in subs if isinstance(sub, dict))
        defs = node.get("$defs")
        if isinstance(defs, dict):
            stack.extend((sub, depth) for sub in defs.values() if isinstance(sub, dict))
    for what, value, limit in (
        ("properties", properties, 5000),
        ("levels of nesting", deepest, 10),
        ("enum values", enum_values, 1000),
    ):
        if value > limit:
            add(
                "error",
                "strict-limit",
                name,
                path,
                f"{value} {what}; strict mode allows {limit}",
                "emit the tool with strict: false",
            )


def _lint_schema(name: str | None, schema: Any, path: str, fmt: str, strict: bool, add: Any, clean: set[int]) -> None:
    if not isinstance(schema, dict) or schema.get("type") != "object":
        add(
            "error",
            "root-not-object",
            name,
            path,
            "the parameter schema is not of type object",
            "wrap the value in an object property",
        )
        return
    combinators = {"oneOf", "anyOf", "allOf"} & set(schema)
    if combinators:
        add(
            "error",
            "root-combinator",
            name,
            path,
            f"{', '.join(sorted(combinators))} at the root (Anthropic and " "OpenAI reject it even without strict)",
            "move the union into a property",
        )
    if strict and fmt.startswith("openai"):
        _strict_limits(name, schema, path, add)
    if fmt.startswith("openai") and "properties" not in schema:
        add(
            "error",
            "missing-properties",
            name,
            path,
            "object schema without 'properties' (OpenAI: 'object schema " "missing properties')",
            'add "properties": {}',
        )
    found = [0]

    def counted(*finding: Any) -> None:
        found[0] += 1
        add(*finding)

    def check(node: dict[str, Any], where: _Where | str) -> bool:
        before = found[0]
        kind = node.get("type")
        is_array = kind == "array" or (isinstance(kind, list) and "array" in kind)
        if is_array and "items" not in node and "prefixItems" not in node:
            counted("error", "array-without-items", name, where, "array schema missing items", "add an 'items' schema")
        if fmt == "gemini":
            _lint_gemini(name, node, where, counted)
        if strict:
            _lint_strict(name, node, where, fmt, counted)
        return found[0] == before

    try:
        _lint_tree(schema, path, check, clean)
    except RecursionError:
        add("error", "too-deep", name, path, "the schema nests too deeply to check", "flatten the schema")


def _lint_gemini(name: str | None, node: dict[str, Any], where: object, add: Any) -> None:
    if "$ref" in node and any(not k.startswith("$") for k in node if k != "$ref"):
        add("error", "gemini-ref-siblings", name, where, "$ref with sibling keywords", "inline the referenced schema")
    if _GEMINI_KEYWORDS.issuperset(node):  # most nodes: no keyword to report, no list to build
        return
    extra = sorted(k for k in node if k not in _GEMINI_KEYWORDS)
    if extra:
        add(
            "warning",
            "gemini-keyword",
            name,
            where,
            f"keywords outside Gemini's documented list: {', '.join(extra)}",
            "drop them or move them into the description",
        )


def _lint_strict(name: str | None, node: dict[str, Any], where: object, fmt: str, add: Any) -> None:
    if fmt.startswith("openai"):
        extra = [] if STRICT_KEYWORDS.issuperset(node) else sorted(k for k in node if k not in STRICT_KEYWORDS)
        if extra:
            add(
                "error",
                "strict-keyword",
                name,
                where,
                f"not permitted in strict mode: {', '.join(extra)}",
                "remove them (mention them in the description) or emit the tool with strict: false",
            )
        if isinstance(node.get("pattern"), str) and has_lookaround(node["pattern"]):
            add("error", "strict-lookaround", name, where, "regex lookaround is not supported", "drop the pattern")
        fmt_value = node.get("format")
        if fmt_value is not None and not (isinstance(fmt_value, str) and fmt_value in ALLOWED_FORMATS):
            add(
                "error",
                "strict-format",
                name,
                where,
                f"format {node['format']!r} is not supported in strict mode",
                "drop the format",
            )
    kind = node.get("type")
    if kind == "object" or (isinstance(kind, list) and "object" in kind):
        if node.get("additionalProperties") is not False:
            add(
                "error",
                "strict-additional-properties",
                name,
                where,
                "'additionalProperties' is required to be " "supplied and to be false",
                "set additionalProperties: false",
            )
        if fmt.startswith("openai") and sorted(node.get("required", [])) != sorted(node.get("properties", {})):
            add(
                "error",
                "strict-required",
                name,
                where,
                "'required' must list every property",
                "make optional properties required and nullable",
            )


def summarize(findings: Sequence[Finding]) -> tuple[int, int]:
    """(errors, warnings)."""
    errors = sum(1 for f in findings if f.severity == "error")
    return errors, len(findings) - errors
