"""Several bot processes on one database (issue 29 item 3): a step that reaches a process
other than its game's, the notes that tell the game's process, the heartbeat of each
shard, a result recorded once, and the migration refused while any shard is served.

Each "process" is a service over its own store on the same database, SQLite and
PostgreSQL alike.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.catalogue import Catalogue
from bot.clock import FakeClock
from bot.instance import AlreadyRunning, every_shard, hold
from bot.records import GameRecord, StaleVersion, StepResult
from bot.service import GameService, in_thread
from bot.shards import Shards
from bot.store import Store, open_store
from dingir.migrate import migrate
from host.scheduler import DOWNTIME_SECONDS, Scheduler
from tests.test_session import ANN, BOB, ENGINES, current_user, first_legal
from tests.test_shards import guild

HOUR = 3600.0
SHARD0, SHARD1 = Shards((0,), 2), Shards((1,), 2)


@dataclass
class Process:
    """One bot process's service and store."""

    store: Store
    service: GameService


@dataclass
class Told:
    """A front end that records what it was asked to tell."""

    steps: list[StepResult]
    missing: list[GameRecord]

    async def show_missing(self, record: GameRecord) -> None:
        self.missing.append(record)

    async def tell(self, steps: Sequence[StepResult]) -> None:
        self.steps += steps


@pytest.fixture
async def two(database: str) -> AsyncIterator[tuple[Process, Process, FakeClock]]:
    """The processes of shards 0/2 and 1/2 on one database, on one clock."""
    clock = FakeClock()
    processes = []
    for shards in (SHARD0, SHARD1):
        store = await open_store(database)
        processes.append(Process(store, GameService(
            store, clock, seed_source=lambda: 1234, catalogue=Catalogue(ENGINES),
            ai_search=in_thread(first_legal), shards=shards)))
    try:
        yield processes[0], processes[1], clock
    finally:
        for process in processes:
            await process.store.close()


async def started(process: Process, guild_id: int, channel: int) -> GameRecord:
    await process.service.lobby.create(guild_id, channel, ANN, "race", {})
    await process.service.lobby.join(channel, BOB)
    return await process.service.lobby.start(channel, ANN.user_id)


async def test_a_step_reaching_another_process_is_checked_and_noted_for_the_owner(
        two: tuple[Process, Process, FakeClock]) -> None:
    first, owner, _ = two
    record = await started(owner, guild(1, 2), 200)        # shard 1's game
    seq, _ = await owner.store.moved_since(None)
    user = current_user(record)

    result = await first.service.turns.play_by_id(record.id, user, "add 1", record.version)
    assert result.record.version == record.version + 1
    told = Told([], [])
    assert await first.service.loop.move_on(record.id, told, result) == []
    assert told == Told([], [])                      # not told here: by its own process
    assert await owner.store.moved_since(seq) == (seq + 1, [record.id])

    with pytest.raises(StaleVersion):                # the owner's copy lagged: refused
        await owner.service.turns.play_by_id(record.id, user, "add 2", record.version)
    owner.service.core.drop(record.id)               # as the note makes it do
    again = await owner.service.turns.play_by_id(record.id, user, "add 2",
                                                 result.record.version)
    assert again.record.version == record.version + 2

    # the other process never keeps a copy: it reads the owner's step
    stale = await first.service.core.get_by_id(record.id)
    assert stale is not None and stale.version == again.record.version
    assert [a.notation for a in await owner.store.actions(record.id)] == ["add 1", "add 2"]


