"""Conformance sweep: call every tool of a generated server against Prism and classify the answers.

Prism validates each request against the same spec: a 422 with a ``validation`` body or an
``sl-violations`` header means the request did not conform; 404/405 mean the path or method was
built wrong. Every other answer (2xx, or a 4xx the spec documents and Prism returned as an example)
counts as conforming.
"""

from __future__ import annotations

import importlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx

from e2e.argsynth import arguments
from e2e.harness import PrismServer
from mcpforge.generate import GenerateOptions, generate
from mcpforge.render.write import write_tree


@dataclass
class Report:
    """Outcome of a sweep over one document."""

    document: str
    calls: int = 0
    conforming: int = 0
    rejected: list[tuple[str, str]] = field(default_factory=list)  # (tool, Prism's complaint)
    unbuildable: list[tuple[str, str]] = field(default_factory=list)  # (tool, why no valid arguments)
    errors: list[tuple[str, str]] = field(default_factory=list)  # (tool, our error text)
    prism_crashes: list[tuple[str, str]] = field(default_factory=list)  # (tool, the request that crashed Prism)


def load_generated(spec: Path, workdir: Path) -> Any:
    """Generate ``spec`` into ``workdir`` and import its server module."""
    result = generate(GenerateOptions(spec=spec))
    write_tree(result.files, workdir, force=True)
    package = next(f.path.split("/")[1] for f in result.files if f.path.endswith("/server.py"))
    sys.path.insert(0, str(workdir / "src"))
    try:
        return importlib.import_module(f"{package}.server"), importlib.import_module(f"{package}.runtime")
    finally:
        sys.path.remove(str(workdir / "src"))


def _complaint(response: httpx.Response) -> str | None:
    violations = response.headers.get("sl-violations")
    if violations:
        found = [v for v in json.loads(violations) if str(v.get("location", ["request"])[0]) == "request"]
        if found:
            return "; ".join(f"{'.'.join(map(str, v.get('location', [])))}: {v.get('message')}" for v in found)
    if response.status_code == 422 and "validation" in response.text:
        return response.text[:500]
    if response.status_code in (404, 405) and ("NO_PATH_MATCHED" in response.text or "NO_METHOD" in response.text):
        return f"HTTP {response.status_code}: {response.text[:200]}"
    return None


async def sweep(spec: Path, workdir: Path, upstream: PrismServer) -> Report:
    """Call every tool once with arguments built from its input schema."""
    server, runtime = load_generated(spec, workdir)
    config = server.DATA["server"]
    credentials = {
        var: "test-credential-value"
        for scheme in config["securitySchemes"].values()
        for kind, var in scheme["env"].items()
        if kind not in ("clientId", "clientSecret")
    }
    report = Report(document=spec.name)
    seen: list[httpx.Response] = []

    async def record(response: httpx.Response) -> None:
        await response.aread()
        seen.append(response)

    async with httpx.AsyncClient(timeout=30, event_hooks={"response": [record]}) as client:
        api = runtime.Api(server.DATA, runtime.Settings(base_url=upstream.url, credentials=credentials), client)
        for entry in server.DATA["tools"]:
            tool = entry["tool"]
            try:
                args, _ = arguments(tool["inputSchema"])
            except ValueError as exc:
                report.unbuildable.append((tool["name"], str(exc)))
                continue
            seen.clear()
            result = await api.call(tool["name"], args)
            report.calls += 1
            if not seen:
                await anyio.sleep(0.3)  # a crashing Prism drops the connection before it exits
                if not upstream.alive():
                    report.prism_crashes.append((tool["name"], json.dumps(args)[:300]))
                    upstream.restart()
                    api = runtime.Api(
                        server.DATA, runtime.Settings(base_url=upstream.url, credentials=credentials), client
                    )
                else:
                    report.errors.append((tool["name"], result.content[0].text[:300]))
                continue
            complaint = _complaint(seen[-1])
            if complaint:
                report.rejected.append((tool["name"], complaint))
            else:
                report.conforming += 1
    return report
