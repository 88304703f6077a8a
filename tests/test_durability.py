"""Games survive a damaged row, a database written by a newer Dingir (both on each
backend), a database file replaced under the bot, a second bot on the same database, and
come back from backups (SQLite's; PostgreSQL's are in ``test_store_postgres``)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.backups import Backups
from bot.clock import FakeClock
from bot.instance import AlreadyRunning, hold
from bot.records import StoreUnavailable
from bot.store import MIGRATIONS, SchemaTooNew, Store, open_store
from host.scheduler import Broken, Reminder, Scheduler
from tests.test_session import ANN, Env, current_user, make_service, started
from tests.test_session import env as env  # the shared fixture


async def raw(store: Store, sql: str, *params: object) -> None:
    """A statement behind the store's back, on its own writing connection."""
    async with store._guard() as tx:
        await tx.execute(sql, params)


async def test_a_damaged_row_stops_only_its_own_game(env: Env) -> None:
    damaged = await started(env.service, channel=70)
    healthy = await started(env.service, channel=71)
    await raw(env.store, "UPDATE games SET settings = '{broken' WHERE id = ?", damaged.id)
    env.service.core.forget_cached()
    env.clock.advance(hours=25)
    events = await Scheduler(env.service, env.store, env.clock).due()
    assert [e.game_id for e in events if isinstance(e, Broken)] == [damaged.id]
    assert [e.game.id for e in events if isinstance(e, Reminder)] == [healthy.id]
    assert await env.service.admin.quarantine(damaged.id) == (ANN.user_id, 70)
    assert await env.service.admin.quarantine(damaged.id) is None        # told once
    assert await env.store._fetchall("SELECT status FROM games WHERE id = ?",
                                     (damaged.id,)) == [("paused",)]


async def test_a_database_from_a_newer_dingir_is_refused(database: str) -> None:
    store = await open_store(database)
    await raw(store, "UPDATE schema_version SET version = ?", len(MIGRATIONS) + 3)
    await store.close()
    with pytest.raises(SchemaTooNew) as error:
        await open_store(database)
    assert str(len(MIGRATIONS) + 3) in str(error.value) and str(len(MIGRATIONS)) in str(
        error.value)


@pytest.mark.sqlite_only
async def test_a_replaced_database_file_stops_every_write(env: Env) -> None:
    record = await started(env.service)
    other = env.path.with_name("other.sqlite3")
    sqlite3.connect(other).close()
    os.replace(other, env.path)
    with pytest.raises(StoreUnavailable):        # the very next write sees it
        await env.service.turns.play(record.channel_id, current_user(record), "end")
    assert env.store.lost and not env.store.check_file()


def test_a_second_bot_on_the_same_database_is_refused(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    first = hold(database)
    try:
        with pytest.raises(AlreadyRunning) as error:
            hold(database)
        assert str(os.getpid()) in str(error.value)
    finally:
        first.close()
    hold(database).close()               # free again once the first is gone


@pytest.mark.sqlite_only
async def test_a_restored_backup_resumes_every_game(env: Env, tmp_path: Path) -> None:
    games = [await started(env.service, channel=c) for c in (80, 81, 82)]
    await env.service.turns.play(80, current_user(games[0]), "add 1")
    backups = Backups(env.store, env.clock, tmp_path / "backups", hours=24, keep=2)
    assert backups.due()
    await backups.run()
    assert not backups.due()
    for _ in range(3):
        env.clock.advance(1)
        await backups.run()
    assert len(backups.copies()) == 2                 # the oldest ones are dropped
    restore = tmp_path / "restored" / "dingir.sqlite3"   # as README says: copy it in place
    restore.parent.mkdir()
    restore.write_bytes(backups.copies()[-1].read_bytes())
    restored = await open_store(restore)
    try:
        service = make_service(restored, FakeClock())
        for game in games:
            record = await service.core.get(game.channel_id)
            assert record is not None and record.status == "running"
            result = await service.turns.play(game.channel_id, current_user(record), "end")
            assert result.turn_ended
    finally:
        await restored.close()


@pytest.mark.sqlite_only
async def test_a_clean_stop_leaves_a_copy_with_the_last_step(env: Env, tmp_path: Path) -> None:
    record = await started(env.service)
    await env.service.turns.play(record.channel_id, current_user(record), "add 1")
    assert await Backups(env.store, env.clock, tmp_path / "off", hours=0, keep=2).at_stop() \
        is None
    copy = await Backups(env.store, env.clock, tmp_path / "backups", 24, 2).at_stop()
    assert copy is not None
    restored = await open_store(copy)
    try:
        (entry,) = await restored.actions(record.id)
        assert entry.notation == "add 1"
    finally:
        await restored.close()
    os.replace(copy, env.path)                               # the file is not its own now
    assert await Backups(env.store, env.clock, tmp_path / "late", 24, 2).at_stop() is None


def test_the_bot_refuses_to_share_its_database(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    held = hold(database)
    try:
        env = {**os.environ, "DISCORD_TOKEN": "x", "DINGIR_DB": str(database)}
        process = asyncio.run(_run_bot(env))
        assert process[0] == 1 and "already using" in process[1], process
    finally:
        held.close()


async def _run_bot(env: dict[str, str]) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "dingir", env=env, stderr=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.DEVNULL, cwd=Path(__file__).resolve().parent.parent)
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    return proc.returncode or 0, err.decode()
