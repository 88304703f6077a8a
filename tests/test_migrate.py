"""``python -m dingir.migrate``: a SQLite database copied into PostgreSQL (and back), every
row and game checked, the games played on; an occupied target or a running bot refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.instance import AlreadyRunning, hold
from bot.ratings import Rating
from bot.store import ResultRow, open_store
from dingir.migrate import Refused, main, migrate
from tests.test_session import ANN, BOB, ENGINES, current_user, make_service, started


async def filled(path: Path) -> list[int]:
    """A SQLite database with games in every state and a row in every table; the ids of
    its running games."""
    store = await open_store(path)
    try:
        service = make_service(store, FakeClock())
        games = [await started(service, channel=c) for c in (10, 11, 12)]
        for step in ("add 2", "add 1", "end", "add 2"):
            record = await service.core.get(10)
            assert record is not None
            await service.turns.play(10, current_user(record), step)
        await service.lobby.create(1, 13, ANN, "race", {})                 # a lobby: no state
        await store.record_result(games[2].id, 1, "race",
                                  [ResultRow(0, ANN.user_id, 1, 10, True),
                                   ResultRow(1, BOB.user_id, 2, 4, False)],
                                  {ANN.user_id: ("Ann", Rating(27.0, 7.0, 1, 1))})
        await store.follow(games[0].id, BOB.user_id, "fr", True)
        await store.set_notify(ANN.user_id, True, "fr")
        await store.set_away(BOB.user_id, 5000.0)
        await store.mark_reminder(games[0].id, 0, 1.0, 1, 2.0, 3.0)
        await store.set_banks(games[1].id, {0: 300.0})
        await store.add_skip_vote(games[1].id, 1.0, 0, BOB.user_id)
        await store.beat_shards((0,), 1, 42.0, 4242)
        return [g.id for g in games]
    finally:
        await store.close()


async def test_a_sqlite_database_moves_to_postgresql_and_back(tmp_path: Path,
                                                              pg_database: str) -> None:
    source = tmp_path / "dingir.sqlite3"
    ids = await filled(source)
    report = await migrate(f"sqlite:{source}", pg_database, ENGINES.__getitem__)
    assert report.problems == [] and report.not_replayed == []
    assert report.replayed == 3
    assert report.counts["games"] == 4 and report.counts["ratings"] == 1
    assert all(report.counts[t] >= 1 for t in ("actions", "seats", "turn_starts", "start_states",
               "results", "followers", "user_prefs", "away", "reminders", "banks", "skip_votes",
               "heartbeat"))
    store = await open_store(pg_database)
    try:
        service = make_service(store, FakeClock())
        record = await service.core.get(10)
        assert record is not None and record.id == ids[0]
        assert record.state is not None and record.state["totals"][0] + \
            record.state["totals"][1] == 5
        await service.turns.play(10, current_user(record), "end")          # plays on
        assert (await started(service, channel=20)).id == max(ids) + 2  # ids go on
    finally:
        await store.close()
    back = tmp_path / "back.sqlite3"
    again = await migrate(pg_database, f"sqlite:{back}", ENGINES.__getitem__)
    assert again.problems == [] and again.counts["games"] == 5


async def test_an_occupied_target_or_a_running_bot_is_refused(tmp_path: Path,
                                                              pg_database: str) -> None:
    source = tmp_path / "dingir.sqlite3"
    await filled(source)
    held = hold(source)
    try:
        with pytest.raises(AlreadyRunning):
            await migrate(f"sqlite:{source}", pg_database, ENGINES.__getitem__)
    finally:
        held.close()
    store = await open_store(pg_database)
    try:
        await store.set_notify(99, True)
    finally:
        await store.close()
    with pytest.raises(Refused, match="not empty"):
        await migrate(f"sqlite:{source}", pg_database, ENGINES.__getitem__)
    with pytest.raises(Refused, match="no SQLite database"):
        await migrate(f"sqlite:{tmp_path / 'none.sqlite3'}", pg_database)


def test_the_command_line(tmp_path: Path, pg_database: str,
                          capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio
    source = tmp_path / "dingir.sqlite3"
    asyncio.run(filled(source))
    assert main([f"sqlite:{source}", pg_database]) == 0
    out = capsys.readouterr().out
    assert "copied: games 4" in out and "not replayed" in out   # the toy game is unknown
    assert main([f"sqlite:{source}", pg_database]) == 1
    assert "not empty" in capsys.readouterr().err
