"""Several bot processes on one database (``DINGIR_SHARDS``): the shard of a guild, the
setting, the client, the lock per shard, and a scheduler and deadline timers that keep to
their own shards' games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from bot.clock import FakeClock
from bot.config import ConfigError, from_mapping
from bot.deadlines import Deadlines
from bot.engine import Game
from bot.instance import AlreadyRunning, hold
from bot.records import Limits
from bot.shards import ALL, Shards, parse, shard_of
from dingir.__main__ import Fatal, open_database
from host.client import DingirBot, ShardedDingirBot, client
from host.scheduler import Reminder, Scheduler, StaleLobby
from tests.test_session import ANN, BOB, Env
from tests.test_session import env as env  # the shared fixture (a store closed at teardown)

HOUR = 3600.0


def guild(shard: int, count: int, created: int = 123_456_789) -> int:
    """A guild id that Discord's formula puts on ``shard`` of ``count``."""
    return ((created * count + shard) << 22) | 0x3FFFFF


def test_the_shard_of_a_guild_is_discords_formula() -> None:
    assert shard_of(81384788765712384, 2) == (81384788765712384 >> 22) % 2
    assert [shard_of(guild(s, 8), 8) for s in range(8)] == list(range(8))
    assert shard_of(None, 8) == 0                     # no guild (a DM, a test): shard 0
    assert shard_of(guild(5, 8), 1) == 0
    assert Shards((0, 1), 4).serves(guild(1, 4)) and not Shards((0, 1), 4).serves(guild(2, 4))
    assert Shards((0,), 2).serves(None) and not Shards((1,), 2).serves(None)
    assert ALL.serves(guild(7, 8)) and ALL.sql() == ""


@pytest.mark.parametrize(("text", "ids", "count"), [
    ("0-3/8", (0, 1, 2, 3), 8), ("2/8", (2,), 8), (" 1 - 2 / 3 ", (1, 2), 3), ("0/1", (0,), 1),
])
def test_a_range_of_shards_is_read(text: str, ids: tuple[int, ...], count: int) -> None:
    shards = parse(text)
    assert (shards.ids, shards.count) == (ids, count)
    assert parse(str(shards)) == shards


@pytest.mark.parametrize("text", ["", "8/8", "3-1/8", "a/8", "0-3", "0/0", "-1/8", "٣/8",
                                  "0-3/8/2", "1,2/8"])
def test_a_bad_range_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse(text)


def test_the_setting_is_read_or_refused_in_one_line() -> None:
    base = {"DISCORD_TOKEN": "x"}
    assert from_mapping(base).shards is None
    assert from_mapping({**base, "DINGIR_SHARDS": " "}).shards is None
    assert from_mapping({**base, "DINGIR_SHARDS": "0-3/8"}).shards == Shards((0, 1, 2, 3), 8)
    with pytest.raises(ConfigError) as error:
        from_mapping({**base, "DINGIR_SHARDS": "4-9/8"})
    assert "DINGIR_SHARDS='4-9/8'" in str(error.value) and "\n" not in str(error.value)


def test_the_client_connects_the_shards_it_is_given() -> None:
    parts: list[Any] = [None] * 5
    plain = client(from_mapping({"DISCORD_TOKEN": "x"}), *parts)
    assert type(plain) is DingirBot and not isinstance(plain, discord.AutoShardedClient)
    sharded = client(from_mapping({"DISCORD_TOKEN": "x", "DINGIR_SHARDS": "1-2/4"}), *parts)
    assert isinstance(sharded, ShardedDingirBot)
    assert isinstance(sharded, discord.AutoShardedClient)
    assert (sharded.shard_ids, sharded.shard_count) == ([1, 2], 4)


def test_a_shard_is_held_by_one_process(tmp_path: Path) -> None:
    database = tmp_path / "dingir.sqlite3"
    first = hold(database, (0, 1))
    try:
        with pytest.raises(AlreadyRunning) as error:
            hold(database, (1, 2))                    # overlapping: refused
        assert error.value.pid.isdigit()
        hold(database, (2,)).close()                  # holding none after the refusal
        other = hold(database, (2, 3))                # other shards: fine
        other.close()
        with pytest.raises(AlreadyRunning):
            hold(database)                            # one process for all is shard 0
    finally:
        first.close()
    hold(database, (0, 1)).close()                    # free once the first is gone


async def test_the_bot_refuses_a_second_process_on_its_shards(database: str) -> None:
    where = "DINGIR_DATABASE_URL" if database.startswith("postgresql") else "DINGIR_DB"
    env = {"DISCORD_TOKEN": "x", where: database}
    store, lock = await open_database(from_mapping({**env, "DINGIR_SHARDS": "0-1/4"}))
    try:
        with pytest.raises(Fatal, match="already using"):
            await open_database(from_mapping({**env, "DINGIR_SHARDS": "1/4"}))
        with pytest.raises(Fatal, match="already using"):
            await open_database(from_mapping(env))    # one process for all: shard 0
        other, other_lock = await open_database(from_mapping({**env, "DINGIR_SHARDS": "2-3/4"}))
        await other.close()
        if other_lock is not None:
            other_lock.close()
    finally:
        await store.close()
        if lock is not None:
            lock.close()


async def test_each_scheduler_tells_the_games_of_its_own_shards(env: Env) -> None:
    games = {}
    for shard, channel in ((0, 100), (1, 101)):
        await env.service.lobby.create(guild(shard, 2), channel, ANN, "race", {})
        await env.service.lobby.join(channel, BOB)
        games[shard] = (await env.service.lobby.start(channel, ANN.user_id)).id
    lobby = await env.service.lobby.create(guild(1, 2), 102, ANN, "race", {})
    env.service.core.limits = Limits(lobby_hours=1.0)
    env.clock.set(env.clock.now() + 1000 * HOUR)

    async def told(shards: Shards) -> set[int]:
        events = await Scheduler(env.service, env.store, env.clock, shards).due()
        return {e.game.id if isinstance(e, Reminder) else e.game_id for e in events
                if isinstance(e, Reminder | StaleLobby)}

    assert await told(Shards((0,), 2)) == {games[0]}
    assert await told(Shards((1,), 2)) == {games[1], lobby.id}
    assert await told(ALL) == {games[0], games[1], lobby.id}


async def test_deadline_timers_keep_to_their_shards(env: Env) -> None:
    await env.service.lobby.create(guild(0, 2), 100, ANN, "race", {})
    await env.service.lobby.join(100, BOB)
    record = await env.service.lobby.start(100, ANN.user_id)

    def no_engine(name: str) -> Game:
        raise AssertionError("a game of another shard is not looked at")

    deadlines = Deadlines(FakeClock(), no_engine, Shards((1,), 2))
    deadlines.watch(record)
    assert deadlines.pending() == 0
