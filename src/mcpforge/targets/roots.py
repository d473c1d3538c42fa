"""Root combinators in foreign MCP tools: fold them into one object schema.

OpenAI and Anthropic reject ``oneOf``/``anyOf``/``allOf`` at the root of a tool's parameters, even
without strict mode (provider-rules.md §0.5), and one such tool fails every request that carries
it. Folding keeps every argument visible: properties of all branches are merged, only what every
branch requires stays required (``allOf``: what any branch requires), and the union is stated in
the description. mcpforge's own schemas never have root combinators.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcpforge.runtime.results.defs import deref

__all__ = ["fold_root"]


def fold_root(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` with root combinators folded into one object (a new dict; the input is untouched)."""
    keys = [k for k in ("allOf", "anyOf", "oneOf") if isinstance(schema.get(k), list)]
    if not keys:
        return dict(schema)
    defs = schema.get("$defs") or {}
    out = {k: v for k, v in schema.items() if k not in keys}
    out["type"] = "object"
    properties: dict[str, Any] = dict(out.get("properties") or {})
    required: list[str] = list(out.get("required") or [])
    notes = []
    for key in keys:
        branches = [deref(b, defs) for b in schema[key]]
        branches = [b for b in branches if isinstance(b, dict)]
        for branch in branches:
            for name, sub in (branch.get("properties") or {}).items():
                properties.setdefault(name, sub)
        sets = [set(b.get("required") or []) for b in branches]
        if key == "allOf":
            required.extend(r for s in sets for r in sorted(s) if r not in required)
        else:
            common = set.intersection(*sets) if sets else set()
            required.extend(r for r in sorted(common) if r not in required)
            options = ["{" + ", ".join(sorted(s)) + "}" if s else "{}" for s in sets]
            notes.append(
                f"{'exactly' if key == 'oneOf' else 'at least'} one of these argument sets: " + " | ".join(options)
            )
    out["properties"] = properties
    if required:
        out["required"] = required
    if notes:
        text = "; ".join(notes)
        out["description"] = f"{out['description']} ({text})" if out.get("description") else f"({text})"
    return out
