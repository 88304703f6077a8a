"""End to end: two bot processes on one database, shards 0 and 1 of 2 (``DINGIR_SHARDS``),
against one stand-in whose gateway gives each connection the guilds of its shard.

A game is opened in a server of each shard (each through its own process); with the
process of shard 1 stopped, the clock passes the reminder interval: only the game of shard
0 is reminded. Once shard 1's process is back, its game's clocks move forward by the time
it was away (its heartbeat is its own), so it is reminded a reminder interval later, once.
A third process on shard 1 is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.fakediscord import NO_LIMITS, BotProcess, FakeDiscord, Message
from tests.test_e2e_game import World, open_game, player_of

pytestmark = pytest.mark.slow

HOUR = 3600


def assert_clean(bots: Sequence[BotProcess], fake: FakeDiscord) -> None:
    """No bot process logged a traceback; the stand-in saw no error of its own and no
    request to a route it does not know."""
    for bot in bots:
        assert "Traceback" not in bot.output(), bot.output()[-4000:]
    assert not fake.server_errors, fake.server_errors
    assert not fake.unknown_routes, fake.unknown_routes


def reminders(w: World, after: int) -> list[Message]:
    return [m for m in w.posts(after) if "⏰" in m.text]


async def test_two_processes_each_remind_the_games_of_their_shard(tmp_path: Path) -> None:
    fake = FakeDiscord(enforce_3s=True)
    await fake.start()
    guilds = [fake.guild(f"Tavern {s}", channels=("games",), shard=(s, 2)) for s in (0, 1)]
    clock_file, database = tmp_path / "clock", tmp_path / "dingir.sqlite3"

    def process(shards: str, name: str) -> BotProcess:
        return BotProcess(fake, db_path=database, clock_file=clock_file,
                          log_path=tmp_path / f"{name}.log",
                          env={"DINGIR_SCHEDULER_SECONDS": "0.2", "DINGIR_SHARDS": shards,
                               "DINGIR_WORKER_PROCESSES": "1", **NO_LIMITS})

    bots = [process("0/2", "shard0"), process("1/2", "shard1")]
    try:
        for bot in bots:
            await bot.start()
        await fake.wait_synced(syncs=2)
        worlds = [World(fake, g, g.text_channels()[0], b, clock_file, str(database))
                  for g, b in zip(guilds, bots, strict=True)]
        players = []
        for shard, w in enumerate(worlds):
            users = [w.user(f"{name}{shard}") for name in ("ann", "bob", "cid")]
            player = player_of(await open_game(w, users[0], users[1:]), users)
            assert player is not None
            players.append(player)

        await bots[1].stop()
        mark = fake.mark()
        clock_file.write_text(str(25 * HOUR))
        told = await fake.wait_for_channel_message(worlds[0].channel, lambda m: "⏰" in m.text,
                                                   after=mark)
        assert told.mentions(players[0].id)
        await worlds[0].rounds(3)
        assert len(reminders(worlds[0], mark)) == 1
        assert reminders(worlds[1], mark) == []            # not shard 0's game

        await bots[1].start()                  # its 25 hours away do not count for its game
        await worlds[0].rounds(3)
        assert reminders(worlds[1], mark) == []
        assert "moved forward" in bots[1].output()
        clock_file.write_text(str(50 * HOUR))  # 25 hours up: now it is due
        told = await fake.wait_for_channel_message(worlds[1].channel, lambda m: "⏰" in m.text,
                                                   after=mark, timeout=30.0)
        assert told.mentions(players[1].id)
        await worlds[0].rounds(3)
        assert len(reminders(worlds[1], mark)) == 1

        third = process("1/2", "third")
        await third.start(wait_ready=False)
        assert await third.wait(30.0) == 1
        assert "already using" in third.output()
        assert_clean(bots, fake)
    finally:
        for bot in bots:
            await bot.stop()
        await fake.stop()
