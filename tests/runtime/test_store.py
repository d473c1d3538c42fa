"""The encrypted store of users' API tokens and sign-in state: real Redis and a local folder, the same contract."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
import redis
from cryptography.fernet import Fernet

from helpers import redis_server
from mcpforge.runtime.access.store import (
    FolderStore,
    RedisStore,
    Sealer,
    Store,
    StoreError,
    open_store,
    record_name,
)
from mcpforge.runtime.settings.setting import SettingError

KEY = Fernet.generate_key().decode()
ACCESS = "gho_api-access-token-of-alice-0123456789"
SUBJECT = "alice@example.com"


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real redis-server on loopback, persisting nothing."""
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


def _stores(kind: str, redis_url: str, folder: Path, keys: str = KEY) -> Store:
    if kind == "redis":
        return open_store(redis_url=redis_url, folder="", keys=keys, prefix="PETSTORE")
    return open_store(redis_url="", folder=str(folder), keys=keys, prefix="PETSTORE")


def _raw(kind: str, redis_url: str, folder: Path) -> bytes:
    """Everything the store holds, as an operator reading it directly would see it."""
    if kind == "redis":
        client = redis.Redis.from_url(redis_url, decode_responses=False)
        return b"".join(f"{name!r}={client.get(name)!r}".encode() for name in client.keys("*"))
    return b"".join(p.name.encode() + b"=" + p.read_bytes() for p in sorted(folder.iterdir()))


@pytest.mark.parametrize("kind", ["redis", "folder"])
def test_a_record_is_shared_by_every_instance_and_unreadable_at_rest(kind: str, redis_url: str, tmp_path: Path) -> None:
    async def scenario() -> list[Any]:
        first, second = _stores(kind, redis_url, tmp_path), _stores(kind, redis_url, tmp_path)
        await first.put("tokens:github", SUBJECT, {"access_token": ACCESS})
        # Another replica, or the same server after a restart: a new store, the same record.
        seen = [await second.get("tokens:github", SUBJECT), await second.get("tokens:github", "bob")]
        raw = _raw(kind, redis_url, tmp_path)
        await second.delete("tokens:github", SUBJECT)
        seen.append(await first.get("tokens:github", SUBJECT))
        await first.close()
        await second.close()
        return [*seen, raw]

    alice, bob, deleted, raw = anyio.run(scenario)
    assert alice == {"access_token": ACCESS} and bob is None and deleted is None
    assert ACCESS.encode() not in raw and b"alice" not in raw and b"github" not in raw


@pytest.mark.parametrize("kind", ["redis", "folder"])
def test_a_pending_sign_in_is_taken_once_and_expires(kind: str, redis_url: str, tmp_path: Path) -> None:
    async def scenario() -> list[Any]:
        store = _stores(kind, redis_url, tmp_path)
        await store.put("sign-in", "state-1", {"subject": SUBJECT}, ttl=60)
        await store.put("sign-in", "state-2", {"subject": SUBJECT}, ttl=0.2)
        takers: list[Any] = []

        async def take() -> None:
            takers.append(await store.take("sign-in", "state-1"))

        async with anyio.create_task_group() as group:
            for _ in range(5):
                group.start_soon(take)
        await anyio.sleep(0.4)
        expired = await store.get("sign-in", "state-2")
        await store.close()
        return [takers, expired]

    takers, expired = anyio.run(scenario)
    assert takers.count({"subject": SUBJECT}) == 1 and takers.count(None) == 4
    assert expired is None


def test_a_record_copied_under_another_name_is_refused(tmp_path: Path) -> None:
    store = FolderStore(str(tmp_path), Sealer(KEY, "PETSTORE_TOKEN_KEY"))

    async def scenario() -> Any:
        await store.put("tokens:github", SUBJECT, {"access_token": ACCESS})
        await store.put("tokens:github", "mallory", {"access_token": "mallory-token-0123456789"})
        # Someone with write access to the store puts alice's record under mallory's name.
        (tmp_path / record_name("tokens:github", "mallory")).write_bytes(
            (tmp_path / record_name("tokens:github", SUBJECT)).read_bytes()
        )
        return await store.get("tokens:github", "mallory")

    assert anyio.run(scenario) is None


def test_keys_rotate_the_first_encrypts_any_decrypts(redis_url: str) -> None:
    new = Fernet.generate_key().decode()

    async def scenario() -> list[Any]:
        old_store = RedisStore(redis_url, Sealer(KEY, "V"), prefix="rotation")
        await old_store.put("tokens:x", SUBJECT, {"n": 1})
        rotated = RedisStore(redis_url, Sealer(f"{new},{KEY}", "V"), prefix="rotation")
        only_new = RedisStore(redis_url, Sealer(new, "V"), prefix="rotation")
        seen = [await rotated.get("tokens:x", SUBJECT), await only_new.get("tokens:x", SUBJECT)]
        for store in (old_store, rotated, only_new):
            await store.close()
        return seen

    assert anyio.run(scenario) == [{"n": 1}, None]


