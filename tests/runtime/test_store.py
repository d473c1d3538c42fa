"""The encrypted store of users' API tokens and sign-in state: real Redis and a local folder, the same contract."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
import redis
from cryptography.fernet import Fernet

from helpers import redis_server
from mcpforge.runtime.setting import SettingError
from mcpforge.runtime.store import FolderStore, RedisStore, Sealer, Store, open_store, record_name

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
