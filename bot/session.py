"""The game service: lobby, turns, undo, AI seats, export/import. No discord import.

Every step goes load -> check seat/turn/version -> engine.apply -> save state
and log row in one transaction, under a per-game lock, so two simultaneous
clicks apply exactly one step. Errors a user can cause raise
:class:`ServiceError` (lobby and permission problems) or an engine
:class:`~bot.engine.GameError` (rule problems); both carry a translatable
:class:`~bot.engine.Text` and leave everything unchanged.

Records are cached in memory per game (this process is the only writer; the
database's version check still catches any other writer, and the cache is then
dropped). :class:`StoreUnavailable` (database locked or disk full) means nothing
was written: the same request can simply be retried. A retried step carrying its
``expected_version`` is never applied twice.

Rulings (details in the method docstrings): the creator leaving a lobby passes it on
to the next human (or closes it); a resigned seat is played by the AI and ranked
last; vote_skip needs a strict majority of the other seated humans once the turn
limit has passed; the "ai" timeout policy lets the AI finish that turn only.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Literal

from bot import ai, export
from bot.engine import Action, Game, Outcome, Seat, State, Text, TextArg

if TYPE_CHECKING:
    from bot.clock import Clock
    from bot.store import Store

GameStatus = Literal["lobby", "running", "paused", "finished", "aborted"]
TimeoutPolicy = Literal["nothing", "vote_skip", "ai"]


class ServiceError(Exception):
    """A request the service refuses (lobby rules, permissions, stale version...)."""

    def __init__(self, reason: Text) -> None:
        super().__init__(reason.key)
        self.reason = reason


class StaleVersion(ServiceError):
    """The board moved on since the button or prompt was made."""

    def __init__(self, reason: Text | None = None) -> None:
        super().__init__(reason or Text.of("service.stale_version"))


class StoreUnavailable(ServiceError):
    """The database is locked, full or failing: nothing was written; try again later."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(Text.of("service.store_unavailable"))
        self.detail = detail


@dataclass(frozen=True)
class Player:
    """A person as the service knows them: Discord user id and display name."""

    user_id: int
    name: str


@dataclass
class SeatInfo:
    """One seat of a game: a person, or an AI when ``user_id`` is None."""

    seat: Seat
    user_id: int | None
    name: str
    resigned: bool = False


@dataclass
class GameSettings:
    """Per-game settings changed with ``/game settings``."""

    reminder_hours: float = 24.0
    turn_limit_hours: float | None = None
    timeout_policy: TimeoutPolicy = "nothing"
    dm_reminders: bool = False


@dataclass
class GameRecord:
    """A game as stored: lobby data, seats, current state and version."""

    id: int
    guild_id: int | None
    channel_id: int
    game: str
    status: GameStatus
    creator_id: int
    options: dict[str, str]
    seed: int
    seats: list[SeatInfo]
    state: State | None
    version: int
    settings: GameSettings = field(default_factory=GameSettings)
    lang: str = "en"
    created_at: float = 0.0
    turn_started_at: float = 0.0
    last_message_id: int | None = None
    turn: int = 0
    posted_turn: int = -1
    active: list[Seat] = field(default_factory=list)
    ended_at: float | None = None


@dataclass(frozen=True)
class StepResult:
    """What one accepted step did, for the front end to report."""

    record: GameRecord
    seat: Seat
    action: Action
    turn_ended: bool
    turn_steps: tuple[Action, ...]
    outcome: Outcome | None


@dataclass(frozen=True)
class LogEntry:
    """One row of the append-only action log."""

    index: int
    seat: Seat
    notation: str
    turn: int
    at: float


@dataclass(frozen=True)
class SkipVote:
    """The result of :meth:`GameService.vote_skip`: votes so far and any steps applied."""

    record: GameRecord
    seat: Seat
    votes: int
    needed: int
    steps: tuple[StepResult, ...]

    @property
    def skipped(self) -> bool:
        """True when the vote reached the majority and the turn was played out."""
        return self.votes >= self.needed


