"""The core of the game service, shared by its parts: cached records, per-game locks,
saving, lookups.

Records are cached in memory per game (this process is the only writer of its shards'
games; the database's version check still catches any other writer, and the cache is
then dropped). A game of another process's shards (``DINGIR_SHARDS``: an interaction
that reached this process) is never cached: every read of it goes to the database.
:class:`~bot.records.StoreUnavailable` (database locked or disk full)
means nothing was written: the same request can simply be retried.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bot import ai
from bot.engine import Action, Game, Outcome, Seat, State, Text, TextArg
from bot.records import (
    ACTIVE,
    NO_LIMITS,
    GameRecord,
    Limits,
    Played,
    ServiceError,
    StaleVersion,
    Waiting,
)
from bot.service.seats import (
    AiSeat,
    ScriptedSeat,
    Searcher,
    SeatKind,
    SeatKinds,
    member_plays,
)
from bot.shards import ALL, Shards

if TYPE_CHECKING:
    from bot.catalogue import Catalogue
    from bot.clock import Clock
    from bot.store import Store


def in_thread(choose: ai.Policy = ai.choose) -> Searcher:
    """A :data:`Searcher` that runs ``choose`` in a thread of this process."""
    async def search(game: str, engine: Game, view: dict[str, Any], legal: list[Action],
                     seat: Seat, seed: str) -> Action:
        return await asyncio.to_thread(choose, engine, view, legal, seat, random.Random(seed))
    return search

log = logging.getLogger(__name__)

LOCKS_KEPT = 4096
"""Past this many per-game locks, those of games that left the cache are dropped."""
EXPIRED_KEPT = 10_000
"""Decisions closed by their clock that a late press is still told about."""
MAX_AUTO_STEPS = 500
"""Safety cap on steps applied without a human (AI seats, timeouts, skips) in one call."""


def fail(key: str, **args: TextArg) -> ServiceError:
    """The ServiceError telling the catalogue's ``key`` (raised by the caller)."""
    return ServiceError(Text.of(key, **args))


def bump(record: GameRecord, **changes: Any) -> GameRecord:
    """``record`` with ``changes`` at the next version."""
    return replace(record, version=record.version + 1, **changes)


def check_running(record: GameRecord) -> None:
    """ServiceError unless ``record`` is running."""
    if record.status == "paused":
        raise fail("service.paused")
    if record.status == "lobby":
        raise fail("service.not_started")
    if record.status != "running":
        raise fail("service.game_over")


def check_creator(record: GameRecord, user_id: int, is_admin: bool = False) -> None:
    """ServiceError unless ``user_id`` created ``record`` (or ``is_admin``)."""
    if user_id != record.creator_id and not is_admin:
        raise fail("service.creator_only")


def check_options(engine: Game, options: dict[str, str]) -> dict[str, str]:
    """``options`` checked against ``engine``'s, completed with the defaults."""
    specs = {spec.name: spec for spec in engine.meta.options}
    for name, value in options.items():
        spec = specs.get(name)
        if spec is None:
            raise fail("service.unknown_option", name=name, known=", ".join(specs) or "-")
        if spec.choices and value not in spec.choices:
            raise fail("service.bad_option", name=name, value=value,
                       choices=", ".join(spec.choices))
    return {name: options.get(name, spec.default) for name, spec in specs.items()}


@dataclass
class Live:
    """A cached game: its record, the turn-start snapshot and the current turn's steps."""

    record: GameRecord
    turn_start_state: State | None
    turn_steps: list[Played] | None = None


