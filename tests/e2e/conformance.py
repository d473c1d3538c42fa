"""Conformance sweep: call every tool of a generated server against Prism and classify the answers.

Prism validates each request against the same spec: a 422 with a ``validation`` body or an
``sl-violations`` header means the request did not conform; 404/405 mean the path or method was
built wrong. Every other answer (2xx, or a 4xx the spec documents and Prism returned as an example)
counts as conforming.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import anyio
import httpx

from e2e.argsynth import arguments
from e2e.harness import PrismServer
from mcpforge.openapi.load import parse_text
from mcpforge.options.model import Options
from mcpforge.pipeline import generate
from mcpforge.runtime.agents import toolcalls
from mcpforge.runtime.calling.api import Api
from mcpforge.runtime.calling.transport import Answer, Upstream
from mcpforge.runtime.settings.table import Settings


@dataclass
class Report:
    """Outcome of a sweep over one document."""

    document: str
    calls: int = 0
    conforming: int = 0
    rejected: list[tuple[str, str]] = field(default_factory=list)  # (tool, Prism's complaint)
    deep_anyof: list[str] = field(default_factory=list)  # tools rejected only by Prism's deepObject/anyOf gap
    unbuildable: list[tuple[str, str]] = field(default_factory=list)  # (tool, why no valid arguments)
    errors: list[tuple[str, str]] = field(default_factory=list)  # (tool, our error text)
    prism_crashes: list[tuple[str, str]] = field(default_factory=list)  # (tool, the request that crashed Prism)


def _body_schema(raw: dict[str, Any], entry: dict[str, Any]) -> Any:
    operation = raw["paths"][entry["path"]][entry["method"].lower()]
    content = (operation.get("requestBody") or {}).get("content") or {}
    return next((media.get("schema") for media in content.values() if isinstance(media, dict)), {})


def _deep_anyof_query(raw: dict[str, Any], entry: dict[str, Any]) -> set[str]:
    """Names of deepObject query parameters whose schema is an ``anyOf``."""
    item = raw["paths"][entry["path"]]
    params = [*(item.get("parameters") or []), *(item[entry["method"].lower()].get("parameters") or [])]
    return {
        p["name"]
        for p in params
        if isinstance(p, dict)
        and p.get("in") == "query"
        and p.get("style") == "deepObject"
        and "anyOf" in (p.get("schema") or {})
    }


def without_response_schemas(spec: Path, out: Path) -> Path:
    """A copy of ``spec`` for Prism with every response schema emptied.

    Prism 5.14 cannot start on some large circular documents (Stripe: over 4 minutes at full CPU
    dereferencing response schemas). The sweep checks requests only, which this does not change.
    """
    raw = parse_text(spec.read_bytes(), name=spec.name)
    for item in (raw.get("paths") or {}).values():
        for operation in item.values() if isinstance(item, dict) else []:
            if not isinstance(operation, dict):
                continue
            for response in (operation.get("responses") or {}).values():
                if not isinstance(response, dict):
                    continue
                if "schema" in response:
                    response["schema"] = {}
                for media in (response.get("content") or {}).values():
                    if isinstance(media, dict) and "schema" in media:
                        media["schema"] = {}
    _prune_unreferenced(raw)
    out.write_text(json.dumps(raw))
    return out


def _prune_unreferenced(raw: dict[str, Any]) -> None:
    """Drop component schemas nothing reachable from the paths refers to (Prism loads them all)."""
    refs: set[str] = set()
    pending: list[Any] = [raw.get("paths")]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/") and ref not in refs:
                refs.add(ref)
                target: Any = raw
                for token in ref[2:].split("/"):
                    target = (
                        target.get(token.replace("~1", "/").replace("~0", "~"), {}) if isinstance(target, dict) else {}
                    )
                pending.append(target)
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
    for container in ((raw.get("components") or {}).get("schemas"), raw.get("definitions")):
        if isinstance(container, dict):
            prefix = "#/definitions/" if container is raw.get("definitions") else "#/components/schemas/"
            for name in [n for n in container if prefix + n.replace("~", "~0").replace("/", "~1") not in refs]:
                del container[name]


def generated_contract(spec: Path) -> Any:
    """The ``tools.json`` contract of ``spec``.

    Input schemas are generated whole (no size budget): this sweep checks that every argument a
    schema allows is serialised as the document says, and a size-trimmed schema (an open object
    in place of a deep definition) cannot promise that for the fields it no longer lists.
    """
    result = generate(Options(spec=spec, max_schema_bytes=0))
    return json.loads(next(f.data for f in result.files if f.path.endswith("/tools.json")))


def _violations(response: httpx.Response) -> list[dict[str, Any]]:
    header = response.headers.get("sl-violations", "")
    if header and not header.startswith("Too many violations!"):
        return [v for v in json.loads(header) if str(v.get("location", [""])[0]) == "request"]
    if response.status_code == 422 and "validation" in response.text:
        with contextlib.suppress(ValueError):
            return [
                {"location": ["request", *v.get("location", [])], "message": v.get("message", "")}
                for v in response.json().get("validation", [])
            ]
    return []


_REQUIRED = re.compile(r"must have required property '([^']+)'")


def _sent_keys(request: httpx.Request) -> set[str]:
    if request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        return {key for key, _ in parse_qsl(request.content.decode(), keep_blank_values=True)}
    return set()


def _anyof_only(
    violations: list[dict[str, Any]], body_schema: Any, raw: dict[str, Any], sent: set[str], query_anyof: set[str]
) -> bool:
    """Every violation is one of Prism's two deepObject gaps, checked against the schema and the body.

    Prism's deepObject deserializer (1) cannot rebuild nodes whose schema is an ``anyOf``, and
    (2) materialises every declared nested object, even one the request did not send, and then
    reports that object's required properties missing.
    """

    def resolve(node: Any) -> Any:
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            target: Any = raw
            for token in node["$ref"][2:].split("/"):
                target = target.get(token, {}) if isinstance(target, dict) else {}
            node = target
        return node

    def through_anyof(path: list[Any]) -> bool:
        """Whether the node at ``path``, or one of its ancestors, is an ``anyOf``."""
        node = resolve(body_schema)
        for token in [*path, None]:
            node = resolve(node)
            if isinstance(node, dict) and "anyOf" in node:
                return True
            if token is None:
                return False
            if isinstance(node, dict) and "properties" in node:
                node = node["properties"].get(str(token), {})
            elif isinstance(node, dict) and "items" in node:
                node = node["items"]
            else:
                return False
        return False

    if not violations:
        return False
    for violation in violations:
        location = violation.get("location", [])
        if location[:2] not in (["request", "body"], ["request", "query"]):
            return False
        path = location[2:]
        required = _REQUIRED.search(str(violation.get("message", "")))
        if location[1] == "query":
            if path and str(path[0]) in query_anyof:
                continue
            return False
        prefix = str(path[0]) + "".join(f"[{p}]" for p in path[1:]) if path else ""
        phantom = required is not None and path and not any(k == prefix or k.startswith(prefix + "[") for k in sent)
        if not (phantom or through_anyof([*path, required.group(1)] if required else path)):
            return False
    return True


def _complaint(response: httpx.Response) -> str | None:
    violations = response.headers.get("sl-violations")
    if violations:
        if violations.startswith("Too many violations!"):  # Prism truncates long lists; look for request ones
            return violations[:300] if '"location":["request"' in violations else None
        found = [v for v in json.loads(violations) if str(v.get("location", ["request"])[0]) == "request"]
        if found:
            return "; ".join(f"{'.'.join(map(str, v.get('location', [])))}: {v.get('message')}" for v in found)
    if response.status_code == 422 and "validation" in response.text:
        return response.text[:500]
    if response.status_code in (404, 405) and ("NO_PATH_MATCHED" in response.text or "NO_METHOD" in response.text):
        return f"HTTP {response.status_code}: {response.text[:200]}"
    return None


@dataclass(frozen=True, slots=True)
class _Replay(Answer):
    """An answer whose body was read already (to record it): its chunks are that body."""

    content: bytes = b""

    async def chunks(self) -> AsyncIterator[bytes]:
        yield self.content


class RecordingUpstream(Upstream):
    """The runtime's own connections, recording each exchange as an httpx.Response (what the checks read)."""

    def __init__(self) -> None:
        super().__init__(timeout=30, user_agent="mcpforge-conformance")
        self.seen: list[httpx.Response] = []

    @contextlib.asynccontextmanager
    async def request(
        self, method: str, url: str, headers: Mapping[str, str], body: bytes | None = None
    ) -> AsyncIterator[Answer]:
        async with super().request(method, url, headers, body) as answer:
            content = b"".join([chunk async for chunk in answer.chunks()])
            shown = [(k, v) for k, v in answer.headers.items() if k.lower() != "content-encoding"]  # decoded
            sent = httpx.Request(method, url, headers=dict(headers), content=body or b"")
            self.seen.append(httpx.Response(answer.status, headers=shown, content=content, request=sent))
            yield _Replay(answer.status, answer.reason, answer.headers, answer.url, answer.response, content)


