"""What the front ends read of a game: they go through these, never to its engine.

A record names its game; these read it with the hosted game's engine (the registry's,
as :class:`~bot.service.GameService` does by default), so a front end needs no service
object to word a record (the texts of a status, a lobby, a turn message).
"""

from __future__ import annotations

from typing import Any

from bot.engine import Action, Deadline, Game, GameMeta, Prompt, Seat, Text
from bot.records import GameRecord
from bot.scripted import Script
from bot.service.seats import ScriptedSeat


def engine_of(game: str) -> Game:
    """The engine of the hosted game ``game`` (KeyError if unknown)."""
    from bot import registry  # imported late: it pulls in every game and renderer

    return registry.get(game).engine


def games() -> list[str]:
    """The ids of the hosted games."""
    from bot import registry

    return registry.ids()


def scripts() -> list[Script]:
    """The hosted games' own scripted opponents."""
    from bot import registry

    return registry.scripts()


def opponent(record: GameRecord) -> tuple[Text, Text] | None:
    """The game's own opponent that ``record``'s options seat at the start: its name and
    its level's; None when they seat none."""
    for script in scripts():
        if script.game == record.game and script.seats(record.options):
            return script.title, dict(script.levels)[record.options[script.option]]
    return None


def scripted_seat(record: GameRecord, seat: Seat) -> bool:
    """True when the game's own opponent plays ``seat`` of ``record`` (no member, no AI)."""
    return any(kind.plays(record, seat) for kind in scripted())


def scripted() -> list[ScriptedSeat]:
    """The seats of the hosted games' own scripted opponents."""
    return [ScriptedSeat(script) for script in scripts()]


def meta(game: str) -> GameMeta:
    """The description of ``game``: name, players, options, hidden information."""
    return engine_of(game).meta


def view(record: GameRecord, seat: Seat | None = None) -> dict[str, Any]:
    """What ``seat`` may see of ``record`` now (None: the public)."""
    if record.state is None:
        raise ValueError(f"game {record.id} has no state yet")
    return engine_of(record.game).view(record.state, seat)


def legal_steps(record: GameRecord, seat: Seat) -> list[Action]:
    """``seat``'s legal steps in ``record`` (none before the start)."""
    if record.state is None:
        return []
    return engine_of(record.game).legal(record.state, seat)


def prompt(record: GameRecord, seat: Seat) -> Prompt | None:
    """What ``seat``'s decision in ``record`` asks, when the game words it."""
    return None if record.state is None else engine_of(record.game).prompt(record.state, seat)


def deadline(record: GameRecord, seat: Seat) -> Deadline | None:
    """The clock of ``seat``'s decision in ``record`` and its default step, if any."""
    if record.state is None:
        return None
    return engine_of(record.game).deadline(record.state, seat)


def standing(record: GameRecord) -> tuple[Text, ...]:
    """Each seat's standing so far (score, sets), as the game words it."""
    return () if record.state is None else engine_of(record.game).standing(record.state)
