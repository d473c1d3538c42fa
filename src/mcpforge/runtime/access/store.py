"""Server-side secrets kept between calls and across replicas: encrypted at rest, in Redis or a local folder.

What per-user sign-in keeps (each user's API tokens, the short-lived state of a sign-in under way)
lives here, never in a client's hands. Every record is encrypted with Fernet (AES-128-CBC with an
HMAC-SHA256, from ``cryptography``) under ``TOKEN_KEY``; several comma-separated keys allow a
rotation (the first encrypts, any decrypts). A record also names its own kind and key inside the
encryption, so a record copied under another user's name is refused, not served to them.

Where: Redis when ``REDIS_URL`` is set (every replica sees every user's sign-in, and it survives
restarts), else one file per record in ``TOKEN_DIR`` (one host: replicas sharing the folder, and
restarts). Names are SHA-256 digests: the store lists no subject. Expired records are never
returned; Redis drops them itself, the folder sweeps them (a file carries its expiry in clear, so
sweeping decrypts nothing). A record this replica cannot decrypt (written under a key it lacks,
during a rotation) is skipped and logged once, never deleted: another replica may read it.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Protocol

import anyio

from ..settings.setting import SettingError

__all__ = [
    "FolderStore",
    "RedisStore",
    "Sealer",
    "Store",
    "StoreError",
    "UnreadableRecord",
    "open_store",
    "record_name",
]

logger = logging.getLogger(__name__)
_LOCK_POLL = 0.05  # seconds between tries for a lock another replica holds
_SWEEP_EVERY = 60.0  # seconds between two sweeps of the folder, at most
_LEFTOVER_AGE = 3600.0  # a temporary file this old was left by a crash
_WARNED_MAX = 1024  # records named in "cannot decrypt" warnings (each once); a bound on that memory


class StoreError(Exception):
    """The store cannot be reached or written; the message names it (never a URL's password)."""


class UnreadableRecord(Exception):
    """A record does not decrypt with any of the keys, or is not the record of that kind and key."""


class Sealer:
    """Encrypts and authenticates records with the ``TOKEN_KEY`` keys (the first encrypts); signs form tokens."""

    def __init__(self, keys: str, variable: str) -> None:
        # cryptography loads only for a server that keeps secrets (sign-in), not at every start.
        from cryptography.fernet import Fernet, MultiFernet  # noqa: PLC0415

        raw = [key.strip() for key in keys.split(",") if key.strip()]
        try:
            fernets = [Fernet(key.encode("ascii")) for key in raw]
        except (ValueError, UnicodeEncodeError):
            raise SettingError(
                f"{variable} holds a key that is not a Fernet key (32 url-safe base64 bytes); make one with: "
                'python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"'
            ) from None
        if not fernets:
            raise SettingError(f"{variable} is empty")
        self._fernet = MultiFernet(fernets)
        # Form tokens are HMACs under keys derived from the same keys: a rotation covers them too.
        self._signing = [hashlib.sha256(b"mcpforge form\0" + key.encode("ascii")).digest() for key in raw]

    def seal(self, kind: str, key: str, value: dict[str, Any], expires: float | None) -> bytes:
        """``value`` encrypted, bound to its kind and key, with its expiry (a Unix time)."""
        record = {"kind": kind, "key": key, "expires": expires, "value": value}
        return self._fernet.encrypt(json.dumps(record, separators=(",", ":")).encode("utf-8"))

    def open(self, kind: str, key: str, sealed: bytes | str) -> dict[str, Any] | None:
        """The value of a sealed record; None when it has expired.

        Raises :class:`UnreadableRecord` when no key decrypts it, or it is another kind's or key's.
        """
        from cryptography.fernet import InvalidToken  # noqa: PLC0415

        try:
            record = json.loads(self._fernet.decrypt(sealed.encode("ascii") if isinstance(sealed, str) else sealed))
        except (InvalidToken, ValueError):  # UnicodeEncodeError too: not a token
            raise UnreadableRecord from None
        if not isinstance(record, dict) or record.get("kind") != kind or record.get("key") != key:
            raise UnreadableRecord
        expires = record.get("expires")
        if expires is not None and expires <= time.time():
            return None
        value = record.get("value")
        return value if isinstance(value, dict) else None

    def sign(self, text: str) -> str:
        """An unforgeable tag of ``text`` (HMAC-SHA256 under the first key)."""
        return hmac.new(self._signing[0], text.encode("utf-8"), hashlib.sha256).hexdigest()

    def verify(self, text: str, tag: str) -> bool:
        """Whether ``tag`` is :meth:`sign`'s tag of ``text`` under any of the keys."""
        return any(
            hmac.compare_digest(hmac.new(k, text.encode("utf-8"), hashlib.sha256).hexdigest(), tag)
            for k in self._signing
        )


def record_name(kind: str, key: str) -> str:
    """The store's name of a record: reveals neither its kind's key (a subject) nor anything else."""
    return hashlib.sha256(f"mcpforge\0{kind}\0{key}".encode()).hexdigest()


class Store(Protocol):
    """Encrypted records by kind and key, each with an optional lifetime."""

    sealer: Sealer

    async def put(self, kind: str, key: str, value: dict[str, Any], ttl: float | None = None) -> None:
        """Keep ``value`` (for ``ttl`` seconds; None: until replaced or deleted)."""

    async def get(self, kind: str, key: str) -> dict[str, Any] | None:
        """The value, or None (absent, expired, or unreadable here)."""

    async def take(self, kind: str, key: str) -> dict[str, Any] | None:
        """The value, removed in the same step: of concurrent takers at most one gets it (single use)."""

    async def delete(self, kind: str, key: str) -> None:
        """Forget the record."""

    def lock(self, kind: str, key: str, seconds: float) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold the record's lock, shared by every replica, for at most ``seconds``; others wait for it."""

    async def ping(self) -> bool:
        """Whether the store answers now (readiness)."""

    async def close(self) -> None:
        """Release connections."""


class _Warnings:
    """Logs each unreadable record once (a rotation in progress would otherwise log it at every read)."""

    def __init__(self) -> None:
        self._named: set[str] = set()

    def unreadable(self, name: str, where: str) -> None:
        if name in self._named:
            return
        if len(self._named) < _WARNED_MAX:
            self._named.add(name)
        logger.warning(
            "a record in the token store (%s, %s...) does not decrypt with this replica's TOKEN_KEY; it is kept "
            "(another replica may hold its key: see the key rotation order in the deployment guide)",
            where,
            name[:12],
        )


# Compare-and-delete: a lock is released only by the holder that took it (its random value).
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


class RedisStore:
    """Records in Redis (``REDIS_URL``): shared by every replica, kept across restarts."""

    def __init__(self, url: str, sealer: Sealer, *, prefix: str) -> None:
        import redis.asyncio as redis  # noqa: PLC0415 - only with REDIS_URL

        # Bounded waits: a Redis that stops answering fails a call in seconds, and readiness says so.
        self._redis = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self.sealer = sealer
        self._prefix = prefix
        self._warnings = _Warnings()

    def _name(self, kind: str, key: str) -> str:
        return f"{self._prefix}:{record_name(kind, key)}"

    async def _run(self, command: str, *args: Any, **options: Any) -> Any:
        import redis.exceptions  # noqa: PLC0415

        try:
            return await getattr(self._redis, command)(*args, **options)
        except redis.exceptions.RedisError as exc:
            raise StoreError(f"the token store (REDIS_URL) failed: {type(exc).__name__}") from None

    def _open(self, kind: str, key: str, sealed: bytes | None) -> dict[str, Any] | None:
        if sealed is None:
            return None
        try:
            return self.sealer.open(kind, key, sealed)
        except UnreadableRecord:
            self._warnings.unreadable(record_name(kind, key), "REDIS_URL")
            return None

    async def put(self, kind: str, key: str, value: dict[str, Any], ttl: float | None = None) -> None:
        """Keep ``value`` (Redis expires it after ``ttl`` seconds)."""
        expires = time.time() + ttl if ttl is not None else None
        sealed = self.sealer.seal(kind, key, value, expires)
        await self._run("set", self._name(kind, key), sealed, px=max(int(ttl * 1000), 1) if ttl is not None else None)

    async def get(self, kind: str, key: str) -> dict[str, Any] | None:
        """The value, or None."""
        return self._open(kind, key, await self._run("get", self._name(kind, key)))

    async def take(self, kind: str, key: str) -> dict[str, Any] | None:
        """The value, removed atomically (GETDEL)."""
        return self._open(kind, key, await self._run("getdel", self._name(kind, key)))

    async def delete(self, kind: str, key: str) -> None:
        """Forget the record."""
        await self._run("delete", self._name(kind, key))

    @contextlib.asynccontextmanager
    async def lock(self, kind: str, key: str, seconds: float) -> AsyncIterator[None]:
        """``SET NX PX``: one holder across every replica; it expires if its holder dies."""
        name = f"{self._name(kind, key)}:lock"
        token = secrets.token_hex(16)
        deadline = time.monotonic() + seconds
        while not await self._run("set", name, token, nx=True, px=max(int(seconds * 1000), 1)):
            if time.monotonic() > deadline:
                raise StoreError("the token store (REDIS_URL) lock was not released in time")
            await anyio.sleep(_LOCK_POLL)
        try:
            yield
        finally:
            with anyio.CancelScope(shield=True):
                await self._run("eval", _RELEASE, 1, name, token)

    async def ping(self) -> bool:
        """Whether Redis answers."""
        try:
            return bool(await self._run("ping"))
        except StoreError:
            return False

    async def close(self) -> None:
        """Close the connection pool."""
        await self._redis.aclose()


_HEADER = b"mcpforge-record 1 "  # then the expiry (Unix time, or -) and a newline, then the sealed record


def _file_expiry(data: bytes) -> tuple[float | None, bytes]:
    """The expiry a record file carries in clear (None: never, or a file written before it did) and its record."""
    if not data.startswith(_HEADER):
        return None, data
    head, _, sealed = data.partition(b"\n")
    stamp = head[len(_HEADER) :]
    try:
        return (None if stamp == b"-" else float(stamp)), sealed
    except ValueError:
        return None, sealed


class FolderStore:
    """One file per record in a folder only this server's user can read (``TOKEN_DIR``); POSIX file locks."""

    def __init__(self, folder: str, sealer: Sealer) -> None:
        self._folder = Path(folder)
        self._folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.sealer = sealer
        self._warnings = _Warnings()
        self._swept = 0.0

    def _path(self, kind: str, key: str) -> Path:
        return self._folder / record_name(kind, key)

    async def put(self, kind: str, key: str, value: dict[str, Any], ttl: float | None = None) -> None:
        """Keep ``value``: written whole to a temporary file, then renamed over the old one."""
        expires = time.time() + ttl if ttl is not None else None
        stamp = b"-" if expires is None else f"{expires:.3f}".encode("ascii")
        data = _HEADER + stamp + b"\n" + self.sealer.seal(kind, key, value, expires)
        try:
            self._write(self._path(kind, key), data)
        except OSError as exc:
            raise StoreError(f"the token store (TOKEN_DIR) cannot be written: {exc.strerror}") from None
        if time.monotonic() - self._swept > _SWEEP_EVERY:
            self.sweep()

    def _write(self, path: Path, data: bytes) -> None:
        handle, temporary = tempfile.mkstemp(dir=self._folder, prefix=".new-")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    def _read(self, path: Path, kind: str, key: str) -> dict[str, Any] | None:
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        expires, sealed = _file_expiry(data)
        if expires is not None and expires <= time.time():
            with contextlib.suppress(OSError):
                path.unlink()
            return None
        try:
            value = self.sealer.open(kind, key, sealed)
        except UnreadableRecord:
            self._warnings.unreadable(record_name(kind, key), "TOKEN_DIR")
            return None
        if value is None:  # expired (a file without the expiry in clear)
            with contextlib.suppress(OSError):
                path.unlink()
        return value

    async def get(self, kind: str, key: str) -> dict[str, Any] | None:
        """The value, or None."""
        return self._read(self._path(kind, key), kind, key)

    async def take(self, kind: str, key: str) -> dict[str, Any] | None:
        """The value, claimed by renaming its file first: of concurrent takers only one rename succeeds."""
        claimed = self._folder / f".taken-{os.getpid()}-{time.monotonic_ns()}"
        try:
            os.rename(self._path(kind, key), claimed)
        except FileNotFoundError:
            return None
        try:
            return self._read(claimed, kind, key)
        finally:
            with contextlib.suppress(OSError):
                claimed.unlink()

    async def delete(self, kind: str, key: str) -> None:
        """Forget the record."""
        with contextlib.suppress(FileNotFoundError):
            self._path(kind, key).unlink()

    @contextlib.asynccontextmanager
    async def lock(self, kind: str, key: str, seconds: float) -> AsyncIterator[None]:
        """An exclusive ``flock`` on the record's lock file: one holder among the processes sharing the folder."""
        import fcntl  # noqa: PLC0415 - POSIX; the folder store is for one Unix host

        path = self._folder / f".lock-{record_name(kind, key)}"
        handle = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
        try:
            deadline = time.monotonic() + seconds
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise StoreError("the token store (TOKEN_DIR) lock was not released in time") from None
                    await anyio.sleep(_LOCK_POLL)
            yield
        finally:
            os.close(handle)  # releases the lock

    async def ping(self) -> bool:
        """Whether the folder can still be written."""
        return os.access(self._folder, os.W_OK | os.X_OK)

    def sweep(self) -> int:
        """Remove expired records, leftovers of interrupted writes, and lock files of records long gone."""
        self._swept = time.monotonic()
        now, removed = time.time(), 0
        try:
            entries = list(os.scandir(self._folder))
        except OSError:
            return 0
        names = {entry.name for entry in entries}
        for entry in entries:
            try:
                age = now - entry.stat().st_mtime
                if entry.name.startswith((".new-", ".taken-")):
                    stale = age > _LEFTOVER_AGE
                elif entry.name.startswith(".lock-"):
                    stale = entry.name.removeprefix(".lock-") not in names and age > 24 * _LEFTOVER_AGE
                else:
                    with open(entry.path, "rb") as file:
                        expires, _ = _file_expiry(file.read(len(_HEADER) + 32))
                    stale = expires is not None and expires <= now
                if stale:
                    os.unlink(entry.path)
                    removed += 1
            except OSError:
                continue
        return removed

    async def close(self) -> None:
        """Nothing to release."""


def open_store(*, redis_url: str, folder: str, keys: str, prefix: str) -> Store:
    """The store the settings name: Redis when ``redis_url`` is set, else ``folder``."""
    sealer = Sealer(keys, f"{prefix}_TOKEN_KEY")
    if redis_url:
        try:
            return RedisStore(redis_url, sealer, prefix=prefix.lower())
        except ValueError:  # the message would quote the URL, and its password
            raise SettingError(
                f"{prefix}_REDIS_URL is not a Redis URL: expected redis://, rediss:// or unix://"
            ) from None
    if os.name != "posix":
        raise SettingError(f"{prefix}_TOKEN_DIR keeps tokens on POSIX systems only; set {prefix}_REDIS_URL")
    try:
        store = FolderStore(folder, sealer)
    except OSError as exc:
        raise SettingError(f"{prefix}_TOKEN_DIR: cannot use {folder!r}: {exc.strerror}") from None
    store.sweep()
    return store