async def test_the_owner_tells_a_step_of_the_turn_under_way_once(
        two: tuple[Process, Process, FakeClock]) -> None:
    """A step taken through another process that leaves the turn under way (a decision it
    may put to a player, an announcement) is told by the owner from the log, once; a step
    the owner took and told itself is not told again when a note about it is read."""
    first, owner, _ = two
    record = await started(owner, guild(1, 2), 200)
    user = current_user(record)
    assert await owner.service.turns.latest(record.id) is None      # no step yet
    await first.service.turns.play_by_id(record.id, user, "add 1", record.version)
    owner.service.core.drop(record.id)                              # as the note makes it do
    latest = await owner.service.turns.latest(record.id)
    assert latest is not None and not latest.turn_ended
    assert (latest.seat, latest.action.notation) == (record.active[0], "add 1")
    told = Told([], [])
    assert await owner.service.loop.move_on(record.id, told, latest, missed=True) == [latest]
    assert told.steps == [latest]         # (and the first board, never posted in this test)
    assert await owner.service.loop.move_on(record.id, told, latest, missed=True) == []
    assert told.steps == [latest]                                   # a second note: nothing

    mine = await owner.service.turns.play_by_id(record.id, user, "add 2",
                                                latest.record.version)
    await owner.service.loop.move_on(record.id, told, mine)         # taken and told here
    again = await owner.service.turns.latest(record.id)
    assert again is not None and again.record.version == mine.record.version
    assert await owner.service.loop.move_on(record.id, told, again, missed=True) == []
    assert told.steps == [latest, mine]


