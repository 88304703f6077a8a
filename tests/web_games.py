"""Games played through the service for the web page tests and the web benchmark: every
seat a human who plays a random legal step, the store in a temporary folder."""

from __future__ import annotations

import random
from pathlib import Path

from bot.clock import FakeClock
from bot.records import GameRecord, Player
from bot.service import GameService
from bot.store import open_store
from host import registry

GUILD, CHANNEL = 10, 20
SEED = 6_917_529_027_641_081_857
"""A game's seed: long enough that finding it in a page means it leaked."""
NAMES = ("Ann", "Bob", "Eve", "Zed")


async def open_service(database: str | Path) -> GameService:
    """A service over a new store at ``database`` (a SQLite file or a PostgreSQL address;
    games seeded with :data:`SEED`)."""
    store = await open_store(database)
    return GameService(store, FakeClock(), seed_source=lambda: SEED,
                       catalogue=registry.CATALOGUE)


async def start(service: GameService, game: str, players: int,
                channel: int = CHANNEL) -> GameRecord:
    """A started game of ``game`` with ``players`` humans (user ids 1, 2, ...)."""
    people = [Player(i + 1, NAMES[i]) for i in range(players)]
    await service.lobby.create(GUILD, channel, people[0], game, {})
    for person in people[1:]:
        await service.lobby.join(channel, person)
    return await service.lobby.start(channel, people[0].user_id)


async def play(service: GameService, record: GameRecord, steps: int | None,
               rng: random.Random) -> GameRecord:
    """``record`` after ``steps`` more random legal steps (None: to its end)."""
    engine = registry.get(record.game).engine
    done = 0
    while record.status == "running" and (steps is None or done < steps):
        assert record.state is not None
        seat = rng.choice(record.active)
        action = rng.choice(engine.legal(record.state, seat))
        user = record.seats[seat].user_id
        assert user is not None
        record = (await service.turns.play_by_id(record.id, user, action.notation)).record
        done += 1
    return record
