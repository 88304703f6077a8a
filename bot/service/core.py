"""The core of the game service: cached records, per-game locks, saving, lookups.

Records are cached in memory per game (this process is the only writer; the
database's version check still catches any other writer, and the cache is then
dropped). :class:`~bot.records.StoreUnavailable` (database locked or disk full)
means nothing was written: the same request can simply be retried.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bot import ai
from bot.engine import Action, Game, Outcome, Seat, State, Text, TextArg
from bot.limiter import Limiter
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


def _fail(key: str, **args: TextArg) -> ServiceError:
    return ServiceError(Text.of(key, **args))


@dataclass
class _Live:
    """A cached game: its record, the turn-start snapshot and the current turn's steps."""

    record: GameRecord
    turn_start_state: State | None
    turn_steps: list[Played] | None = None


class ServiceCore:
    """What every part of the service shares: the store, the clock, the engines, the
    cache of live games and their locks.

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
    ) -> None:
        self.store = store
        self.clock = clock
        self.limits = limits or NO_LIMITS
        self._seed_source = seed_source or (lambda: secrets.randbits(63))
        self.catalogue = catalogue
        """The hosted games (the composition root's)."""
        own = [ScriptedSeat(script) for script in catalogue.scripts]
        self.seat_kinds = SeatKinds(AiSeat(ai_search or in_thread()),
                                    own if scripted is None else scripted)
        """Who plays each seat: members, the AI, and the ``scripted`` seat kinds given
        (asked first; by default the hosted games' own: see :mod:`bot.service.seats`)."""
        self._cache: dict[int, _Live] = {}
        self._channels: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._telling: dict[int, asyncio.Lock] = {}
        self._expired: OrderedDict[tuple[int, Seat, int], None] = OrderedDict()
        self._followed: set[int] | None = None
        self._reposts: dict[str, Limiter] = {}
        self._refused_opens: dict[int, list[float]] = {}
        self.watchers: list[Callable[[GameRecord], None]] = []
        """Called with every record the service saves or loads (the deadline timers
        follow the games this way)."""

    # -- helpers --------------------------------------------------------------------------

    def engine(self, game: str) -> Game:
        """The engine of ``game``; ServiceError ``service.unknown_game`` if unknown."""
        try:
            return self.catalogue.engine(game)
        except KeyError:
            raise _fail("service.unknown_game", game=game) from None

    def repost_wait(self, kind: str, channel_id: int, user_id: int) -> float:
        """0 when ``user_id`` may have the bot post ``kind`` (``"board"``, ``"handover"``)
        publicly in the channel now, which counts; else the seconds before they may again
        (see :attr:`~bot.records.Limits.repost_seconds`)."""
        limiter = self._reposts.get(kind)
        if limiter is None:
            limiter = self._reposts[kind] = Limiter(self.clock, self.limits.repost_seconds)
        return limiter.take((channel_id, user_id))

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

    def _lock(self, game_id: int) -> asyncio.Lock:
        if len(self._locks) > LOCKS_KEPT:       # forget the idle locks of games not cached
            self._locks = {g: lock for g, lock in self._locks.items()
                           if lock.locked() or g in self._cache}
        return self._locks.setdefault(game_id, asyncio.Lock())

    def forget_cached(self) -> None:
        """Drop every cached record: the database was changed behind them (all clocks moved
        forward after a downtime); each is read again when next needed."""
        self._cache.clear()

    async def _live(self, game_id: int) -> _Live | None:
        live = self._cache.get(game_id)
        if live is None:
            stored = await self.store.load(game_id)
            if stored is None:
                return None
            cached = self._cache.get(game_id)
            if cached is not None:  # loaded meanwhile by another task, maybe newer
                return cached
            live = _Live(stored.record, stored.turn_start_state)
            self._remember(live, stored.record)
        return live

    async def _find_channel_game(self, channel_id: int) -> int | None:
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

    async def _channel_game_id(self, channel_id: int) -> int:
        game_id = await self._find_channel_game(channel_id)
        if game_id is None:
            raise _fail("service.no_game")
        return game_id

    def _remember(self, live: _Live, record: GameRecord) -> None:
        """Make ``record`` the cached one (games that ended leave the cache), and tell the
        watchers."""
        live.record = record
        if record.status in ACTIVE:
            self._cache[record.id] = live
        else:
            self._cache.pop(record.id, None)
        for watch in self.watchers:
            watch(record)

    # -- decisions ------------------------------------------------------------------------

    @staticmethod
    def _same_decision(engine: Game, before: State, after: State, seat: Seat) -> bool:
        """True if ``seat`` faces the same decision in both states (same options, prompt
        and clock): another seat's step left it alone."""
        return (
            [a.notation for a in engine.legal(before, seat)]
            == [a.notation for a in engine.legal(after, seat)]
            and engine.prompt(before, seat) == engine.prompt(after, seat)
            and engine.deadline(before, seat) == engine.deadline(after, seat)
        )

    def _waiting(self, engine: Game, record: GameRecord, state: State, active: list[Seat],
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
                    and self._same_decision(engine, record.state, state, seat)):
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

    async def _spend_banks(self, before: GameRecord, after: GameRecord, actor: Seat,
                           turn_ended: bool) -> None:
        """With time banks: each human seat whose decision ended with this step (the
        actor's always) spends the time it took (not the time its player was away), and
        the actor gets the bonus when its turn ended."""
        left = await self.banks_left(before)
        if not left:
            return
        now = self.clock.now()
        ended = [s for s in before.active if s in left and (
            s == actor or after.waiting.get(s) != before.waiting.get(s))]
        away = await self.store.away_until(
            before.seats[s].user_id or 0 for s in ended)
        spent = {}
        for seat in ended:
            start = max(before.seat_since(seat), away.get(before.seats[seat].user_id or 0, 0.0))
            bonus = before.settings.bank_bonus_hours * 3600 if seat == actor and turn_ended \
                else 0.0
            spent[seat] = max(0.0, left[seat] - max(0.0, now - start)) + bonus
        await self.store.set_banks(before.id, spent)

    def _overdue(self, engine: Game, record: GameRecord, seat: Seat) -> bool:
        """True when ``seat``'s decision has a clock of seconds that has run out."""
        assert record.state is not None
        deadline = engine.deadline(record.state, seat)
        return (deadline is not None and deadline.seconds is not None
                and self.clock.now() >= record.seat_since(seat) + deadline.seconds)

    def _mark_expired(self, game_id: int, seat: Seat, version: int) -> None:
        """Remember a decision closed by its clock, to tell a late press it was too late."""
        self._expired[(game_id, seat, version)] = None
        while len(self._expired) > EXPIRED_KEPT:
            self._expired.popitem(last=False)

    def _expired_decision(self, game_id: int, seat: Seat, version: int) -> bool:
        """True if ``seat``'s decision at ``version`` was closed by its clock."""
        return (game_id, seat, version) in self._expired

    async def _save(
        self,
        live: _Live,
        record: GameRecord,
        *,
        seats: bool = False,
        turn_start_state: State | None = None,
        undone: Sequence[int] = (),
    ) -> GameRecord:
        """Persist ``record`` (whose version the caller bumped) and update the cache."""
        try:
            await self.store.save_game(
                record, live.record.version, seats=seats, turn_start_state=turn_start_state,
                undone=undone,
            )
        except StaleVersion:
            self._cache.pop(record.id, None)
            raise
        self._remember(live, record)
        if turn_start_state is not None:
            live.turn_start_state = turn_start_state
        return record

    @staticmethod
    def _bump(record: GameRecord, **changes: Any) -> GameRecord:
        return replace(record, version=record.version + 1, **changes)

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

    def _names(self, record: GameRecord, seats: Sequence[Seat]) -> str:
        return ", ".join(record.seats[s].name for s in seats)

    @staticmethod
    def _check_running(record: GameRecord) -> None:
        if record.status == "paused":
            raise _fail("service.paused")
        if record.status == "lobby":
            raise _fail("service.not_started")
        if record.status != "running":
            raise _fail("service.game_over")

    def _final_outcome(self, engine: Game, record: GameRecord) -> Outcome | None:
        """The engine's outcome, with resigned seats ranked last."""
        assert record.state is not None
        outcome = engine.outcome(record.state)
        resigned = tuple(s.seat for s in record.seats if s.resigned)
        if outcome is None or not resigned:
            return outcome
        groups = [tuple(s for s in g if s not in resigned) for g in outcome.ranking]
        ranking = (*(g for g in groups if g), resigned)
        return replace(outcome, ranking=ranking)

    def outcome(self, record: GameRecord) -> Outcome | None:
        """The final outcome of ``record`` (resigned seats ranked last), or None."""
        if record.state is None:
            return None
        return self._final_outcome(self.engine(record.game), record)

    def _check_options(self, engine: Game, options: dict[str, str]) -> dict[str, str]:
        specs = {spec.name: spec for spec in engine.meta.options}
        for name, value in options.items():
            spec = specs.get(name)
            if spec is None:
                raise _fail("service.unknown_option", name=name, known=", ".join(specs) or "-")
            if spec.choices and value not in spec.choices:
                raise _fail("service.bad_option", name=name, value=value,
                            choices=", ".join(spec.choices))
        return {name: options.get(name, spec.default) for name, spec in specs.items()}


    @asynccontextmanager
    async def _locked(self, channel_id: int) -> AsyncIterator[_Live]:
        """The channel's game, held under its lock for the ``async with`` body."""
        game_id = await self._channel_game_id(channel_id)
        async with self._lock(game_id):
            yield await self._must_live(game_id)

    async def _must_live(self, game_id: int) -> _Live:
        live = await self._live(game_id)
        if live is None:
            raise _fail("service.no_game")
        return live

    @staticmethod
    def _check_lobby(record: GameRecord) -> None:
        if record.status != "lobby":
            raise _fail("service.already_started")

    def _check_creator(self, record: GameRecord, user_id: int, is_admin: bool = False) -> None:
        if user_id != record.creator_id and not is_admin:
            raise _fail("service.creator_only")

    async def get(self, channel_id: int) -> GameRecord | None:
        """The active (lobby/running/paused) game of ``channel_id``."""
        game_id = await self._find_channel_game(channel_id)
        return None if game_id is None else await self.get_by_id(game_id)

    async def get_by_id(self, game_id: int) -> GameRecord | None:
        """The game ``game_id`` in any status."""
        live = await self._live(game_id)
        return None if live is None else live.record

    async def list_games(self, guild_id: int, include_finished: bool = False) -> list[GameRecord]:
        """The games of a server: active ones (and finished/aborted ones if asked), oldest first."""
        statuses: tuple[str, ...] = ACTIVE + (("finished", "aborted") if include_finished else ())
        return await self.store.games(guild_id=guild_id, statuses=statuses)

    async def my_games(self, guild_id: int, user_id: int) -> list[GameRecord]:
        """The lobbies and games not ended of a server where ``user_id`` sits (not
        resigned), oldest first."""
        return await self.store.games(guild_id=guild_id, player=user_id)

    async def follow(self, channel_id: int, user_id: int, lang: str, each_turn: bool,
                     stop: bool = False) -> GameRecord:
        """``user_id`` follows the channel's game (or stops, with ``stop``): anyone may,
        to be told by direct message when it ends (and after each turn)."""
        record = await self.get(channel_id)
        if record is None:
            raise _fail("service.no_game")
        followed = await self._followed_games()
        if stop:
            await self.store.unfollow(record.id, user_id)
        else:
            await self.store.follow(record.id, user_id, lang, each_turn)
            followed.add(record.id)
        return record

    async def followers(self, game_id: int) -> list[tuple[int, str, bool]]:
        """Who follows ``game_id`` (user id, language, after each turn); no query for the
        games nobody follows."""
        followed = await self._followed_games()
        if game_id not in followed:
            return []
        rows = await self.store.followers(game_id)
        if not rows:                 # the last follower stopped: no query for it any more
            followed.discard(game_id)
        return rows

    async def _followed_games(self) -> set[int]:
        if self._followed is None:
            self._followed = await self.store.followed_games()
        return self._followed

    async def set_away(self, user_id: int, until: float) -> None:
        """``user_id`` is away until ``until`` (a time in the past: back): in all their
        games, their reminders, warnings and time limits wait, then count from their
        return."""
        await self.store.set_away(user_id, until)

    async def away(self, user_ids: Iterable[int]) -> dict[int, float]:
        """Until when those of ``user_ids`` who are away now are away."""
        now = self.clock.now()
        return {u: t for u, t in (await self.store.away_until(user_ids)).items() if t > now}

    async def running_games(self) -> list[GameRecord]:
        """Every running game (to resume AI seats and reminders after a restart)."""
        return await self.store.games(statuses=("running",))

    async def unannounced_finals(self) -> list[GameRecord]:
        """Finished games whose final message never went out (lost to a crash)."""
        return await self.store.games(statuses=("finished",), unposted=True)

    @staticmethod
    def board_missing(record: GameRecord) -> bool:
        """True when the current turn's board, or the final message of a finished game, was
        never posted (e.g. lost to a crash)."""
        return record.status in ("running", "finished") and record.posted_turn < record.turn

