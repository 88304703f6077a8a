"""The one place that lists the games Dingir hosts, and their :data:`CATALOGUE`.

Besides the games below, the bot hosts those whose modules are named in
``DINGIR_EXTRA_GAMES`` (comma-separated; each module has an ``ENTRY``): the
end-to-end tests host their test game this way, and a game in development can be
tried without being listed here.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.catalogue import Catalogue
from bot.engine import Game
from bot.games.civsets.engine import GAME as CIVSETS
from bot.games.flood.engine import GAME as FLOOD
from bot.games.mesopotamia.automaton import play as automaton
from bot.games.mesopotamia.engine import GAME as MESOPOTAMIA
from bot.games.ur.engine import GAME as UR
from bot.scripted import Script
from render.civsets import RENDERER as CIVSETS_RENDERER
from render.context import Renderer
from render.flood import RENDERER as FLOOD_RENDERER
from render.flood_tables import tables_png
from render.mesopotamia import RENDERER as MESOPOTAMIA_RENDERER
from render.mesopotamia import crop_pngs
from render.mesopotamia_board import board_png
from render.ur import PREVIEW as UR_PREVIEW
from render.ur import RENDERER as UR_RENDERER


@dataclass(frozen=True)
class GameEntry:
    """A hosted game: its rules engine, its board renderer, optionally a cheaper renderer
    for private previews, the Discord extension (module name) with its own typed
    commands, the pictures those commands draw (by the render workers) and the game's own
    scripted opponent (a seat that is no player, played by the service)."""

    engine: Game
    renderer: Renderer
    preview: Renderer | None = None
    extension: str | None = None
    pictures: tuple[Callable[..., Any], ...] = ()
    script: Script | None = None

    @property
    def preview_renderer(self) -> Renderer:
        """The renderer of private previews (the board renderer when none is given)."""
        return self.preview or self.renderer


EXTRA_GAMES_ENV = "DINGIR_EXTRA_GAMES"


def _extra_games() -> dict[str, GameEntry]:
    """The games of the modules named in ``DINGIR_EXTRA_GAMES``, by id."""
    names = [n.strip() for n in os.environ.get(EXTRA_GAMES_ENV, "").split(",") if n.strip()]
    entries = [importlib.import_module(name).ENTRY for name in names]
    return {entry.engine.meta.id: entry for entry in entries}


GAMES: dict[str, GameEntry] = {
    UR.meta.id: GameEntry(UR, UR_RENDERER, preview=UR_PREVIEW, extension="cogs.ur"),
    CIVSETS.meta.id: GameEntry(CIVSETS, CIVSETS_RENDERER),
    FLOOD.meta.id: GameEntry(FLOOD, FLOOD_RENDERER, extension="cogs.flood",
                             pictures=(tables_png,)),
    MESOPOTAMIA.meta.id: GameEntry(MESOPOTAMIA, MESOPOTAMIA_RENDERER,
                                   extension="cogs.mesopotamia",
                                   pictures=(board_png, crop_pngs),
                                   script=Script(MESOPOTAMIA.meta.id, "Automaton", automaton.NAME,
                                                 automaton.SEAT,
                                                 *automaton.OPTION, automaton.seats,
                                                 automaton.plays, automaton.next_step,
                                                 automaton.seat_name, automaton.describe)),
    **_extra_games(),
}
CATALOGUE = Catalogue({game: e.engine for game, e in GAMES.items()},
                      [e.script for _, e in sorted(GAMES.items()) if e.script])
"""What the service and the front ends read of the hosted games."""


def get(game_id: str) -> GameEntry:
    """The entry of ``game_id``; raises KeyError naming the known games."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(sorted(GAMES))}") from None


def ids() -> list[str]:
    """The ids of all hosted games."""
    return sorted(GAMES)


def extensions() -> list[str]:
    """The per-game Discord extensions to load, in game order."""
    return [e.extension for _, e in sorted(GAMES.items()) if e.extension]
