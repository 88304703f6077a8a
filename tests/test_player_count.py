"""The lobby and the help say how many play a game: a range, or the one count of a game
played by a fixed number (After the Flood: "3 players", never "3-3 players")."""

from __future__ import annotations

import pytest

from bot.records import GameRecord, SeatInfo
from cogs.game_texts import lobby_text
from cogs.help import help_text


def lobby(game: str) -> GameRecord:
    """A lobby of ``game`` with its creator seated."""
    return GameRecord(id=1, guild_id=1, channel_id=1, game=game, status="lobby", creator_id=1,
                      options={}, seed=7, seats=[SeatInfo(0, 1, "ann")], state=None, version=0)


@pytest.mark.parametrize(("game", "en", "fr"), [
    ("flood", "(3 players)", "(3 joueurs)"),
    ("civsets", "(3-6 players)", "(3 à 6 joueurs)"),
    ("mesopotamia", "(2-6 players)", "(2 à 6 joueurs)"),
])
def test_the_count_of_players_reads_as_the_game_is_played(game: str, en: str, fr: str) -> None:
    assert en in lobby_text(lobby(game), "en") and fr in lobby_text(lobby(game), "fr")
    assert en[1:-1] in help_text("en", game) and fr[1:-1] in help_text("fr", game)
    assert "3-3" not in help_text("en", game) and "3 à 3" not in help_text("fr", game)
