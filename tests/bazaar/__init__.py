"""Bazaar: a small test game with everything Ur lacks (see :mod:`tests.bazaar.engine`).

The bot hosts it when ``DINGIR_EXTRA_GAMES=tests.bazaar`` (end-to-end tests); its
:data:`ENTRY` is what the registry loads.
"""

from __future__ import annotations

from host.registry import GameEntry
from tests.bazaar.engine import GAME
from tests.bazaar.render import RENDERER

ENTRY = GameEntry(GAME, RENDERER)
"""The game as the registry lists it."""
