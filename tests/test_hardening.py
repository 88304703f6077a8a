"""Hardening (issue "a bot that keeps every game alive…"): names that cannot ping or
mislead, imports that seat someone twice or a stranger, long input that cannot fill a
cache, bounded locks, ``/ur`` only in servers, ``/play`` input bounded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot import export
from bot.clock import FakeClock
from bot.engine import BadNotation
from bot.games.ur import notation
from bot.records import GameRecord, SeatInfo
from bot.service import GameService
from bot.service import core as service_core
from bot.store import open_store
from cogs.common import seat_name
from host import registry
from tests.fakediscord import Upload
from tests.test_e2e_game import world


def record_with(name: str) -> GameRecord:
    return GameRecord(id=1, guild_id=1, channel_id=1, game="ur", status="running",
                      creator_id=1, options={}, seed=1, seats=[SeatInfo(0, 1, name)],
                      state=None, version=1)


@pytest.mark.parametrize(("name", "shown"), [
    ("<@123456789012345678>", "<@\u200b123456789012345678>"),
    ("@everyone", "@\u200beveryone"),
    ("**boss**", "\\*\\*boss\\*\\*"),
    ("[click](https://evil.example)", "\\[click](https://evil.example)"),
])
def test_a_name_neither_pings_nor_formats(name: str, shown: str) -> None:
    assert seat_name(record_with(name), 0, "en") == shown
    assert seat_name(record_with(name), 0, "en", raw=True) == name     # images draw it as is


def test_an_export_that_seats_someone_twice_is_refused() -> None:
    document = {"format": export.FORMAT, "format_version": export.FORMAT_VERSION,
                "game": "ur", "seed": 1, "log": [],
                "seats": [{"seat": i, "name": n, "user_id": 7} for i, n in enumerate("abc")]}
    with pytest.raises(export.DocumentError) as error:
        export.parse(document)
    assert error.value.reason.key == "service.import_same_player"


def test_long_text_never_reaches_the_parse_cache() -> None:
    before = notation._parse.cache_info().currsize
    with pytest.raises(BadNotation) as error:
        notation.parse_move("place B3 " * 700)
    assert notation._parse.cache_info().currsize == before
    assert len(str(error.value.reason.kwargs["text"])) <= notation.MAX_NOTATION


async def test_idle_locks_of_games_gone_from_memory_are_dropped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service_core, "LOCKS_KEPT", 10)
    store = await open_store(tmp_path / "db.sqlite3")
    try:
        service = GameService(store, FakeClock(), catalogue=registry.CATALOGUE)
        for game in range(50):
            service.core.lock(game)
        assert len(service.core._locks) <= 11
    finally:
        await store.close()


@pytest.mark.slow
async def test_commands_are_bounded_and_a_stranger_cannot_be_imported(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        synced = await w.fake.wait_synced()
        ur = next(c for c in synced if c["name"] == "ur")
        assert ur.get("dm_permission") is False
        play = next(c for c in synced if c["name"] == "play")
        assert play["options"][0]["max_length"] == 100
        admin = w.fake.user("root", guild=w.guild, manage_guild=True)
        document = {"format": export.FORMAT, "format_version": export.FORMAT_VERSION,
                    "game": "ur", "seed": 1, "log": [], "settings": {}, "options": {},
                    "seats": [{"seat": 0, "name": "root", "user_id": admin.id},
                              {"seat": 1, "name": "x", "user_id": 987654321012345678},
                              {"seat": 2, "name": "y", "user_id": None}]}
        refused = await (await admin.slash(
            "game import", channel=w.channel,
            file=Upload("game.json", json.dumps(document).encode()))).final()
        assert "not a member of this server" in refused.text, refused.text