Chooser = Callable[[Game, dict[str, Any], list[Action], Seat, random.Random], Action]
"""An AI policy: (game, view, legal, seat, rng) -> action (the signature of ``bot.ai.choose``)."""
Searcher = Callable[[str, Game, dict[str, Any], list[Action], Seat, str], Awaitable[Action]]
"""Runs an AI policy somewhere off the event loop: (game id, its engine, the seat's view,
legal steps, seat, seed of the policy's random generator) -> action."""


def in_thread(choose: Chooser = ai.choose) -> Searcher:
    """A :data:`Searcher` that runs ``choose`` in a thread of this process."""
    async def search(game: str, engine: Game, view: dict[str, Any], legal: list[Action],
                     seat: Seat, seed: str) -> Action:
        return await asyncio.to_thread(choose, engine, view, legal, seat, random.Random(seed))
    return search

ACTIVE: tuple[GameStatus, ...] = ("lobby", "running", "paused")
REMINDER_HOURS = (1.0, 720.0)
TURN_LIMIT_HOURS = (1.0, 2160.0)
POLICIES: tuple[TimeoutPolicy, ...] = ("nothing", "vote_skip", "ai")
MAX_AUTO_STEPS = 500
"""Safety cap on steps applied without a human (AI seats, timeouts, skips) in one call."""


def export_document(record: GameRecord, log: list[LogEntry]) -> dict[str, Any]:
    """The JSON export of a game: seed, options, seats, action log (see :mod:`bot.export`)."""
    return export.build(
        game=record.game,
        options=record.options,
        seed=record.seed,
        seats=[export.SeatEntry(s.seat, s.name, s.user_id, s.resigned) for s in record.seats],
        settings=asdict(record.settings),
        lang=record.lang,
        status=record.status,
        log=[export.LogLine(e.seat, e.notation) for e in log],
        state=record.state,
    )


def _registry_engine(game_id: str) -> Game:
    from bot import registry  # imported late: it pulls in every game and renderer

    return registry.get(game_id).engine


def _fail(key: str, **args: TextArg) -> ServiceError:
    return ServiceError(Text.of(key, **args))


@dataclass
class _Live:
    """A cached game: its record, the turn-start snapshot and the current turn's steps."""

    record: GameRecord
    turn_start_state: State | None
    turn_steps: list[Action] | None = None


