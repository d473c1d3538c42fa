"""Server-side secrets kept between calls and across replicas: encrypted at rest, in Redis or a local folder.

What per-user sign-in keeps (each user's API tokens, the short-lived state of a sign-in under way)
lives here, never in a client's hands. Every record is encrypted with Fernet (AES-128-CBC with an
HMAC-SHA256, from ``cryptography``) under ``TOKEN_KEY``; several comma-separated keys allow a
rotation (the first encrypts, any decrypts). A record also names its own kind and key inside the
encryption, so a record copied under another user's name is refused, not served to them.

Where: Redis when ``REDIS_URL`` is set (every replica sees every user's sign-in, and it survives
restarts), else one file per record in ``TOKEN_DIR`` (one host: replicas sharing the folder, and
restarts). Names are SHA-256 digests: the store lists no subject. Expired records are never
returned; Redis drops them itself, the folder when they are next read.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any, Protocol

from .setting import SettingError

__all__ = ["FolderStore", "RedisStore", "Sealer", "Store", "StoreError", "open_store", "record_name"]


class StoreError(Exception):
    """The store cannot be reached or written; the message names it (never a URL's password)."""


class Sealer:
    """Encrypts and authenticates records with the ``TOKEN_KEY`` keys (the first encrypts)."""

    def __init__(self, keys: str, variable: str) -> None:
        # cryptography loads only for a server that keeps secrets (sign-in), not at every start.
        from cryptography.fernet import Fernet, MultiFernet  # noqa: PLC0415

        try:
            fernets = [Fernet(key.strip().encode("ascii")) for key in keys.split(",") if key.strip()]
        except (ValueError, UnicodeEncodeError):
            raise SettingError(
                f"{variable} holds a key that is not a Fernet key (32 url-safe base64 bytes); make one with: "
                'python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"'
            ) from None
        if not fernets:
            raise SettingError(f"{variable} is empty")
        self._fernet = MultiFernet(fernets)

    def seal(self, kind: str, key: str, value: dict[str, Any], expires: float | None) -> bytes:
        """``value`` encrypted, bound to its kind and key, with its expiry (a Unix time)."""
        record = {"kind": kind, "key": key, "expires": expires, "value": value}
        return self._fernet.encrypt(json.dumps(record, separators=(",", ":")).encode("utf-8"))

    def open(self, kind: str, key: str, sealed: bytes | str) -> dict[str, Any] | None:
        """The value of a sealed record; None when it is expired, tampered with or not this kind's and key's."""
        from cryptography.fernet import InvalidToken  # noqa: PLC0415

        try:
            record = json.loads(self._fernet.decrypt(sealed.encode("ascii") if isinstance(sealed, str) else sealed))
        except (InvalidToken, ValueError):  # UnicodeEncodeError too: not a token
            return None
        if not isinstance(record, dict) or record.get("kind") != kind or record.get("key") != key:
            return None
        expires = record.get("expires")
        if expires is not None and expires <= time.time():
            return None
        value = record.get("value")
        return value if isinstance(value, dict) else None


def record_name(kind: str, key: str) -> str:
    """The store's name of a record: reveals neither its kind's key (a subject) nor anything else."""
    return hashlib.sha256(f"mcpforge\0{kind}\0{key}".encode()).hexdigest()


class Store(Protocol):
    """Encrypted records by kind and key, each with an optional lifetime."""

    async def put(self, kind: str, key: str, value: dict[str, Any], ttl: float | None = None) -> None:
        """Keep ``value`` (for ``ttl`` seconds; None: until replaced or deleted)."""

    async def get(self, kind: str, key: str) -> dict[str, Any] | None:
        """The value, or None."""

    async def take(self, kind: str, key: str) -> dict[str, Any] | None:
        """The value, removed in the same step: of concurrent takers at most one gets it (single use)."""

    async def delete(self, kind: str, key: str) -> None:
        """Forget the record."""

    async def close(self) -> None:
        """Release connections."""


class RedisStore:
    """Records in Redis (``REDIS_URL``): shared by every replica, kept across restarts."""

    def __init__(self, url: str, sealer: Sealer, *, prefix: str) -> None:
        import redis.asyncio as redis  # noqa: PLC0415 - only with REDIS_URL

        self._redis = redis.Redis.from_url(url)
        self._sealer = sealer
        self._prefix = prefix

    def _name(self, kind: str, key: str) -> str:
        return f"{self._prefix}:{record_name(kind, key)}"

    async def _run(self, command: str, *args: Any, **options: Any) -> Any:
        import redis.exceptions  # noqa: PLC0415

        try:
            return await getattr(self._redis, command)(*args, **options)
        except redis.exceptions.RedisError as exc:
            raise StoreError(f"the token store (REDIS_URL) failed: {type(exc).__name__}") from None

    async def put(self, kind: str, key: str, value: dict[str, Any], ttl: float | None = None) -> None:
        """Keep ``value`` (Redis expires it after ``ttl`` seconds)."""
        expires = time.time() + ttl if ttl is not None else None
        sealed = self._sealer.seal(kind, key, value, expires)
        await self._run("set", self._name(kind, key), sealed, px=int(ttl * 1000) if ttl is not None else None)

    async def get(self, kind: str, key: str) -> dict[str, Any] | None:
        """The value, or None."""
        sealed = await self._run("get", self._name(kind, key))
        return self._sealer.open(kind, key, sealed) if sealed is not None else None

    async def take(self, kind: str, key: str) -> dict[str, Any] | None:
        """The value, removed atomically (GETDEL)."""
        sealed = await self._run("getdel", self._name(kind, key))
        return self._sealer.open(kind, key, sealed) if sealed is not None else None

    async def delete(self, kind: str, key: str) -> None:
        """Forget the record."""
        await self._run("delete", self._name(kind, key))

    async def close(self) -> None:
        """Close the connection pool."""
        await self._redis.aclose()


class FolderStore:
    """One file per record in a folder only this server's user can read (``TOKEN_DIR``)."""

    def __init__(self, folder: str, sealer: Sealer) -> None:
        self._folder = Path(folder)
        self._folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._sealer = sealer

    def _path(self, kind: str, key: str) -> Path:
        return self._folder / record_name(kind, key)

    async def put(self, kind: str, key: str, value: dict[str, Any], ttl: float | None = None) -> None:
        """Keep ``value``: written whole to a temporary file, then renamed over the old one."""
        expires = time.time() + ttl if ttl is not None else None
        sealed = self._sealer.seal(kind, key, value, expires)
        try:
            self._write(self._path(kind, key), sealed)
        except OSError as exc:
            raise StoreError(f"the token store (TOKEN_DIR) cannot be written: {exc.strerror}") from None

    def _write(self, path: Path, sealed: bytes) -> None:
        handle, temporary = tempfile.mkstemp(dir=self._folder, prefix=".new-")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(sealed)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    def _read(self, path: Path, kind: str, key: str) -> dict[str, Any] | None:
        try:
            sealed = path.read_bytes()
        except FileNotFoundError:
            return None
        value = self._sealer.open(kind, key, sealed)
        if value is None:
            with contextlib.suppress(OSError):
                path.unlink()  # expired (or unreadable): gone for good
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
    try:
        return FolderStore(folder, sealer)
    except OSError as exc:
        raise SettingError(f"{prefix}_TOKEN_DIR: cannot use {folder!r}: {exc.strerror}") from None
