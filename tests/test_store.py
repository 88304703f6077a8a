"""The store's contract, on SQLite and on PostgreSQL (the ``database`` fixture): migrations,
the one-game-per-channel index, the step write and its group commit, conditional marks;
and SQLite's own pragmas, locks and full disk."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.records import GameRecord, SeatInfo, ServiceError, StaleVersion, StoreUnavailable
from bot.store import MIGRATIONS, StepWrite, Store, open_store
from bot.store.commit import Conflict


def lobby(channel: int = 10, status: str = "lobby") -> GameRecord:
    return GameRecord(
        id=0, guild_id=1, channel_id=channel, game="race", status=status,  # type: ignore[arg-type]
        creator_id=7, options={"target": "10"}, seed=5,
        seats=[SeatInfo(0, 7, "Ann"), SeatInfo(1, None, "AI 1")], state=None, version=0,
    )


def step(game_id: int, expected: int, notation: str = "add 1") -> StepWrite:
    return StepWrite(
        game_id=game_id, expected_version=expected, state={"n": expected + 1}, active=[0],
        status="running", turn=0, turn_started_at=1.0, turn_ended=False, ended_at=None, seat=0,
        notation=notation, step_turn=0, reversible=True, at=2.0, waiting={},
    )


async def running(store: Store, channel: int = 10) -> int:
    game_id = await store.insert_game(lobby(channel))
    stored = await store.load(game_id)
    assert stored is not None
    record = stored.record
    record.status, record.state, record.version = "running", {"n": 0}, 1
    await store.save_game(record, 0, turn_start_state={"n": 0})
    return game_id


async def test_migrations_build_an_empty_database_and_reopen_idempotently(database: str
                                                                         ) -> None:
    store = await open_store(database)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        game_id = await store.insert_game(lobby())
    finally:
        await store.close()
    store = await open_store(database)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        stored = await store.load(game_id)
        assert stored is not None and [s.name for s in stored.record.seats] == ["Ann", "AI 1"]
        assert {"games", "seats", "actions", "user_prefs", "reminders", "skip_votes",
                "schema_version", "turn_starts", "start_states", "results", "ratings",
                "followers", "away", "banks", "heartbeat"} <= set(await store.tables())
        assert await store._fetchall("SELECT COUNT(*) FROM schema_version") == [(1,)]
    finally:
        await store.close()


@pytest.mark.sqlite_only
async def test_a_new_file_is_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "new" / "db.sqlite3"
    await (await open_store(path)).close()
    raw = sqlite3.connect(path)
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        raw.close()


@pytest.mark.sqlite_only
async def test_connection_pragmas(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "db.sqlite3", busy_timeout_ms=1234)
    try:
        writer = store._conn
        assert list(await writer.execute_fetchall("PRAGMA foreign_keys")) == [(1,)]
        assert list(await writer.execute_fetchall("PRAGMA synchronous")) == [(2,)]  # FULL
        assert list(await writer.execute_fetchall("PRAGMA busy_timeout")) == [(1234,)]
        assert await store._fetchall("PRAGMA busy_timeout") == [(1234,)]  # the reader too
        with pytest.raises(StoreUnavailable):  # the reader cannot write
            await store._fetchall("DELETE FROM games")
    finally:
        await store.close()


async def test_one_active_game_per_channel_index(database: str) -> None:
    store = await open_store(database)
    try:
        first = await store.insert_game(lobby())
        with pytest.raises(ServiceError) as error:
            await store.insert_game(lobby(status="running"))
        assert error.value.reason.key == "service.channel_busy"
        await store.insert_game(lobby(status="finished"))  # finished games do not count
        assert await store.active_game_id(10) == first
        stored = await store.load(first)
        assert stored is not None
        stored.record.status, stored.record.version = "aborted", 1
        await store.save_game(stored.record, 0)
        assert await store.active_game_id(10) is None
        second = await store.insert_game(lobby())
        assert await store.latest_game_id(10) == second
    finally:
        await store.close()


async def test_apply_step_checks_the_version_and_writes_both_rows(database: str) -> None:
    store = await open_store(database)
    try:
        game_id = await running(store)
        await store.apply_step(step(game_id, 1))
        with pytest.raises(StaleVersion):
            await store.apply_step(step(game_id, 1, "add 2"))
        stored = await store.load(game_id)
        assert stored is not None and stored.record.version == 2
        assert stored.record.state == {"n": 2}
        assert [(a.idx, a.notation) for a in await store.actions(game_id)] == [(2, "add 1")]
    finally:
        await store.close()


async def test_save_game_on_a_stale_version_raises_and_writes_nothing(database: str) -> None:
    store = await open_store(database)
    try:
        game_id = await running(store)
        stored = await store.load(game_id)
        assert stored is not None
        record = stored.record
        record.state, record.version = {"n": 99}, record.version + 1
        with pytest.raises(StaleVersion):
            await store.save_game(record, record.version - 2)      # not the stored version
        kept = await store.load(game_id)
        assert kept is not None and kept.record.state == {"n": 0}
        assert kept.record.version == record.version - 1
    finally:
        await store.close()


async def test_apply_step_refuses_a_game_that_is_not_running(database: str) -> None:
    store = await open_store(database)
    try:
        game_id = await store.insert_game(lobby())
        with pytest.raises(StaleVersion):
            await store.apply_step(step(game_id, 0))
        assert await store.actions(game_id) == []
    finally:
        await store.close()


async def test_turn_end_snapshots_the_turn_start_state(database: str) -> None:
    store = await open_store(database)
    try:
        game_id = await running(store)
        await store.apply_step(step(game_id, 1))
        stored = await store.load(game_id)
        assert stored is not None and stored.turn_start_state == {"n": 0}
        ending = step(game_id, 2, "end")
        await store.apply_step(StepWrite(**{**ending.__dict__, "turn_ended": True, "turn": 1}))
        stored = await store.load(game_id)
        assert stored is not None and stored.turn_start_state == {"n": 3}
        assert stored.record.turn == 1
    finally:
        await store.close()


@pytest.mark.sqlite_only
async def test_locked_database_raises_store_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    store = await open_store(path, busy_timeout_ms=50)
    try:
        game_id = await running(store)
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN EXCLUSIVE")
        try:
            with pytest.raises(StoreUnavailable):
                await store.apply_step(step(game_id, 1))
            with pytest.raises(StoreUnavailable):
                await store.insert_game(lobby(channel=11))
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert await store.actions(game_id) == []
        assert await store.active_game_id(11) is None
        await store.apply_step(step(game_id, 1))  # usable again, nothing half-written
        assert len(await store.actions(game_id)) == 1
    finally:
        await store.close()


async def test_steps_arriving_together_commit_together_and_fail_alone(database: str) -> None:
    store = await open_store(database)
    try:
        games = [await running(store, channel) for channel in (10, 11, 12)]
        writes = [store.apply_step(step(g, 1)) for g in games]
        writes.append(store.apply_step(step(games[0], 1, "add 9")))  # stale: same version
        results = await asyncio.gather(*writes, return_exceptions=True)
        assert results[:3] == [None, None, None]
        assert isinstance(results[3], StaleVersion)
        for game_id in games:
            assert [(a.idx, a.notation) for a in await store.actions(game_id)] == [(2, "add 1")]
    finally:
        await store.close()


@pytest.mark.sqlite_only
async def test_a_full_disk_fails_the_whole_group_and_writes_nothing(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "db.sqlite3")
    try:
        game_id = await running(store)
        writer = store._conn  # the only way to fill the "disk": cap the file at its size
        pages = list(await writer.execute_fetchall("PRAGMA page_count"))
        await writer.execute(f"PRAGMA max_page_count = {pages[0][0]}")
        big = StepWrite(**{**step(game_id, 1).__dict__, "state": {"n": "x" * 100_000}})
        results = await asyncio.gather(store.apply_step(big),  # goes first, alone
                                       store.apply_step(big),  # these two wait, then go
                                       store.set_columns(game_id, posted_turn=3),  # together
                                       return_exceptions=True)
        assert all(isinstance(r, StoreUnavailable) for r in results), results
        await writer.execute("PRAGMA max_page_count = 1000000")
        stored = await store.load(game_id)
        assert stored is not None and stored.record.version == 1
        assert stored.record.posted_turn == -1 and await store.actions(game_id) == []
    finally:
        await store.close()


async def test_reminder_marks_are_conditional(database: str) -> None:
    store = await open_store(database)
    try:
        game_id = await running(store)
        assert await store.mark_reminder(game_id, 0, 100.0, 1, 200.0, 300.0)
        assert not await store.mark_reminder(game_id, 0, 100.0, 1, 201.0, 301.0)  # duplicate
        assert await store.mark_timeout(game_id, 0, 100.0)
        assert not await store.mark_timeout(game_id, 0, 100.0)
        assert await store.mark_reminder(game_id, 0, 100.0, 2, 400.0, 800.0)
        row = (await store.reminder_rows([game_id]))[(game_id, 0)]
        assert (row.count, row.next_due_at, row.timeout_since) == (2, 800.0, 100.0)
        assert await store.mark_reminder(game_id, 0, 500.0, 1, 600.0, 700.0)  # a new stretch
        row = (await store.reminder_rows([game_id]))[(game_id, 0)]
        assert (row.since, row.count, row.timeout_since) == (500.0, 1, None)
    finally:
        await store.close()


async def test_a_statement_refused_in_a_group_fails_alone(database: str) -> None:
    store = await open_store(database)
    try:
        games = [await running(store, channel) for channel in (10, 11)]
        prefs = "INSERT INTO user_prefs (user_id, dm_notify) VALUES (?, 1)"
        results = await asyncio.gather(
            store.apply_step(step(games[0], 1)),           # alone
            store._write(prefs, (5,)),                     # the next three: one group
            store._write(prefs, (5,)),                     # refused (the same key)
            store.apply_step(step(games[1], 1)),
            return_exceptions=True)
        assert results[0] is None and results[1] == 1 and results[3] is None, results
        assert isinstance(results[2], Conflict)
        for game_id in games:
            assert [a.idx for a in await store.actions(game_id)] == [2]
        assert await store.notify_prefs([5]) == {5: True}
    finally:
        await store.close()
