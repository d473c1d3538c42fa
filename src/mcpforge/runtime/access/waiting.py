"""Calls that wait on each other: one lock per key in this process, and calls waiting for a sign-in to finish."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from .store import Store, StoreError

__all__ = ["KeyedLocks", "SignInWaits"]

logger = logging.getLogger(__name__)
_POLL_SECONDS = 2.0  # waiting calls read the store once per this, all of them in one round...
_POLL_RATE = 10.0  # ...and at most this many reads a second whatever their number


class KeyedLocks:
    """One asyncio lock per key, forgotten when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        """Hold ``key``'s lock (other tasks of this process wait here, not at the shared store)."""
        lock, users = self._locks.get(key) or (asyncio.Lock(), 0)
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)


class SignInWaits:
    """Calls waiting for a sign-in to finish: one task reads the store for all of them, at a bounded rate."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._waiters: dict[str, tuple[asyncio.Event, int]] = {}
        self._task: asyncio.Task[None] | None = None

    async def wait(self, key: str, seconds: float) -> bool:
        """Whether the tokens record ``key`` appeared within ``seconds``."""
        event, count = self._waiters.get(key) or (asyncio.Event(), 0)
        self._waiters[key] = (event, count + 1)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._poll())
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), seconds)
            return event.is_set()
        finally:
            event, count = self._waiters[key]
            if count == 1:
                del self._waiters[key]
            else:
                self._waiters[key] = (event, count - 1)

    def done(self, key: str) -> None:
        """A sign-in finished in this process: its waiters go on at once."""
        if key in self._waiters:
            self._waiters[key][0].set()

    async def _poll(self) -> None:
        while self._waiters:
            keys = [key for key, (event, _) in self._waiters.items() if not event.is_set()]
            for key in keys:
                try:
                    if key in self._waiters and await self._store.get("tokens", key) is not None:
                        self._waiters[key][0].set()
                except StoreError as exc:
                    logger.warning("waiting for a sign-in: %s", exc)
            await asyncio.sleep(max(_POLL_SECONDS, len(keys) / _POLL_RATE))
