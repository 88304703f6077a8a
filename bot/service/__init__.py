"""The game service: lobby, turns, undo, AI seats, clocks, settings, export/import.

No discord import. Data goes one way: the Discord layer (and the terminal, and the
benchmarks) call :class:`GameService`; it drives the engines through the contract
of :mod:`bot.engine` and persists through :mod:`bot.store`. Errors a user can cause
raise :class:`~bot.records.ServiceError` (lobby and permission problems) or an engine
:class:`~bot.engine.GameError` (rule problems); both carry a translatable
:class:`~bot.engine.Text` and leave everything unchanged.

Each concern has its module: :mod:`.core` (cache, locks, saving), :mod:`.lobby`,
:mod:`.turns` (play and undo), :mod:`.seats` (who takes a seat's steps: members,
the AI, scripted seats), :mod:`.autoplay` (seats the service plays, timeouts, votes),
:mod:`.loop` (the turn loop after a step, for every front end),
:mod:`.admin` (resign, abort, settings, pause), :mod:`.history` (log, replay, export,
import), :mod:`.results` (results and ratings), :mod:`.final` (the end-of-game text)
and :mod:`.weblinks` (the games' web page addresses). The games come from the
:class:`~bot.catalogue.Catalogue` the service is given (what the front ends read of a
game too: they never reach its engine).
"""

from __future__ import annotations

from bot.service.core import MAX_AUTO_STEPS, in_thread
from bot.service.history import HistoryMixin, export_document
from bot.service.lobby import LobbyMixin
from bot.service.loop import Front, LoopMixin
from bot.service.results import ResultsMixin
from bot.service.seats import Ask, Searcher, SeatKind
from bot.service.weblinks import WebLinksMixin

__all__ = ["MAX_AUTO_STEPS", "Ask", "Front", "GameService", "Searcher", "SeatKind",
           "export_document", "in_thread"]


class GameService(LobbyMixin, LoopMixin, HistoryMixin, ResultsMixin, WebLinksMixin):
    """Lobby, turns, undo, AI seats, settings, export/import over a :class:`~bot.store.Store`.

    Returned records are snapshots: treat them as read-only.
    """
