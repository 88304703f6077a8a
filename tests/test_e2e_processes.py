"""End to end: an interaction that reaches a process other than its game's (issue 29 item
3). Two bot processes, shards 0 and 1 of 2, on one database (SQLite, and PostgreSQL where
it is installed); a game in a server of shard 1. While the stand-in sends every
interaction to shard 0's connection (as Discord sends direct messages), a player's whole
turn is played through the process of shard 0: it takes the steps on the shared database
and the process of shard 1 posts the next board, once. Then the next turn goes through
shard 1's process again, on the game as shard 0's process left it.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.store import is_postgres
from tests.fakediscord import NO_LIMITS, BotProcess, FakeDiscord
from tests.test_e2e_game import World, open_game, player_of, turn_by_play
from tests.test_e2e_shards import assert_clean

pytestmark = pytest.mark.slow


async def test_a_turn_played_through_another_process_is_posted_by_its_own(
        tmp_path: Path, database: str) -> None:
    fake = FakeDiscord(enforce_3s=True)
    await fake.start()
    guild = fake.guild("Tavern 1", channels=("games",), shard=(1, 2))
    clock_file, sqlite = tmp_path / "clock", tmp_path / "dingir.sqlite3"
    url = {"DINGIR_DATABASE_URL": database} if is_postgres(database) else {}

    def process(shards: str) -> BotProcess:
        return BotProcess(fake, db_path=sqlite, clock_file=clock_file,
                          log_path=tmp_path / f"shard{shards[0]}.log",
                          env={"DINGIR_SCHEDULER_SECONDS": "0.5", "DINGIR_SHARDS": shards,
                               "DINGIR_LOG_LEVEL": "INFO", "DINGIR_WORKER_PROCESSES": "1",
                               **url, **NO_LIMITS})

    bots = [process("0/2"), process("1/2")]
    try:
        for bot in bots:
            await bot.start()
        await fake.wait_synced(syncs=2)
        w = World(fake, guild, guild.text_channels()[0], bots[1], clock_file, database)
        users = [w.user(name) for name in ("ann", "bob", "cid")]
        board = await open_game(w, users[0], users[1:])
        player = player_of(board, users)
        assert player is not None

        fake.interactions_shard = 0                    # everything reaches shard 0's process
        mark = fake.mark()
        interactions = len(fake.interactions)
        await turn_by_play(w, player, random.Random(5))
        after = await w.next_board(mark, timeout=30.0)
        assert "moved by another process" in bots[1].output()
        assert "moved by another process" not in bots[0].output()
        nxt = player_of(after, users)
        assert nxt is not None and nxt != player
        if not is_postgres(database):
            await w.rounds(2)                          # time for a second post to show
        assert [m.id for m in w.posts(mark) if m.pngs] == [after.id]      # posted once
        assert all(r.answered_at is not None for r in fake.interactions[interactions:])

        fake.interactions_shard = None                 # back to the game's own process
        mark = fake.mark()
        await turn_by_play(w, nxt, random.Random(6))
        again = await w.next_board(mark, timeout=30.0)
        assert player_of(again, users) not in (None, nxt)
        assert_clean(bots, fake)
    finally:
        for bot in bots:
            await bot.stop()
        await fake.stop()
