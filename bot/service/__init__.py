"""The game service: lobby, turns, undo, AI seats, clocks, settings, export/import.

No discord import. Data goes one way: the Discord layer (and the terminal, and the
benchmarks) call the parts of a :class:`GameService`; they drive the engines through the
contract of :mod:`bot.engine` and persist through :mod:`bot.store`. Errors a user can
cause raise :class:`~bot.records.ServiceError` (lobby and permission problems) or an
engine :class:`~bot.engine.GameError` (rule problems); both carry a translatable
:class:`~bot.engine.Text` and leave everything unchanged.

The parts share one :class:`~.core.ServiceCore` (cache, locks, saving, lookups), each in
its module with its own methods: :mod:`.lobby`, :mod:`.turns` (play and undo),
:mod:`.autoplay` (seats the service plays, timeouts, votes), :mod:`.loop` (the turn loop
after a step, for every front end), :mod:`.admin` (resign, abort, settings, pause),
:mod:`.history` (log, replay, export, import), :mod:`.results` (results and ratings),
:mod:`.members` (members' games, follows, absences) and :mod:`.weblinks` (the games' web
page addresses). Besides: :mod:`.seats` (who takes a seat's steps: members, the AI,
scripted seats) and :mod:`.final` (the end-of-game text). The games come from the
:class:`~bot.catalogue.Catalogue` the service is given (what the front ends read of a
game too: they never reach its engine).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from bot.records import Limits
from bot.service.admin import Admin
from bot.service.autoplay import Autoplay
from bot.service.core import MAX_AUTO_STEPS, ServiceCore, in_thread
from bot.service.history import History, export_document
from bot.service.lobby import Lobby
from bot.service.loop import Front, Loop
from bot.service.members import Members
from bot.service.results import Results
from bot.service.seats import Ask, Searcher, SeatKind
from bot.service.turns import Turns
from bot.service.weblinks import WebLinks
from bot.shards import ALL, Shards

if TYPE_CHECKING:
    from bot.catalogue import Catalogue
    from bot.clock import Clock
    from bot.store import Store

__all__ = ["MAX_AUTO_STEPS", "Ask", "Front", "GameService", "Searcher", "SeatKind",
           "export_document", "in_thread"]


class GameService:
    """The parts of the game service over one shared :class:`~.core.ServiceCore` (see
    its arguments): ``service.lobby.create(...)``, ``service.turns.play(...)``, and
    ``service.core.get(...)`` for what every part reads.

    Returned records are snapshots: treat them as read-only.
    """

    def __init__(
        self,
        store: Store,
        clock: Clock,
        seed_source: Callable[[], int] | None = None,
        *,
        catalogue: Catalogue,
        ai_search: Searcher | None = None,
        scripted: Sequence[SeatKind] | None = None,
        limits: Limits | None = None,
        shards: Shards = ALL,
    ) -> None:
        self.core = ServiceCore(store, clock, seed_source, catalogue=catalogue,
                                ai_search=ai_search, scripted=scripted, limits=limits,
                                shards=shards)
        self.lobby = Lobby(self.core)
        self.turns = Turns(self.core)
        self.autoplay = Autoplay(self.core, self.turns)
        self.loop = Loop(self.core, self.autoplay)
        self.admin = Admin(self.core)
        self.history = History(self.core)
        self.results = Results(self.core)
        self.members = Members(self.core)
        self.web = WebLinks(self.core)
