"""The game service: lobby, turns, undo, AI seats, export/import. No discord import.

Every step goes load -> check seat/turn/version -> engine.apply -> save state
and log row in one transaction, under a per-game lock, so two simultaneous
clicks apply exactly one step. Errors a user can cause raise
:class:`ServiceError` (lobby and permission problems) or an engine
:class:`~bot.engine.GameError` (rule problems); both carry a translatable
:class:`~bot.engine.Text` and leave everything unchanged.

SKELETON: signatures agreed between the core and the Discord layer. Bodies are
filled in by the core work; keep the signatures (add, do not break).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from bot.engine import Action, Outcome, Seat, State, Text

GameStatus = Literal["lobby", "running", "paused", "finished", "aborted"]
TimeoutPolicy = Literal["nothing", "vote_skip", "ai"]


class ServiceError(Exception):
    """A request the service refuses (lobby rules, permissions, stale version...)."""

    def __init__(self, reason: Text) -> None:
        super().__init__(reason.key)
        self.reason = reason


class StaleVersion(ServiceError):
    """The board moved on since the button or prompt was made."""


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


def export_document(record: GameRecord, log: list[LogEntry]) -> dict[str, Any]:
    """The JSON export of a game: seed, options, seats, action log."""
    raise NotImplementedError
