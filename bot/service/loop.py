"""The turn loop: what happens after a step, for every front end.

After a member's step (or a start, a restart, a seat handed to the AI, a clock that ran
out) a game may have to move on by itself: the seats the service plays take their steps
(:meth:`~bot.service.autoplay.Autoplay.play_seats`), and the front end tells what
happened. A front end (the Discord channel, the terminal) is a :class:`Front`: the loop
calls it, in order, under one lock per game. A game of another process's shards
(``DINGIR_SHARDS``) is not told here: it is noted in the database for the process that
serves it (:meth:`~bot.store.Store.note_moved`), which moves it on and tells it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Protocol

from bot.records import GameRecord, StepResult, StoreUnavailable
from bot.service.autoplay import Autoplay
from bot.service.core import ServiceCore

log = logging.getLogger(__name__)

STORE_RETRY_SECONDS = (1, 2, 4, 8, 15, 30, 60)
"""Waits before the loop tries again when the database is locked or full (then it gives
up until the next restart)."""
TELLING_LOCKS_KEPT = 4096
"""Past this many telling locks, the idle ones are dropped."""


class Front(Protocol):
    """A front end of the turn loop: it shows a game to its players."""

    async def show_missing(self, record: GameRecord) -> None:
        """Show ``record``'s board, or its end once finished, that never went out (lost
        to a crash)."""
        ...

    async def tell(self, steps: Sequence[StepResult]) -> None:
        """Tell what ``steps`` did (there may be none)."""
        ...


class Loop:
    """The turn loop part of :class:`bot.service.GameService`."""

    def __init__(self, core: ServiceCore, autoplay: Autoplay) -> None:
        self.core = core
        self.autoplay = autoplay
        self._telling: dict[int, asyncio.Lock] = {}
        self._told: dict[int, int] = {}

    def telling(self, game_id: int) -> asyncio.Lock:
        """The lock that keeps what is told of one game in order (held by :meth:`move_on`;
        idle ones are dropped once there are many: a new one serves as well)."""
        if len(self._telling) > TELLING_LOCKS_KEPT:
            self._telling = {g: lock for g, lock in self._telling.items() if lock.locked()}
        return self._telling.setdefault(game_id, asyncio.Lock())

    async def move_on(self, game_id: int, front: Front, first: StepResult | None = None,
                      *, missed: bool = False) -> list[StepResult]:
        """After ``first`` (a member's step), or whenever the game may have to move: show
        what ``front`` missed (when there is no ``first``, or ``missed``: ``first`` was
        taken by another process), let the seats the service plays take their steps, then
        tell ``first`` and theirs at once. When the database is unavailable, tried again
        after each of :data:`STORE_RETRY_SECONDS`, what went out before the failure checked
        again. Returns the steps told."""
        async with self.telling(game_id):
            pending = [first] if first is not None else []
            missing = first is None or missed
            if missed and first is not None and first.record.version <= self._told.get(
                    game_id, -1):
                pending = []        # taken here after all, and told (before the note came)
            for delay in STORE_RETRY_SECONDS:
                try:
                    return await self._move_on(game_id, front, missing, pending)
                except StoreUnavailable:
                    log.warning("database unavailable while game %s moves on: again in %s s",
                                game_id, delay)
                    await asyncio.sleep(delay)
                    missing = True
            return await self._move_on(game_id, front, missing, pending)

    async def _move_on(self, game_id: int, front: Front, missing: bool,
                       pending: list[StepResult]) -> list[StepResult]:
        """One try of :meth:`move_on` (``pending`` is emptied once told); a game of another
        process's shards is noted for that process, which tells it."""
        record = await self.core.get_by_id(game_id)
        if record is not None and not self.core.owns(record):
            await self.core.store.note_moved(game_id, self.core.clock.now())
            pending.clear()
            return []
        told_by_pending = any(p.turn_ended or p.outcome is not None for p in pending)
        if missing and not told_by_pending and record is not None \
                and self.core.board_missing(record):
            await front.show_missing(record)
            if record.status == "finished":
                return []
        results = list(pending)
        if record is not None and record.status == "running" \
                and any(self.core.is_ai(record, s) for s in record.active):
            results += await self.autoplay.play_seats(game_id)
        pending.clear()
        await front.tell(results)
        if results:
            self._remember_told(game_id, max(r.record.version for r in results))
        return results

    def _remember_told(self, game_id: int, version: int) -> None:
        """Note the newest step told of ``game_id`` (past :data:`TELLING_LOCKS_KEPT` games,
        the one told longest ago is forgotten)."""
        self._told.pop(game_id, None)
        self._told[game_id] = version
        if len(self._told) > TELLING_LOCKS_KEPT:
            del self._told[next(iter(self._told))]