@pytest.mark.parametrize("keys", ["not-a-key", "", " , "])
def test_a_bad_key_is_one_line_saying_how_to_make_one(keys: str, tmp_path: Path) -> None:
    with pytest.raises(SettingError, match="PETSTORE_TOKEN_KEY"):
        open_store(redis_url="", folder=str(tmp_path), keys=keys, prefix="PETSTORE")


def test_a_folder_that_cannot_be_made_names_its_variable(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(SettingError, match="PETSTORE_TOKEN_DIR: cannot use"):
        open_store(redis_url="", folder=str(blocker / "tokens"), keys=KEY, prefix="PETSTORE")


@pytest.mark.parametrize("kind", ["redis", "folder"])
def test_a_record_this_replica_cannot_decrypt_is_kept_and_logged_once(
    kind: str, redis_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Finding 4: during a rolling key rotation, a replica without the new key must not sign users out."""
    new = Fernet.generate_key().decode()

    async def scenario() -> list[Any]:
        rotated = _stores(kind, redis_url, tmp_path, keys=f"{new},{KEY}")  # already rotated: writes with the new key
        behind = _stores(kind, redis_url, tmp_path, keys=KEY)  # not yet: cannot read it
        await rotated.put("tokens", "alice-rot", {"access_token": ACCESS}, ttl=3600)
        seen = [await behind.get("tokens", "alice-rot") for _ in range(3)]
        seen.append(await rotated.get("tokens", "alice-rot"))  # still there for the replica that can read it
        await rotated.delete("tokens", "alice-rot")
        for store in (rotated, behind):
            await store.close()
        return seen

    with caplog.at_level("WARNING"):
        assert anyio.run(scenario) == [None, None, None, {"access_token": ACCESS}]
    warnings = [r for r in caplog.records if "does not decrypt" in r.getMessage()]
    assert len(warnings) == 1 and ACCESS not in caplog.text


def test_the_folder_sweeps_expired_records_and_leftovers_and_keeps_the_rest(tmp_path: Path) -> None:
    store = FolderStore(str(tmp_path), Sealer(KEY, "K"))
    other = FolderStore(str(tmp_path), Sealer(Fernet.generate_key().decode(), "K"))

    async def scenario() -> None:
        await store.put("link", "never-opened", {"n": 1}, ttl=0.05)
        await store.put("tokens", "alice", {"n": 2}, ttl=3600)
        await store.put("tokens", "kept-forever", {"n": 3})
        await other.put("tokens", "other-key", {"n": 4}, ttl=0.05)  # expired, and unreadable here: still swept

    anyio.run(scenario)
    leftover = tmp_path / ".new-crashed"
    leftover.write_bytes(b"half")
    os.utime(leftover, (time.time() - 7200, time.time() - 7200))
    time.sleep(0.1)
    assert store.sweep() == 3
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted([record_name("tokens", "alice"), record_name("tokens", "kept-forever")])


@pytest.mark.parametrize("kind", ["redis", "folder"])
def test_a_lock_has_one_holder_across_store_instances(kind: str, redis_url: str, tmp_path: Path) -> None:
    async def scenario() -> list[str]:
        stores = [_stores(kind, redis_url, tmp_path) for _ in range(3)]
        events: list[str] = []

        async def hold(index: int) -> None:
            async with stores[index].lock("tokens", "alice", 10):
                events.append(f"in {index}")
                await anyio.sleep(0.1)
                events.append(f"out {index}")

        async with anyio.create_task_group() as group:
            for index in range(3):
                group.start_soon(hold, index)
        for store in stores:
            await store.close()
        return events

    events = anyio.run(scenario)
    assert len(events) == 6
    assert all(events[i].startswith("in") and events[i + 1] == events[i].replace("in", "out") for i in (0, 2, 4))


def test_a_store_that_stops_answering_says_so_and_a_lock_gives_up(tmp_path: Path) -> None:
    async def scenario() -> list[Any]:
        store = open_store(redis_url="redis://127.0.0.1:9/0", folder="", keys=KEY, prefix="PETSTORE")
        alive = await store.ping()
        try:
            await store.get("tokens", "alice")
        except StoreError as exc:
            failure = str(exc)
        await store.close()
        return [alive, failure]

    alive, failure = anyio.run(scenario)
    assert alive is False and "REDIS_URL" in failure and "127.0.0.1" not in failure