class GameService:
    """Lobby, turns, undo, AI seats, settings, export/import over a :class:`Store`.

    Returned records are snapshots: treat them as read-only.
    """

    def __init__(
        self,
        store: Store,
        clock: Clock,
        seed_source: Callable[[], int] | None = None,
        *,
        engines: Callable[[str], Game] | None = None,
        ai_search: Searcher | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self._seed_source = seed_source or (lambda: secrets.randbits(63))
        self._engine_of = engines or _registry_engine
        self._ai_search: Searcher = ai_search or in_thread()
        self._cache: dict[int, _Live] = {}
        self._channels: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    # -- helpers --------------------------------------------------------------------------

    def engine(self, game: str) -> Game:
        """The engine of ``game``; ServiceError ``service.unknown_game`` if unknown."""
        try:
            return self._engine_of(game)
        except KeyError:
            raise _fail("service.unknown_game", game=game) from None

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

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
        """Make ``record`` the cached one; games that ended leave the cache."""
        live.record = record
        if record.status in ACTIVE:
            self._cache[record.id] = live
        else:
            self._cache.pop(record.id, None)

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
        """True if the AI plays ``seat`` (an AI seat, or a resigned player's)."""
        info = record.seats[seat]
        return info.user_id is None or info.resigned

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

    # -- lobby ----------------------------------------------------------------------------

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

    async def create(
        self,
        guild_id: int | None,
        channel_id: int,
        creator: Player,
        game: str,
        options: dict[str, str],
        ai_seats: int = 0,
        lang: str = "en",
    ) -> GameRecord:
        """Open a lobby in ``channel_id`` with ``creator`` seated first (and ``ai_seats`` AIs).

        One active game per channel: ServiceError ``service.channel_busy`` otherwise.
        """
        engine = self.engine(game)
        full_options = self._check_options(engine, options)
        if not 0 <= ai_seats < engine.meta.max_players:
            raise _fail("service.too_many_ai", max=engine.meta.max_players - 1)
        if await self._find_channel_game(channel_id) is not None:
            raise _fail("service.channel_busy")
        seats = [SeatInfo(0, creator.user_id, creator.name)]
        seats += [SeatInfo(i + 1, None, f"AI {i + 1}") for i in range(ai_seats)]
        record = GameRecord(
            id=0, guild_id=guild_id, channel_id=channel_id, game=game, status="lobby",
            creator_id=creator.user_id, options=full_options, seed=self._seed_source(),
            seats=seats, state=None, version=0, lang=lang, created_at=self.clock.now(),
        )
        record.id = await self.store.insert_game(record)
        self._cache[record.id] = _Live(record, None)
        self._channels[channel_id] = record.id
        return record

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

    async def join(self, channel_id: int, player: Player) -> GameRecord:
        """Take a seat in the lobby (not twice, not beyond the game's maximum)."""
        async with self._locked(channel_id) as live:
            record = live.record
            self._check_lobby(record)
            if any(s.user_id == player.user_id for s in record.seats):
                raise _fail("service.already_joined")
            maximum = self.engine(record.game).meta.max_players
            if len(record.seats) >= maximum:
                raise _fail("service.game_full", max=maximum)
            seats = [*record.seats, SeatInfo(len(record.seats), player.user_id, player.name)]
            return await self._save(live, self._bump(record, seats=seats), seats=True)

    async def leave(self, channel_id: int, user_id: int) -> GameRecord:
        """Leave the lobby before the start.

        Ruling: if the creator leaves, the lobby passes to the next human in join
        order; if no human is left, the lobby closes (status ``aborted``).
        """
        async with self._locked(channel_id) as live:
            record = live.record
            if record.status != "lobby":
                raise _fail("service.leave_started")
            if not any(s.user_id == user_id for s in record.seats):
                raise _fail("service.not_seated")
            kept = [s for s in record.seats if s.user_id != user_id]
            seats = [replace(s, seat=i) for i, s in enumerate(kept)]
            humans = [s for s in seats if s.user_id is not None]
            changes: dict[str, Any] = {"seats": seats}
            if user_id == record.creator_id:
                if humans:
                    assert humans[0].user_id is not None
                    changes["creator_id"] = humans[0].user_id
                else:
                    changes.update(status="aborted", ended_at=self.clock.now())
            return await self._save(live, self._bump(record, **changes), seats=True)

    def _check_creator(self, record: GameRecord, user_id: int, is_admin: bool = False) -> None:
        if user_id != record.creator_id and not is_admin:
            raise _fail("service.creator_only")

    async def add_ai(self, channel_id: int, user_id: int, count: int = 1) -> GameRecord:
        """Fill ``count`` more seats with AIs named "AI 1", "AI 2"... (creator only)."""
        async with self._locked(channel_id) as live:
            record = live.record
            self._check_lobby(record)
            self._check_creator(record, user_id)
            maximum = self.engine(record.game).meta.max_players
            if count < 1 or len(record.seats) + count > maximum:
                raise _fail("service.game_full", max=maximum)
            taken = {s.name for s in record.seats if s.user_id is None}
            names = (f"AI {n}" for n in range(1, 100) if f"AI {n}" not in taken)
            seats = list(record.seats)
            for _ in range(count):
                seats.append(SeatInfo(len(seats), None, next(names)))
            return await self._save(live, self._bump(record, seats=seats), seats=True)

    def _seat_order(self, record: GameRecord, order: list[int] | None) -> list[SeatInfo]:
        """Seats in play order: ``order`` first (lobby positions or user ids), the rest
        after in lobby order; without ``order``, shuffled by ``random.Random(seed)``."""
        seats = list(record.seats)
        if order is None:
            random.Random(record.seed).shuffle(seats)
        else:
            by_user = {s.user_id: i for i, s in enumerate(seats) if s.user_id is not None}
            picked: list[int] = []
            for item in order:
                position = item if 0 <= item < len(seats) else by_user.get(item)
                if position is None or position in picked:
                    raise _fail("service.bad_order")
                picked.append(position)
            picked += [i for i in range(len(seats)) if i not in picked]
            seats = [seats[i] for i in picked]
        return [replace(s, seat=i) for i, s in enumerate(seats)]

    async def start(
        self, channel_id: int, user_id: int, order: list[int] | None = None
    ) -> GameRecord:
        """Start the game (creator only, enough players).

        Seats are shuffled with ``random.Random(seed)`` unless ``order`` lists lobby
        positions (0-based join order) or user ids to seat first, in that order.
        The front end should then call :meth:`run_ai` in case an AI moves first.
        """
        async with self._locked(channel_id) as live:
            record = live.record
            self._check_lobby(record)
            self._check_creator(record, user_id)
            engine = self.engine(record.game)
            if len(record.seats) < engine.meta.min_players:
                raise _fail("service.not_enough_players", min=engine.meta.min_players,
                            n=len(record.seats))
            seats = self._seat_order(record, order)
            state = engine.setup(record.seed, len(seats), record.options)
            started = self._bump(
                record, seats=seats, status="running", state=state,
                turn=engine.turn_number(state), active=engine.active(state),
                turn_started_at=self.clock.now(),
            )
            live.turn_steps = []
            return await self._save(live, started, seats=True, turn_start_state=state)

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

    async def running_games(self) -> list[GameRecord]:
        """Every running game (to resume AI seats and reminders after a restart)."""
        return await self.store.games(statuses=("running",))

    async def unannounced_finals(self) -> list[GameRecord]:
        """Finished games whose final message never went out (lost to a crash)."""
        return await self.store.games(statuses=("finished",), unposted=True)

    # -- playing --------------------------------------------------------------------------

    async def legal(self, channel_id: int, user_id: int) -> tuple[GameRecord, Seat, list[Action]]:
        """The caller's record, seat and legal steps (empty when it is not their turn)."""
        record = await self.get(channel_id)
        if record is None:
            raise _fail("service.no_game")
        seat = self.seat_of(record, user_id)
        if seat is None:
            raise _fail("service.not_seated")
        if record.status != "running" or record.state is None:
            return record, seat, []
        return record, seat, self.engine(record.game).legal(record.state, seat)

    async def play(
        self, channel_id: int, user_id: int, notation: str, expected_version: int | None = None
    ) -> StepResult:
        """Play one step typed or chosen by ``user_id`` in the channel's game.

        ``expected_version`` (the version the player saw, carried by buttons) makes a
        retried or doubled request harmless: once the step is applied the version has
        moved on, so the retry gets :class:`StaleVersion` instead of a second step.
        Engine errors (GameError with its Text) propagate unchanged.
        """
        return await self.play_by_id(
            await self._channel_game_id(channel_id), user_id, notation, expected_version
        )

    async def play_by_id(
        self, game_id: int, user_id: int, notation: str, expected_version: int | None = None
    ) -> StepResult:
        """:meth:`play` for a game known by id (buttons)."""
        async with self._lock(game_id):
            live = await self._must_live(game_id)
            record = live.record
            self._check_running(record)
            if expected_version is not None and expected_version != record.version:
                raise StaleVersion()
            seat = self.seat_of(record, user_id)
            if seat is None:
                raise _fail("service.not_seated")
            if seat not in record.active:
                raise _fail("service.not_your_turn", players=self._names(record, record.active))
            assert record.state is not None
            action = self.engine(record.game).parse(record.state, seat, notation)
            return await self._apply(live, seat, action)

    async def _turn_steps(self, live: _Live) -> list[Action]:
        """The actions of the current turn so far (rebuilt from the log after a restart)."""
        if live.turn_steps is None:
            record = live.record
            engine = self.engine(record.game)
            state = live.turn_start_state
            steps: list[Action] = []
            for row in await self.store.actions(record.id, since_turn=record.turn):
                assert state is not None
                action = engine.parse(state, row.seat, row.notation)
                state = engine.apply(state, row.seat, action)
                steps.append(action)
            live.turn_steps = steps
        return live.turn_steps

    async def _apply(self, live: _Live, seat: Seat, action: Action) -> StepResult:
        """Apply and persist one checked step (caller holds the game's lock)."""
        from bot.store import StepWrite  # bot.store imports this module

        record = live.record
        engine = self.engine(record.game)
        assert record.state is not None
        steps = await self._turn_steps(live)
        reversible = engine.is_reversible(record.state, seat, action)
        state = engine.apply(record.state, seat, action)
        now = self.clock.now()
        turn = engine.turn_number(state)
        active = engine.active(state)
        turn_ended = turn != record.turn
        outcome = engine.outcome(state)
        finished = outcome is not None or not active
        moved = turn_ended or active != record.active
        new = self._bump(
            record, state=state, turn=turn, active=active,
            status="finished" if finished else "running",
            ended_at=now if finished else None,
            turn_started_at=now if moved else record.turn_started_at,
        )
        try:
            await self.store.apply_step(StepWrite(
                game_id=record.id, expected_version=record.version, state=state, active=active,
                status=new.status, turn=turn, turn_started_at=new.turn_started_at,
                turn_ended=turn_ended, ended_at=new.ended_at, seat=seat,
                notation=action.notation, step_turn=record.turn, reversible=reversible, at=now,
            ))
        except StaleVersion:
            self._cache.pop(record.id, None)
            raise
        turn_steps = (*steps, action)
        self._remember(live, new)
        if turn_ended:
            live.turn_start_state = state
            live.turn_steps = []
        else:
            steps.append(action)
        return StepResult(new, seat, action, turn_ended, turn_steps,
                          self._final_outcome(engine, new) if finished else None)

    async def undo(self, channel_id: int, user_id: int) -> GameRecord:
        """Take back the last step: only your own, in the current turn, and never a step
        that drew randomness or revealed a secret. Replays the turn from its snapshot."""
        async with self._locked(channel_id) as live:
            record = live.record
            self._check_running(record)
            seat = self.seat_of(record, user_id)
            if seat is None:
                raise _fail("service.not_seated")
            rows = await self.store.actions(record.id, since_turn=record.turn)
            if not rows:
                raise _fail("service.nothing_to_undo")
            last = rows[-1]
            if last.seat != seat:
                raise _fail("service.undo_not_yours")
            if not last.reversible:
                raise _fail("service.undo_irreversible")
            engine = self.engine(record.game)
            state = live.turn_start_state
            assert state is not None
            steps: list[Action] = []
            for row in rows[:-1]:
                action = engine.parse(state, row.seat, row.notation)
                state = engine.apply(state, row.seat, action)
                steps.append(action)
            active = engine.active(state)
            new = self._bump(
                record, state=state, active=active,
                turn_started_at=record.turn_started_at if active == record.active
                else self.clock.now(),
            )
            saved = await self._save(live, new, undone=[last.idx])
            live.turn_steps = steps
            return saved

    # -- AI and clocks --------------------------------------------------------------------

    async def _ai_action(self, record: GameRecord, seat: Seat) -> Action:
        """The AI's step for ``seat``, searched off the event loop (a thread, or a worker
        process in the bot)."""
        engine = self.engine(record.game)
        state = record.state
        assert state is not None
        return await self._ai_search(record.game, engine, engine.view(state, seat),
                                     engine.legal(state, seat), seat,
                                     f"{record.seed}:{record.version}")

    async def run_ai(self, game_id: int) -> list[StepResult]:
        """Let the AI play every AI (or resigned) seat that is active, until a human is.

        The AI's random generator is ``random.Random(f"{seed}:{version}")``, so the same
        game makes the same choices; its steps are logged like any other.
        """
        results: list[StepResult] = []
        for _ in range(MAX_AUTO_STEPS):
            async with self._lock(game_id):
                live = await self._must_live(game_id)
                record = live.record
                if record.status != "running":
                    break
                seat = next((s for s in record.active if self.is_ai(record, s)), None)
                if seat is None:
                    break
                results.append(await self._apply(live, seat, await self._ai_action(record, seat)))
        return results

    async def play_out_turn(
        self, game_id: int, seat: Seat, since: float, *, use_default: bool = False
    ) -> list[StepResult]:
        """Finish ``seat``'s current turn for it: with the engine's ``default_action``
        (``use_default``; the AI decides where the engine has none) or with the AI.

        ``since`` is the ``turn_started_at`` the caller saw: if the game moved on
        since, nothing is played (so a repeated timeout does nothing twice).
        """
        results: list[StepResult] = []
        async with self._lock(game_id):
            live = await self._must_live(game_id)
            start = live.record
            if start.status != "running" or start.turn_started_at != since:
                return results
            engine = self.engine(start.game)
            for _ in range(MAX_AUTO_STEPS):
                record = live.record
                if (record.status != "running" or seat not in record.active
                        or record.turn != start.turn):
                    break
                assert record.state is not None
                action = engine.default_action(record.state, seat) if use_default else None
                results.append(await self._apply(live, seat, action or
                                                 await self._ai_action(record, seat)))
        return results

    async def vote_skip(self, channel_id: int, user_id: int) -> SkipVote:
        """Vote to skip the turn of the player whose time limit ran out.

        Ruling: only with the ``vote_skip`` policy, once the active human seat's turn
        limit has passed; voters are the other seated, non-resigned humans; a strict
        majority of them (``n // 2 + 1``) skips the turn, which is then played out with
        the engine's ``default_action`` steps (the AI where there is none). The player
        keeps the seat for the next turns. Votes count per stretch of that turn.
        """
        game_id = await self._channel_game_id(channel_id)
        record = await self._must_live(game_id)
        rec = record.record
        self._check_running(rec)
        limit = rec.settings.turn_limit_hours
        if rec.settings.timeout_policy != "vote_skip" or not limit:
            raise _fail("service.skip_not_enabled")
        seat = next((s for s in rec.active if not self.is_ai(rec, s)), None)
        if seat is None:
            raise _fail("service.skip_nobody")
        voter = self.seat_of(rec, user_id)
        if voter is None:
            raise _fail("service.not_seated")
        if voter == seat:
            raise _fail("service.skip_own_turn")
        if self.clock.now() < rec.turn_started_at + limit * 3600:
            raise _fail("service.skip_too_early", player=rec.seats[seat].name)
        voters = [s for s in rec.seats if s.seat != seat and not self.is_ai(rec, s.seat)]
        needed = len(voters) // 2 + 1
        votes = await self.store.add_skip_vote(game_id, rec.turn_started_at, seat, user_id)
        steps: list[StepResult] = []
        if votes >= needed:
            steps = await self.play_out_turn(game_id, seat, rec.turn_started_at, use_default=True)
        latest = await self._must_live(game_id)
        return SkipVote(latest.record, seat, votes, needed, tuple(steps))

    # -- leaving, settings, admin ---------------------------------------------------------

    async def resign(self, channel_id: int, user_id: int) -> GameRecord:
        """Resign from a started game.

        Ruling: the AI takes the seat over for the rest of the game and the player is
        ranked last (behind every non-resigned seat) whatever the score. When the last
        human resigns, nobody is left to play for: the game is aborted. If the resigned
        seat is active, the front end should call :meth:`run_ai`.
        """
        async with self._locked(channel_id) as live:
            record = live.record
            if record.status == "lobby":
                raise _fail("service.not_started")
            seat = self.seat_of(record, user_id)
            if seat is None:
                raise _fail("service.not_seated")
            seats = [replace(s, resigned=True) if s.seat == seat else s for s in record.seats]
            changes: dict[str, Any] = {"seats": seats}
            if all(s.user_id is None or s.resigned for s in seats):
                changes.update(status="aborted", ended_at=self.clock.now())
            return await self._save(live, self._bump(record, **changes), seats=True)

    async def abort(self, channel_id: int, user_id: int, is_admin: bool) -> GameRecord:
        """End the channel's game without a result (its creator, or an admin)."""
        async with self._locked(channel_id) as live:
            record = live.record
            if user_id != record.creator_id and not is_admin:
                raise _fail("service.abort_forbidden")
            new = self._bump(record, status="aborted", ended_at=self.clock.now())
            return await self._save(live, new)

    def _validated_settings(self, settings: GameSettings, changes: dict[str, Any]) -> GameSettings:
        values = asdict(settings)
        for name, value in changes.items():
            if name == "reminder_hours":
                values[name] = _hours(value, REMINDER_HOURS, "service.settings_reminder_hours")
            elif name == "turn_limit_hours":
                values[name] = (None if value in (None, 0) else
                                _hours(value, TURN_LIMIT_HOURS, "service.settings_turn_limit"))
            elif name == "timeout_policy":
                if value not in POLICIES:
                    raise _fail("service.settings_policy", choices=", ".join(POLICIES))
                values[name] = value
            elif name == "dm_reminders":
                if not isinstance(value, bool):
                    raise _fail("service.settings_bool", name=name)
                values[name] = value
            else:
                raise _fail("service.settings_unknown", name=name,
                            known=", ".join(f.name for f in fields(GameSettings)))
        return GameSettings(**values)

    async def update_settings(
        self, channel_id: int, user_id: int, is_admin: bool, **changes: Any
    ) -> GameRecord:
        """Change ``reminder_hours`` (1-720), ``turn_limit_hours`` (None/0 = off, 1-2160),
        ``timeout_policy`` (nothing / vote_skip / ai) or ``dm_reminders`` (creator or admin).
        """
        async with self._locked(channel_id) as live:
            record = live.record
            if user_id != record.creator_id and not is_admin:
                raise _fail("service.settings_forbidden")
            settings = self._validated_settings(record.settings, changes)
            await self.store.set_columns(record.id, settings=asdict(settings))
            live.record = replace(record, settings=settings)
            return live.record

    async def set_message(self, game_id: int, message_id: int, turn: int) -> None:
        """Remember the last turn message posted for the game and the turn it shows."""
        async with self._lock(game_id):
            live = await self._must_live(game_id)
            await self.store.set_columns(game_id, last_message_id=message_id, posted_turn=turn)
            live.record = replace(live.record, last_message_id=message_id, posted_turn=turn)

    @staticmethod
    def board_missing(record: GameRecord) -> bool:
        """True when the current turn's board, or the final message of a finished game, was
        never posted (e.g. lost to a crash)."""
        return record.status in ("running", "finished") and record.posted_turn < record.turn

    async def pause(self, game_id: int, paused: bool) -> GameRecord:
        """Pause (no moves, reminders or timeouts) or resume a game.

        Resuming restarts the active player's clock: reminders and the time limit
        count from the resume.
        """
        async with self._lock(game_id):
            live = await self._must_live(game_id)
            record = live.record
            wanted: GameStatus = "paused" if paused else "running"
            if record.status == wanted:
                return record
            if record.status not in ("running", "paused"):
                raise _fail("service.not_pausable")
            changes: dict[str, Any] = {"status": wanted}
            if not paused:
                changes["turn_started_at"] = self.clock.now()
            return await self._save(live, self._bump(record, **changes))

    async def set_notify(self, user_id: int, enabled: bool) -> None:
        """Opt in or out of reminders by direct message."""
        await self.store.set_notify(user_id, enabled)

    # -- history --------------------------------------------------------------------------

    async def _latest(self, channel_id: int) -> GameRecord:
        game_id = await self.store.latest_game_id(channel_id)
        if game_id is None:
            raise _fail("service.no_game")
        return (await self._must_live(game_id)).record

    async def log(self, channel_id: int) -> tuple[GameRecord, list[LogEntry]]:
        """The channel's game (the active one, else the latest) and its effective log."""
        record = await self._latest(channel_id)
        rows = await self.store.actions(record.id)
        return record, [LogEntry(i, r.seat, r.notation, r.turn, r.at) for i, r in enumerate(rows)]

    async def export(self, channel_id: int) -> dict[str, Any]:
        """The export document of the channel's game (see :mod:`bot.export`)."""
        record, entries = await self.log(channel_id)
        return export_document(record, entries)

    async def import_game(
        self, guild_id: int | None, channel_id: int, user: Player, document: dict[str, Any]
    ) -> GameRecord:
        """Create a game in ``channel_id`` from an export document, replayed through the
        engine (refused, naming the failing log line, if it does not replay to the same
        state). The importer becomes the creator; seats keep their exported user ids.
        """
        try:
            doc = export.parse(document)
            engine = self.engine(doc.game)
            meta = engine.meta
            if not meta.min_players <= len(doc.seats) <= meta.max_players:
                raise _fail("service.import_players", min=meta.min_players, max=meta.max_players)
            options = self._check_options(engine, doc.options)
            settings = self._validated_settings(GameSettings(), {
                k: v for k, v in doc.settings.items() if k in {f.name for f in fields(GameSettings)}
            })
            replayed = export.replay(engine, replace(doc, options=options))
        except export.DocumentError as error:
            raise ServiceError(error.reason) from error
        if await self._find_channel_game(channel_id) is not None:
            raise _fail("service.channel_busy")
        from bot.store import ActionRow  # bot.store imports this module

        state = replayed.state
        now = self.clock.now()
        finished = engine.outcome(state) is not None or not engine.active(state)
        status: GameStatus = "finished" if finished else "running"
        if doc.status == "aborted":
            status = "aborted"
        record = GameRecord(
            id=0, guild_id=guild_id, channel_id=channel_id, game=doc.game, status=status,
            creator_id=user.user_id, options=options, seed=doc.seed,
            seats=[SeatInfo(s.seat, s.user_id, s.name, s.resigned) for s in doc.seats],
            state=state, version=len(replayed.steps), settings=settings,
            lang=doc.lang if doc.lang in ("en", "fr") else "en", created_at=now,
            turn_started_at=now, turn=engine.turn_number(state), active=engine.active(state),
            ended_at=now if status != "running" else None,
            posted_turn=-1 if status == "running" else engine.turn_number(state),
        )
        log = [ActionRow(i + 1, s.seat, s.action.notation, s.turn, s.reversible, now)
               for i, s in enumerate(replayed.steps)]
        record.id = await self.store.insert_game(record, replayed.turn_start_state, log)
        self._remember(_Live(record, replayed.turn_start_state), record)
        return record


def _hours(value: Any, bounds: tuple[float, float], key: str) -> float:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise _fail(key, min=low, max=high)
    return float(value)
