"""``/game status`` shows every game's score so far, as the game words it."""

from __future__ import annotations

import pytest

from bot.records import GameRecord, SeatInfo
from cogs.game_texts import status_text
from host import registry


def running(game: str, n: int) -> GameRecord:
    engine = registry.get(game).engine
    state = engine.setup(7, n, {})
    return GameRecord(id=1, guild_id=1, channel_id=1, game=game, status="running",
                      creator_id=1, options={}, seed=7,
                      seats=[SeatInfo(i, i + 1, f"p{i}") for i in range(n)], state=state,
                      version=1, active=engine.active(state))


@pytest.mark.parametrize(("game", "en", "fr"), [
    ("ur", "1. p0: 1 point", "1. p0\u00a0: 1 point"),
    ("civsets", "1. p0: 0 sets, 100 points", "1. p0\u00a0: 0 série, 100 points"),
    ("flood", "1. p0: 0 VP", "1. p0\u00a0: 0 PV"),
])
def test_each_seat_has_its_standing(game: str, en: str, fr: str) -> None:
    record = running(game, 3)
    assert en in status_text(record, "en").split("\n")
    assert fr in status_text(record, "fr").split("\n")


def test_a_game_without_a_standing_lists_its_seats() -> None:
    record = running("mesopotamia", 3)
    assert "1. p0" in status_text(record, "en").split("\n")
