"""Where replaying a game's log starts: its state at the start, kept since it began.

A game's history (its log's words, the replay animation, the web page, a partial export)
replays the action log from the game's first state. That state is stored when the game
starts, so a game started before its contents changed (a card, the map) still replays from
what it was dealt; a game stored before the start was kept replays from ``setup(seed)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Game, State


@dataclass(frozen=True)
class Beginning:
    """How a game began: its id, seed, seat count and options, and its first state when
    it was stored (None for games stored before it was kept)."""

    game: str
    seed: int
    players: int
    options: dict[str, str]
    state: State | None = None


def first_state(engine: Game, beginning: Beginning) -> State:
    """The state ``beginning``'s log replays from: the stored one, else ``setup(seed)``."""
    if beginning.state is not None:
        return beginning.state
    return engine.setup(beginning.seed, beginning.players, beginning.options)
