"""Reminders and turn clocks, computed from the database and an injected clock.

The front end runs a loop: every N seconds ``await scheduler.due()``, post each
event, then ``await scheduler.mark_sent(event)`` (or, for a timeout,
``await scheduler.apply_timeout(event)``, which applies the policy and marks it).
All bookkeeping lives in the ``reminders`` table, so a restart loses nothing
and sends nothing twice once marked.

Schedule of one active human seat, counted from when that seat was put its current
decision (``GameRecord.seat_since``: when it became active, or when the game was
resumed; another seat's step does not restart it): the first reminder after
``reminder_hours`` (H); after the k-th reminder is sent, the next one is due
H * 2**k after that send (H, then 2H, then 4H...). Reminders missed while the
bot was down are not caught up: at most one is sent per interval. When the
game has a turn limit (L hours), one :class:`Timeout` is due L hours after the
turn started, with the game's policy. Paused and finished games, and seats
played by the AI, get nothing; but an AI seat that has had the move for a
minute gets a :class:`StalledAI` (its move was lost: the bot lets it play), and a
game whose turn message (or final message) is missing a minute after the turn
started gets an :class:`Unposted` (the post failed: the bot posts it again). A lobby
nobody started within ``Limits.lobby_hours`` gets a :class:`StaleLobby` (it closes).
A bot run as several processes (``DINGIR_SHARDS``) schedules the games of its own shards'
guilds only.

With time banks (``GameSettings.time_bank_hours``) a seat's limit is what is left in
its bank. A member away (``/away``) gets no reminder, warning or timeout until they are back; their
clocks then count from their return. When a turn limit hands the turn on (the policy is
not ``nothing``), a :class:`LimitWarning` goes out once per decision when a quarter of the
limit is left (at most 12 hours before).

Time the bot was away does not count against anyone: each round beats a heartbeat,
and at start :meth:`Scheduler.catch_up` moves every clock of the running games
forward by the time since the last beat. About :data:`NOTICES_PER_ROUND`
reminders and timeouts go out per round; the rest wait for the next rounds.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass

from bot.clock import Clock
from bot.engine import Seat, Text
from bot.records import GameRecord, StepResult, TimeoutPolicy
from bot.service import GameService
from bot.shards import ALL, Shards
from bot.store import ClockRow, ReminderRow, ShardBeat, Store

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Reminder:
    """Tell ``user_id`` (by DM if ``dm``, else in the channel) that it is their turn."""

    game: GameRecord
    seat: Seat
    user_id: int
    count: int
    dm: bool
    since: float = 0.0
    lang: str | None = None
    """The language of the DM (the player's, when they gave it), else the game's."""

    def text(self, game_name: Text) -> Text:
        """The reminder message (``count`` 1 is the first reminder)."""
        name = self.game.seats[self.seat].name
        return Text.of("service.reminder", player=name, game=game_name, n=self.count)


@dataclass(frozen=True)
class Timeout:
    """The turn time limit of ``seat`` ran out; ``policy`` says what happens."""

    game: GameRecord
    seat: Seat
    policy: TimeoutPolicy
    since: float = 0.0
    user_id: int | None = None

    def text(self) -> Text:
        """What to tell the channel."""
        return Text.of(f"service.timeout_{self.policy}", player=self.game.seats[self.seat].name)


@dataclass(frozen=True)
class LimitWarning:
    """``seat``'s time limit runs out at ``deadline``: :data:`WARNING_SHARE` of it is left
    (at most :data:`WARNING_HOURS`). Told once per decision, like a reminder."""

    game: GameRecord
    seat: Seat
    user_id: int
    dm: bool
    since: float
    deadline: float
    lang: str | None = None
    """The language of the DM (the player's, when they gave it), else the game's."""


@dataclass(frozen=True)
class StalledAI:
    """An AI (or resigned) seat has had the move for :data:`AI_STALL_SECONDS`: the AI
    normally plays at once, so its move was lost (for instance the database stayed
    unavailable longer than the bot kept trying). The front end lets it play."""

    game_id: int


@dataclass(frozen=True)
class Broken:
    """A running game whose row cannot be read or scheduled: it is quarantined (paused,
    its creator told) so that it stops nobody else's clocks."""

    game_id: int
    reason: str


@dataclass(frozen=True)
class Unposted:
    """A game whose current turn message (or final message) has been missing for
    :data:`UNPOSTED_SECONDS` (its post failed): the front end posts it again."""

    game_id: int


@dataclass(frozen=True)
class StaleLobby:
    """A lobby opened more than ``Limits.lobby_hours`` ago and never started: the front
    end closes it and says so in its channel."""

    game_id: int


Event = Reminder | LimitWarning | Timeout | StalledAI | Broken | Unposted | StaleLobby

HOUR = 3600.0
WARNING_SHARE = 0.25
"""A player is warned when this share of their time limit is left..."""
WARNING_HOURS = 12.0
"""...or this many hours, whichever is less."""
AI_STALL_SECONDS = 60.0
UNPOSTED_SECONDS = 60.0
NOTICES_PER_ROUND = 30
"""Reminders and timeouts handled per round (a backlog is spread over the next rounds)."""
DOWNTIME_SECONDS = 300.0
"""A gap since the last heartbeat longer than this is downtime: clocks move forward by it
(a shorter one, a quick restart, is not worth rewriting every clock)."""


class Scheduler:
    """Finds due reminders and timeouts; see the module docstring."""

    def __init__(self, service: GameService, store: Store, clock: Clock,
                 shards: Shards = ALL) -> None:
        self.service = service
        self.store = store
        self.clock = clock
        self.shards = shards
        """Only the games of these shards' guilds are this scheduler's."""
        self._silent: set[int] = set()
        """The other shards found silent at the last beat (each logged once)."""

    async def due(self) -> list[Event]:
        """Every stalled AI seat, missing post and stale lobby, the reminders and timeouts
        due now (oldest game first, until :data:`NOTICES_PER_ROUND` are found), and the games
        that cannot be scheduled (:class:`Broken`)."""
        now = self.clock.now()
        rows, damaged = await self.store.clock_rows(self.shards)
        events: list[Event] = [Broken(gid, reason) for gid, reason in damaged]
        events += [Unposted(gid) for gid in
                   await self.store.unposted_finals(now - UNPOSTED_SECONDS, self.shards)]
        if lobby_hours := self.service.core.limits.lobby_hours:
            events += [StaleLobby(gid) for gid in
                       await self.store.stale_lobbies(now - lobby_hours * HOUR, self.shards)]
        marks = await self.store.reminder_rows(r.game_id for r in rows)
        users = {s.user_id for r in rows for s in r.seats if s.user_id is not None}
        prefs = await self.store.notify_prefs(users)
        langs = await self.store.user_langs(u for u, dm in prefs.items() if dm)
        away = await self.store.away_until(users)
        banks = await self.store.banks(r.game_id for r in rows if r.settings.time_bank_hours)
        room = NOTICES_PER_ROUND
        for row in rows:
            try:
                found = await self._due_for(row, marks, (prefs, langs), away, banks, now,
                                             room > 0)
            except Exception as error:   # a game that cannot be scheduled stops only itself
                found = [Broken(row.game_id, f"{type(error).__name__}: {error}")]
            room -= sum(isinstance(e, Reminder | LimitWarning | Timeout) for e in found)
            events += found
        return events

    async def beat(self) -> list[ShardBeat]:
        """Record that the bot (and each of its shards) is up now; the other shards (of the
        same count) whose process has not beaten for :data:`DOWNTIME_SECONDS`, logged once
        when they fall silent."""
        now = self.clock.now()
        await self.store.beat_shards(self.shards.ids, self.shards.count, now, os.getpid())
        beats = {b.shard: b for b in await self.store.shard_beats()
                 if b.shards == self.shards.count}
        silent = [b for shard, b in beats.items()
                  if shard not in self.shards.ids and now - b.at > DOWNTIME_SECONDS]
        for beat in silent:
            if beat.shard not in self._silent:
                log.warning("shard %d/%d has not beaten for %.0f s (its process, pid %d, "
                            "is down?): its servers' games wait for it", beat.shard,
                            beat.shards, now - beat.at, beat.pid)
        self._silent = {b.shard for b in silent}
        return silent

    async def catch_up(self) -> float:
        """At start: move the clocks of the running games of this process's shards forward
        by the downtime since their last heartbeat (if longer than
        :data:`DOWNTIME_SECONDS`), and beat; the seconds moved."""
        now = self.clock.now()
        last = await self.store.last_beat(self.shards)
        if last is None or now - last <= DOWNTIME_SECONDS:
            await self.beat()
            return 0.0
        games = await self.store.shift_clocks(now - last, now, self.shards)
        await self.beat()
        self.service.core.forget_cached()
        log.warning("the bot was away %.1f h: the clocks of %d running game(s) moved forward",
                    (now - last) / HOUR, games)
        return now - last

    async def _due_for(self, row: ClockRow, marks: dict[tuple[int, Seat], ReminderRow],
                       users: tuple[dict[int, bool], dict[int, str]],
                       away_until: dict[int, float], banks: dict[tuple[int, Seat], float],
                       now: float, notices: bool) -> list[Event]:
        events: list[Event] = []
        for seat in row.active if notices else ():
            info = row.seats[seat]
            if info.user_id is None or info.resigned:
                continue
            since = row.since(seat)
            away = away_until.get(info.user_id, 0.0)
            if now < away:
                continue                      # away: their clocks wait for them
            start = max(since, away)          # back from being away: counted from the return
            mark = marks.get((row.game_id, seat))
            if mark is not None and mark.since != since:
                mark = None
            reminder = now >= self._next_reminder(row, seat, mark, start)
            limit = (row.settings.turn_limit_hours or 0) * HOUR
            if row.settings.time_bank_hours:        # the seat's bank is its limit
                limit = max(1.0, banks.get((row.game_id, seat),
                                           row.settings.time_bank_hours * HOUR))
            ends = start + limit
            timeout = bool(limit) and now >= ends and (
                mark is None or mark.timeout_since is None)
            warned = mark is not None and mark.warned_since is not None
            warning = (bool(limit) and row.settings.timeout_policy != "nothing" and not timeout
                       and now >= ends - min(limit * WARNING_SHARE, WARNING_HOURS * HOUR)
                       and not warned)
            reminder = reminder and not (warned or warning)   # the warning is the last nudge
            if not (reminder or timeout or warning):
                continue
            record = await self.service.core.get_by_id(row.game_id)
            if record is None or record.status != "running":
                continue
            user_id = info.user_id
            prefs, langs = users
            dm = prefs.get(user_id, row.settings.dm_reminders)
            lang = langs.get(user_id) if dm else None
            if reminder:
                count = (mark.count if mark else 0) + 1
                events.append(Reminder(record, seat, user_id, count, dm, since, lang))
            if warning:
                events.append(LimitWarning(record, seat, user_id, dm, since, ends, lang))
            if timeout:
                events.append(Timeout(record, seat, row.settings.timeout_policy, since,
                                      user_id))
        if any(row.since(s) + AI_STALL_SECONDS <= now and (
                row.seats[s].user_id is None or row.seats[s].resigned) for s in row.active):
            events.append(StalledAI(row.game_id))
        elif row.unposted and row.turn_started_at + UNPOSTED_SECONDS <= now:
            events.append(Unposted(row.game_id))
        return events

    @staticmethod
    def _next_reminder(row: ClockRow, seat: Seat, mark: ReminderRow | None,
                       start: float) -> float:
        first = start + row.settings.reminder_hours * HOUR
        if mark is None or mark.next_due_at is None:
            return first
        return mark.next_due_at if start == row.since(seat) else max(mark.next_due_at, first)

    async def mark_sent(self, event: Reminder | LimitWarning | Timeout) -> bool:
        """Record that ``event`` was delivered; False if it had already been marked."""
        game, now = event.game, self.clock.now()
        if isinstance(event, Timeout):
            return await self.store.mark_timeout(game.id, event.seat, event.since)
        if isinstance(event, LimitWarning):
            return await self.store.mark_warning(game.id, event.seat, event.since)
        interval = game.settings.reminder_hours * HOUR * 2**event.count
        return await self.store.mark_reminder(
            game.id, event.seat, event.since, event.count, now, now + interval
        )

    async def apply_timeout(self, event: Timeout) -> list[StepResult]:
        """Apply the timeout's policy and mark it sent.

        ``ai``: the AI plays the rest of that seat's turn (the player keeps the seat).
        ``vote_skip``: nothing is played; the other players may now use
        :meth:`bot.service.autoplay.Autoplay.vote_skip`. ``nothing``: the channel is only told.
        A timeout whose turn has moved on plays nothing.
        """
        steps: list[StepResult] = []
        if event.policy == "ai":
            steps = await self.service.autoplay.play_out_turn(event.game.id, event.seat,
                                                              event.since)
        await self.mark_sent(event)
        return steps
