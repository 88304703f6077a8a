"""The game service's value types and errors: what the store keeps and the cogs read.

No behaviour lives here: :mod:`bot.service` changes these records, :mod:`bot.store`
persists them, and the Discord layer shows them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

from bot.engine import Action, Game, Outcome, Report, Seat, State, Text

GameStatus = Literal["lobby", "running", "paused", "finished", "aborted"]
TimeoutPolicy = Literal["nothing", "vote_skip", "ai"]

ACTIVE: tuple[GameStatus, ...] = ("lobby", "running", "paused")
"""Statuses of a game that occupies its channel."""

class ServiceError(Exception):
    """A request the service refuses (lobby rules, permissions, stale version...)."""

    def __init__(self, reason: Text) -> None:
        super().__init__(reason.key)
        self.reason = reason


class StaleVersion(ServiceError):
    """The board moved on since the button or prompt was made."""

    def __init__(self, reason: Text | None = None) -> None:
        super().__init__(reason or Text.of("service.stale_version"))


class SeatHeld(ServiceError):
    """A seat handed over while its player is present: only that player may hand it on
    (the front end may ask them, ``user_id``)."""

    def __init__(self, reason: Text, seat: Seat, user_id: int) -> None:
        super().__init__(reason)
        self.seat = seat
        self.user_id = user_id


class StoreUnavailable(ServiceError):
    """The database is locked, full or failing: nothing was written; try again later."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(Text.of("service.store_unavailable"))
        self.detail = detail


@dataclass(frozen=True)
class Limits:
    """What one member and one server may have open at once (0 turns a limit off)."""

    lobbies_per_member: int = 2
    """Lobbies a member opened that have not started."""
    games_per_member: int = 10
    """Lobbies and games (not ended) a member sits in."""
    games_per_server: int = 50
    """Lobbies and games (not ended) in one server."""
    cooldown_seconds: float = 30.0
    """Between two games opened by one member."""
    lobby_hours: float = 48.0
    """A lobby not started after this closes by itself."""
    repost_seconds: float = 60.0
    """Between two public posts of one kind (the board posted again, a request to hand a
    seat over) that one member asks for in one channel; sooner, the answer is private."""


NO_LIMITS = Limits(0, 0, 0, 0.0, 0.0, 0.0)
"""For tools and tests that open many games at once."""


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
    time_bank_hours: float | None = None
    """A clock per player instead of a fixed limit: each starts with this many hours,
    spends the time their decisions take and gets ``bank_bonus_hours`` after each of
    their turns; an empty bank is a timeout (None: no bank)."""
    bank_bonus_hours: float = 0.0


@dataclass(frozen=True)
class Waiting:
    """A seat's current decision: the game version at which it was put to the seat (the
    version its buttons carry) and since when the seat has had it (its clocks)."""

    version: int
    since: float


@dataclass
class GameRecord:
    """A game as stored: lobby data, seats, current state and version.

    ``waiting`` gives each active seat its own decision version and clock: when another
    seat acts and this seat's decision stays the same (sealed bids), its open panel stays
    valid and its clock does not restart. Without an entry (a game saved before this
    existed) the seat's decision is the game's version and the turn's start.
    """

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
    waiting: dict[Seat, Waiting] = field(default_factory=dict)

    def seat_version(self, seat: Seat) -> int:
        """The version at which ``seat``'s current decision was put to it."""
        found = self.waiting.get(seat)
        return self.version if found is None else found.version

    def seat_since(self, seat: Seat) -> float:
        """Since when ``seat`` has had its current decision."""
        found = self.waiting.get(seat)
        return self.turn_started_at if found is None else found.since


class Played:
    """One step of the current turn: who played it, what, and (when asked for) what it did.

    The report is worked out from the states around the step the first time it is read
    (persisting a step never waits for words that only a panel or a post will show);
    the states are let go then, so a cached game holds no more than its current state.
    """

    __slots__ = ("_engine", "_report", "_states", "action", "seat")

    def __init__(self, seat: Seat, action: Action, before: State, after: State,
                 engine: Game) -> None:
        self.seat = seat
        self.action = action
        self._engine = engine
        self._states: tuple[State, State] | None = (before, after)
        self._report: Report | None = None

    @property
    def report(self) -> Report:
        """What the step did, publicly and for some seats (see :class:`Report`)."""
        if self._report is None:
            assert self._states is not None
            self._report = self._engine.report(self._states[0], self.seat, self.action,
                                               self._states[1])
            self._states = None
        return self._report


@dataclass(frozen=True)
class Question:
    """A public question on a clock of seconds (posted with its answer buttons): what it
    asked, its options as they were then, and the version of the seat's decision it was
    (its buttons carry it)."""

    prompt: Text
    options: tuple[Action, ...]
    version: int


@dataclass(frozen=True)
class StepResult:
    """What one accepted step did, for the front end to report.

    ``asked`` lists the seats to which this step put a new decision (another seat asked
    to answer a trade, the player themselves asked a timed question), the actor included
    only when its new decision has a public prompt. ``answered`` is the public question on
    a clock of seconds that this step answered, if it answered one.
    """

    record: GameRecord
    seat: Seat
    action: Action
    turn_ended: bool
    turn_steps: tuple[Played, ...]
    outcome: Outcome | None
    asked: tuple[Seat, ...] = ()
    answered: Question | None = None

    @property
    def report(self) -> Report:
        """What this step did (see :class:`Report`)."""
        return self.turn_steps[-1].report


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
    """The result of :meth:`bot.service.autoplay.Autoplay.vote_skip`: votes so far and any
    steps applied."""

    record: GameRecord
    seat: Seat
    votes: int
    needed: int
    steps: tuple[StepResult, ...]

    @property
    def skipped(self) -> bool:
        """True when the vote reached the majority and the turn was played out."""
        return self.votes >= self.needed


@dataclass(frozen=True)
class PostedBoard:
    """The board image of a game's latest turn message: what it shows and where it is."""

    version: int
    lang: str
    url: str
    at: float = field(default_factory=time.monotonic)


@dataclass(frozen=True)
class OpenPost:
    """A public message that asks one seat to decide (a question with its answer buttons,
    a trade offered to them): edited in place once they answer."""

    message_id: int
    text: str
    """Its text without the lines that only hold while it is open (the clock)."""
