"""OpenAI bridge for HTTP mode: ``GET /openai/tools`` and ``POST /openai/execute-tools``.

Served only when a bridge token is configured; every request must carry it as a bearer token
(compared in constant time). Request bodies are size-limited and read incrementally, so an
oversized body is refused without being buffered.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Callable, Sequence
from typing import Any

from mcp import types
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..calling.api import Api
from ..modes.code import CodeMode
from . import toolcalls
from .runner import openai_tools

__all__ = ["MAX_CALLS", "bridge_routes"]

MAX_CALLS = 128


class _TooLarge(Exception):
    pass


def _problem(status: int, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers or None)


async def _read_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _TooLarge
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > limit:
            raise _TooLarge
    return bytes(body)


def bridge_routes(
    api: Callable[[], Api],
    *,
    token: str | None,
    max_body: int,
    toolsets: Sequence[str] | None = None,
    code: Callable[[], CodeMode | None] | None = None,
) -> list[Route]:
    """The bridge's routes; ``api`` returns the running server's API (available once it started).

    With ``token``, each request must carry it as a bearer token; without, the caller guards the
    routes (the endpoint's protection). ``code`` returns code mode when the server runs in it: the
    bridge then lists and runs code mode's two tools.
    """
    expected = f"Bearer {token}".encode() if token else None

    def refused(request: Request, method: str) -> Response | None:
        if request.method != method:
            return _problem(405, f"use {method}")
        given = request.headers.get("authorization", "").encode("utf-8", "replace")
        if expected is not None and not hmac.compare_digest(given, expected):
            return _problem(401, "missing or wrong bearer token", **{"WWW-Authenticate": "Bearer"})
        return None

    async def tools(request: Request) -> Response:
        problem = refused(request, "GET")
        if problem is not None:
            return problem
        kind = request.query_params.get("format", "chat")
        if kind not in {"chat", "responses"}:
            return _problem(400, "format must be chat or responses")
        strict = request.query_params.get("strict", "false").lower() in {"1", "true", "yes"}
        mode = "code" if code is not None and code() is not None else "tools"
        listed = openai_tools(kind, strict=strict, toolsets=toolsets, mode=mode)  # type: ignore[arg-type]
        return JSONResponse({"tools": listed})

    async def execute(request: Request) -> Response:
        problem = refused(request, "POST")
        if problem is not None:
            return problem
        try:
            payload: Any = json.loads(await _read_body(request, max_body))
        except _TooLarge:
            return _problem(413, f"request body larger than {max_body:,} bytes")
        except RecursionError:
            return _problem(400, "the body nests too deeply to be a list of tool calls")
        except ValueError as exc:
            return _problem(400, f"the body must be JSON ({exc})")
        key = next((k for k in ("tool_calls", "function_calls") if isinstance(payload, dict) and k in payload), "")
        calls = payload[key] if key else None
        if not isinstance(calls, list):
            return _problem(400, 'send {"tool_calls": [...]} (Chat) or {"function_calls": [...]} (Responses)')
        if len(calls) > MAX_CALLS:
            return _problem(413, f"at most {MAX_CALLS} tool calls per request")
        if any(not isinstance(call, dict) for call in calls):
            return _problem(400, "every tool call must be a JSON object")
        headers = dict(request.headers)  # per-user API credentials, as on the MCP endpoint

        coder = code() if code is not None else None

        async def run(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
            if coder is not None:
                return await coder.call(api(), name, arguments, headers=headers)
            return await api().call(name, arguments, headers=headers)

        if key == "tool_calls":
            return JSONResponse({"messages": await toolcalls.execute_openai_chat(calls, run)})
        return JSONResponse({"outputs": await toolcalls.execute_openai_responses(calls, run)})

    return [Route("/openai/tools", tools, methods=["GET"]), Route("/openai/execute-tools", execute, methods=["POST"])]
