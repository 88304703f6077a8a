"""The scheduler's part: the clocks of running games, reminders, warnings, timeouts,
time banks and skip votes, and the heartbeat that moves every clock past a downtime.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from bot.engine import Seat
from bot.records import Waiting
from bot.shards import ALL, Shards
from bot.store.commit import StoreCore
from bot.store.rows import (
    ClockRow,
    ReminderRow,
    _seats,
    settings_from_json,
    waiting_from_json,
    waiting_json,
)

BEAT = ("INSERT INTO heartbeat (id, at) VALUES (1, ?)"
        " ON CONFLICT (id) DO UPDATE SET at = excluded.at")
"""The bot's heartbeat (written with each beat of its shards, :mod:`.processes`)."""


class ClocksMixin(StoreCore):
    """Clocks, reminders, banks and votes of :class:`~bot.store.Store`."""

    async def clock_rows(self, shards: Shards = ALL
                         ) -> tuple[list[ClockRow], list[tuple[int, str]]]:
        """Timing facts of every running game (of the guilds of ``shards``), for the
        scheduler, and the games whose row cannot be read (game id, what is wrong): one
        damaged row never hides the others."""
        rows = await self._fetchall(
            f"SELECT id, settings, active, turn_started_at, {self.dialect.seat_rows}, waiting,"
            f" posted_turn < turn FROM games WHERE status = 'running'{shards.sql()} ORDER BY id"
        )
        found, broken = [], []
        for gid, settings, active, started, seats, waiting, unposted in rows:
            try:
                found.append(ClockRow(gid, settings_from_json(settings), json.loads(active),
                                      float(started), _seats(seats), waiting_from_json(waiting),
                                      bool(unposted)))
            except (ValueError, TypeError, KeyError) as error:
                broken.append((gid, f"{type(error).__name__}: {error}"))
        return found, broken

    async def quarantine(self, game_id: int) -> tuple[int, int] | None:
        """Pause a running game whose row is damaged (without reading the rest of it); its
        creator and channel, or None if it was not running."""
        async with self._guard() as conn:
            rows = await conn.execute_fetchall(
                "UPDATE games SET status = 'paused' WHERE id = ? AND status = 'running'"
                " RETURNING creator_id, channel_id", (game_id,))
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    # -- downtime -------------------------------------------------------------------------

    async def last_beat(self, shards: Shards = ALL) -> float | None:
        """When the process of ``shards`` was last known to be up: the oldest of their
        beats, or the bot's last beat when one of them never beat (None for a new
        database)."""
        ids = ", ".join(map(str, shards.ids))
        rows = await self._fetchall(
            f"SELECT MIN(at), COUNT(*) FROM shard_beats WHERE shards = ? AND shard IN ({ids})",
            (shards.count,))
        if rows and int(rows[0][1]) == len(shards.ids):
            return float(rows[0][0])
        rows = await self._fetchall("SELECT at FROM heartbeat WHERE id = 1")
        return float(rows[0][0]) if rows else None

    async def shift_clocks(self, seconds: float, now: float, shards: Shards = ALL) -> int:
        """Move every clock of the running games (of the guilds of ``shards``) ``seconds``
        forward (turns, decisions, reminders, skip votes) and beat at ``now``, in one
        transaction; the number of games shifted."""
        async with self._transaction() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT id, waiting FROM games WHERE status = 'running'{shards.sql()}")
            for gid, waiting in rows:
                try:
                    moved = {seat: Waiting(w.version, w.since + seconds)
                             for seat, w in waiting_from_json(waiting).items()}
                except (ValueError, TypeError, AttributeError):
                    continue      # a damaged row: the scheduler quarantines it
                await conn.execute(
                    "UPDATE games SET turn_started_at = turn_started_at + ?, waiting = ?"
                    " WHERE id = ?", (seconds, waiting_json(moved), gid))
            running = f"game_id IN (SELECT id FROM games WHERE status = 'running'{shards.sql()})"
            await conn.execute(
                "UPDATE reminders SET since = since + ?, last_sent_at = last_sent_at + ?,"
                " next_due_at = next_due_at + ?, timeout_since = timeout_since + ?,"
                " warned_since = warned_since + ?"
                f" WHERE {running}", (seconds,) * 5)
            await conn.execute(f"UPDATE skip_votes SET since = since + ? WHERE {running}",
                               (seconds,))
            await conn.execute(BEAT, (now,))
        return len(rows)

    # -- reminders and votes --------------------------------------------------------------

    async def reminder_rows(self, game_ids: Iterable[int]) -> dict[tuple[int, Seat], ReminderRow]:
        """Reminder rows of ``game_ids`` keyed by (game id, seat)."""
        rows = await self._fetchall_in(
            "SELECT game_id, seat, since, count, last_sent_at, next_due_at, timeout_since,"
            " warned_since FROM reminders WHERE game_id IN ({marks})", game_ids)
        return {(r[0], r[1]): ReminderRow(*r) for r in rows}

    async def mark_reminder(
        self, game_id: int, seat: Seat, since: float, count: int, sent_at: float, next_due: float
    ) -> bool:
        """Record reminder number ``count`` of the stretch ``since``; False if it (or a later
        one) was already recorded."""
        async with self._guard() as conn:
            count = await conn.execute(
                "INSERT INTO reminders (game_id, seat, since, count, last_sent_at, next_due_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET"
                " timeout_since = CASE WHEN reminders.since = excluded.since"
                "   THEN reminders.timeout_since END,"
                " warned_since = CASE WHEN reminders.since = excluded.since"
                "   THEN reminders.warned_since END,"
                " since = excluded.since, count = excluded.count,"
                " last_sent_at = excluded.last_sent_at, next_due_at = excluded.next_due_at"
                " WHERE reminders.since != excluded.since OR reminders.count = excluded.count - 1",
                (game_id, seat, since, count, sent_at, next_due),
            )
            return count == 1

    async def mark_timeout(self, game_id: int, seat: Seat, since: float) -> bool:
        """Record that the timeout of the stretch ``since`` was handled; False if it was."""
        return await self._claim("timeout_since", game_id, seat, since)

    async def mark_warning(self, game_id: int, seat: Seat, since: float) -> bool:
        """Claim the warning before the time limit of the stretch ``since``; False if it
        was claimed already."""
        return await self._claim("warned_since", game_id, seat, since)

    async def _claim(self, column: str, game_id: int, seat: Seat, since: float) -> bool:
        """Set ``column`` (timeout_since or warned_since) to ``since`` unless it is set for
        that stretch already (a new stretch resets the other marks); True if it was set."""
        others = [c for c in ("last_sent_at", "next_due_at", "timeout_since", "warned_since")
                  if c != column]
        kept = "".join(f" {c} = CASE WHEN reminders.since = excluded.since"
                       f" THEN reminders.{c} END," for c in others)
        async with self._guard() as conn:
            count = await conn.execute(
                f"INSERT INTO reminders (game_id, seat, since, count, {column})"
                " VALUES (?, ?, ?, 0, ?) ON CONFLICT (game_id, seat) DO UPDATE SET"
                " count = CASE WHEN reminders.since = excluded.since"
                f"   THEN reminders.count ELSE 0 END,{kept}"
                f" since = excluded.since, {column} = excluded.since"
                f" WHERE reminders.since != excluded.since OR reminders.{column} IS NULL",
                (game_id, seat, since, since),
            )
            return count == 1

    async def banks(self, game_ids: Iterable[int]) -> dict[tuple[int, Seat], float]:
        """The seconds left in each seat's time bank of ``game_ids`` (seats that spent
        nothing yet are missing: their bank is full)."""
        rows = await self._fetchall_in(
            "SELECT game_id, seat, remaining FROM banks WHERE game_id IN ({marks})", game_ids)
        return {(int(g), int(seat)): float(left) for g, seat, left in rows}

    async def set_banks(self, game_id: int, remaining: Mapping[Seat, float]) -> None:
        """Keep the seconds left in the banks of ``game_id``'s seats."""
        async with self._guard() as conn:
            await conn.executemany(
                "INSERT INTO banks (game_id, seat, remaining) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id, seat) DO UPDATE SET remaining = excluded.remaining",
                [(game_id, seat, left) for seat, left in remaining.items()])

    async def add_skip_vote(self, game_id: int, since: float, seat: Seat, voter_id: int) -> int:
        """Record a vote to skip ``seat``'s stretch starting at ``since``; returns the votes."""
        async with self._guard() as conn:
            await conn.execute(
                "INSERT INTO skip_votes (game_id, since, seat, voter_id)"
                " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (game_id, since, seat, voter_id),
            )
            rows = await conn.execute_fetchall(
                "SELECT COUNT(*) FROM skip_votes WHERE game_id = ? AND since = ? AND seat = ?",
                (game_id, since, seat),
            )
            return int(rows[0][0])