async def test_the_same_press_in_two_processes_is_taken_once(
        two: tuple[Process, Process, FakeClock]) -> None:
    first, owner, _ = two
    record = await started(owner, guild(1, 2), 200)
    user = current_user(record)
    outcomes = await asyncio.gather(
        *(p.service.turns.play_by_id(record.id, user, "add 2", record.version)
          for p in (first, owner)), return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["StaleVersion", "StepResult"]
    assert [a.notation for a in await owner.store.actions(record.id)] == ["add 2"]


async def test_the_owner_tells_its_own_games_only(
        two: tuple[Process, Process, FakeClock]) -> None:
    first, owner, _ = two
    mine = await started(first, guild(0, 2), 100)
    seq, _ = await owner.store.moved_since(None)
    told = Told([], [])
    await first.service.loop.move_on(mine.id, told)
    assert [r.id for r in told.missing] == [mine.id]        # its first board: told here
    assert await owner.store.moved_since(seq) == (seq, [])  # nothing noted


async def test_each_shard_beats_and_a_silent_one_is_seen(
        two: tuple[Process, Process, FakeClock], caplog: pytest.LogCaptureFixture) -> None:
    first, owner, clock = two
    schedulers = [Scheduler(p.service, p.store, clock, s)
                  for p, s in ((first, SHARD0), (owner, SHARD1))]
    for scheduler in schedulers:
        assert await scheduler.beat() == []
    beats = await first.store.shard_beats()
    assert [(b.shard, b.shards, b.at) for b in beats] == [(0, 2, clock.now()), (1, 2, clock.now())]
    clock.set(clock.now() + DOWNTIME_SECONDS + 1)          # shard 1's process is gone
    silent = await schedulers[0].beat()
    assert [b.shard for b in silent] == [1] and "shard 1/2 has not beaten" in caplog.text
    caplog.clear()
    await schedulers[0].beat()
    assert "has not beaten" not in caplog.text              # said once
    await schedulers[1].beat()                              # back
    assert await schedulers[0].beat() == []


async def test_a_process_back_after_a_downtime_moves_its_own_games_clocks(
        two: tuple[Process, Process, FakeClock]) -> None:
    first, owner, clock = two
    games = [await started(first, guild(0, 2), 100), await started(owner, guild(1, 2), 200)]
    schedulers = [Scheduler(p.service, p.store, clock, s)
                  for p, s in ((first, SHARD0), (owner, SHARD1))]
    for scheduler in schedulers:
        await scheduler.beat()
    clock.set(clock.now() + 10 * HOUR)                      # shard 1 away, shard 0 beats
    await schedulers[0].beat()
    assert await schedulers[1].catch_up() == pytest.approx(10 * HOUR)
    moved = [await first.store.load(g.id) for g in games]
    assert [m.record.turn_started_at - g.turn_started_at for m, g in zip(moved, games,
            strict=True) if m is not None] == [0.0, pytest.approx(10 * HOUR)]
    assert await schedulers[0].catch_up() == 0.0            # it never stopped


async def test_a_result_is_recorded_once_when_two_processes_see_the_end(
        two: tuple[Process, Process, FakeClock]) -> None:
    first, owner, _ = two
    record = await started(owner, guild(1, 2), 200)
    while record.status == "running":
        user = current_user(record)
        record = (await owner.service.turns.play_by_id(record.id, user, "add 2")).record
        if record.status == "running" and record.state is not None \
                and record.state["adds"] >= 2:
            record = (await owner.service.turns.play_by_id(record.id, user, "end")).record
    done = await asyncio.gather(*(p.service.results.record_result(record.id)
                                  for p in (first, owner, first, owner)))
    assert sorted(done) == [False, False, False, True]
    board = await owner.service.results.leaderboard(guild(1, 2), "race")
    assert sorted(r.games for _, _, r in board) == [1, 1]
    assert await first.store.unrated_games(SHARD1) == []


async def test_the_migration_waits_for_every_shard(tmp_path: Path, pg_database: str) -> None:
    source = tmp_path / "dingir.sqlite3"
    store = await open_store(source)
    await store.close()
    held = hold(source, (1,))                                # a process on shard 1 alone
    try:
        assert every_shard(source) == [0, 1]
        with pytest.raises(AlreadyRunning):
            await migrate(f"sqlite:{source}", pg_database)
    finally:
        held.close()
    leased = await open_store(pg_database, lease=(3,))       # a process on shard 3 of PG
    try:
        with pytest.raises(AlreadyRunning, match="shard 3"):
            await migrate(pg_database, f"sqlite:{tmp_path / 'back.sqlite3'}")
    finally:
        await leased.close()


async def test_no_shard_starts_while_the_migration_copies(tmp_path: Path,
                                                          pg_database: str) -> None:
    """A bot on a shard that never ran (no lock file, no lease yet) cannot start while the
    whole database is being copied, and the copy does not start while such a bot runs."""
    source = tmp_path / "dingir.sqlite3"
    copying = hold(source, every_shard(source), copying=True)
    try:
        with pytest.raises(AlreadyRunning, match=f"pid {os.getpid()}"):
            hold(source, (7,))                               # shard 7 of 8, never run
    finally:
        copying.close()
    held = hold(source, (7,))
    try:
        assert every_shard(source) == [0, 7]
        held.close()
        held = hold(source, (5,))
        (tmp_path / "dingir.sqlite3.shard-5.lock").unlink()  # as if it were new
        with pytest.raises(AlreadyRunning):
            hold(source, every_shard(source), copying=True)
    finally:
        held.close()

    migrating = await open_store(pg_database, lease=(0,))
    await migrating.fence()
    try:
        with pytest.raises(AlreadyRunning):
            await open_store(pg_database, lease=(7,))
    finally:
        await migrating.close()
    leased = await open_store(pg_database, lease=(7,))
    try:
        assert [shard for shard, _ in await leased.other_leases()] == []
        migrating = await open_store(pg_database, lease=(0,))
        try:
            assert [shard for shard, _ in await migrating.other_leases()] == [7]
            with pytest.raises(AlreadyRunning):
                await migrating.fence()
        finally:
            await migrating.close()
    finally:
        await leased.close()


async def test_a_process_resumes_the_games_of_its_own_shards_only(
        two: tuple[Process, Process, FakeClock]) -> None:
    first, owner, _ = two
    games = [await started(first, guild(0, 2), 100), await started(owner, guild(1, 2), 200)]
    assert [g.id for g in await first.service.core.running_games()] == [games[0].id]
    assert [g.id for g in await owner.service.core.running_games()] == [games[1].id]
    assert [g.id for g in await owner.service.core.unannounced_finals()] == []
