"""The one place that lists the games Dingir hosts."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Game
from bot.games.ur.engine import GAME as UR
from render.context import Renderer
from render.ur import RENDERER as UR_RENDERER


@dataclass(frozen=True)
class GameEntry:
    """A hosted game: its rules engine and its board renderer."""

    engine: Game
    renderer: Renderer


GAMES: dict[str, GameEntry] = {
    UR.meta.id: GameEntry(UR, UR_RENDERER),
}


def get(game_id: str) -> GameEntry:
    """The entry of ``game_id``; raises KeyError naming the known games."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(sorted(GAMES))}") from None


def ids() -> list[str]:
    """The ids of all hosted games."""
    return sorted(GAMES)