class ServiceCore:
    """What every part of the service shares: the store, the clock, the engines, the seat
    kinds, the cache of live games and their locks.

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
        self.store = store
        self.shards = shards
        """The shards whose guilds' games this process serves (and caches)."""
        self.clock = clock
        self.limits = limits or NO_LIMITS
        self.seed_source = seed_source or (lambda: secrets.randbits(63))
        """Draws the seed of a game at its start."""
        self.catalogue = catalogue
        """The hosted games (the composition root's)."""
        own = [ScriptedSeat(script) for script in catalogue.scripts]
        self.seat_kinds = SeatKinds(AiSeat(ai_search or in_thread()),
                                    own if scripted is None else scripted)
        """Who plays each seat: members, the AI, and the ``scripted`` seat kinds given
        (asked first; by default the hosted games' own: see :mod:`bot.service.seats`)."""
        self._cache: dict[int, Live] = {}
        self._channels: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._expired: OrderedDict[tuple[int, Seat, int], None] = OrderedDict()
        self.watchers: list[Callable[[GameRecord], None]] = []
        """Called with every record the service saves or loads (the deadline timers
        follow the games this way)."""

    # -- games and their cache --------------------------------------------------------------

    def engine(self, game: str) -> Game:
        """The engine of ``game``; ServiceError ``service.unknown_game`` if unknown."""
        try:
            return self.catalogue.engine(game)
        except KeyError:
            raise fail("service.unknown_game", game=game) from None

    def database_usable(self) -> bool:
        """False once the database file was deleted or replaced while the bot ran: nothing
        is written any more (the log says so once, naming the path)."""
        if self.store.lost:
            return False
        if not self.store.check_file():
            log.error("the database file %s was deleted or replaced while the bot ran: "
                      "no step is taken any more; stop the bot, put the right file back "
                      "at that path (keep the -wal file beside it: it holds the latest "
                      "steps) and start it", self.store.path)
            return False
        return True

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock held while ``game_id`` is read and changed (idle ones of games not
        cached are dropped once there are many)."""
        if len(self._locks) > LOCKS_KEPT:       # forget the idle locks of games not cached
            self._locks = {g: lock for g, lock in self._locks.items()
                           if lock.locked() or g in self._cache}
        return self._locks.setdefault(game_id, asyncio.Lock())

    @asynccontextmanager
    async def locked(self, channel_id: int) -> AsyncIterator[Live]:
        """The channel's game, held under its lock for the ``async with`` body."""
        game_id = await self.channel_game_id(channel_id)
        async with self.lock(game_id):
            yield await self.live(game_id)

    def forget_cached(self) -> None:
        """Drop every cached record: the database was changed behind them (all clocks moved
        forward after a downtime); each is read again when next needed."""
        self._cache.clear()

    def drop(self, game_id: int) -> None:
        """Drop ``game_id``'s cached record (its row changed behind it)."""
        self._cache.pop(game_id, None)

    async def load(self, game_id: int) -> Live | None:
        """The cached game ``game_id``, read from the store if needed (None if unknown)."""
        live = self._cache.get(game_id)
        if live is None:
            stored = await self.store.load(game_id)
            if stored is None:
                return None
            cached = self._cache.get(game_id)
            if cached is not None:  # loaded meanwhile by another task, maybe newer
                return cached
            live = Live(stored.record, stored.turn_start_state)
            self.remember(live, stored.record)
        return live

    async def live(self, game_id: int) -> Live:
        """:meth:`load`, with ServiceError ``service.no_game`` if unknown."""
        live = await self.load(game_id)
        if live is None:
            raise fail("service.no_game")
        return live

    async def channel_game(self, channel_id: int) -> int | None:
        """The id of the channel's active game (from memory when this process knows it)."""
        game_id = self._channels.get(channel_id)
        if game_id is not None:
            live = self._cache.get(game_id)
            if live is not None and live.record.status in ACTIVE:
                return game_id
            del self._channels[channel_id]
        game_id = await self.store.active_game_id(channel_id)
        if game_id is not None:
            self._channels[channel_id] = game_id
        return game_id

    async def channel_game_id(self, channel_id: int) -> int:
        """:meth:`channel_game`, with ServiceError ``service.no_game`` if there is none."""
        game_id = await self.channel_game(channel_id)
        if game_id is None:
            raise fail("service.no_game")
        return game_id

    def owns(self, record: GameRecord) -> bool:
        """True if ``record``'s game is this process's (its guild on one of its shards)."""
        return self.shards.serves(record.guild_id)

    def keep(self, live: Live) -> None:
        """Cache a new lobby as its channel's game (if it is this process's)."""
        if self.owns(live.record):
            self._cache[live.record.id] = live
            self._channels[live.record.channel_id] = live.record.id

    def remember(self, live: Live, record: GameRecord) -> None:
        """Make ``record`` the cached one (games that ended, and other processes' games,
        leave the cache), and tell the watchers."""
        live.record = record
        if record.status in ACTIVE and self.owns(record):
            self._cache[record.id] = live
        else:
            self._cache.pop(record.id, None)
        for watch in self.watchers:
            watch(record)

    async def save(
        self,
        live: Live,
        record: GameRecord,
        *,
        seats: bool = False,
        turn_start_state: State | None = None,
        start_state: State | None = None,
        undone: Sequence[int] = (),
    ) -> GameRecord:
        """Persist ``record`` (whose version the caller bumped; its first state too when the
        game starts) and update the cache."""
        try:
            await self.store.save_game(
                record, live.record.version, seats=seats, turn_start_state=turn_start_state,
                start_state=start_state, undone=undone,
            )
        except StaleVersion:
            self._cache.pop(record.id, None)
            raise
        self.remember(live, record)
        if turn_start_state is not None:
            live.turn_start_state = turn_start_state
        return record

    async def get(self, channel_id: int) -> GameRecord | None:
        """The active (lobby/running/paused) game of ``channel_id``."""
        game_id = await self.channel_game(channel_id)
        return None if game_id is None else await self.get_by_id(game_id)

    async def get_by_id(self, game_id: int) -> GameRecord | None:
        """The game ``game_id`` in any status."""
        live = await self.load(game_id)
        return None if live is None else live.record

    async def list_games(self, guild_id: int, include_finished: bool = False) -> list[GameRecord]:
        """The games of a server: active ones (and finished/aborted ones if asked), oldest first."""
        statuses: tuple[str, ...] = ACTIVE + (("finished", "aborted") if include_finished else ())
        return await self.store.games(guild_id=guild_id, statuses=statuses)

    async def running_games(self) -> list[GameRecord]:
        """Every running game of this process's shards (to resume AI seats and reminders
        after a restart)."""
        return await self.store.games(statuses=("running",), shards=self.shards)

    async def unannounced_finals(self) -> list[GameRecord]:
        """Finished games of this process's shards whose final message never went out
        (lost to a crash)."""
        return await self.store.games(statuses=("finished",), unposted=True,
                                      shards=self.shards)

    # -- decisions ------------------------------------------------------------------------

    def _same_decision(self, game: str, before: State, after: State, seat: Seat) -> bool:
        """True if ``seat`` faces the same decision in both states (same options, prompt
        and clock): another seat's step left it alone."""
        engine, legal = self.catalogue.engine(game), self.catalogue.legal
        return (
            [a.notation for a in legal(game, before, seat)]
            == [a.notation for a in legal(game, after, seat)]
            and engine.prompt(before, seat) == engine.prompt(after, seat)
            and engine.deadline(before, seat) == engine.deadline(after, seat)
        )

    def waiting(self, record: GameRecord, state: State, active: list[Seat],
                actor: Seat | None, version: int, *, fresh: bool = False
                ) -> dict[Seat, Waiting]:
        """The decision of each seat of ``active`` in ``state``, reached from ``record`` by
        ``actor``'s step (None: by no step of a seat) at ``version``: a seat that was
        already deciding, did not act and faces the same decision keeps its version and
        clock (unless ``fresh``); the others get a new decision now."""
        now = self.clock.now()
        waiting = {}
        for seat in active:
            old = record.waiting.get(seat)
            if (not fresh and old is not None and seat != actor and seat in record.active
                    and record.state is not None
                    and self._same_decision(record.game, record.state, state, seat)):
                waiting[seat] = old
            else:
                waiting[seat] = Waiting(version, now)
        return waiting

    async def banks_left(self, record: GameRecord) -> dict[Seat, float]:
        """The seconds left in each human seat's time bank (empty without a bank)."""
        full = (record.settings.time_bank_hours or 0) * 3600
        if not full:
            return {}
        kept = await self.store.banks([record.id])
        return {s.seat: kept.get((record.id, s.seat), full) for s in record.seats
                if not self.is_ai(record, s.seat)}

    def overdue(self, engine: Game, record: GameRecord, seat: Seat) -> bool:
        """True when ``seat``'s decision has a clock of seconds that has run out."""
        assert record.state is not None
        deadline = engine.deadline(record.state, seat)
        return (deadline is not None and deadline.seconds is not None
                and self.clock.now() >= record.seat_since(seat) + deadline.seconds)

    def mark_expired(self, game_id: int, seat: Seat, version: int) -> None:
        """Remember a decision closed by its clock, to tell a late press it was too late."""
        self._expired[(game_id, seat, version)] = None
        while len(self._expired) > EXPIRED_KEPT:
            self._expired.popitem(last=False)

    def expired(self, game_id: int, seat: Seat, version: int) -> bool:
        """True if ``seat``'s decision at ``version`` was closed by its clock."""
        return (game_id, seat, version) in self._expired

    # -- reading a record -----------------------------------------------------------------

    def seat_of(self, record: GameRecord, user_id: int) -> Seat | None:
        """The seat ``user_id`` plays in ``record`` (None if not seated or resigned)."""
        for info in record.seats:
            if info.user_id == user_id and not info.resigned:
                return info.seat
        return None

    @staticmethod
    def is_ai(record: GameRecord, seat: Seat) -> bool:
        """True if no member plays ``seat``: the service does (the AI for an AI seat or a
        resigned player's, or a scripted seat kind)."""
        return not member_plays(record, seat)

    def outcome(self, record: GameRecord) -> Outcome | None:
        """The final outcome of ``record`` (resigned seats ranked last), or None."""
        if record.state is None:
            return None
        outcome = self.engine(record.game).outcome(record.state)
        resigned = tuple(s.seat for s in record.seats if s.resigned)
        if outcome is None or not resigned:
            return outcome
        groups = [tuple(s for s in g if s not in resigned) for g in outcome.ranking]
        ranking = (*(g for g in groups if g), resigned)
        return replace(outcome, ranking=ranking)

    @staticmethod
    def board_missing(record: GameRecord) -> bool:
        """True when the current turn's board, or the final message of a finished game, was
        never posted (e.g. lost to a crash)."""
        return record.status in ("running", "finished") and record.posted_turn < record.turn
