"""The rows the store takes and returns, and the stored forms of a game row's columns.

Values go in as compact JSON (:func:`dumps`); each active seat's decision version and
clock (``waiting``) is written by hand, for it goes with every step; a game's seats are
read back as one JSON array (the dialect's ``seat_rows``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any

from bot.engine import Seat, State
from bot.records import GameRecord, GameSettings, SeatInfo, Waiting


@dataclass(frozen=True)
class StoredGame:
    """A game row: the record the service works with, plus the turn-start snapshot."""

    record: GameRecord
    turn_start_state: State | None


@dataclass(frozen=True)
class ActionRow:
    """One row of the action log as stored."""

    idx: int
    seat: Seat
    notation: str
    turn: int
    reversible: bool
    at: float
    undone: bool = False


@dataclass(frozen=True)
class StepWrite:
    """Everything one accepted step writes (see :meth:`Store.apply_step`)."""

    game_id: int
    expected_version: int
    state: State
    active: list[Seat]
    status: str
    turn: int
    turn_started_at: float
    turn_ended: bool
    ended_at: float | None
    seat: Seat
    notation: str
    step_turn: int
    reversible: bool
    at: float
    waiting: dict[Seat, Waiting]


@dataclass(frozen=True)
class MemberLoad:
    """What one member and their server have open (see :meth:`Store.member_load`)."""

    lobbies: int
    games: int
    server_games: int
    last_created_at: float | None


@dataclass(frozen=True)
class ReminderRow:
    """Reminder bookkeeping of one seat's current stretch of activity (``since``)."""

    game_id: int
    seat: Seat
    since: float
    count: int
    last_sent_at: float | None
    next_due_at: float | None
    timeout_since: float | None
    warned_since: float | None = None


@dataclass(frozen=True)
class ClockRow:
    """What the scheduler needs of a running game (no state)."""

    game_id: int
    settings: GameSettings
    active: list[Seat]
    turn_started_at: float
    seats: list[SeatInfo]
    waiting: dict[Seat, Waiting] = field(default_factory=dict)
    unposted: bool = False
    """The current turn's message was never posted."""

    def since(self, seat: Seat) -> float:
        """Since when ``seat`` has had its current decision."""
        found = self.waiting.get(seat)
        return self.turn_started_at if found is None else found.since


@dataclass(frozen=True)
class ResultRow:
    """One seat's result in a finished game."""

    seat: Seat
    user_id: int | None
    place: int
    score: int
    won: bool


def dumps(value: Any) -> str:
    """Compact, deterministic JSON."""
    return json.dumps(value, separators=(",", ":"))


def settings_from_json(text: str) -> GameSettings:
    """Settings from their stored JSON (unknown keys ignored, missing ones defaulted)."""
    data = json.loads(text)
    known = {f.name for f in fields(GameSettings)}
    return GameSettings(**{k: v for k, v in data.items() if k in known})


def waiting_json(waiting: dict[Seat, Waiting]) -> str:
    """The stored form of each active seat's decision version and clock (JSON, written
    by hand: it goes with every step)."""
    return "{" + ",".join(f'"{seat}":[{w.version},{w.since!r}]'
                          for seat, w in waiting.items()) + "}"


def waiting_from_json(text: str) -> dict[Seat, Waiting]:
    """Each active seat's decision version and clock, from their stored form."""
    return {int(seat): Waiting(int(v), float(s)) for seat, (v, s) in json.loads(text).items()}


def _seats(seat_rows: str) -> list[SeatInfo]:
    return [SeatInfo(s, u, n, bool(r)) for s, u, n, r in json.loads(seat_rows)]
