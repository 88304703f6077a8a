"""Several bot processes on one database (``DINGIR_SHARDS``): each shard's heartbeat, and
the games a process moved for another.

A process beats for each shard it serves (:meth:`ProcessesMixin.beat_shards`), so the
shards whose process stopped are visible (:meth:`ProcessesMixin.shard_beats`). A process
that took a step of a game of another process's server (an interaction that reached it,
with the usual version check) notes the game in ``moved`` (:meth:`ProcessesMixin.note_moved`);
the process that serves the game reads the notes (:meth:`ProcessesMixin.moved_since`) and
posts what its channel must see. On PostgreSQL the note also wakes it at once (``NOTIFY``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.store.clocks import BEAT
from bot.store.commit import StoreCore, Tx

MOVED_KEPT_SECONDS = 3600.0
"""Notes older than this are dropped (the newest one always stays, to keep the count)."""
CHANNEL = "dingir_moved"
"""PostgreSQL's channel of the notes (the payload is the game's id)."""


@dataclass(frozen=True)
class ShardBeat:
    """When the process serving ``shard`` (of ``shards``) last beat, and its pid."""

    shard: int
    shards: int
    at: float
    pid: int


class ProcessesMixin(StoreCore):
    """Shard heartbeats and moved-game notes of :class:`~bot.store.Store`."""

    async def beat_shards(self, shards: Sequence[int], count: int, now: float,
                          pid: int) -> None:
        """Record that process ``pid``, serving ``shards`` of ``count``, is up at ``now``
        (and the bot's heartbeat, in the same write)."""
        async with self._guard() as conn:
            await conn.execute(BEAT, (now,))
            await conn.executemany(
                "INSERT INTO shard_beats (shard, shards, at, pid) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (shards, shard) DO UPDATE SET at = excluded.at,"
                " pid = excluded.pid", [(shard, count, now, pid) for shard in shards])

    async def shard_beats(self) -> list[ShardBeat]:
        """Every shard's last beat, by count of shards and shard."""
        rows = await self._fetchall(
            "SELECT shard, shards, at, pid FROM shard_beats ORDER BY shards, shard")
        return [ShardBeat(int(s), int(n), float(at), int(pid)) for s, n, at, pid in rows]

    async def note_moved(self, game_id: int, now: float) -> None:
        """Note that ``game_id`` moved in this process though another serves it."""
        async with self._transaction() as conn:
            await conn.execute("INSERT INTO moved (game_id, at) VALUES (?, ?)", (game_id, now))
            await conn.execute(
                "DELETE FROM moved WHERE at < ? AND seq < (SELECT MAX(seq) FROM moved)",
                (now - MOVED_KEPT_SECONDS,))
            await self._wake(conn, game_id)

    async def moved_since(self, seq: int | None) -> tuple[int, list[int]]:
        """The newest note's number and the games noted after ``seq`` (None: from now on,
        no game)."""
        if seq is None:
            rows = await self._fetchall("SELECT MAX(seq) FROM moved")
            return int(rows[0][0] or 0), []
        rows = await self._fetchall("SELECT seq, game_id FROM moved WHERE seq > ? ORDER BY seq",
                                    (seq,))
        return (int(rows[-1][0]) if rows else seq), list(dict.fromkeys(int(r[1]) for r in rows))

    async def other_leases(self) -> list[tuple[int, str]]:
        """The shards whose lease another process holds, with its pid (PostgreSQL; a
        SQLite file's are lock files, :func:`bot.instance.every_shard`)."""
        return []

    async def fence(self) -> None:
        """Keep every bot out of this database until the store is closed, or raise
        AlreadyRunning when one runs (PostgreSQL; a SQLite file is fenced by
        :func:`bot.instance.hold` with ``copying``)."""

    async def listen(self, woken: Callable[[], None]) -> bool:
        """Call ``woken`` whenever another process notes a game (True), or False when this
        database cannot tell (SQLite: poll :meth:`moved_since`)."""
        return False

    async def _wake(self, conn: Tx, game_id: int) -> None:
        """Wake the other processes (PostgreSQL's NOTIFY; SQLite's poll)."""