async def sweep(spec: Path, upstream: PrismServer) -> Report:
    """Call every tool once with arguments built from its input schema."""
    data = generated_contract(spec)
    raw = parse_text(spec.read_bytes(), name=spec.name)
    config = data["server"]
    credentials = {
        var: "test-credential-value"
        for scheme in config["securitySchemes"].values()
        for kind, var in scheme["env"].items()
        if kind not in ("clientId", "clientSecret")
    }
    report = Report(document=spec.name)
    async with RecordingUpstream() as client:
        seen = client.seen
        api = Api(data, Settings(base_url=upstream.url, credentials=credentials), client)
        for entry in data["tools"]:
            tool = entry["tool"]
            try:
                args, _ = arguments(tool["inputSchema"])
            except ValueError as exc:
                report.unbuildable.append((tool["name"], str(exc)))
                continue
            args.pop(entry.get("select", ""), None)  # field selection is the server's, never sent upstream
            args.pop(entry.get("pageUrl", ""), None)  # only ever a URL a previous result gave
            seen.clear()
            result = await api.call(tool["name"], args)
            report.calls += 1
            if not seen:
                await anyio.sleep(0.3)  # a crashing Prism drops the connection before it exits
                if not upstream.alive():
                    report.prism_crashes.append((tool["name"], json.dumps(args)[:300]))
                    upstream.restart()
                    api = Api(data, Settings(base_url=upstream.url, credentials=credentials), client)
                else:
                    report.errors.append((tool["name"], toolcalls.result_text(result)[:300]))
                continue
            complaint = _complaint(seen[-1])
            sent = _sent_keys(seen[-1].request)
            if complaint and _anyof_only(
                _violations(seen[-1]), _body_schema(raw, entry), raw, sent, _deep_anyof_query(raw, entry)
            ):
                report.deep_anyof.append(tool["name"])
                report.rejected.append((tool["name"], complaint))
            elif complaint:
                report.rejected.append((tool["name"], complaint))
            else:
                report.conforming += 1
    return report
