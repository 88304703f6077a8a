"""Limits on new games: open lobbies and games per member and per server, a cooldown
between two new games, lobbies that close when nobody starts them (issue: hardening)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.catalogue import Catalogue
from bot.clock import FakeClock
from bot.config import ConfigError, from_mapping
from bot.records import Limits, Player, ServiceError
from bot.service import GameService, in_thread
from bot.store import open_store
from host.scheduler import Scheduler, StaleLobby
from tests.test_session import ANN, BOB, CID, ENGINES, GUILD, first_legal, reason

LIMITS = Limits(lobbies_per_member=2, games_per_member=3, games_per_server=5,
                cooldown_seconds=30.0, lobby_hours=48.0)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    store = await open_store(tmp_path / "dingir.sqlite3")
    try:
        yield GameService(store, FakeClock(), seed_source=lambda: 7,
                          catalogue=Catalogue(ENGINES), ai_search=in_thread(first_legal),
                          limits=LIMITS)
    finally:
        await store.close()


def later(service: GameService, seconds: float = 31.0) -> None:
    assert isinstance(service.core.clock, FakeClock)
    service.core.clock.advance(seconds)


async def open_game(service: GameService, channel: int, creator: Player = ANN,
                    guild: int = GUILD) -> None:
    await service.lobby.create(guild, channel, creator, "race", {})


async def test_a_member_waits_the_cooldown_between_two_new_games(
        service: GameService) -> None:
    await open_game(service, 1)
    later(service, 10)
    with pytest.raises(ServiceError) as error:
        await open_game(service, 2)
    assert reason(error) == "service.limit_cooldown"
    assert error.value.reason.kwargs["seconds"] == 20
    await open_game(service, 2, creator=BOB)           # another member is not held back
    later(service, 20)
    await open_game(service, 3)
    assert (await service.core.get(3)) is not None


async def test_open_lobbies_per_member_are_limited(service: GameService) -> None:
    await open_game(service, 1)
    later(service)
    await open_game(service, 2)
    later(service)
    with pytest.raises(ServiceError) as error:
        await open_game(service, 3)
    assert reason(error) == "service.limit_lobbies"
    assert error.value.reason.kwargs["max"] == 2
    assert await service.core.get(3) is None                # nothing was written
    await service.lobby.join(1, BOB)
    await service.lobby.start(1, ANN.user_id)                # a started game is no lobby any more
    later(service)
    await open_game(service, 3)


async def test_games_a_member_sits_in_are_limited_for_opening_and_joining(
        service: GameService) -> None:
    for channel, creator in ((1, BOB), (2, CID), (3, BOB)):
        await open_game(service, channel, creator)
        later(service)
        await service.lobby.join(channel, ANN)
    for channel in (1, 2):
        await service.lobby.start(channel, (BOB if channel == 1 else CID).user_id)
    await open_game(service, 4, creator=CID)
    with pytest.raises(ServiceError) as error:
        await service.lobby.join(4, ANN)                      # Ann sits in 3 games (2 running)
    assert reason(error) == "service.limit_games"
    with pytest.raises(ServiceError) as error:
        await open_game(service, 5)
    assert reason(error) == "service.limit_games"
    await service.admin.resign(1, ANN.user_id)                # a resigned seat does not count
    await service.lobby.join(4, ANN)
    assert [s.user_id for s in (await service.core.get(4) or pytest.fail()).seats] == [
        CID.user_id, ANN.user_id]


async def test_games_per_server_are_limited(service: GameService) -> None:
    for channel in range(1, 6):
        await open_game(service, channel, Player(100 + channel, f"P{channel}"))
    with pytest.raises(ServiceError) as error:
        await open_game(service, 6, Player(200, "Late"))
    assert reason(error) == "service.limit_server"
    await open_game(service, 6, Player(200, "Late"), guild=GUILD + 1)   # another server


async def test_no_limits_when_turned_off(service: GameService) -> None:
    service.core.limits = Limits(0, 0, 0, 0.0, 0.0)
    for channel in range(1, 8):
        await open_game(service, channel)
    assert len(await service.core.store.games(guild_id=GUILD)) == 7


async def test_a_lobby_nobody_starts_closes_after_its_hours(service: GameService) -> None:
    scheduler = Scheduler(service, service.core.store, service.core.clock)
    await open_game(service, 1)
    later(service)
    await open_game(service, 2, creator=BOB)
    await service.lobby.join(2, ANN)
    await service.lobby.start(2, BOB.user_id)
    later(service, 47 * 3600)
    assert not [e for e in await scheduler.due() if isinstance(e, StaleLobby)]
    later(service, 3600)
    stale = [e for e in await scheduler.due() if isinstance(e, StaleLobby)]
    assert len(stale) == 1 and stale[0] == StaleLobby((await service.core.get(1) or
                                                       pytest.fail()).id)
    closed = await service.lobby.close_stale_lobby(stale[0].game_id)
    assert closed is not None and closed.status == "aborted"
    assert await service.core.get(1) is None and await service.core.get(2) is not None
    assert await service.lobby.close_stale_lobby(stale[0].game_id) is None    # closed once
    assert not [e for e in await scheduler.due() if isinstance(e, StaleLobby)]


def test_limits_come_from_the_environment() -> None:
    assert from_mapping({"DISCORD_TOKEN": "x"}).limits == Limits()
    settings = from_mapping({
        "DISCORD_TOKEN": "x", "DINGIR_MAX_LOBBIES_PER_MEMBER": "1",
        "DINGIR_MAX_GAMES_PER_MEMBER": "0", "DINGIR_MAX_GAMES_PER_SERVER": "7",
        "DINGIR_NEW_GAME_COOLDOWN_SECONDS": "2.5", "DINGIR_LOBBY_EXPIRY_HOURS": "0"})
    assert settings.limits == replace(Limits(), lobbies_per_member=1, games_per_member=0,
                                      games_per_server=7, cooldown_seconds=2.5,
                                      lobby_hours=0.0)
    with pytest.raises(ConfigError, match=r"DINGIR_NEW_GAME_COOLDOWN_SECONDS.*seconds"):
        from_mapping({"DISCORD_TOKEN": "x", "DINGIR_NEW_GAME_COOLDOWN_SECONDS": "soon"})
    with pytest.raises(ConfigError, match="DINGIR_MAX_GAMES_PER_SERVER"):
        from_mapping({"DISCORD_TOKEN": "x", "DINGIR_MAX_GAMES_PER_SERVER": "-1"})
