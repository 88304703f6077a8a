"""PostgreSQL's own side of the store: the lease (one bot per database, as an advisory
lock), a lost connection that comes back with the lease or stops writing, and a backup
made with ``pg_dump`` that resumes every game (as README says). The contract both stores
keep is in ``test_store``."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.clock import FakeClock
from bot.instance import AlreadyRunning
from bot.records import StoreUnavailable
from bot.store import Store, open_store
from tests.pgcluster import Cluster
from tests.test_session import current_user, make_service, started


async def test_a_second_store_on_the_same_shards_is_refused(pg_database: str) -> None:
    first = await open_store(pg_database, lease=(0, 1))
    try:
        with pytest.raises(AlreadyRunning) as error:
            await open_store(pg_database, lease=(1, 2))
        assert str(os.getpid()) in str(error.value)
        assert "DINGIR_DATABASE_URL" in str(error.value)
        other = await open_store(pg_database, lease=(2, 3))   # other shards: fine
        await other.close()
        reader = await open_store(pg_database)                # a tool holds no lease
        await reader.close()
    finally:
        await first.close()
    again = await open_store(pg_database, lease=(0, 1))       # free once the first is gone
    await again.close()


async def cut(store: Store) -> None:
    """End the store's writing connection from the server's side (as a restart would)."""
    admin = await asyncpg.connect(store.url)  # type: ignore[attr-defined]
    try:
        await admin.execute("SELECT pg_terminate_backend($1)",
                            store._conn.get_server_pid())  # type: ignore[attr-defined]
    finally:
        await admin.close()
    for _ in range(100):                       # the client sees it
        if store._conn.is_closed():  # type: ignore[attr-defined]
            return
        await asyncio.sleep(0.01)


async def test_a_lost_connection_comes_back_with_its_lease_or_stops(pg_database: str) -> None:
    store = await open_store(pg_database, lease=(0,))
    try:
        service = make_service(store, FakeClock())
        record = await started(service)
        user = current_user(record)
        await cut(store)
        await service.turns.play(record.channel_id, user, "add 1")      # connected again
        assert store.check_file()
        with pytest.raises(AlreadyRunning):                        # with the lease
            await open_store(pg_database, lease=(0,))
        await cut(store)
        other = await open_store(pg_database, lease=(0,))         # another bot took it
        try:
            with pytest.raises(StoreUnavailable):
                await service.turns.play(record.channel_id, user, "add 1")
            assert store.lost and not store.check_file()
            (entry,) = await other.actions(record.id)              # nothing more written
            assert entry.notation == "add 1"
        finally:
            await other.close()
    finally:
        await store.close()


async def test_a_pg_dump_backup_resumes_every_game(pg_cluster: Cluster, pg_database: str,
                                                   tmp_path: Path) -> None:
    store = await open_store(pg_database)
    try:
        service = make_service(store, FakeClock())
        games = [await started(service, channel=c) for c in (80, 81)]
        await service.turns.play(80, current_user(games[0]), "add 1")
    finally:
        await store.close()
    schema = pg_database.rsplit("=", 1)[-1]
    dump = tmp_path / "dingir.dump"
    subprocess.run([str(pg_cluster.bindir / "pg_dump"), "-Fc", "-f", str(dump),
                    f"--schema={schema}", pg_cluster.url()], check=True, timeout=60)
    restored_url = await pg_cluster.create_database()
    try:
        subprocess.run([str(pg_cluster.bindir / "pg_restore"), "-d", restored_url, str(dump)],
                       check=True, timeout=60)
        restored = await open_store(f"{restored_url}&search_path={schema}")
        try:
            service = make_service(restored, FakeClock())
            (entry,) = await restored.actions(games[0].id)
            assert entry.notation == "add 1"
            for game in games:
                record = await service.core.get(game.channel_id)
                assert record is not None and record.status == "running"
                assert (await service.turns.play(game.channel_id, current_user(record),
                                           "end")).turn_ended
        finally:
            await restored.close()
    finally:
        await pg_cluster.drop_database(restored_url)


async def test_the_bot_refuses_a_database_another_bot_holds(pg_database: str) -> None:
    held = await open_store(pg_database, lease=(0,))
    try:
        env = {**os.environ, "DISCORD_TOKEN": "x", "DINGIR_DATABASE_URL": pg_database}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "dingir", env=env, stderr=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.DEVNULL, cwd=Path(__file__).resolve().parent.parent)
        _, err = await asyncio.wait_for(proc.communicate(), 60)
        assert proc.returncode == 1 and "already using" in err.decode(), err
        assert "DINGIR_DATABASE_URL" in err.decode()
    finally:
        await held.close()
