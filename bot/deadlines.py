"""Timers for decisions with a clock of seconds (a quiz answer within 60 s).

The service tells :class:`Deadlines` about every game it saves or loads
(:attr:`bot.service.core.ServiceCore.watchers`). For each active seat whose decision has
a clock of seconds (``engine.deadline(state, seat).seconds``), one timer waits until
``seat_since + seconds`` and then calls ``fire(game_id, seat, version)``, which
applies the engine's default step through the service (``service.autoplay.expire``)
and tells the players. A decision taken in time makes its timer useless: the next
save replaces or cancels it, and ``expire`` checks the decision's version anyway,
so a timer fires a decision's default at most once. After a restart, ``watch``
over the running games re-arms every clock; one already past fires at once (late,
never twice). A timer that wakes before ``clock`` says it is due sleeps again (uvloop
wakes up to a millisecond early; the wall clock can drift from the loop's).
:meth:`check` fires overdue timers too, for a clock that jumped. A bot run as several
processes (``DINGIR_SHARDS``) times the games of its own shards' guilds only.

How late each timer fired (against its due time) is kept in :attr:`lateness`.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.clock import Clock
from bot.engine import Game, Seat
from bot.records import GameRecord
from bot.shards import ALL, Shards

log = logging.getLogger(__name__)

Fire = Callable[[int, Seat, int], Awaitable[None]]
"""What a timer calls when it runs out: (game id, seat, decision version)."""

LATENESS_KEPT = 10_000


@dataclass
class _Timer:
    version: int
    due: float
    task: asyncio.Task[None] | None = None


class Deadlines:
    """One timer per (game, seat) whose current decision has a clock of seconds."""

    def __init__(self, clock: Clock, engines: Callable[[str], Game],
                 shards: Shards = ALL) -> None:
        self.clock = clock
        self._engine_of = engines
        self.shards = shards
        self._timers: dict[tuple[int, Seat], _Timer] = {}
        self._seats: dict[int, set[Seat]] = {}
        """The seats of each game that have a timer (so a save looks at its game only)."""
        self._fire: Fire | None = None
        self.lateness: deque[float] = deque(maxlen=LATENESS_KEPT)
        """Seconds between each fired timer's due time and its firing, latest last."""

    def start(self, fire: Fire) -> None:
        """Start firing: from now on a timer that runs out calls ``fire``."""
        self._fire = fire
        for key, timer in self._timers.items():
            if timer.task is None:
                timer.task = asyncio.create_task(self._wait(key, timer), name=f"deadline-{key}")

    def watch(self, record: GameRecord) -> None:
        """Follow ``record``: arm a timer for each seat with a clock of seconds, cancel the
        timers of decisions that are over."""
        wanted = self._wanted(record)
        for seat in list(self._seats.get(record.id, ())):
            if (record.id, seat) not in wanted:
                self._cancel((record.id, seat))
        for key, (version, due) in wanted.items():
            timer = self._timers.get(key)
            if timer is not None and timer.version == version and timer.due == due:
                continue
            if timer is not None:
                self._cancel(key)
            timer = _Timer(version, due)
            self._timers[key] = timer
            self._seats.setdefault(key[0], set()).add(key[1])
            if self._fire is not None:
                timer.task = asyncio.create_task(self._wait(key, timer), name=f"deadline-{key}")

    def _wanted(self, record: GameRecord) -> dict[tuple[int, Seat], tuple[int, float]]:
        if record.status != "running" or record.state is None or \
                not self.shards.serves(record.guild_id):
            return {}
        engine = self._engine_of(record.game)
        wanted = {}
        for seat in record.active:
            deadline = engine.deadline(record.state, seat)
            if deadline is not None and deadline.seconds is not None:
                due = record.seat_since(seat) + deadline.seconds
                wanted[(record.id, seat)] = (record.seat_version(seat), due)
        return wanted

    def _forget(self, key: tuple[int, Seat]) -> _Timer:
        timer = self._timers.pop(key)
        seats = self._seats[key[0]]
        seats.discard(key[1])
        if not seats:
            del self._seats[key[0]]
        return timer

    def _cancel(self, key: tuple[int, Seat]) -> None:
        timer = self._forget(key)
        if timer.task is not None and timer.task is not asyncio.current_task():
            timer.task.cancel()

    async def _wait(self, key: tuple[int, Seat], timer: _Timer) -> None:
        # A sleep may end before ``clock`` says the time is due (uvloop counts whole
        # milliseconds and wakes up to one early; the wall clock can be slowed or set back
        # by a time sync): sleep again until it agrees, since the service refuses to expire
        # a decision early and the timer would be lost.
        while (left := timer.due - self.clock.now()) > 0:
            await asyncio.sleep(left)
        await self._run(key, timer)

    async def _run(self, key: tuple[int, Seat], timer: _Timer) -> None:
        if self._timers.get(key) is not timer:
            return
        self._forget(key)
        late = self.clock.now() - timer.due
        self.lateness.append(late)
        log.info("deadline of game %s seat %s fired %.0f ms late", key[0], key[1], late * 1000)
        assert self._fire is not None
        try:
            await self._fire(key[0], key[1], timer.version)
        except Exception:
            log.exception("the deadline of game %s seat %s failed", key[0], key[1])

    def check(self) -> None:
        """Fire at once every timer already due (the clock jumped ahead)."""
        now = self.clock.now()
        for key, timer in list(self._timers.items()):
            if timer.due <= now and timer.task is not None:
                timer.task.cancel()
                timer.task = asyncio.create_task(self._run(key, timer), name=f"deadline-{key}")

    def pending(self) -> int:
        """How many decisions have a clock running."""
        return len(self._timers)

    async def close(self) -> None:
        """Cancel every timer (a restart re-arms them from the database)."""
        tasks = [t.task for t in self._timers.values() if t.task is not None]
        self._timers.clear()
        self._seats.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
