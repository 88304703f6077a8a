"""Leaving, settings, pausing and the bookkeeping of posted messages.

Rulings: a resigned seat is played by the AI and ranked last; who may hand a seat over
is ruled in :meth:`Admin.replace_seat`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, fields, replace
from typing import Any

from bot.engine import Seat, Text, seat_ref
from bot.i18n import LANGUAGES
from bot.records import (
    GameRecord,
    GameSettings,
    GameStatus,
    Player,
    SeatHeld,
    SeatInfo,
    TimeoutPolicy,
    Waiting,
)
from bot.service.core import ServiceCore, bump, fail
from bot.service.seats import ScriptedSeat

REMINDER_HOURS = (1.0, 720.0)
TURN_LIMIT_HOURS = (1.0, 2160.0)
POLICIES: tuple[TimeoutPolicy, ...] = ("nothing", "vote_skip", "ai")
ABSENT_AFTER_HOURS = 72.0
"""In a game without a turn limit, how long a player's decision may wait before the
creator or an admin may hand their seat to someone else."""


def _hours(value: Any, bounds: tuple[float, float], key: str) -> float:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise fail(key, min=low, max=high)
    return float(value)


def validated_settings(settings: GameSettings, changes: dict[str, Any]) -> GameSettings:
    """``settings`` with ``changes`` checked (ServiceError naming a wrong one)."""
    values = asdict(settings)
    for name, value in changes.items():
        if name == "reminder_hours":
            values[name] = _hours(value, REMINDER_HOURS, "service.settings_reminder_hours")
        elif name == "turn_limit_hours":
            values[name] = (None if value in (None, 0) else
                            _hours(value, TURN_LIMIT_HOURS, "service.settings_turn_limit"))
        elif name == "timeout_policy":
            if value not in POLICIES:
                raise fail("service.settings_policy", choices=", ".join(POLICIES))
            values[name] = value
        elif name == "time_bank_hours":
            values[name] = (None if value in (None, 0) else
                            _hours(value, TURN_LIMIT_HOURS, "service.settings_time_bank"))
        elif name == "bank_bonus_hours":
            values[name] = 0.0 if value == 0 else _hours(value, REMINDER_HOURS,
                                                         "service.settings_bank_bonus")
        elif name == "dm_reminders":
            if not isinstance(value, bool):
                raise fail("service.settings_bool", name=name)
            values[name] = value
        else:
            raise fail("service.settings_unknown", name=name,
                       known=", ".join(f.name for f in fields(GameSettings)))
    return GameSettings(**values)


class Admin:
    """The admin part of :class:`bot.service.GameService`: a started game's seats,
    settings and status."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    async def resign(self, channel_id: int, user_id: int) -> GameRecord:
        """Resign from a started game.

        Ruling: the AI takes the seat over for the rest of the game and the player is
        ranked last (behind every non-resigned seat) whatever the score. When the last
        human resigns, nobody is left to play for: the game is aborted. A creator who
        resigns hands the game's control (abort, settings, pause) to the next human in
        seat order. If the resigned seat is active, the front end should call
        :meth:`bot.service.loop.Loop.move_on`.
        """
        async with self.core.locked(channel_id) as live:
            record = live.record
            if record.status == "lobby":
                raise fail("service.not_started")
            seat = self.core.seat_of(record, user_id)
            if seat is None:
                raise fail("service.not_seated")
            seats = [replace(s, resigned=True) if s.seat == seat else s for s in record.seats]
            changes: dict[str, Any] = {"seats": seats}
            humans = [s.user_id for s in seats[seat + 1:] + seats[:seat]
                      if s.user_id is not None and not s.resigned]
            if not humans:
                changes.update(status="aborted", ended_at=self.core.clock.now())
            elif user_id == record.creator_id:
                changes["creator_id"] = humans[0]
            return await self.core.save(live, bump(record, **changes), seats=True)

    async def abort(self, channel_id: int, user_id: int, is_admin: bool) -> GameRecord:
        """End the channel's game without a result (its creator, or an admin)."""
        async with self.core.locked(channel_id) as live:
            record = live.record
            if user_id != record.creator_id and not is_admin:
                raise fail("service.abort_forbidden")
            new = bump(record, status="aborted", ended_at=self.core.clock.now())
            return await self.core.save(live, new)

    async def replace_seat(self, channel_id: int, user_id: int, is_admin: bool, seat: Seat,
                           player: Player | None, *, player_left: bool = False
                           ) -> tuple[GameRecord, SeatInfo]:
        """Hand ``seat`` (0-based) of a started game to ``player``, or to the AI when None.
        The new record and the seat as it was.

        Ruling (who may): a seat's own player may hand it to another member (to leave it
        to the AI, they resign); the creator or an admin may hand over a seat whose player
        is absent: an AI's or a resigned seat, a player who left the server
        (``player_left``, known to the front end), or one whose decision has waited longer
        than the game's turn limit (:data:`ABSENT_AFTER_HOURS` without one; time away
        does not count). A present player's seat is refused with :class:`SeatHeld`.
        The seat's score and place go with it; a member who already has a seat in the
        game (resigned included) cannot take a second one; the AI's seat is named like AI
        seats are ("AI 3"). A creator who loses their seat hands the game's control to its
        new player (or to the next human).
        """
        async with self.core.locked(channel_id) as live:
            record = live.record
            if record.status not in ("running", "paused"):
                raise fail("service.replace_not_running")
            if not 0 <= seat < len(record.seats):
                raise fail("service.replace_bad_seat", max=len(record.seats))
            if isinstance(self.core.seat_kinds.of(record, seat), ScriptedSeat):
                raise fail("service.replace_scripted", seat=seat + 1, name=record.seats[seat].name)
            old = record.seats[seat]
            own = old.user_id == user_id and not old.resigned
            if not own and user_id != record.creator_id and not is_admin:
                raise fail("service.replace_forbidden")
            if own and player is None:
                raise fail("service.replace_own_to_ai")
            if player is not None and any(s.user_id == player.user_id for s in record.seats):
                raise fail("service.replace_seated", name=player.name)
            if not own and not player_left:
                await self._check_absent(record, seat)
            if player is None:
                taken = {s.name for s in record.seats if s.user_id is None}
                name = next(f"AI {n}" for n in range(1, 100) if f"AI {n}" not in taken)
                new = SeatInfo(seat, None, name)
            else:
                new = SeatInfo(seat, player.user_id, player.name)
            seats = [new if s.seat == seat else s for s in record.seats]
            changes: dict[str, Any] = {"seats": seats}
            if old.user_id is not None and old.user_id == record.creator_id:
                humans = [s.user_id for s in seats[seat:] + seats[:seat]
                          if s.user_id is not None and not s.resigned]
                if humans:
                    changes["creator_id"] = humans[0]
            return await self.core.save(live, bump(record, **changes), seats=True), old

    async def _check_absent(self, record: GameRecord, seat: Seat) -> None:
        """Raise :class:`SeatHeld` unless ``seat`` is the AI's, resigned, or its player's
        decision has waited past the turn limit (see :meth:`replace_seat`)."""
        info = record.seats[seat]
        if info.user_id is None or info.resigned:
            return
        limit = record.settings.turn_limit_hours or ABSENT_AFTER_HOURS
        waited = 0.0
        if record.status == "running" and seat in record.active:
            away = (await self.core.store.away_until([info.user_id])).get(info.user_id, 0.0)
            waited = max(0.0, self.core.clock.now() - max(record.seat_since(seat), away))
        if waited < limit * 3600:
            raise SeatHeld(Text.of("service.replace_present", who=seat_ref(seat),
                                   limit=round(limit), waited=math.floor(waited / 3600)),
                           seat, info.user_id)

    async def update_settings(
        self, channel_id: int, user_id: int, is_admin: bool, **changes: Any
    ) -> GameRecord:
        """Change ``reminder_hours`` (1-720), ``turn_limit_hours`` (None/0 = off, 1-2160),
        ``timeout_policy`` (nothing / vote_skip / ai), ``dm_reminders`` or ``lang`` (the
        language of the channel's posts) (creator or admin).
        """
        async with self.core.locked(channel_id) as live:
            record = live.record
            if user_id != record.creator_id and not is_admin:
                raise fail("service.settings_forbidden")
            lang = changes.pop("lang", record.lang)
            if lang not in LANGUAGES:
                raise fail("service.settings_language", choices=", ".join(LANGUAGES))
            settings = validated_settings(record.settings, changes)
            await self.core.store.set_columns(record.id, settings=asdict(settings), lang=lang)
            live.record = replace(record, settings=settings, lang=lang)
            return live.record

    async def set_message(self, game_id: int, message_id: int, turn: int) -> None:
        """Remember the last turn message posted for the game and the turn it shows."""
        async with self.core.lock(game_id):
            live = await self.core.live(game_id)
            await self.core.store.set_columns(game_id, last_message_id=message_id, posted_turn=turn)
            live.record = replace(live.record, last_message_id=message_id, posted_turn=turn)

    async def pause(self, game_id: int, paused: bool) -> GameRecord:
        """Pause (no moves, reminders or timeouts) or resume a game.

        Resuming restarts the active players' clocks: reminders and time limits
        count from the resume.
        """
        async with self.core.lock(game_id):
            live = await self.core.live(game_id)
            record = live.record
            wanted: GameStatus = "paused" if paused else "running"
            if record.status == wanted:
                return record
            if record.status not in ("running", "paused"):
                raise fail("service.not_pausable")
            changes: dict[str, Any] = {"status": wanted}
            if not paused:
                now = self.core.clock.now()
                changes["turn_started_at"] = now
                changes["waiting"] = {s: Waiting(w.version, now)
                                      for s, w in record.waiting.items()}
            return await self.core.save(live, bump(record, **changes))

    async def quarantine(self, game_id: int) -> tuple[int, int] | None:
        """Pause a running game whose stored row is damaged, without reading it (its
        creator and channel, to tell them; None if it was not running). An admin can look
        at it, repair the row and resume it with ``/game pause paused:false``."""
        found = await self.core.store.quarantine(game_id)
        self.core.drop(game_id)
        return found
