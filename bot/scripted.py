"""A game's own scripted opponent, as the catalogue of hosted games declares it (the
service seats and plays it: :class:`bot.service.seats.ScriptedSeat`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.engine import Seat, State, Text
from bot.records import GameRecord


@dataclass(frozen=True)
class Script:
    """A game's own scripted opponent: its seat's stored name, that seat's name in a
    reader's language (``seat_title``) and what the channel calls it, the
    game option that seats it and its values (its
    levels, with their names; ``solo`` the one a game for fewer people than the game's
    minimum gets), and pure functions of the game's rules: ``seats`` (how many seats a new
    game with these options gives it, the last ones), ``plays`` (whether it plays a seat of
    a state) and ``step`` (the notation of its seat's next step)."""

    game: str
    name: str
    title: Text
    seat_title: Text
    option: str
    levels: tuple[tuple[str, Text], ...]
    solo: str
    seats: Callable[[Mapping[str, str]], int]
    plays: Callable[[State, Seat], bool]
    step: Callable[[State, Seat], str]
    seat_name: Callable[[State, Seat], Text] | None = None
    """The seat's name when it depends on the state (a game mode's own opponent), else
    ``seat_title``."""
    describe: Callable[[Mapping[str, str]], tuple[Text, Text] | None] | None = None
    """What the lobby calls the opponent and its level when the options make it another one
    (a game mode's), else None: ``title`` and the level of ``option``."""

    def plays_seat(self, record: GameRecord, seat: Seat) -> bool:
        """True for a seat of a started game of this script's that it plays."""
        return record.game == self.game and record.state is not None \
            and self.plays(record.state, seat)
