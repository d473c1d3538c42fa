"""Programs run in Monty (pydantic-monty), a Python interpreter in Rust, in worker processes: code mode's sandbox.

A program sees two host modules, already imported: ``api``, whose functions return the API's
answer (``api.issues_list(owner="a", repo="b")``), and ``aio``, the same functions as awaitables,
for calls that run at once (``await asyncio.gather(aio.a(...), aio.b(...))``). It has no
filesystem, network, environment or processes: Monty offers none unless the host does, and
this host offers only the functions. Every run gets a fresh interpreter session (nothing one run
or caller defines is seen by another) and ends, with an error naming the setting, when it runs
too long, calls the API too often, uses too much memory or prints too much. A crashing program
takes down its worker only, which the pool replaces.

The host drives each run: at every call of a function the worker pauses, the host makes the call
(:class:`Call`: the same path as a tool call), and resumes the program with the answer or with the
error raised at the call (``OSError`` for the API's errors, ``ValueError`` for invalid arguments).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Failure", "Limits", "Run", "Sandbox", "SandboxUnavailable"]

_OVER = re.compile(r"limit exceeded: \d+ bytes > (\d+) bytes")
# Each run starts with this, so a program uses api, aio and asyncio without importing them.
_PRELUDE = "import api, aio, asyncio"


class SandboxUnavailable(RuntimeError):
    """pydantic-monty is not installed (the package's ``code`` extra)."""


@dataclass(frozen=True, slots=True)
class Failure:
    """A call that failed: the exception the program gets at the call (``OSError``, ``ValueError``...)."""

    exception: str
    message: str


# One function call of a program: (function name, keyword arguments) -> the answer, or a Failure.
Call = Callable[[str, dict[str, Any]], Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class Limits:
    """What one run may use; ``names`` are the settings that set each, for the error that names it."""

    seconds: float = 30.0
    calls: int = 50
    memory_mb: int = 256
    output_bytes: int = 1_000_000
    names: dict[str, str] = field(default_factory=dict)  # "seconds" -> "PETSTORE_CODE_TIMEOUT"...

    def name(self, limit: str) -> str:
        """The setting of ``limit`` (its variable when known)."""
        return self.names.get(limit, limit)


@dataclass(frozen=True, slots=True)
class Run:
    """How a run ended: the value of its last expression, what it printed, its calls, or the error that ended it."""

    value: Any = None
    printed: str = ""
    calls: int = 0
    error: str | None = None


class Sandbox:
    """A pool of Monty workers for one server, started at the first run and closed with the server."""

    def __init__(self, functions: Sequence[str], *, workers: int | None = None) -> None:
        self._functions = list(functions)
        self._workers = workers
        self._pool: Any = None
        self._modules: dict[str, Any] = {}
        self._lock = asyncio.Lock()

    async def _started(self) -> Any:
        async with self._lock:
            if self._pool is None:
                try:
                    from pydantic_monty import AsyncMonty, ExternalModule  # noqa: PLC0415
                except ImportError:
                    raise SandboxUnavailable(
                        "code mode needs pydantic-monty: install the package's 'code' extra"
                    ) from None

                def host_only(*_: Any, **__: Any) -> None:  # the host answers every call itself (see run)
                    raise RuntimeError("called outside a run")

                attrs = dict.fromkeys(self._functions, host_only)
                self._modules = {"api": ExternalModule(attrs), "aio": ExternalModule(attrs)}
                pool = AsyncMonty(max_processes=self._workers)
                self._pool = await pool.__aenter__()
            return self._pool

    async def close(self) -> None:
        """Stop the workers (the server is shutting down)."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.__aexit__(None, None, None)

    async def run(self, code: str, call: Call, limits: Limits) -> Run:
        """Run ``code`` in a fresh session, answering its function calls with ``call``, within ``limits``."""
        from pydantic_monty import MontyError  # noqa: PLC0415

        pool = await self._started()
        printed = _Printed(limits.output_bytes, asyncio.get_running_loop())
        counter = _Calls(call, limits)
        session_limits = {
            "max_feed_duration_secs": limits.seconds,
            "max_memory": limits.memory_mb * 1024 * 1024,
            "max_suspensions": limits.calls * 4 + 100,  # calls, futures and imports; the call limit comes first
        }
        try:
            async with asyncio.timeout(limits.seconds):
                async with pool.checkout(limits=session_limits, external_modules=self._modules) as session:
                    await session.feed_run(_PRELUDE)
                    value = await _watched(
                        counter.drive(lambda: session.feed_start(code, print_callback=printed)), printed
                    )
        except TimeoutError:
            return counter.ended(
                printed.text, f"The program ran longer than {limits.seconds:g} s ({limits.name('seconds')})."
            )
        except _TooManyCalls:
            return counter.ended(
                printed.text,
                f"The program made more than {limits.calls} API calls ({limits.name('calls')}); "
                "make fewer calls (larger pages, fewer items), or raise the limit.",
            )
        except _TooMuchOutput:
            return counter.ended(
                printed.text,
                f"The program printed more than {limits.output_bytes:,} bytes ({limits.name('output')}); print less: "
                "summaries, counts, or the items needed.",
            )
        except MontyError as exc:
            return counter.ended(printed.text, _explained(exc, limits))
        return Run(value, printed.text, counter.count)


async def _watched(driving: Awaitable[Any], printed: _Printed) -> Any:
    """The run's value; stopped (its worker's feed cancelled) as soon as it prints past the cap, or is cancelled.

    Monty reports a print cap only when the feed ends, and a checkout waits for its feed to end:
    the feed is cancelled here, inside the checkout, so a stopped run frees its worker at once.
    """
    task = asyncio.ensure_future(driving)
    full = asyncio.ensure_future(printed.full.wait())
    try:
        await asyncio.wait({task, full}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        full.cancel()
        if not task.done():
            task.cancel()
        with contextlib.suppress(BaseException):  # its outcome retrieved, even when the run's time ran out with it
            await task
    if task.cancelled():
        raise _TooMuchOutput
    return task.result()


class _Printed:
    """What a program prints, up to the cap; past it, ``full`` is set (from the worker's thread)."""

    def __init__(self, cap: int, loop: asyncio.AbstractEventLoop) -> None:
        self._cap, self._loop = cap, loop
        self._parts: list[str] = []
        self._size = 0
        self.full = asyncio.Event()

    def __call__(self, stream: str, text: str) -> None:
        if self._size > self._cap:
            return
        self._parts.append(text)
        self._size += len(text.encode("utf-8"))
        if self._size > self._cap:
            self._loop.call_soon_threadsafe(self.full.set)

    @property
    def text(self) -> str:
        """Everything printed, cut at the cap."""
        return "".join(self._parts).encode("utf-8")[: self._cap].decode("utf-8", errors="ignore")


class _TooMuchOutput(Exception):
    """The program printed more than the cap allows."""


class _TooManyCalls(Exception):
    """The program asked for one call more than the limit allows."""


class _Calls:
    """Drives one run: answers each function call, counts them, and runs ``aio`` calls concurrently."""

    def __init__(self, call: Call, limits: Limits) -> None:
        self._call, self._limits = call, limits
        self.count = 0
        self._pending: dict[int, asyncio.Task[Any]] = {}

    def ended(self, printed: str, error: str) -> Run:
        for task in self._pending.values():
            task.cancel()
        return Run(None, printed, self.count, error)

    def _answer(self, function: str, kwargs: dict[str, Any]) -> Awaitable[Any]:
        self.count += 1
        if self.count > self._limits.calls:
            raise _TooManyCalls
        return self._call(function, kwargs)

    async def drive(self, start: Callable[[], Awaitable[Any]]) -> Any:
        """Start the run and answer its snapshots until the program completes; its last value."""
        from pydantic_monty import (  # noqa: PLC0415
            AsyncFunctionSnapshot,
            AsyncFutureSnapshot,
            MontyComplete,
        )

        snapshot = await start()
        while not isinstance(snapshot, MontyComplete):
            if isinstance(snapshot, AsyncFunctionSnapshot) and not snapshot.is_os_function:
                module, _, function = str(snapshot.function_name).partition(".")
                if module not in ("api", "aio") or not function:  # a name the program never defined
                    snapshot = await snapshot.resume(_raise("NameError", f"name {module!r} is not defined"))
                elif snapshot.args:
                    snapshot = await snapshot.resume(
                        _raise("TypeError", f"call {module}.{function} with keyword arguments")
                    )
                elif module == "aio":  # an awaitable: started now, settled when the program awaits it
                    self._pending[snapshot.call_id] = asyncio.ensure_future(self._answer(function, snapshot.kwargs))
                    snapshot = await snapshot.resume({"future": ...})
                else:
                    snapshot = await snapshot.resume(_settled(await self._answer(function, snapshot.kwargs)))
            elif isinstance(snapshot, AsyncFutureSnapshot):
                waiting = [self._pending[i] for i in snapshot.pending_call_ids if i in self._pending]
                await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                done = {i: self._pending.pop(i) for i in list(snapshot.pending_call_ids) if self._pending[i].done()}
                snapshot = await snapshot.resume({i: _settled(task.result()) for i, task in done.items()})
            else:  # an import, another OS call or an unknown name: Monty's own answer (refused, or NameError)
                snapshot = await snapshot.resume_auto()
        return snapshot.output


def _raise(exception: str, message: str) -> Any:  # pydantic_monty's ExternalExceptionData
    return {"exc_type": exception, "message": message}


def _settled(answer: Any) -> Any:  # pydantic_monty's ExternalSettledResult
    return _raise(answer.exception, answer.message) if isinstance(answer, Failure) else {"return_value": answer}


def _explained(error: Any, limits: Limits) -> str:
    """A run's error as the model reads it: the program's traceback, and the setting a limit names."""
    display = getattr(error, "display", None)  # a runtime error's traceback; a crashed worker has none
    text = str(display() if callable(display) else error)
    over = _OVER.search(text)
    if over and int(over.group(1)) == limits.output_bytes:
        text += f"\n(The program printed more than {limits.output_bytes:,} bytes: {limits.name('output')}.)"
    elif over:
        text += f"\n(The program used more than {limits.memory_mb} MB: {limits.name('memory')}.)"
    elif "time limit exceeded" in text:
        text += f"\n(The program ran longer than {limits.seconds:g} s: {limits.name('seconds')}.)"
    return f"The program failed:\n{text}"
